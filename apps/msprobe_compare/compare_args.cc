#include "msprobe_compare/compare_args.h"

#include <fmt/format.h>

#include "common/exit_codes.h"
#include "common/stderr_report.h"
#include "msprobe/compare/output/not_compared.h"
#include "msprobe/dump/text/small_json.h"
#include "msprobe/ops/reference/gemm_isa.h"

namespace msprobe::compare_app {

const cli::FlagTable kFlags = {
    {{"-tp", "--target_path"}, {"-gp", "--golden_path"}, {"-npu", "--target_path"}, {"--npu_path", "--target_path"},
     {"-bench", "--golden_path"}, {"--bench_path", "--golden_path"}, {"-fm", "--fuzzy_match"},
     {"-dm", "--data_mapping"}, {"-cm", "--cell_mapping"}, {"-am", "--api_mapping"}, {"-lm", "--layer_mapping"},
     {"-da", "--diff_analyze"}, {"-tensor_log", "--is_print_compare_log"},
     // msprobe's -m offline_data flags (msaccucmp fusion rules): parsed only to be refused.
     {"-fr", "--fusion_rule_file"}, {"-cfr", "--close_fusion_rule_file"}, {"-qfr", "--quant_fusion_rule_file"}},
    // msprobe G2's flags (docs/compatibility.md, "Command line"): -f and --input_path still mean
    // something; -s, -c and -hl no longer do. msaccucmp's -out is -o.
    {{"-f", "--fuzzy_match", ""},
     {"--input_path", "--input", ""},
     {"-s", "", "the stack is written whenever stack.json is beside the dump (or named in -i)"},
     {"--stack_mode", "", "the stack is written whenever stack.json is beside the dump (or named in -i)"},
     {"-c", "", "there is no advisor to skip (compare_only)"},
     {"--compare_only", "", "there is no advisor to skip"},
     {"-hl", "", "the xlsx always highlights warning and error rows"},
     {"--highlight", "", "the xlsx always highlights warning and error rows"},
     {"-out", "--output_path", ""}},  // msaccucmp's output directory
    "oimj"};

void AddCompareOptions(CLI::App& app, CompareArgs* a) {
  app.add_option("--target_path", a->target, "Target (NPU) dump.json/debug.json or directory (-tp, -npu)");
  app.add_option("--golden_path", a->golden, "Golden (bench) dump.json/debug.json or directory (-gp, -bench)");
  app.add_option("-i,--input", a->input_json, "compare.json with npu_path, bench_path[, stack_path] (older form)");
  app.add_option("-o,--output_path", a->output, "Output directory (default ./output)")->expected(0, 1);
  app.add_option("-m,--mode", a->mode,
                 "Compare mode; only 'auto' (dump compare). msprobe's offline_model (needs a device) and "
                 "offline_data, torchair, atb (other compare engines) are refused (docs/compatibility.md)");
  app.add_flag("--fuzzy_match", a->fuzzy, "Match rows ignoring call counts (-fm)");
  app.add_option("--data_mapping", a->data_mapping, "YAML {npu_row_name: bench_row_name} (-dm)");
  a->cell_mapping_opt = app.add_option("--cell_mapping", a->cell_mapping, "MindSpore Cell→Module mapping, optional YAML (-cm)")->expected(0, 1);
  a->api_mapping_opt = app.add_option("--api_mapping", a->api_mapping, "MindSpore→PyTorch API mapping, optional YAML (-am)")->expected(0, 1);
  a->layer_mapping_opt = app.add_option("--layer_mapping", a->layer_mapping, "MindSpore→PyTorch layer mapping through construct.json, optional YAML (-lm)")->expected(0, 1);
  app.add_flag("--diff_analyze", a->diff_analyze,
               "First-diff analysis across ranks (-da): compare_result*.json per pair and diff_analyze_{ns}.json; "
               "csv/xlsx only with --csv/--xlsx");
  app.add_flag("--attribute", a->attribute,
               "Tensor dumps: recompute each API in float64 on both sides and say where its difference comes from "
               "(Origin: op, input, inherited, clean, unknown; summary.json first_cause)");
  app.add_flag("--align", a->align,
               "After msprobe's matching, pair the rows it left unmatched by aligning the two runs' calls; "
               "adds a Match column (name, fuzzy, mapping, aligned (score), unmatched)");
  a->align_threshold_opt =
      app.add_option("--align-threshold", a->align_threshold,
                     fmt::format("With --align: the call-pair score (0 to 1) below which a call stays unmatched "
                                 "(default {})", compare::kDefaultAlignThreshold))
          ->check(CLI::Range(0.0, 1.0));
  app.add_option("--tensor-postprocess", a->tensor_postprocess,
                 "Tensor dumps: a right_matmul yaml (msprobe's tensor_postprocess format: mode, target_tensor_map, "
                 "golden_tensor_map) whose calibration tensors multiply the mapped tensors on the right before the "
                 "metrics; repeat the flag for several, applied in order")
      ->type_name("FILE")
      ->allow_extra_args(false);  // one file per flag: a path after it is not taken as a second one
  app.add_flag("--is_print_compare_log", a->tensor_log, "Accepted for compatibility (-tensor_log)");
  app.add_option("--rank", a->rank, "Kernel dump compare of two dump trees: rank ids, e.g. 0 or 0,1");
  app.add_option("--step", a->step, "Kernel dump compare: step ids (default: every step both trees have)");
  app.add_flag("--csv", a->csv, "Write only the csv");
  app.add_flag("--xlsx", a->xlsx, "Write only the xlsx");
  app.add_flag("--json", a->json, "Also write a machine-readable json result");
  app.add_flag("--html", a->html, "Also write compare_report_{ts}.html: one self-contained page (tree, chart, table)");
  app.add_option("--fail-on", a->fail_on,
                 "Exit 1 when any row's Result reaches this level (warning: also any row not compared); any gate "
                 "also fails when nothing of a pair, an input or a tensor could be compared")
      ->check(CLI::IsMember({"error", "warning"}));
  app.add_flag("--fail-on-first-diff", a->fail_on_first_diff, "Exit 1 when -da finds a first diff");
  app.add_option("--junit", a->junit, "Also write a JUnit XML report to FILE (a testsuite per pair, a testcase per API)");
  app.add_flag("--consistent_check", a->consistent_check,
               "verl's train-vs-rollout compare (msprobe's): -tp the training dump, -gp the rollout dump; needs --backend");
  app.add_option("--backend", a->backend, "The training engine for --consistent_check")
      ->check(CLI::IsMember({"fsdp", "megatron"}));
  // msprobe flags of features we do not have: refused with the reason (docs/compatibility.md).
  app.add_option("--fusion_rule_file", a->fusion_rule, "msprobe -m offline_data (-fr): not supported");
  app.add_option("--close_fusion_rule_file", a->close_fusion_rule, "msprobe -m offline_data (-cfr): not supported");
  app.add_option("--quant_fusion_rule_file", a->quant_fusion_rule, "msprobe -m offline_data (-qfr): not supported");
}

namespace {

std::optional<UsageError> Usage(std::string message) { return UsageError{std::move(message), cli::kExitUsage}; }

constexpr const char* kUnsupportedSection =
    "see docs/compatibility.md, \"Compare features of msprobe not in msprobe-compare\"";

// msprobe's other compare modes and the verl consistency check: refused, naming why (both compares).
std::optional<UsageError> RefuseMsprobeOnlyFeatures(const CompareArgs& a) {
  if (a.mode != "auto") {
    std::string why;
    if (a.mode == "offline_data") {
      why = "msprobe runs its bundled msaccucmp, a compare engine of its own (fusion rules, its own metrics "
            "and result table): out of scope, though it needs no device";
    } else if (a.mode == "offline_model") {
      why = "msprobe runs the models on an NPU device (CANN runtime, the model files)";
    } else if (a.mode == "torchair") {
      why = "msprobe maps TorchAir GE graph dumps to FX dumps, a compare of its own: out of scope";
    } else if (a.mode == "atb") {
      why = "msprobe compares ATB operator dumps (atb_probe .bin and statistic.csv files) by rules of their own: "
            "out of scope";
    } else {
      why = "msprobe's modes are auto, offline_data, torchair, atb and offline_model";
    }
    return Usage("-m " + a.mode + " is not supported, only the dump compare (-m auto): " + why + "; " +
                 kUnsupportedSection);
  }
  if (!a.fusion_rule.empty() || !a.close_fusion_rule.empty() || !a.quant_fusion_rule.empty()) {
    return Usage("-fr/-cfr/-qfr belong to msprobe's -m offline_data (msaccucmp), which is out of scope; " +
                 std::string(kUnsupportedSection));
  }
  return std::nullopt;
}

// compare.json of msprobe G2: {"npu_path", "bench_path", "stack_path", "is_print_compare_log"}.
std::optional<UsageError> ReadInputJson(const std::string& path, compare::CompareOptions* options) {
  auto doc = ReadSmallJsonFile(path);
  if (!doc.ok()) return UsageError{doc.status().ToString(), cli::ExitCodeFor(doc.status())};
  const std::string* target = SmallJsonString(*doc, "npu_path");
  const std::string* golden = SmallJsonString(*doc, "bench_path");
  if (!target || !golden) {
    return UsageError{path + ": needs string keys \"npu_path\" and \"bench_path\"", cli::kExitInput};
  }
  options->target_path = *target;
  options->golden_path = *golden;
  if (const std::string* stack = SmallJsonString(*doc, "stack_path")) options->stack_path = *stack;
  return std::nullopt;
}

// What both compares share: the output directory, the tables (both by default; --csv or --xlsx
// alone writes only that one, README "msprobe-compare"), the gates and the CI reports.
void SetRunOptions(const CompareArgs& a, compare::CompareOptions* options) {
  options->output_dir = a.output.empty() ? "./output" : a.output;
  options->write_csv = a.csv || !a.xlsx;
  options->write_xlsx = a.xlsx || !a.csv;
  options->fail_on = compare::ParseVerdict(a.fail_on);  // "" (no gate) parses to none
  options->junit_path = a.junit;
  options->tool_version = MSPROBE_VERSION;
}

// --consistent_check (docs/compare.md §3.9): msprobe's message when the backend is missing; the
// mappings, -da, --attribute and --align do not combine with it.
std::optional<UsageError> CheckConsistent(const CompareArgs& a) {
  if (!a.consistent_check) return std::nullopt;
  if (a.backend.empty()) {
    return Usage("If the 'consistent_check' parameter is specified, the 'backend' parameter must be set to 'fsdp' or "
                 "'megatron'. Current 'backend' parameter is .");
  }
  if (a.fuzzy || !a.data_mapping.empty() || a.cell_mapping_opt->count() || a.api_mapping_opt->count() ||
      a.layer_mapping_opt->count() || a.diff_analyze || a.attribute || a.align) {
    return Usage(
        "--consistent_check pairs rows by its own keys: it takes no -fm, -dm, -cm, -am, -lm, -da, --attribute or --align");
  }
  return std::nullopt;
}

}  // namespace

std::optional<UsageError> ToCompareOptions(const CompareArgs& a, compare::CompareOptions* options) {
  if (auto refused = RefuseMsprobeOnlyFeatures(a)) return refused;
  if (auto error = CheckConsistent(a)) return error;
  if (a.diff_analyze && a.json) return Usage("-da writes msprobe's compare_result json itself; drop --json");
  if (a.fail_on_first_diff && !a.diff_analyze) return Usage("--fail-on-first-diff needs -da");
  if (a.attribute && a.diff_analyze) return Usage("--attribute needs tensor metrics; -da compares statistics");
  if (a.attribute) {  // a MSPROBE_ISA this CPU cannot honour is refused (docs/ops.md §4)
    if (const Result<std::string_view> isa = ops::GemmIsa(); !isa.ok()) return Usage(isa.status().ToString());
  }
  if (a.layer_mapping_opt->count() && !a.data_mapping.empty()) return Usage("-lm builds the row mapping itself; drop -dm");
  if (a.align_threshold_opt->count() && !a.align) return Usage("--align-threshold is --align's; add --align");
  if (!a.input_json.empty()) {
    if (auto error = ReadInputJson(a.input_json, options)) return error;
  }
  if (!a.target.empty()) options->target_path = a.target;
  if (!a.golden.empty()) options->golden_path = a.golden;
  if (options->target_path.empty() || options->golden_path.empty()) {
    return Usage("give the target and golden dumps: -tp TARGET -gp GOLDEN (or -i compare.json)");
  }
  if (a.fuzzy && !a.data_mapping.empty()) return Usage("-fm and -dm cannot be combined");
  SetRunOptions(a, options);
  options->fuzzy_match = a.fuzzy;
  options->data_mapping = a.data_mapping;
  options->cell_mapping = a.cell_mapping_opt->count() > 0;
  options->cell_mapping_yaml = a.cell_mapping;
  options->api_mapping = a.api_mapping_opt->count() > 0;
  options->api_mapping_yaml = a.api_mapping;
  options->layer_mapping = a.layer_mapping_opt->count() > 0;
  options->layer_mapping_yaml = a.layer_mapping;
  // -da writes msprobe's json files, and the tables only when asked for.
  options->diff_analyze = a.diff_analyze;
  options->attribute = a.attribute;
  options->align = a.align;
  options->align_threshold = a.align_threshold;
  if (a.consistent_check) {
    options->consistent = a.backend == "fsdp" ? compare::ConsistentBackend::kFsdp : compare::ConsistentBackend::kMegatron;
  }
  if (a.diff_analyze) {
    options->write_csv = a.csv;
    options->write_xlsx = a.xlsx;
  }
  options->write_json = a.json;
  options->write_html = a.html;
  options->fail_on_first_diff = a.fail_on_first_diff;
  return std::nullopt;
}

namespace {

// "0,1,3" → {0, 1, 3}; "" → {} (all).
std::optional<std::vector<int64_t>> ParseIds(const std::string& text) {
  std::vector<int64_t> ids;
  size_t start = 0;
  while (start < text.size()) {
    const size_t comma = std::min(text.find(',', start), text.size());
    const std::string item = text.substr(start, comma - start);
    char* end = nullptr;
    const long long v = std::strtoll(item.c_str(), &end, 10);
    if (item.empty() || *end != '\0' || v < 0) return std::nullopt;
    ids.push_back(v);
    start = comma + 1;
  }
  return ids;
}

}  // namespace

bool IsKernelCompare(const CompareArgs& a) { return !a.rank.empty() || !a.step.empty(); }

std::optional<UsageError> ToKernelCompareOptions(const CompareArgs& a, compare::KernelCompareOptions* options) {
  if (auto refused = RefuseMsprobeOnlyFeatures(a)) return refused;
  if (a.target.empty() || a.golden.empty()) return Usage("kernel dump compare needs -tp TARGET_DIR -gp GOLDEN_DIR");
  if (a.diff_analyze || a.fuzzy || !a.data_mapping.empty() || a.layer_mapping_opt->count() || a.json || a.attribute ||
      a.html || a.align || !a.tensor_postprocess.empty() || a.consistent_check) {
    return Usage("--rank/--step (kernel dump compare) take no -da, -fm, -dm, -lm, --json, --attribute, --html, "
                 "--align, --tensor-postprocess or --consistent_check");
  }
  if (a.fail_on_first_diff) {
    return Usage("--rank/--step (kernel dump compare) take no --fail-on-first-diff: it needs -da, which compares "
                 "dump.json files; gate on the Accuracy column with --fail-on error");
  }
  const auto ranks = ParseIds(a.rank), steps = ParseIds(a.step);
  if (!ranks || !steps) return Usage("--rank/--step take non-negative ids separated by commas");
  options->run.target_path = a.target;
  options->run.golden_path = a.golden;
  SetRunOptions(a, &options->run);
  options->ranks = *ranks;
  options->steps = *steps;
  return std::nullopt;
}

std::optional<UsageError> LoadTensorPostprocess(const CompareArgs& a, compare::RightMatmul* rm,
                                                std::vector<std::string>* warnings) {
  if (a.tensor_postprocess.empty()) return std::nullopt;
  std::vector<compare::RightMatmulMap> maps;
  for (const std::string& yaml : a.tensor_postprocess) {
    Result<compare::RightMatmulMap> map = compare::LoadRightMatmulYaml(yaml, warnings);
    if (!map.ok()) return UsageError{map.status().ToString(), cli::ExitCodeFor(map.status())};
    maps.push_back(std::move(*map));
  }
  *rm = compare::RightMatmul::Load(maps, warnings);
  return std::nullopt;
}

void PrintRightMatmulFailures(const compare::RightMatmul& rm, const std::string& prefix) {
  if (rm.failures() == 0) return;
  cli::PrintErr("msprobe-compare: {}warning: {} tensor(s) compared as dumped, their right_matmul failed (e.g. {})\n",
                prefix, rm.failures(), rm.first_failure());
}

// The files written, one a line on stdout (README, "Output streams"); "" for one not written.
void PrintPaths(const std::vector<std::string>& files) {
  for (const std::string& file : files) {
    if (!file.empty()) fmt::print("{}\n", file);
  }
}

void PrintReport(const compare::CompareReport& report, bool quiet) {
  uint64_t rows = 0, passed = 0, warnings = 0, errors = 0, not_compared = 0;
  for (const std::string& input : report.skipped_inputs) cli::PrintErr("msprobe-compare: warning: {}\n", input);
  for (const compare::PairResult& pair : report.pairs) {
    if (!pair.skipped_reason.empty()) {
      cli::PrintErr("msprobe-compare: warning: {}: {}\n", pair.label, pair.skipped_reason);
    }
    not_compared += pair.NotCompared();
    if (!quiet) PrintPaths(pair.outputs);
    rows += pair.rows;
    passed += pair.passed;
    warnings += pair.warnings;
    errors += pair.errors;
  }
  if (not_compared > 0) {
    // Once per run, even with -q: msprobe passes these rows (or drops them), so no count of Results shows them.
    cli::PrintErr("msprobe-compare: warning: {} row(s) not compared: {}\n", not_compared,
                  compare::NotComparedCounts(report.pairs));
  }
  if (quiet) return;
  PrintPaths({report.first_diff.analyze_file, report.html_file, report.summary_file});
  // A pass is a row compared and passing: the rows not compared are named apart, whatever their Result.
  cli::PrintErr("compared {} pair(s): {} rows, {} pass, {} warning, {} error{}\n", report.pairs.size(), rows, passed,
                warnings, errors, not_compared > 0 ? fmt::format(", {} not compared", not_compared) : "");
  for (const compare::PairResult& pair : report.pairs) {
    if (!pair.first_cause) continue;
    const compare::FirstCause& cause = *pair.first_cause;
    cli::PrintErr("first cause: {} ({}{}{})\n", cause.api, cause.kind, cause.argument ? ": " : "",
                  cause.argument.value_or(""));
    break;
  }
  if (!report.diff_analyzed) return;
  if (report.first_diff.nodes.empty()) {
    cli::PrintErr("Cannot find any diff node, no need to generate analyze file.\n");  // msprobe's words
    return;
  }
  for (size_t i = 0; i < report.first_diff.nodes.size(); ++i) {
    cli::PrintErr("first diff {}: rank {}: {}\n", compare::DiffStageName(report.first_diff.stage),
                  report.first_diff.ranks[i], report.first_diff.nodes[i].api);
  }
}

int ReportGates(const compare::CompareOptions& options, const compare::CompareReport& report) {
  const std::optional<compare::GateFailure> failure = compare::EvaluateGates(options, report);
  if (!failure) return cli::kExitOk;
  cli::PrintErr("msprobe-compare: gate failed ({}): {}\n", failure->gate, failure->reason);
  return cli::kExitGateFailed;
}

}  // namespace msprobe::compare_app
