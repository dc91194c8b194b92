// msprobe-convert: parses arguments and hands over to RunConvert.
#include <CLI/CLI.hpp>

#include "common/app_options.h"
#include "common/exit_codes.h"
#include "msprobe_convert/convert_command.h"

namespace {

constexpr const char* kExamples = R"(
Output: OUT/<dir of the file under PATH>/{bin name}.{input|output}.{slot}.{FORMAT}.{DTYPE}.npy, where FORMAT
is NCHW/NCDHW/ND after a layout conversion or the device format when the layout was kept, and DTYPE the
original dtype (BF16 and float8 data are written as float32, INT4 as int8). Names over 255 bytes are
hashed and listed in mapping.csv ("new,original").
With -t pt: OUT/<dir>/{bin name}.{input|output}.{slot}.pt, msprobe parse's names, each a torch.save
file of one tensor (layout as above; bfloat16 kept as bfloat16, float8 as float32, INT4 as int8,
UINT16/UINT32 as int32/int64; UINT64 has no torch dtype and is refused).

Examples:
  msprobe-convert -d dump/rank0/Conv2D.Default_conv1-Conv2D-op12.2.7.1612439563338024 -o out
  msprobe-convert -d dump/ -o out -j 8               # every kernel dump under dump/
  msprobe-convert -d dump/ -o out --keep-device-format
  msprobe-convert -d dump/ -o out -t pt             # torch .pt files instead of .npy

Exit codes: 0 converted (slots not converted are warnings, even with -q), 2 usage error, 3 some input missing,
malformed or unsupported, or an -o that cannot be made or lies inside the input (nothing converted), 4 internal error.)";

}  // namespace

int main(int argc, char** argv) {
  return msprobe::cli::GuardedMain("msprobe-convert", [&] {
    CLI::App app{"Convert kernel .bin dumps (CANN adump, MindSpore O2) to .npy or .pt, device layouts to host layouts."};
    app.footer(kExamples);
    msprobe::cli::CommonOptions common;
    msprobe::cli::AddCommonOptions(app, &common);
    msprobe::convert_app::ConvertArgs args;
    const bool as_parse = argc > 1 && argv[1] == msprobe::cli::kAsMsprobeParse;
    if (as_parse) {
      args.type = "pt";
      argv[1] = argv[0];  // parsed from here on as if it were not given
      ++argv;
      --argc;
    }
    app.add_option("-d,--dump_path", args.dump_path, "A kernel dump file or a directory tree of them")->required();
    app.add_option("-o,--output_path", args.output_path, "Output directory (created)")->capture_default_str();
    app.add_option("-t,--type,--format", args.type, "Output type: npy, or pt (torch.save files, as msprobe parse -t pt)")
        ->check(CLI::IsMember({"npy", "pt"}))
        ->capture_default_str();
    app.add_flag("--keep-device-format", args.keep_device_format,
                 "Write tensors in their device layout (NC1HWC0, FRACTAL_NZ...) instead of converting");
    if (auto early = msprobe::cli::Parse(app, argc, argv)) return *early;
    const auto threads = msprobe::cli::ApplyThreads(common);
    return msprobe::convert_app::RunConvert(args, common);
  });
}
