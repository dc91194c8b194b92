#!/usr/bin/python3
"""Runs msprobe's own `compare -m auto` (PyTorch dumps) from a source checkout, without installing it.

Usage (Debian's /usr/bin/python3 with python3-torch 1.13, numpy, pandas, openpyxl, yaml):
    run_msprobe_compare.py [--msprobe-src DIR] [--tensor-postprocess-dir DIR] [--keep-ts]
                           -- <msprobe compare arguments: -tp T -gp G -o OUT [--xlsx] [-fm] ...>

- --msprobe-src: the directory holding msprobe's `python/` (default /work/notes/msprobe_src, a work tree
  of /work/.mirror/Ascend+msprobe/repo at 8ff00da3).
- --tensor-postprocess-dir: a directory of tensor post-processing yamls (right_matmul.yaml format) used
  instead of msprobe's built-in `core/compare/tensor_postprocess/` directory (msprobe has no flag for
  this: its users edit the yaml in the installed package; here the manager's default directory is
  redirected so the checkout stays untouched).
- Everything after `--` is parsed by msprobe's own compare parser and run by its auto-mode entry, i.e.
  what `msprobe compare ...` does for -m auto (the `msprobe` CLI itself cannot be imported here: it pulls
  in msaccucmp, which needs protobuf).

Shims (none changes compare behaviour): stub modules `einops` and `tqdm` from ./stubs; an early
`import concurrent.futures` (msprobe's json_writer relies on someone else having imported it);
`torch.Tensor.untyped_storage` for torch 1.13.
"""
import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    argv = sys.argv[1:]
    if "--" in argv:
        i = argv.index("--")
        own, rest = argv[:i], argv[i + 1:]
    else:
        own, rest = [], argv
    p = argparse.ArgumentParser()
    p.add_argument("--msprobe-src", default="/work/notes/msprobe_src")
    p.add_argument("--tensor-postprocess-dir", default=None)
    opts = p.parse_args(own)

    sys.path.insert(0, os.path.join(HERE, "stubs"))
    sys.path.insert(0, os.path.join(opts.msprobe_src, "python"))

    import concurrent.futures  # noqa: F401
    import torch
    if not hasattr(torch.Tensor, "untyped_storage"):
        torch.Tensor.untyped_storage = lambda self: self.storage().untyped()

    if opts.tensor_postprocess_dir:
        from msprobe.core.compare.tensor_postprocess import processor as tp
        orig_init = tp.TensorPostprocessManager.__init__
        cfg_dir = os.path.abspath(opts.tensor_postprocess_dir)

        def patched_init(self, config_dir=None):
            orig_init(self, cfg_dir if config_dir is None else config_dir)
        tp.TensorPostprocessManager.__init__ = patched_init

    from msprobe.core.compare.utils import _compare_parser
    from msprobe.core.compare.auto_compare import compare_auto_mode
    parser = argparse.ArgumentParser(prog="msprobe compare")
    _compare_parser(parser)
    args = parser.parse_args(rest)
    if args.mode != "auto":
        sys.exit("only -m auto is supported by this harness")
    compare_auto_mode(args)


if __name__ == "__main__":
    main()
