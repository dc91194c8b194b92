#!/usr/bin/python3
"""Runs msprobe's own `overflow_check -i DUMP_STEP_DIR [-o OUT]` from a source checkout.

Usage: run_msprobe_overflow_check.py [--msprobe-src DIR] -- -i STEP_DIR [-o OUT_DIR]
Same shims as run_msprobe_compare.py (stub einops/tqdm, early concurrent.futures import, torch 1.13
untyped_storage). Parses the arguments with msprobe's own overflow_check parser and runs its entry.
"""
import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    argv = sys.argv[1:]
    own, rest = (argv[:argv.index("--")], argv[argv.index("--") + 1:]) if "--" in argv else ([], argv)
    p = argparse.ArgumentParser()
    p.add_argument("--msprobe-src", default="/work/notes/msprobe_src")
    opts = p.parse_args(own)
    sys.path.insert(0, os.path.join(HERE, "stubs"))
    sys.path.insert(0, os.path.join(opts.msprobe_src, "python"))
    import concurrent.futures  # noqa: F401
    import torch
    if not hasattr(torch.Tensor, "untyped_storage"):
        torch.Tensor.untyped_storage = lambda self: self.storage().untyped()
    from msprobe.overflow_check.analyzer import _overflow_check_parser, _run_overflow_check
    parser = argparse.ArgumentParser(prog="msprobe overflow_check")
    _overflow_check_parser(parser)
    _run_overflow_check(parser.parse_args(rest))


if __name__ == "__main__":
    main()
