// StreamJsonObject's EntryParsing::kAhead, which parses the entries of "data" a few 1 MB batches ahead
// of their calls: the same calls in the same order, and the same first error, as kInline, over
// enough entries that the batches wrap around their ring several times. And the entries located by
// OutlineJsonObject, then parsed by ParseJsonSpans: the same entries again.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "msprobe/dump/text/json_file.h"
#include "msprobe/dump/text/python_format.h"
#include "test_support.h"

namespace msprobe {
namespace {

constexpr std::array<EntryParsing, 2> kBoth = {EntryParsing::kInline, EntryParsing::kAhead};

// An entry's key and value as text and as PythonStr shows what the parse makes of them, with {} for
// the entry's number: the odd cases of a dump.json's entries. (A repeated key stays in the value, and
// shows twice; Member() reads the last, as json.load does.)
struct EntryKind {
  std::string_view key, shown_key, value, shown_value;
};
constexpr std::array<EntryKind, 6> kKinds = {{
    {R"("Functional.linear.{}.forward")", "Functional.linear.{}.forward",
     R"({"input_args": [{"type": "torch.Tensor", "Max": NaN, "Min": -Infinity, "Mean": Infinity}]})",
     "{'input_args': [{'type': 'torch.Tensor', 'Max': nan, 'Min': -inf, 'Mean': inf}]}"},
    {R"("braces }} {{ and \"quotes\" {}")", R"(braces }} {{ and "quotes" {})", R"({"s": "}, \"a\": {", "t": "\\\"}"})",
     R"({'s': '}, "a": {', 't': '\\"}'})"},
    {R"("dup.{}")", "dup.{}", R"({"a": 1, "a": {"b": [[], {}, [{"c": null}]]}})",
     "{'a': 1, 'a': {'b': [[], {}, [{'c': None}]]}}"},
    {R"("esc\u00e9\n.{}")", "esc\u00e9\n.{}", R"("\u00e9\t\/")", "\u00e9\t/"},
    {R"("n.{}")", "n.{}", R"([1e308, -0.0, 18446744073709551615, true, false])",
     "[1e+308, -0.0, 18446744073709551615, True, False]"},
    {R"("e.{}")", "e.{}", "{}", "{}"},
}};

// The text of a dump with `entries` entries in "data" (members before and after it), and the log
// of the calls expected: one line per member or entry.
struct Fixture {
  std::string text;
  std::vector<std::string> log;
  std::vector<size_t> entry_at;  // the byte where each entry's key starts
};
Fixture MakeFixture(size_t entries) {
  Fixture f;
  f.text = R"({"task": "statistics", "data": {)";
  f.log = {"member task statistics", "member data {}"};
  for (size_t i = 0; i < entries; ++i) {
    const EntryKind& kind = kKinds[i % kKinds.size()];
    if (i > 0) f.text += i % 2 ? ",\n  " : ", ";
    f.entry_at.push_back(f.text.size());
    f.text += fmt::format(fmt::runtime(kind.key), i) + ": " + std::string(kind.value);
    f.log.push_back(fmt::format("entry {} {}", fmt::format(fmt::runtime(kind.shown_key), i), kind.shown_value));
  }
  f.text += R"(}, "level": "L1"})";
  f.log.push_back("member level L1");
  return f;
}

// Streams `text` and logs the calls; refuses the entry named `refuse`.
Status Stream(std::string_view text, EntryParsing parsing, std::vector<std::string>* log,
              std::string_view refuse = "") {
  const auto line = [&](const char* what) {
    return [=](std::string_view key, const JsonValue& value) {
      if (key == refuse) return Status::InvalidInput("visitor", fmt::format("refused {}", key));
      log->push_back(fmt::format("{} {} {}", what, key, PythonStr(value)));
      return Status::Ok();
    };
  };
  return StreamJsonObject(text, "x/dump.json", "data", line("member"), line("entry"), parsing);
}

// 110,000 entries are about 6.9 MB of text: seven batches, twice round the ring of three.
TEST(JsonStreamAheadTest, GivesEveryEntryInOrder) {
  const Fixture f = MakeFixture(110000);
  ASSERT_GT(f.text.size(), size_t{6} << 20);
  for (EntryParsing parsing : kBoth) {
    std::vector<std::string> log;
    const Status st = Stream(f.text, parsing, &log);
    ASSERT_TRUE(st.ok()) << st.ToString();
    EXPECT_EQ(log, f.log);
  }
}

// A malformed entry late in the text, several batches in: the entries before it, then its error.
TEST(JsonStreamAheadTest, StopsAtTheFirstMalformedEntry) {
  const Fixture f = MakeFixture(110000);
  const size_t bad = 100001;
  const std::vector<std::string> before(f.log.begin(), f.log.begin() + 2 + bad);
  struct Case {
    std::string text, message;
  };
  const size_t at = f.entry_at[bad];
  const std::vector<Case> cases = {
      {f.text.substr(0, at) + "1: 2" + f.text.substr(at + 1),
       fmt::format("invalid JSON at byte {}: an object key is not a string", at + 1)},
      {f.text.substr(0, at) + R"("k" 1, )" + f.text.substr(at),
       fmt::format("invalid JSON at byte {}: expected ':'", at + 4)},
      {f.text.substr(0, at) + R"("k": [1, 2}, )" + f.text.substr(at),
       fmt::format("invalid JSON at byte {}: Missing a comma or ']' after an array element.", at + 10)},
      {f.text.substr(0, at) + R"("k": Nan, )" + f.text.substr(at),
       fmt::format("invalid JSON at byte {}: Invalid value.", at + 7)},  // at the "n" of "Nan"
      {f.text.substr(0, at) + "}", fmt::format("invalid JSON at byte {}: The document is empty.", at)},
      // A UTF-8 BOM right where a value or a key starts: json.load refuses it there, and so do we.
      {f.text.substr(0, at) + "\"k\":\xEF\xBB\xBF" "1, " + f.text.substr(at),
       fmt::format("invalid JSON at byte {}: Invalid value.", at + 4)},
      {f.text.substr(0, at - 3) + "\xEF\xBB\xBF" + f.text.substr(at),  // `bad` is odd: ",\n  " before it
       fmt::format("invalid JSON at byte {}: Invalid value.", at - 3)},
      {f.text.substr(0, at - 4),  // `bad` is odd: ",\n  " before it
       fmt::format("invalid JSON at byte {}: expected '}}' before the end of the file", at - 4)},
  };
  for (const Case& c : cases) {
    for (EntryParsing parsing : kBoth) {
      std::vector<std::string> log;
      const Status st = Stream(c.text, parsing, &log);
      EXPECT_EQ(st.code(), Code::kInvalidInput);
      EXPECT_EQ(st.source(), "x/dump.json");
      EXPECT_EQ(st.message(), c.message);
      EXPECT_EQ(log, before) << c.message;
    }
  }
}

// An entry refused by its call ends the stream there, even when the text after it, already parsed
// ahead, is malformed: the first error in text order wins.
TEST(JsonStreamAheadTest, ACallsErrorComesBeforeALaterParseError) {
  const Fixture f = MakeFixture(30000);
  const size_t refused = 20000, bad = 20010;  // within the batch after the refused entry's
  const std::string text = f.text.substr(0, f.entry_at[bad]) + "}";
  const std::vector<std::string> before(f.log.begin(), f.log.begin() + 2 + refused);
  for (EntryParsing parsing : kBoth) {
    std::vector<std::string> log;
    const Status st = Stream(text, parsing, &log, fmt::format("dup.{}", refused));
    EXPECT_EQ(st.ToString(), "visitor: refused dup.20000");
    EXPECT_EQ(log, before);
  }
}

// OutlineJsonObject finds each entry's value by its strings and brackets alone; ParseJsonSpans then
// parses any of them as the stream does, errors at the same bytes.
std::vector<JsonMemberSpan> Outline(std::string_view text, std::vector<std::string>* log, Status* status) {
  std::vector<JsonMemberSpan> spans;
  *status = OutlineJsonObject(
      text, "x/dump.json", "data",
      [&](std::string_view key, const JsonValue& value) {
        log->push_back(fmt::format("member {} {}", key, PythonStr(value)));
        return Status::Ok();
      },
      [&](JsonMemberSpan span) {
        spans.push_back(std::move(span));
        return Status::Ok();
      });
  return spans;
}

Status ParseSpans(std::string_view text, const std::vector<JsonMemberSpan>& spans, std::vector<std::string>* log) {
  return ParseJsonSpans(text, "x/dump.json", spans, [&](std::string_view key, const JsonValue& value) {
    log->push_back(fmt::format("entry {} {}", key, PythonStr(value)));
    return Status::Ok();
  });
}

TEST(JsonOutlineTest, LocatesEveryEntryAndParsesAnyOfThem) {
  const Fixture f = MakeFixture(110000);
  std::vector<std::string> members;
  Status st;
  const std::vector<JsonMemberSpan> spans = Outline(f.text, &members, &st);
  ASSERT_TRUE(st.ok()) << st.ToString();
  EXPECT_EQ(members, std::vector<std::string>({"member task statistics", "member data {}", "member level L1"}));
  ASSERT_EQ(spans.size(), 110000u);
  for (size_t i = 0; i < kKinds.size(); ++i) {
    EXPECT_EQ(spans[i].key, fmt::format(fmt::runtime(kKinds[i].shown_key), i));
    EXPECT_EQ(f.text.substr(spans[i].begin, spans[i].end - spans[i].begin), kKinds[i].value);
  }
  std::vector<std::string> entries;
  st = ParseSpans(f.text, spans, &entries);
  ASSERT_TRUE(st.ok()) << st.ToString();
  EXPECT_EQ(entries, std::vector<std::string>(f.log.begin() + 2, f.log.end() - 1));
  // Some of them, out of order: each as the stream gives it.
  const std::vector<JsonMemberSpan> some = {spans[100003], spans[7], spans[50000]};
  entries.clear();
  ASSERT_TRUE(ParseSpans(f.text, some, &entries).ok());
  EXPECT_EQ(entries, std::vector<std::string>({f.log[2 + 100003], f.log[2 + 7], f.log[2 + 50000]}));
}

TEST(JsonOutlineTest, AMalformedValueFailsWhereItIsParsed) {
  const Fixture f = MakeFixture(1000);
  const size_t at = f.entry_at[501];
  const std::string text = f.text.substr(0, at) + R"("k": [1, 2}, )" + f.text.substr(at);
  std::vector<std::string> members;
  Status st;
  const std::vector<JsonMemberSpan> spans = Outline(text, &members, &st);
  ASSERT_TRUE(st.ok()) << st.ToString();  // its brackets balance
  ASSERT_EQ(spans[501].key, "k");
  std::vector<std::string> entries;
  st = ParseSpans(text, {spans[501]}, &entries);
  EXPECT_EQ(st.ToString(), fmt::format("x/dump.json: invalid JSON at byte {}: Missing a comma or ']' after an array "
                                       "element.", at + 10));
  // What the outline itself refuses: an unclosed string, a value that never ends, a bracket alone.
  for (const std::string& bad : {f.text.substr(0, at) + R"("k": "open)", f.text.substr(0, at) + R"("k": [1, {)",
                                 f.text.substr(0, at) + R"("k": ], )" + f.text.substr(at)}) {
    members.clear();
    Outline(bad, &members, &st);
    EXPECT_EQ(st.code(), Code::kInvalidInput) << bad.substr(at);
    EXPECT_NE(st.message().find("invalid JSON at byte"), std::string::npos) << st.ToString();
  }
  // A span that does not hold one whole value.
  JsonMemberSpan cut = spans[3];
  cut.end -= 1;
  EXPECT_EQ(ParseSpans(f.text, {cut}, &entries).code(), Code::kInvalidInput);
  cut.end = f.text.size() + 1;
  EXPECT_EQ(ParseSpans(f.text, {cut}, &entries).code(), Code::kInvalidInput);
}

}  // namespace
}  // namespace msprobe
