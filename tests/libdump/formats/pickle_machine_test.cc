#include "msprobe/dump/formats/pickle_machine.h"

#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include <string>

#include "libdump/pt_test_support.h"
#include "msprobe/dump/formats/zip_archive.h"
#include "test_support.h"

namespace msprobe {
namespace {

using testing::ReadFile;
using testing::TestData;
using testing::View;

std::string FromHex(const std::string& hex) {
  std::string out;
  for (size_t i = 0; i + 1 < hex.size(); i += 2) out.push_back(static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16)));
  return out;
}

// Compares a value of the tree with the tagged JSON form written by gen_pt_fixtures.py.
void ExpectSame(const PickleTree& tree, PickleRef ref, const rapidjson::Value& want, const std::string& where) {
  const PickleValue& v = tree.at(ref);
  ASSERT_TRUE(want.IsObject() && want.MemberCount() == 1) << where;
  const std::string tag = want.MemberBegin()->name.GetString();
  const rapidjson::Value& body = want.MemberBegin()->value;
  if (tag == "n") {
    EXPECT_EQ(v.kind, PickleKind::kNone) << where;
  } else if (tag == "b") {
    ASSERT_EQ(v.kind, PickleKind::kBool) << where;
    EXPECT_EQ(v.boolean, body.GetBool()) << where;
  } else if (tag == "i") {
    ASSERT_EQ(v.kind, PickleKind::kInt) << where;
    EXPECT_EQ(v.integer, body.IsInt64() ? body.GetInt64() : static_cast<int64_t>(body.GetUint64())) << where;
  } else if (tag == "f") {
    ASSERT_EQ(v.kind, PickleKind::kFloat) << where;
    EXPECT_EQ(v.real, body.GetDouble()) << where;
  } else if (tag == "s") {
    ASSERT_EQ(v.kind, PickleKind::kString) << where;
    EXPECT_EQ(v.text, body.GetString()) << where;
  } else if (tag == "t" || tag == "l") {
    ASSERT_EQ(v.kind, tag == "t" ? PickleKind::kTuple : PickleKind::kList) << where;
    ASSERT_EQ(v.items.size(), body.Size()) << where;
    for (rapidjson::SizeType i = 0; i < body.Size(); ++i) ExpectSame(tree, v.items[i], body[i], where + "/" + tag);
  } else if (tag == "d") {
    ASSERT_EQ(v.kind, PickleKind::kDict) << where;
    ASSERT_EQ(v.items.size(), 2 * body.Size()) << where;
    for (rapidjson::SizeType i = 0; i < body.Size(); ++i) {
      ExpectSame(tree, v.items[2 * i], body[i][0], where + "/key");
      ExpectSame(tree, v.items[2 * i + 1], body[i][1], where + "/value");
    }
  } else {
    FAIL() << "unknown tag " << tag;
  }
}

TEST(PickleMachineTest, PythonPicklesOfProtocolsZeroToTwo) {
  const std::string json = ReadFile(TestData("pt/pickle_cases.json"));
  rapidjson::Document doc;
  doc.Parse<rapidjson::kParseFullPrecisionFlag>(json.c_str());
  ASSERT_TRUE(doc.IsArray());
  ASSERT_GT(doc.Size(), 90u);
  for (const rapidjson::Value& c : doc.GetArray()) {
    const std::string hex = c["hex"].GetString();
    const std::string bytes = FromHex(hex);
    const std::string where = "protocol " + std::to_string(c["protocol"].GetInt()) + " " + hex;
    Result<PickleTree> tree = Unpickle(View(bytes), "case");
    ASSERT_TRUE(tree.ok()) << where << ": " << tree.status().ToString();
    EXPECT_EQ(tree->end_offset(), bytes.size()) << where;
    ExpectSame(*tree, tree->root(), c["value"], where);
  }
}

