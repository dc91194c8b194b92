#include "msprobe/compare/rows/flatten.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "test_support.h"

namespace msprobe::compare {
namespace {

using ::msprobe::testing::ReadFile;

// A small quote-aware CSV reader: "" inside quotes is one quote; newlines inside quotes are kept.
std::vector<std::vector<std::string>> ParseCsv(const std::string& text) {
  std::vector<std::vector<std::string>> rows(1);
  std::string cell;
  bool quoted = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') { cell += '"'; ++i; }
      else if (c == '"') quoted = false;
      else cell += c;
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      rows.back().push_back(std::move(cell));
      cell.clear();
    } else if (c == '\n') {
      rows.back().push_back(std::move(cell));
      cell.clear();
      rows.emplace_back();
    } else if (c != '\r') {
      cell += c;
    }
  }
  if (!cell.empty() || !rows.back().empty()) rows.back().push_back(std::move(cell));
  if (rows.back().empty()) rows.pop_back();
  return rows;
}

std::string OnlyFileIn(const std::string& dir, const std::string& prefix) {
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    if (e.path().filename().string().rfind(prefix, 0) == 0) return e.path().string();
  }
  return {};
}

FlatDump FlattenText(const std::string& json, const std::string& source = "dump.json") {
  auto doc = ParseJsonText(json, source);
  EXPECT_TRUE(doc.ok()) << doc.status().ToString();
  auto flat = FlattenDocument(*doc, nullptr, source);
  EXPECT_TRUE(flat.ok()) << flat.status().ToString();
  return flat.ok() ? std::move(flat).value() : FlatDump{};
}

const OpRow* FindRow(const FlatDump& dump, const std::string& name) {
  for (const OpRow& row : dump.rows) {
    if (row.name == name) return &row;
  }
  return nullptr;
}

std::vector<std::string> StatsText(const OpRow& row) {
  std::vector<std::string> out;
  for (const Cell& c : row.stats) out.push_back(c.ToPython());
  return out;
}

// msprobe's own G3 CSV lists exactly the target rows, in parse order; every target column must agree.
void ExpectMatchesMsprobeCsv(const std::string& rank) {
  const std::string root = ::msprobe::testing::SharedData("msprobe_samples/dist2_da");
  const std::string dir = root + "/target/step0/" + rank;
  auto flat = FlattenDump(dir + "/dump.json", dir + "/stack.json");
  ASSERT_TRUE(flat.ok()) << flat.status().ToString();
  EXPECT_EQ(flat->mode, CompareMode::kSummary);
  EXPECT_EQ(flat->task, "statistics");
  EXPECT_EQ(flat->level, "mix");
  EXPECT_FALSE(flat->is_debug);

  const std::string csv_path = OnlyFileIn(root + "/cmp", "compare_result_" + rank + "_");
  ASSERT_FALSE(csv_path.empty());
  const auto csv = ParseCsv(ReadFile(csv_path));
  ASSERT_GT(csv.size(), 1u);
  const auto& header = csv[0];
  const auto col = [&](const std::string& name) {
    const auto it = std::find(header.begin(), header.end(), name);
    EXPECT_NE(it, header.end()) << name;
    return static_cast<size_t>(it - header.begin());
  };
  const size_t name = col("NPU Name"), dtype = col("NPU Dtype"), shape = col("NPU Tensor Shape"),
               grad = col("NPU Requires_grad"), max = col("NPU max"), stack = col("NPU_Stack_Info");
  ASSERT_EQ(flat->rows.size(), csv.size() - 1);
  for (size_t i = 0; i < flat->rows.size(); ++i) {
    const OpRow& row = flat->rows[i];
    const auto& cells = csv[i + 1];
    ASSERT_EQ(cells.size(), header.size()) << "csv row " << i + 1;
    EXPECT_EQ(row.name, cells[name]) << i;
    EXPECT_EQ(row.dtype, cells[dtype]) << row.name;
    EXPECT_EQ(row.shape, cells[shape]) << row.name;
    EXPECT_EQ(row.requires_grad.value_or("N/A"), cells[grad]) << row.name;
    for (size_t k = 0; k < 4; ++k) EXPECT_EQ(row.stats[k].ToPython(), cells[max + k]) << row.name << " stat " << k;
    EXPECT_EQ(row.stack_info.value_or("N/A"), cells[stack]) << row.name;
  }
}

TEST(FlattenTest, Dist2DaRank0MatchesMsprobeCsv) {
  MSP_REQUIRE_SHARED(root, "msprobe_samples/dist2_da");
  ExpectMatchesMsprobeCsv("rank0");
}

