#include "msprobe/compare/first_diff/overflow_check.h"

#include <fmt/format.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <map>
#include <unordered_map>
#include <unordered_set>

#include "first_diff/comm_graph_internal.h"
#include "first_diff/overflow_ops_internal.h"
#include "msprobe/dump/framework/dump_json.h"
#include "msprobe/dump/framework/dump_layout.h"
#include "msprobe/dump/io/atomic_file.h"
#include "msprobe/dump/text/python_json.h"

namespace msprobe::compare {
namespace {

namespace fs = std::filesystem;

constexpr int kIndent = 2;  // msprobe: save_json(result_file, result_content, 2)

// _resolve_input_path: rank{N} → N, rank → 0, a lone proc* → 0; other entries are skipped. msprobe
// takes them in os.listdir order, which no filesystem promises: we take the names in natural order
// (a later name of the same rank wins, as there) and search the ranks in ascending order.
Result<std::map<int, std::string>> FindRanks(const std::string& input_dir) {
  std::error_code ec;
  if (!fs::is_directory(input_dir, ec)) return Status::InvalidInput(input_dir, "not a directory");
  std::vector<std::string> names;
  for (const fs::directory_entry& e : fs::directory_iterator(input_dir, ec)) names.push_back(e.path().filename().string());
  if (ec) return Status::IOError(input_dir, ec.message());
  std::sort(names.begin(), names.end(), [](const std::string& a, const std::string& b) { return NaturalLess(a, b); });
  std::map<int, std::string> ranks;
  for (const std::string& name : names) {
    int rank = 0;
    if (names.size() == 1 && name.starts_with("proc")) {
      rank = 0;
    } else if (!name.starts_with("rank")) {
      continue;
    } else {
      const std::string digits = name.substr(4);
      if (!digits.empty() && (!std::all_of(digits.begin(), digits.end(), ::isdigit) || digits.size() > 9)) continue;
      rank = digits.empty() ? 0 : std::stoi(digits);
    }
    const fs::path dir = fs::path(input_dir) / name;
    for (const char* file : {"dump.json", "construct.json", "stack.json"}) {
      if (!fs::is_regular_file(dir / file, ec)) return Status::NotFound((dir / file).string(), "no such file (a rank needs dump.json, construct.json and stack.json)");
    }
    ranks[rank] = dir.string();
  }
  return ranks;
}

// The entries the report shows, copied out of their dump.json.
class EntryCopier : public DumpJsonVisitor {
 public:
  EntryCopier(std::unordered_set<std::string> keys, JsonDocument* out) : keys_(std::move(keys)), out_(out) {
    out_->SetObject();
  }
  Status Entry(std::string_view key, const JsonValue& value) override {
    if (keys_.count(std::string(key))) {
      JsonValue copy(value, out_->GetAllocator());
      out_->AddMember(JsonValue(key.data(), static_cast<rapidjson::SizeType>(key.size()), out_->GetAllocator()), copy,
                      out_->GetAllocator());
    }
    return Status::Ok();
  }

