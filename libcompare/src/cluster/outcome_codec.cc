#include "cluster/outcome_codec_internal.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <utility>

#include "cluster/byte_codec_internal.h"

using nlohmann::json;

// std::optional as null or its value (nlohmann_json 3.11 has no serializer of its own for it).
namespace nlohmann {
template <class T>
struct adl_serializer<std::optional<T>> {
  static void to_json(json& j, const std::optional<T>& v) {
    if (v) j = *v; else j = nullptr;
  }
  static void from_json(const json& j, std::optional<T>& v) {
    if (j.is_null()) v.reset(); else v = j.get<T>();
  }
};
}  // namespace nlohmann

namespace msprobe::compare {

void to_json(json& j, const Cell& c) {
  j = json::array({static_cast<int>(c.kind())});
  switch (c.kind()) {
    case Cell::Kind::kText: j.push_back(c.text()); break;
    case Cell::Kind::kFloat: j.push_back(c.number()); break;
    case Cell::Kind::kInt:
    case Cell::Kind::kBool: j.push_back(c.integer()); break;
  }
}
void from_json(const json& j, Cell& c) {
  switch (static_cast<Cell::Kind>(j.at(0).get<int>())) {
    case Cell::Kind::kText: c = Cell::Text(j.at(1).get<std::string>()); break;
    case Cell::Kind::kFloat: c = Cell::Float(j.at(1).get<double>()); break;
    case Cell::Kind::kInt: c = Cell::Int(j.at(1).get<int64_t>()); break;
    case Cell::Kind::kBool: c = Cell::Bool(j.at(1).get<int64_t>() != 0); break;
  }
}

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(RowRef, file, row, npu_name, api, result, err_message)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(WorstRow, row, npu_name, result, value)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(FirstCause, api, kind, argument, row)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(PairResult, target_json, golden_json, label, outputs, mode, rows, passed, warnings,
                                   errors, skipped_reason, first_error, first_warning, worst, first_cause,
                                   unreadable_tensors, first_unreadable, streamed)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(JunitFailure, npu_name, result, err_message)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(JunitCase, name, failures)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(JunitSuite, name, file, seconds, cases)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(DiffIo, name, metrics)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(DiffOp, name, is_diff, inputs, outputs, stack, row)

// A rank's ops as the first-diff analysis reads them (FindFirstDiff, comm_graph.cc): communication
// and differing ops whole; of the other ops only how many lie between those (they count as compute
// sub-layers), so a run of them crosses as one number and comes back as that many unnamed ops; the
// ops the analysis ignores not at all. A rank of 30,000 APIs then sends a few hundred ops.
void to_json(json& j, const RankDiffs& r) {
  json ops = json::array();
  uint64_t plain = 0;
  for (const DiffOp& op : r.ops) {
    if (IsIgnoredOp(op.name)) continue;
    if (!op.is_diff && !IsCommunicationOp(op.name)) {
      ++plain;
      continue;
    }
    if (plain != 0) ops.push_back(std::exchange(plain, 0));
    ops.push_back(op);
  }
  if (plain != 0) ops.push_back(plain);
  j = json{{"rank", r.rank}, {"ops", std::move(ops)}};
}
void from_json(const json& j, RankDiffs& r) {
  j.at("rank").get_to(r.rank);
  for (const json& op : j.at("ops")) {
    if (op.is_number()) {
      r.ops.resize(r.ops.size() + op.get<size_t>());
    } else {
      r.ops.push_back(op.get<DiffOp>());
    }
  }
}
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(ReportMetricColumn, name, percent, values, texts)

namespace internal {
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(DiffRow, ref, stack)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(XlsxMark, pair, row, npu_name, stack)
}  // namespace internal

// The part's columns as they are; its two string pools by their strings, interned again in order
// (which gives every string its index back).
struct ReportPartCodec {
  static json Encode(const ReportPart& p) {
    return json{{"label", p.label_},
                {"kind", p.kind_},
                {"main_metric_label", p.main_metric_label_},
                {"mode", p.mode_ ? json(static_cast<int>(*p.mode_)) : json(nullptr)},
                {"construct_json", p.construct_json_},
                {"strings", p.strings_.strings()},
                {"apis", p.apis_.strings()},
                {"api_of_row", p.api_of_row_},
                {"tails", p.tails_},
                {"dtypes", p.dtypes_},
                {"shapes", p.shapes_},
                {"err_messages", p.err_messages_},
                {"whole_names", p.whole_names_},
                {"verdicts", p.verdicts_},
                {"bench_names", p.bench_names_},
                {"main_metric", p.main_metric_},
                {"metrics", p.metrics_}};
  }
  static ReportPart Decode(const json& j) {
    ReportPart p(j.at("label").get<std::string>(), ReportColumns{j.at("kind").get<std::string>(), {},
                                                                 j.at("main_metric_label").get<std::string>()},
                 j.at("construct_json").get<std::string>());
    if (!j.at("mode").is_null()) p.mode_ = static_cast<CompareMode>(j.at("mode").get<int>());
    for (const auto& s : j.at("strings")) p.strings_.Intern(s.get<std::string>());
    for (const auto& s : j.at("apis")) p.apis_.Intern(s.get<std::string>());
    j.at("api_of_row").get_to(p.api_of_row_);
    j.at("tails").get_to(p.tails_);
    j.at("dtypes").get_to(p.dtypes_);
    j.at("shapes").get_to(p.shapes_);
    j.at("err_messages").get_to(p.err_messages_);
    j.at("whole_names").get_to(p.whole_names_);
    j.at("verdicts").get_to(p.verdicts_);
    j.at("bench_names").get_to(p.bench_names_);
    j.at("main_metric").get_to(p.main_metric_);
    j.at("metrics").get_to(p.metrics_);
    return p;
  }
};

namespace internal {
namespace {

std::string ToBytes(const json& j) {
  const std::vector<uint8_t> cbor = json::to_cbor(j);
  return std::string(cbor.begin(), cbor.end());
}
json FromBytes(std::string_view bytes) { return json::from_cbor(bytes.begin(), bytes.end()); }

json StatusJson(const Status& status) {
  return json::array({static_cast<int>(status.code()), status.source(), status.message()});
}

Status StatusFromJson(const json& j) {
  std::string source = j.at(1).get<std::string>(), message = j.at(2).get<std::string>();
  switch (static_cast<Code>(j.at(0).get<int>())) {
    case Code::kOk: return Status::Ok();
    case Code::kInvalidInput: return Status::InvalidInput(std::move(source), std::move(message));
    case Code::kNotFound: return Status::NotFound(std::move(source), std::move(message));
    case Code::kIOError: return Status::IOError(std::move(source), std::move(message));
    case Code::kUnsupported: return Status::Unsupported(std::move(source), std::move(message));
    case Code::kInternal: break;
  }
  return Status::Internal(std::move(source), std::move(message));
}

}  // namespace

std::string EncodeStatus(const Status& status) { return ToBytes(StatusJson(status)); }
Status DecodeStatus(std::string_view bytes) { return StatusFromJson(FromBytes(bytes)); }

// Length-prefixed, not CBOR: a slice's rows (megabytes) cross inside these, and nlohmann's reader
// takes binary strings a byte at a time.
std::string PackStrings(const std::vector<std::string>& strings) {
  ByteWriter w;
  w.U(strings.size());
  for (const std::string& s : strings) w.S(s);
  return std::move(w).Take();
}

std::vector<std::string> UnpackStrings(std::string_view bytes) {
  ByteReader r(bytes);
  std::vector<std::string> strings(r.U());
  for (std::string& s : strings) s = r.S();
  return strings;
}

std::string EncodeEntry(const PairEntry& entry) {
  return PackStrings({std::to_string(entry.pair), EncodeStatus(entry.status), entry.payload});
}

PairEntry DecodeEntry(std::string_view bytes) {
  std::vector<std::string> fields = UnpackStrings(bytes);
  return PairEntry{std::stoul(fields.at(0)), DecodeStatus(fields.at(1)), std::move(fields.at(2))};
}

std::string EncodeOutcome(const PairOutcome& o) {
  json diff_rows = json::array();
  for (const auto& [row, diff] : o.diff_rows) diff_rows.push_back(json::array({row, diff}));
  return ToBytes(json{{"result", o.result},
                      {"junit", o.junit},
                      {"rank", o.rank},
                      {"diff_rows", diff_rows},
                      {"html_part", o.html_part ? ReportPartCodec::Encode(*o.html_part) : json(nullptr)}});
}

PairOutcome DecodeOutcome(std::string_view bytes) {
  const json j = FromBytes(bytes);
  PairOutcome o;
  j.at("result").get_to(o.result);
  j.at("junit").get_to(o.junit);
  j.at("rank").get_to(o.rank);
  for (const json& entry : j.at("diff_rows")) o.diff_rows.emplace(entry.at(0).get<size_t>(), entry.at(1).get<DiffRow>());
  if (!j.at("html_part").is_null()) o.html_part = ReportPartCodec::Decode(j.at("html_part"));
  return o;
}

std::string EncodeSlice(const MetricSlice& slice) {
  json unreadable = json::array();
  for (size_t i = 0; i < slice.unreadable.size(); ++i) {
    if (!slice.unreadable[i].ok()) unreadable.push_back(json::array({i, StatusJson(slice.unreadable[i])}));
  }
  return ToBytes(json{{"begin", slice.begin}, {"metrics", slice.metrics}, {"unreadable", unreadable}});
}

MetricSlice DecodeSlice(std::string_view bytes) {
  const json j = FromBytes(bytes);
  MetricSlice slice;
  j.at("begin").get_to(slice.begin);
  j.at("metrics").get_to(slice.metrics);
  slice.unreadable.resize(slice.metrics.size());
  for (const json& entry : j.at("unreadable")) slice.unreadable.at(entry.at(0).get<size_t>()) = StatusFromJson(entry.at(1));
  return slice;
}

std::string EncodeMarks(const std::vector<XlsxMark>& marks) { return ToBytes(json(marks)); }
std::vector<XlsxMark> DecodeMarks(std::string_view bytes) { return FromBytes(bytes).get<std::vector<XlsxMark>>(); }

}  // namespace internal
}  // namespace msprobe::compare