TEST(FlattenTest, Dist2DaRank1MatchesMsprobeCsv) {
  MSP_REQUIRE_SHARED(root, "msprobe_samples/dist2_da");
  ExpectMatchesMsprobeCsv("rank1");
}

// Rows as msprobe's xlsx (dist2/cmp_stat rank0) shows them for a ReduceOp and a ProcessGroup.
TEST(FlattenTest, ProcessGroupAndReduceOpMatchMsprobeXlsx) {
  MSP_REQUIRE_SHARED(path, "msprobe_samples/dist2/npu_stat/step0/rank0/dump.json");
  auto flat = FlattenDump(path, "");
  ASSERT_TRUE(flat.ok()) << flat.status().ToString();
  const std::string reduce_op = "<torch.distributed.distributed_c10d.ReduceOp object at 0x7fb17f390d70>";
  const std::vector<std::string> names = {
      "Distributed.all_reduce.1.forward.input.0", "Distributed.all_reduce.1.forward.input.op",
      "Distributed.all_reduce.1.forward.input.group", "Distributed.all_reduce.1.forward.output.0",
      "Distributed.all_reduce.1.forward.output.1", "Distributed.all_reduce.1.forward.output.2"};
  size_t first = 0;
  while (first < flat->rows.size() && flat->rows[first].name != names[0]) ++first;
  ASSERT_LE(first + names.size(), flat->rows.size());
  for (size_t i = 0; i < names.size(); ++i) EXPECT_EQ(flat->rows[first + i].name, names[i]);
  const OpRow& op = flat->rows[first + 1];
  EXPECT_EQ(op.dtype, "<class 'str'>");
  EXPECT_EQ(op.shape, "[]");
  EXPECT_FALSE(op.requires_grad.has_value());
  EXPECT_EQ(StatsText(op), std::vector<std::string>(4, reduce_op));
  const OpRow& group = flat->rows[first + 2];
  EXPECT_EQ(group.dtype, "torch.ProcessGroup");
  EXPECT_EQ(group.shape, "[]");
  EXPECT_EQ(StatsText(group), std::vector<std::string>(4, "[0, 1]"));
  EXPECT_EQ(group.md5, "[0, 1]");
  const OpRow& input = flat->rows[first];
  EXPECT_EQ(StatsText(input), (std::vector<std::string>{"3", "1", "None", "None"}));
  EXPECT_EQ(input.stats[0].kind(), Cell::Kind::kInt);
  EXPECT_EQ(flat->rows[first + 5].dtype, "torch.ProcessGroup");
}