TEST(PickleMachineTest, TorchTensorPickle) {
  const std::string file = ReadFile(TestData("pt/view.pt"));
  Result<ZipArchive> zip = ZipArchive::Open(View(file), "view.pt");
  ASSERT_TRUE(zip.ok());
  Result<Bytes> pkl = zip->Data(*zip->Find("view/data.pkl"));
  ASSERT_TRUE(pkl.ok());
  Result<PickleTree> tree = Unpickle(*pkl, "view.pt");
  ASSERT_TRUE(tree.ok()) << tree.status().ToString();
  const PickleValue& root = tree->at(tree->root());
  ASSERT_EQ(root.kind, PickleKind::kReduce);
  EXPECT_TRUE(tree->IsGlobal(root.items[0], "torch._utils", "_rebuild_tensor_v2"));
  const PickleValue& args = tree->at(root.items[1]);
  ASSERT_EQ(args.kind, PickleKind::kTuple);
  ASSERT_EQ(args.items.size(), 6u);
  const PickleValue& persid = tree->at(args.items[0]);
  ASSERT_EQ(persid.kind, PickleKind::kPersistentId);
  const PickleValue& pid = tree->at(persid.items[0]);
  ASSERT_EQ(pid.items.size(), 5u);
  EXPECT_EQ(tree->at(pid.items[0]).text, "storage");
  EXPECT_TRUE(tree->IsGlobal(pid.items[1], "torch", "FloatStorage"));
  EXPECT_EQ(tree->at(pid.items[2]).text, "0");
  EXPECT_EQ(tree->at(pid.items[3]).text, "cpu");
  EXPECT_EQ(tree->at(pid.items[4]).integer, 12);  // base.storage().size() of the view
  EXPECT_EQ(tree->at(args.items[1]).integer, 5);  // storage offset
  EXPECT_EQ(tree->Describe(args.items[2]), "tuple of 2 items");
  EXPECT_EQ(tree->Describe(args.items[5]), "call to collections.OrderedDict");
  EXPECT_EQ(tree->end_offset(), pkl->size());
}

TEST(PickleMachineTest, MemoSharesOneValue) {
  // pickle.dumps([a, a], 2) with a = [1]: the second item is BINGET 1.
  const std::string bytes("\x80\x02]q\x00(]q\x01K\x01" "ah\x01" "e.", 16);
  Result<PickleTree> tree = Unpickle(View(bytes), "memo");
  ASSERT_TRUE(tree.ok()) << tree.status().ToString();
  const PickleValue& root = tree->at(tree->root());
  ASSERT_EQ(root.items.size(), 2u);
  EXPECT_EQ(root.items[0], root.items[1]);
}

TEST(PickleMachineTest, SelfReferencingListIsHarmless) {
  // l = []; l.append(l); pickle.dumps(l, 2)
  const std::string bytes("\x80\x02]q\x00h\x00" "a.", 9);
  Result<PickleTree> tree = Unpickle(View(bytes), "cycle");
  ASSERT_TRUE(tree.ok()) << tree.status().ToString();
  const PickleValue& root = tree->at(tree->root());
  ASSERT_EQ(root.items.size(), 1u);
  EXPECT_EQ(root.items[0], tree->root());
  EXPECT_EQ(tree->Describe(tree->root()), "list of 1 item");
}

TEST(PickleMachineTest, StopsAtFirstStop) {
  const std::string bytes("\x80\x02K\x07.\x80\x02N.", 9);
  Result<PickleTree> tree = Unpickle(View(bytes), "two");
  ASSERT_TRUE(tree.ok());
  EXPECT_EQ(tree->at(tree->root()).integer, 7);
  EXPECT_EQ(tree->end_offset(), 5u);
}

TEST(PickleMachineTest, TruncatedPickle) {
  const std::string bytes("\x80\x02X\x10\x00\x00\x00" "abc", 10);
  EXPECT_STATUS(Unpickle(View(bytes), "t"), Code::kInvalidInput,
                "pickle opcode BINUNICODE (0x58) at offset 2: argument needs 16 bytes, 3 left");
  EXPECT_STATUS(Unpickle(View(std::string("\x80\x02K\x01", 4)), "t"), Code::kInvalidInput,
                "pickle ends at offset 4 without a STOP opcode");
}

TEST(PickleMachineTest, UnknownOpcode) {
  EXPECT_STATUS(Unpickle(View(std::string("\x80\x02\xff.", 4)), "u"), Code::kInvalidInput,
                "pickle opcode 0xff at offset 2: unknown opcode");
  EXPECT_STATUS(Unpickle(View(std::string("\x80\x02\x8c\x01" "a.", 6)), "u"), Code::kInvalidInput,
                "pickle opcode SHORT_BINUNICODE (0x8c) at offset 2: opcode not supported");
}

TEST(PickleMachineTest, ProtocolAboveTwoIsUnsupported) {
  EXPECT_STATUS(Unpickle(View(std::string("\x80\x04N.", 4)), "p"), Code::kUnsupported, "pickle protocol 4 at offset 0");
}