 private:
  const std::unordered_set<std::string> keys_;
  JsonDocument* out_;
};

// op_data.get(field, default) written as json.dump writes it.
void WriteField(PyJsonWriter* w, const JsonValue* entry, const char* field, bool list) {
  w->Key(field);
  const JsonValue* v = entry != nullptr && entry->IsObject() ? Member(*entry, field) : nullptr;
  if (v != nullptr) {
    w->Value(*v);
  } else if (list) {
    w->BeginArray();
    w->EndArray();
  } else {
    w->BeginObject();
    w->EndObject();
  }
}

// find_complete_construct: the entry's parents from construct.json, outermost first. msprobe seeds its
// "seen" set with the characters of the op name (set(op_name)); a one-character parent among them stops it.
void WriteConstruct(PyJsonWriter* w, const JsonValue& construct, const std::string& op_name) {
  std::vector<std::string> chain = {op_name};
  std::unordered_set<std::string> seen;
  for (char c : op_name) seen.insert(std::string(1, c));
  std::string name = op_name;
  while (construct.IsObject()) {
    const JsonValue* parent = Member(construct, name.c_str());
    if (parent != nullptr && parent->IsArray()) parent = parent->Empty() ? nullptr : &(*parent)[0];
    if (parent == nullptr || !parent->IsString() || parent->GetStringLength() == 0) break;
    name.assign(parent->GetString(), parent->GetStringLength());
    if (!seen.insert(name).second) break;
    chain.insert(chain.begin(), name);
  }
  w->StringList(chain);
}

// find_stack: the second item of the first stack.json value whose first item holds the op name (a
// list: as an item; a string: as a part), else {}. InvalidInput when a value is not a list.
Status WriteStack(PyJsonWriter* w, const JsonValue& stack, const std::string& op_name, const std::string& source) {
  if (stack.IsObject()) {
    for (const auto& m : stack.GetObject()) {
      const JsonValue& item = m.value;
      if (!item.IsArray()) return Status::InvalidInput(source, "a value of stack.json is not a list");
      if (item.Size() < 2) continue;
      const JsonValue& names = item[0];
      bool found = false;
      if (names.IsArray()) {
        found = std::any_of(names.Begin(), names.End(), [&](const JsonValue& n) {
          return n.IsString() && std::string_view(n.GetString(), n.GetStringLength()) == op_name;
        });
      } else if (names.IsString()) {
        found = std::string_view(names.GetString(), names.GetStringLength()).find(op_name) != std::string_view::npos;
      }
      if (found) {
        w->Key("stack_info");
        w->Value(item[1]);
        return Status::Ok();
      }
    }
  }
  w->Key("stack_info");
  w->BeginObject();
  w->EndObject();
  return Status::Ok();
}

// gen_node_info of one rank's nodes.
Status WriteRankNodes(PyJsonWriter* w, const OverflowRank& rank, const std::vector<std::string>& names) {
  const fs::path dir(rank.dir);
  MSP_ASSIGN_OR_RETURN(JsonDocument construct, ReadJsonFile((dir / "construct.json").string()));
  MSP_ASSIGN_OR_RETURN(JsonDocument stack, ReadJsonFile((dir / "stack.json").string()));
  JsonDocument entries;
  EntryCopier copier(std::unordered_set<std::string>(names.begin(), names.end()), &entries);
  MSP_RETURN_IF_ERROR(StreamDumpJson((dir / "dump.json").string(), copier).status());
  w->BeginArray();
  for (const std::string& name : names) {
    const JsonValue* entry = Member(entries, name.c_str());
    w->BeginObject();
    w->Key("op_name");
    w->String(name);
    w->Key("data_info");
    w->BeginObject();
    if (name.find("forward") != std::string::npos) {
      WriteField(w, entry, "input_args", true);
      WriteField(w, entry, "input_kwargs", false);
    } else {
      WriteField(w, entry, "input", true);
    }
    WriteField(w, entry, "output", false);
    w->EndObject();
    w->Key("construct_info");
    WriteConstruct(w, construct, name);
    MSP_RETURN_IF_ERROR(WriteStack(w, stack, name, (dir / "stack.json").string()));
    w->EndObject();
  }
  w->EndArray();
  return Status::Ok();
}

// _gen_analyze_info: {"rank_N": [node, ...], ...} in the order the nodes were found.
Result<std::string> WriteAnalyzeFile(const std::string& output_dir, const std::vector<OverflowRank>& ranks,
                                     const std::vector<OverflowNode>& nodes) {
  std::error_code ec;
  if (!fs::is_directory(output_dir, ec)) {
    const fs::path parent = fs::absolute(output_dir, ec).parent_path();
    if (!fs::is_directory(parent, ec)) return Status::NotFound(output_dir, "its parent directory does not exist");
    fs::create_directory(output_dir, ec);
    if (ec) return Status::IOError(output_dir, ec.message());
  }
  std::vector<int> order;
  std::unordered_map<int, std::vector<std::string>> names;
  for (const OverflowNode& node : nodes) {
    if (!names.count(node.rank)) order.push_back(node.rank);
    names[node.rank].push_back(node.op_name);
  }
  PyJsonWriter w(kIndent);
  w.BeginObject();
  for (int rank : order) {
    w.Key(fmt::format("rank_{}", rank));
    const auto it = std::find_if(ranks.begin(), ranks.end(), [&](const OverflowRank& r) { return r.rank == rank; });
    MSP_RETURN_IF_ERROR(WriteRankNodes(&w, *it, names[rank]));
  }
  w.EndObject();
  const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch());
  const std::string path = (fs::path(output_dir) / fmt::format("anomaly_analyze_{}.json", ns.count())).string();
  MSP_RETURN_IF_ERROR(WriteFileAtomically(path, std::move(w).Finish()));
  return path;
}

}  // namespace

Result<OverflowCheckReport> RunOverflowCheck(const OverflowCheckOptions& options) {
  MSP_ASSIGN_OR_RETURN(const auto rank_dirs, FindRanks(options.input_dir));
  std::vector<OverflowRank> ranks(rank_dirs.size());
  std::vector<Status> errors(rank_dirs.size());
  std::vector<std::pair<int, std::string>> list(rank_dirs.begin(), rank_dirs.end());
  tbb::parallel_for(size_t{0}, list.size(), [&](size_t i) {
    Result<OverflowRank> r = ReadOverflowRank(list[i].first, list[i].second);
    if (r.ok()) ranks[i] = std::move(*r);
    else errors[i] = r.status();
  });
  for (const Status& s : errors) MSP_RETURN_IF_ERROR(s);
  if (!ranks.empty() && ranks.front().framework != "pytorch") {
    return Status::InvalidInput(ranks.front().dir + "/dump.json",
                                "overflow check is only available for PyTorch, though the data is stored in a "
                                "different framework.");
  }
  OverflowCheckReport report;
  for (const OverflowRank& r : ranks) {
    report.ranks.push_back(r.rank);
    if (!r.has_data) report.ranks_without_data.push_back(r.rank);
  }
  const FirstDiff found = SearchFirstFlagged(OverflowCommOps(ranks), OverflowCheckRules());
  report.stage = found.stage;
  for (const DiffNodeRef& node : found.nodes) {
    report.nodes.push_back({ranks[node.rank_pos].rank, ranks[node.rank_pos].ops[node.op].name});
  }
  if (report.nodes.empty()) return report;
  MSP_ASSIGN_OR_RETURN(report.analyze_file, WriteAnalyzeFile(options.output_dir, ranks, report.nodes));
  return report;
}

}  // namespace msprobe::compare