// Scalar arguments (docs/formats.md §1.6, docs/compare.md §2.3): "<class 'T'>", shape [], the raw value four
// times, md5 = CRC-32 of str(value) (expected CRCs from Python's zlib.crc32).
TEST(FlattenTest, ArgTypesL1ScalarEncodings) {
  MSP_REQUIRE_SHARED(path, "msprobe_samples/single_proc/argtypes_L1/step0/proc19211/dump.json");
  auto flat = FlattenDump(path, "");
  ASSERT_TRUE(flat.ok()) << flat.status().ToString();
  EXPECT_EQ(flat->mode, CompareMode::kSummary);

  const OpRow* n = FindRow(*flat, "Torch.arange.0.forward.input.0");
  ASSERT_NE(n, nullptr);
  EXPECT_EQ(n->dtype, "<class 'int'>");
  EXPECT_EQ(n->shape, "[]");
  EXPECT_EQ(StatsText(*n), std::vector<std::string>(4, "8"));
  EXPECT_EQ(n->stats[0].kind(), Cell::Kind::kInt);
  EXPECT_EQ(n->md5, "fa005713");
  EXPECT_FALSE(n->requires_grad.has_value());

  const OpRow* dtype_kwarg = FindRow(*flat, "Torch.arange.0.forward.input.dtype");
  ASSERT_NE(dtype_kwarg, nullptr);
  EXPECT_EQ(dtype_kwarg->dtype, "<class 'str'>");
  EXPECT_EQ(StatsText(*dtype_kwarg), std::vector<std::string>(4, "torch.float32"));
  EXPECT_EQ(dtype_kwarg->md5, "d8ca9648");
  EXPECT_EQ(dtype_kwarg->state, RowState::kInput);

  // A positional torch.dtype is written as {}: no row at all.
  EXPECT_EQ(FindRow(*flat, "Tensor.to.0.forward.input.1"), nullptr);
  EXPECT_NE(FindRow(*flat, "Tensor.to.0.forward.input.0"), nullptr);

  const OpRow* nan = FindRow(*flat, "Tensor.__add__.0.forward.input.1");
  ASSERT_NE(nan, nullptr);
  EXPECT_EQ(nan->dtype, "<class 'float'>");
  EXPECT_EQ(StatsText(*nan), std::vector<std::string>(4, "Nan"));
  EXPECT_EQ(nan->md5, "6be42981");  // str(nan)
  const OpRow* nan_out = FindRow(*flat, "Tensor.__add__.0.forward.output.0");
  ASSERT_NE(nan_out, nullptr);
  EXPECT_TRUE(nan_out->stats[0].IsText("Nan"));
  EXPECT_EQ(nan_out->md5, "00000000");  // a tensor has no value

  const OpRow* none = FindRow(*flat, "Tensor.sum.0.forward.input.dim");
  ASSERT_NE(none, nullptr);
  EXPECT_EQ(none->dtype, "None");
  EXPECT_EQ(none->shape, "None");
  EXPECT_EQ(StatsText(*none), std::vector<std::string>(4, "None"));
  EXPECT_EQ(none->data_name, "-1");
  const OpRow* keepdim = FindRow(*flat, "Tensor.sum.0.forward.input.keepdim");
  ASSERT_NE(keepdim, nullptr);
  EXPECT_EQ(keepdim->dtype, "<class 'bool'>");
  EXPECT_EQ(StatsText(*keepdim), std::vector<std::string>(4, "False"));
  EXPECT_EQ(keepdim->md5, "ea0c4734");

  const OpRow* f64 = FindRow(*flat, "Tensor.__mul__.0.forward.input.1");
  ASSERT_NE(f64, nullptr);
  EXPECT_EQ(f64->dtype, "<class 'float'>");
  EXPECT_EQ(StatsText(*f64), std::vector<std::string>(4, "3.0"));
  EXPECT_EQ(f64->md5, "f4b2bb5b");

  const OpRow* str = FindRow(*flat, "Torch.einsum.0.forward.input.0");
  ASSERT_NE(str, nullptr);
  EXPECT_EQ(str->dtype, "<class 'str'>");
  EXPECT_EQ(StatsText(*str), std::vector<std::string>(4, "ij->ji"));
  EXPECT_EQ(str->md5, "9a6a7575");

  const OpRow* complex = FindRow(*flat, "Tensor.abs.0.forward.input.0");
  ASSERT_NE(complex, nullptr);
  EXPECT_EQ(complex->dtype, "torch.complex64");
  EXPECT_EQ(complex->shape, "[2]");
  EXPECT_TRUE(complex->stats[3].IsText("None"));
  EXPECT_EQ(complex->requires_grad, "False");

  const OpRow* cat = FindRow(*flat, "Torch.cat.0.forward.input.0.1");
  ASSERT_NE(cat, nullptr);
  EXPECT_EQ(cat->shape, "[2, 4]");
}

// Encodings the samples lack; expected rows from docs/compare.md §2.3's special-case table.
TEST(FlattenTest, RepeatedLeafKeyKeepsTheLastValueAsPythonDoes) {
  // json.loads('{"Max": 1.0, "Max": 7.0}') == {"Max": 7.0}
  const FlatDump flat = FlattenText(R"({"task": "statistics", "level": "L1", "data": {
    "Torch.exp.0.forward": {"input_args": [
        {"type": "torch.Tensor", "dtype": "torch.float32", "shape": [2], "Max": 1.0, "Min": 0.0, "Mean": 0.5,
         "Norm": 2.0, "requires_grad": false, "Max": 7.0, "dtype": "torch.float16"}],
      "input_kwargs": {}, "output": []}}})");
  const OpRow* row = FindRow(flat, "Torch.exp.0.forward.input.0");
  ASSERT_NE(row, nullptr);
  EXPECT_EQ(StatsText(*row)[0], "7.0");
  EXPECT_EQ(row->dtype, "torch.float16");
}