TEST(PickleMachineTest, MemoIndexOutOfRange) {
  EXPECT_STATUS(Unpickle(View(std::string("\x80\x02Nq\x00h\x05.", 8)), "m"), Code::kInvalidInput,
                "pickle opcode BINGET (0x68) at offset 5: memo index 5 is not set (1 set)");
  EXPECT_STATUS(Unpickle(View(std::string("\x80\x02j\xff\xff\xff\xff.", 8)), "m"), Code::kInvalidInput,
                "memo index 4294967295 is not set");
}

TEST(PickleMachineTest, DeepNesting) {
  std::string nested = "\x80\x02)";
  nested += std::string(100, '\x85');  // TUPLE1 around the previous value, 100 times
  nested += ".";
  EXPECT_STATUS(Unpickle(View(nested), "deep"), Code::kInvalidInput,
                "pickle opcode TUPLE1 (0x85) at offset 66: values nested deeper than 64");
  const std::string marks = "\x80\x02" + std::string(1000, '(');
  EXPECT_STATUS(Unpickle(View(marks), "marks"), Code::kInvalidInput, "more than 64 MARKs open");
  // A list appended to itself again and again grows deeper each time.
  std::string grow("\x80\x02]q\x00", 5);
  for (int i = 0; i < 100; ++i) grow += std::string("h\x00" "a", 3);
  grow += ".";
  EXPECT_STATUS(Unpickle(View(grow), "grow"), Code::kInvalidInput, "values nested deeper than 64");
}

TEST(PickleMachineTest, TooManyValues) {
  std::string many = "\x80\x02(";
  for (int i = 0; i < 20; ++i) many += "N";
  many += "l.";
  PickleLimits limits;
  limits.max_values = 10;
  EXPECT_STATUS(Unpickle(View(many), "many", limits), Code::kInvalidInput,
                "pickle opcode NONE (0x4e) at offset 13: more than 10 values");
  EXPECT_TRUE(Unpickle(View(many), "many").ok());
}

TEST(PickleMachineTest, StackUnderflow) {
  EXPECT_STATUS(Unpickle(View(std::string("\x80\x02NR.", 5)), "s"), Code::kInvalidInput,
                "pickle opcode REDUCE (0x52) at offset 3: needs 2 values on the stack, 1 there");
  EXPECT_STATUS(Unpickle(View(std::string("\x80\x02N(R.", 6)), "s"), Code::kInvalidInput,
                "needs 2 values on the stack, 0 above the mark");
  EXPECT_STATUS(Unpickle(View(std::string("\x80\x02t.", 4)), "s"), Code::kInvalidInput,
                "pickle opcode TUPLE (0x74) at offset 2: no MARK is open");
  EXPECT_STATUS(Unpickle(View(std::string("\x80\x02.", 3)), "s"), Code::kInvalidInput,
                "pickle opcode STOP (0x2e) at offset 2: the stack is empty");
}

TEST(PickleMachineTest, AppendToNonList) {
  EXPECT_STATUS(Unpickle(View(std::string("\x80\x02K\x01K\x02" "a.", 8)), "a"), Code::kInvalidInput,
                "pickle opcode APPEND (0x61) at offset 6: target is a int 1, not a list");
  EXPECT_STATUS(Unpickle(View(std::string("\x80\x02}K\x01s.", 7)), "s"), Code::kInvalidInput,
                "needs 3 values on the stack, 2 there");
}

TEST(PickleMachineTest, LongTooLargeForInt64) {
  // The legacy .pt magic number 0x1950a86a20f9469cfc6c is a 10-byte LONG1.
  const std::string legacy("\x80\x02\x8a\x0a\x6c\xfc\x9c\x46\xf9\x20\x6a\xa8\x50\x19.", 15);
  EXPECT_STATUS(Unpickle(View(legacy), "l"), Code::kInvalidInput,
                "pickle opcode LONG1 (0x8a) at offset 2: integer of 10 bytes does not fit in int64");
  // 2**63 needs 9 bytes (a zero sign byte) and does not fit either.
  const std::string two63("\x80\x02\x8a\x09\x00\x00\x00\x00\x00\x00\x00\x80\x00.", 14);
  EXPECT_STATUS(Unpickle(View(two63), "l"), Code::kInvalidInput, "integer of 9 bytes does not fit in int64");
}

}  // namespace
}  // namespace msprobe