TEST(FlattenTest, SpecialLeavesWithoutDtype) {
  const FlatDump flat = FlattenText(R"({"task": "statistics", "level": "L1", "data": {
    "Tensor.__getitem__.0.forward": {"input_args": [
        {"type": "torch.Tensor", "dtype": "torch.float32", "shape": [4, 5], "Max": 1.0, "Min": 0.0, "Mean": 0.5,
         "Norm": 2.0, "requires_grad": true},
        [{"type": "slice", "value": [0, null, 2]}, {"type": "ellipsis", "value": "..."}]],
      "input_kwargs": {"size": {"type": "torch.Size", "value": [4, 2]},
                       "device": {"type": "torch.device", "value": "cuda:1"},
                       "src": {"type": "int", "value": 1},
                       "flag": {"type": "bool", "value": true}},
      "output": [{"type": "torch.Tensor", "dtype": "torch.bool", "shape": [], "Max": true, "Min": false,
                  "Mean": null, "Norm": null, "requires_grad": false}]}}})");
  ASSERT_EQ(flat.rows.size(), 8u);
  const std::string base = "Tensor.__getitem__.0.forward.";
  const OpRow* slice = FindRow(flat, base + "input.1.0");
  ASSERT_NE(slice, nullptr);
  EXPECT_EQ(slice->dtype, "slice");
  EXPECT_EQ(slice->shape, "(3,)");
  EXPECT_EQ(StatsText(*slice), std::vector<std::string>(4, "None"));
  EXPECT_EQ(slice->md5, "c1004716");  // crc32 of "[0, None, 2]"
  const OpRow* ellipsis = FindRow(flat, base + "input.1.1");
  ASSERT_NE(ellipsis, nullptr);
  EXPECT_EQ(ellipsis->dtype, "ellipsis");
  EXPECT_EQ(ellipsis->shape, "[]");
  EXPECT_EQ(StatsText(*ellipsis), std::vector<std::string>(4, "..."));
  EXPECT_EQ(ellipsis->md5, "1a43b61b");
  const OpRow* size = FindRow(flat, base + "input.size");
  ASSERT_NE(size, nullptr);
  EXPECT_EQ(size->dtype, "torch.Size");
  EXPECT_EQ(size->shape, "[4, 2]");
  EXPECT_EQ(StatsText(*size), std::vector<std::string>(4, "None"));
  EXPECT_EQ(size->md5, "a929688f");
  const OpRow* device = FindRow(flat, base + "input.device");
  ASSERT_NE(device, nullptr);
  EXPECT_EQ(device->dtype, "<class 'str'>");
  EXPECT_EQ(StatsText(*device), std::vector<std::string>(4, "cuda:1"));
  EXPECT_EQ(device->md5, "87b6ace8");
  const OpRow* src = FindRow(flat, base + "input.src");
  ASSERT_NE(src, nullptr);
  EXPECT_EQ(src->dtype, "int");
  EXPECT_EQ(src->shape, "[]");
  EXPECT_EQ(StatsText(*src), std::vector<std::string>(4, "1"));
  EXPECT_TRUE(src->stats[0].is_text());  // str(value), not the int
  EXPECT_EQ(src->md5, "1");
  const OpRow* flag = FindRow(flat, base + "input.flag");
  ASSERT_NE(flag, nullptr);
  EXPECT_EQ(flag->dtype, "<class 'bool'>");
  EXPECT_EQ(flag->stats[0].kind(), Cell::Kind::kBool);
  EXPECT_EQ(flag->md5, "5dcee3b3");  // crc32 of "True"
  const OpRow* out = FindRow(flat, base + "output.0");
  ASSERT_NE(out, nullptr);
  EXPECT_EQ(out->shape, "[]");
  EXPECT_EQ(StatsText(*out), (std::vector<std::string>{"True", "False", "None", "None"}));
  EXPECT_EQ(out->requires_grad, "False");
  const OpRow* tensor = FindRow(flat, base + "input.0");
  ASSERT_NE(tensor, nullptr);
  EXPECT_EQ(tensor->requires_grad, "True");
  EXPECT_EQ(tensor->stats[0].kind(), Cell::Kind::kFloat);
}

TEST(FlattenTest, P2POpRowCarriesOpAndPeer) {
  const FlatDump flat = FlattenText(R"({"task": "statistics", "data": {
    "Distributed.batch_isend_irecv.0.forward": {"input_args": [[
      {"class_type": "torch.distributed.P2POp", "op": "isend", "peer": 1, "tag": 0, "group_id": "77849d8c",
       "tensor": {"type": "torch.Tensor", "dtype": "torch.float32", "shape": [2], "Max": 1.0, "Min": 0.0,
                  "Mean": 0.5, "Norm": 1.0, "requires_grad": false}},
      {"class_type": "torch.distributed.P2POp", "op": "irecv", "peer": 0, "tensor": null}]]}}})");
  ASSERT_EQ(flat.rows.size(), 2u);
  EXPECT_EQ(flat.rows[0].name, "Distributed.batch_isend_irecv.0.forward.input.0.0");
  EXPECT_EQ(flat.rows[0].dtype, "torch.float32");
  ASSERT_TRUE(flat.rows[0].p2p && flat.rows[1].p2p);
  EXPECT_EQ(flat.rows[0].p2p->op, "isend");
  EXPECT_EQ(flat.rows[0].p2p->peer, "1");
  EXPECT_EQ(flat.rows[1].dtype, "None");
  EXPECT_EQ(flat.rows[1].p2p->op, "irecv");
  EXPECT_EQ(flat.rows[1].p2p->peer, "0");
}

TEST(FlattenTest, Md5ModeKeepsRecordedMd5) {
  MSP_REQUIRE_SHARED(path, "msprobe_samples/single_proc/md5_l1/step0/proc16012/dump.json");
  auto flat = FlattenDump(path, "");
  ASSERT_TRUE(flat.ok()) << flat.status().ToString();
  EXPECT_EQ(flat->mode, CompareMode::kMd5);
  ASSERT_FALSE(flat->rows.empty());
  EXPECT_EQ(flat->rows[0].name, "Functional.linear.0.forward.input.0");
  EXPECT_EQ(flat->rows[0].md5, "76da9fec");
  const OpRow* any = FindRow(*flat, "Tensor.any.0.forward.input.0");
  ASSERT_NE(any, nullptr);
  EXPECT_EQ(any->md5, "58c223be");
  EXPECT_TRUE(any->stats[0].IsText("True"));
  // {"type": "int", "value": 0}: msprobe hashes str(op_data.get('value', '')), i.e. "0".
  const OpRow* zero = FindRow(*flat, "Tensor.__mul__.0.forward.input.1");
  ASSERT_NE(zero, nullptr);
  EXPECT_EQ(zero->md5, "f4dbdf21");
  const OpRow* inf = FindRow(*flat, "Tensor.__mul__.0.forward.input.0");
  ASSERT_NE(inf, nullptr);
  EXPECT_EQ(inf->stats[0].ToPython(), "inf");
  const OpRow* none = FindRow(*flat, "Tensor.__add__.1.backward.output.1");
  ASSERT_NE(none, nullptr);
  EXPECT_EQ(none->dtype, "None");
  EXPECT_EQ(none->md5, "N/A");
}

TEST(FlattenTest, DebugJsonNamesAndKeyParts) {
  MSP_REQUIRE_SHARED(path, "msprobe_samples/single_proc/dbg_t/step0/proc16077/debug.json");
  auto flat = FlattenDump(path, "");
  ASSERT_TRUE(flat.ok()) << flat.status().ToString();
  EXPECT_TRUE(flat->is_debug);
  EXPECT_EQ(flat->mode, CompareMode::kTensor);
  std::vector<std::string> names;
  for (const OpRow& row : flat->rows) names.push_back(row.name);
  EXPECT_EQ(names, (std::vector<std::string>{"x2.0.debug", "x2_grad.0.debug", "dict_var.0.debug.key1",
                                              "dict_var.0.debug.key2.0", "dict_var.0.debug.key2.1"}));
  for (const OpRow& row : flat->rows) EXPECT_EQ(row.state, RowState::kDebug);
  EXPECT_EQ(flat->rows[0].data_name, "x2.0.debug.pt");
  EXPECT_EQ(flat->rows[0].api, "x2.0.debug");
  const KeyParts debug_parts = SplitKey(flat->rows[0].api, true);
  EXPECT_EQ(debug_parts.direction, "x2.0.debug");
  EXPECT_EQ(debug_parts.op_no_number, "x2.0.debug");
  EXPECT_EQ(NameSuffix(flat->rows[0]), "");
  EXPECT_EQ(flat->rows[3].data_name, "dict_var.0.debug.key2.0.pt");
  EXPECT_EQ(NameSuffix(flat->rows[3]), ".key2.0");
  EXPECT_EQ(flat->rows[2].data_name, "-1");
  EXPECT_EQ(flat->rows[2].dtype, "<class 'str'>");
}

// docs/compare.md §3.1: backward call orders count entries per op in file order.
TEST(FlattenTest, CallOrdersAndParametersGradRows) {
  MSP_REQUIRE_SHARED(path, "msprobe_samples/single_proc/st_mix/step0/proc15241/dump.json");
  auto flat = FlattenDump(path, "");
  ASSERT_TRUE(flat.ok()) << flat.status().ToString();
  const OpRow* b1 = FindRow(*flat, "Tensor.__add__.1.backward.input.0");
  const OpRow* b0 = FindRow(*flat, "Tensor.__add__.0.backward.input.0");
  ASSERT_NE(b1, nullptr);
  ASSERT_NE(b0, nullptr);
  EXPECT_EQ(b1->backward_call_order, 0);
  EXPECT_EQ(b0->backward_call_order, 1);
  const KeyParts b1_parts = SplitKey(b1->api, false);
  EXPECT_EQ(b1_parts.op_no_number, "Tensor.__add__");
  EXPECT_EQ(b1_parts.call_direction, "1.backward");
  EXPECT_EQ(b1_parts.direction, "backward");
  EXPECT_EQ(NameSuffix(*b1), ".input.0");
  const OpRow* f2 = FindRow(*flat, "Tensor.__add__.2.forward.input.0");
  ASSERT_NE(f2, nullptr);
  EXPECT_EQ(f2->forward_call_order, 2);
  EXPECT_EQ(f2->backward_call_order, 0);

  std::vector<std::string> module;
  for (const OpRow& row : flat->rows) {
    if (row.api == "Module.linear_1.Linear.forward.0") module.push_back(row.name);
  }
  const std::string m = "Module.linear_1.Linear.forward.0.";
  EXPECT_EQ(module, (std::vector<std::string>{m + "input.0", m + "parameters.weight", m + "parameters.bias",
                                               m + "output.0"}));
  const OpRow* module_row = FindRow(*flat, m + "input.0");
  const KeyParts module_parts = SplitKey(module_row->api, false);
  EXPECT_EQ(module_parts.call_direction, "forward.0");
  EXPECT_EQ(module_parts.op_no_number, "Module.linear_1.Linear");

  std::vector<const OpRow*> grads;
  for (const OpRow& row : flat->rows) {
    if (row.api == "Module.linear_2.Linear.parameters_grad.0") grads.push_back(&row);
  }
  ASSERT_EQ(grads.size(), 2u);
  EXPECT_EQ(grads[0]->name, "Module.linear_2.Linear.parameters_grad.0.bias");
  EXPECT_EQ(grads[1]->name, "Module.linear_2.Linear.parameters_grad.0.weight");
  EXPECT_EQ(grads[0]->state, RowState::kParametersGrad);
  const KeyParts grad_parts = SplitKey(grads[0]->api, false);
  EXPECT_EQ(grad_parts.direction, "parameters_grad");
  EXPECT_EQ(grad_parts.call_direction, "parameters_grad");
  EXPECT_EQ(grad_parts.op_no_number, "Module.linear_2.Linear.parameters_grad");
  EXPECT_EQ(grads[1]->shape, "[2, 4]");
}

TEST(FlattenTest, DataNameWinsAndUnknownKeysAreDropped) {
  const FlatDump flat = FlattenText(R"({"task": "tensor", "data": {
    "Functional.relu.0.forward": {"input_args": [{"type": "torch.Tensor", "dtype": "torch.float32", "shape": [1],
        "data_name": "Functional.relu.9.forward.input.0.pt"}], "output": [null, {"type": "torch.Tensor",
        "dtype": "torch.float32", "shape": [1], "data_name": ""}]},
    "Functional.relu": {"input_args": [{"type": "int", "value": 1}]},
    "Functional.relu.1.forward": {"input_args": []}}})");
  ASSERT_EQ(flat.rows.size(), 3u);
  EXPECT_EQ(flat.mode, CompareMode::kTensor);
  EXPECT_EQ(flat.framework, "pytorch");
  EXPECT_EQ(flat.rows[0].name, "Functional.relu.9.forward.input.0");
  EXPECT_EQ(flat.rows[0].data_name, "Functional.relu.9.forward.input.0.pt");
  EXPECT_EQ(NameSuffix(flat.rows[0]), "Functional.relu.9.forward.input.0");
  EXPECT_EQ(flat.rows[1].name, "Functional.relu.0.forward.output.0");
  EXPECT_EQ(flat.rows[1].state, RowState::kOutput);
  EXPECT_EQ(flat.rows[2].data_name, "-1");
  EXPECT_EQ(flat.rows[2].name, "Functional.relu.0.forward.output.1");
}

TEST(FlattenTest, StackOnFirstRowOfEachEntryBothFormats) {
  const std::string dump = R"({"task": "statistics", "data": {
    "Functional.relu.0.forward": {"input_args": [{"type": "int", "value": 1}, {"type": "int", "value": 2}]},
    "Functional.relu.1.forward": {"input_args": [{"type": "int", "value": 1}]}}})";
  auto doc = ParseJsonText(dump, "dump.json");
  ASSERT_TRUE(doc.ok());
  auto old_stack = ParseJsonText(R"j({"Functional.relu.0.forward": ["File a.py, line 1, in f, \n x = relu(y)"]})j",
                                 "stack.json");
  ASSERT_TRUE(old_stack.ok());
  auto flat = FlattenDocument(*doc, &*old_stack, "dump.json");
  ASSERT_TRUE(flat.ok()) << flat.status().ToString();
  ASSERT_EQ(flat->rows.size(), 3u);
  EXPECT_EQ(flat->rows[0].stack_info, "['File a.py, line 1, in f, \\n x = relu(y)']");
  EXPECT_FALSE(flat->rows[1].stack_info.has_value());
  EXPECT_FALSE(flat->rows[2].stack_info.has_value());

  auto new_stack = ParseJsonText(R"({"0": [["Functional.relu.0.forward", "Functional.relu.1.forward"], ["it's"]]})",
                                 "stack.json");
  ASSERT_TRUE(new_stack.ok());
  flat = FlattenDocument(*doc, &*new_stack, "dump.json");
  ASSERT_TRUE(flat.ok()) << flat.status().ToString();
  EXPECT_EQ(flat->rows[0].stack_info, "[\"it's\"]");
  EXPECT_FALSE(flat->rows[1].stack_info.has_value());
  EXPECT_EQ(flat->rows[2].stack_info, "[\"it's\"]");

  auto bad_stack = ParseJsonText(R"({"Functional.relu.1.forward": "not a list"})", "stack.json");
  ASSERT_TRUE(bad_stack.ok());
  EXPECT_STATUS(FlattenDocument(*doc, &*bad_stack, "dump.json"), Code::kInvalidInput, "is not a list");
  auto array_stack = ParseJsonText("[]", "stack.json");
  ASSERT_TRUE(array_stack.ok());
  EXPECT_STATUS(FlattenDocument(*doc, &*array_stack, "dump.json"), Code::kInvalidInput, "not a JSON object");
}

TEST(FlattenTest, MalformedInputsAreInvalidInput) {
  const auto flatten = [](const std::string& json) {
    auto doc = ParseJsonText(json, "dump.json");
    EXPECT_TRUE(doc.ok());
    return FlattenDocument(*doc, nullptr, "dump.json");
  };
  EXPECT_STATUS(flatten("[]"), Code::kInvalidInput, "not a JSON object");
  EXPECT_STATUS(flatten(R"({"data": {}})"), Code::kInvalidInput, "task is missing or empty");
  EXPECT_STATUS(flatten(R"({"task": "", "data": {}})"), Code::kInvalidInput, "task is missing or empty");
  EXPECT_STATUS(flatten(R"({"task": "tensor"})"), Code::kInvalidInput, "data is missing or not an object");
  EXPECT_STATUS(flatten(R"({"task": "tensor", "data": []})"), Code::kInvalidInput, "not an object");
  EXPECT_STATUS(flatten(R"({"task": "structure", "data": {}})"), Code::kInvalidInput,
                "task structure holds no data to compare");
  EXPECT_STATUS(flatten(R"({"task": "nan_check", "data": {}})"), Code::kInvalidInput, "not comparable");
  EXPECT_STATUS(flatten(R"({"task": "tensor", "data": {"A.b.0.forward": [1]}})"), Code::kInvalidInput,
                "entry 'A.b.0.forward' is not an object");
  std::string deep = R"({"task": "tensor", "data": {"A.b.0.forward": {"input_args": )";
  for (int i = 0; i < 402; ++i) deep += '[';
  deep += "null";
  for (int i = 0; i < 402; ++i) deep += ']';
  deep += "}}}";
  EXPECT_STATUS(flatten(deep), Code::kInvalidInput, "recursion limit");
  const std::string deeper =
      R"({"task": "tensor", "data": {}, "x": )" + std::string(5000, '[') + std::string(5000, ']') + "}";
  EXPECT_STATUS(flatten(deeper), Code::kInvalidInput, "nested deeper");
  EXPECT_STATUS(FlattenDump("/nonexistent/dump.json", ""), Code::kNotFound, "");
  // An empty data object is fine: no rows.
  auto empty = flatten(R"({"task": "statistics", "data": {}})");
  ASSERT_TRUE(empty.ok());
  EXPECT_TRUE(empty->rows.empty());
}

// split_data_name_components on the forms keys take, edge cases included; the expected parts are
// what msprobe's Python (str.split('.') and '.'.join) gives.
TEST(FlattenTest, SplitKeyMatchesMsprobesSplitOfTheKey) {
  struct Case {
    const char* key;
    KeyParts parts;
  };
  const Case cases[] = {
      {"Functional.relu.3.backward", {"Functional.relu", "3.backward", "backward"}},
      {"Module.fc.Linear.forward.0", {"Module.fc.Linear", "forward.0", "forward"}},
      {"Module.l.Linear.parameters_grad", {"Module.l.Linear", "parameters_grad", "parameters_grad"}},
      {"parameters_grad", {"", "parameters_grad", "parameters_grad"}},
      {"x.forward", {"", "x.forward", "forward"}},
      {"forward", {"", ".forward", "forward"}},
      {"a..b.backward", {"a.", "b.backward", "backward"}},
      {"Functional.relu", {"", "", ""}},
      {"Module.backward.Linear.forward.0", {"Module.backward.Linear", "forward.0", "forward"}},
  };
  for (const Case& c : cases) {
    const KeyParts parts = SplitKey(c.key, false);
    EXPECT_EQ(parts.op_no_number, c.parts.op_no_number) << c.key;
    EXPECT_EQ(parts.call_direction, c.parts.call_direction) << c.key;
    EXPECT_EQ(parts.direction, c.parts.direction) << c.key;
    EXPECT_EQ(MayBeBackwardKey(c.key), c.parts.direction == "backward") << c.key;
  }
}

// Keys with escapes take the streamer's slow path, plain ones its fast path: both read as JSON says.
TEST(FlattenTest, StreamedKeysWithAndWithoutEscapesReadAsJson) {
  const std::string tensor = R"({"type": "torch.Tensor", "dtype": "torch.float32", "shape": [2], "Max": 1.0,
      "Min": 0.0, "Mean": 0.5, "Norm": 1.0, "requires_grad": false})";
  const std::string json = R"({"task": "statistics", "le\u0076el": "mix", "data": {
      "Functional.re\u006cu.0.forward": {"input_args": [)" + tensor + R"(]},
      "Tensor.a\"b.0.forward": {"input_args": [)" + tensor + R"(]},
      "Torch.plain.0.forward"  :  {"input_args": [)" + tensor + R"(]}}})";
  testing::TempDir dir;
  const std::string path = dir.Path("dump.json");
  testing::WriteFile(path, json);
  auto flat = FlattenDump(path, "");
  ASSERT_TRUE(flat.ok()) << flat.status().ToString();
  EXPECT_EQ(flat->level, "mix");
  ASSERT_EQ(flat->rows.size(), 3u);
  EXPECT_EQ(flat->rows[0].name, "Functional.relu.0.forward.input.0");
  EXPECT_EQ(flat->rows[1].name, "Tensor.a\"b.0.forward.input.0");
  EXPECT_EQ(flat->rows[1].api, "Tensor.a\"b.0.forward");
  EXPECT_EQ(flat->rows[2].name, "Torch.plain.0.forward.input.0");
}

// msprobe reads the whole dict, so the header may follow "data" (old files put framework last,
// docs/formats.md §1.1): the streamed file reads as its parsed document does.
TEST(FlattenTest, HeaderMembersAfterDataCount) {
  const std::string json = R"({"data": {"Functional.relu.0.forward": {"input_args": [{"type": "torch.Tensor",
      "dtype": "torch.float32", "shape": [2], "Max": 1.0, "Min": 0.0, "Mean": 0.5, "Norm": 1.0,
      "requires_grad": false}]}}, "framework": "mindspore", "task": "statistics", "level": "L1"})";
  testing::TempDir dir;
  const std::string path = dir.Path("dump.json");
  testing::WriteFile(path, json);
  auto streamed = FlattenDump(path, "");
  ASSERT_TRUE(streamed.ok()) << streamed.status().ToString();
  const FlatDump parsed = FlattenText(json);
  for (const FlatDump* flat : {static_cast<const FlatDump*>(&*streamed), &parsed}) {
    EXPECT_EQ(flat->task, "statistics");
    EXPECT_EQ(flat->level, "L1");
    EXPECT_EQ(flat->framework, "mindspore");
    EXPECT_EQ(flat->mode, CompareMode::kSummary);
    EXPECT_FALSE(flat->is_debug);
    ASSERT_EQ(flat->rows.size(), 1u);
    EXPECT_EQ(flat->rows[0].name, "Functional.relu.0.forward.input.0");
    EXPECT_EQ(flat->rows[0].api, "Functional.relu.0.forward");
  }
  testing::WriteFile(path, R"({"data": {}, "task": ""})");
  EXPECT_STATUS(FlattenDump(path, ""), Code::kInvalidInput, "task is missing or empty");
}

}  // namespace
}  // namespace msprobe::compare
