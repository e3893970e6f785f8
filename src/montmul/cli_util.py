# SPDX-License-Identifier: Apache-2.0
"""Helpers shared by the ``montmul`` subcommands (cli.py, cli_rsa.py):
argument parsing and the one-line error convention."""

from __future__ import annotations

import argparse
import sys

from . import cores

#: Where a command can compute: the model, or RTL simulation.
SIMS = ("model", "icarus", "verilator")


def parse_int(text: str) -> int:
    """A decimal or 0x-hex integer (argparse type)."""
    try:
        return int(text, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a decimal or 0x-hex integer: {text!r}") from None


def parse_csv(text: str) -> list[str]:
    return [t.strip() for t in text.split(",") if t.strip()]


def fail(msg: str, code: int = 2) -> int:
    """Print one error line on stderr; return the exit status."""
    print(f"montmul: error: {msg}", file=sys.stderr)
    return code


def core_and_width(args) -> tuple[cores.Core, int]:
    """The registered core ``--core`` and the checked ``--width``."""
    core = cores.get(args.core)
    cores.WIDTH.check("Width", args.width)
    return core, args.width


def hdl_params(args) -> dict[str, int]:
    """HDL parameters from repeated ``--param P=V``, checked by the registry
    (ranges, fixed values, legal combinations)."""
    out: dict[str, int] = {}
    for item in getattr(args, "param", None) or []:
        name, sep, value = item.partition("=")
        if not sep:
            raise ValueError(f"--param takes NAME=VALUE, got {item!r}")
        out[name] = parse_int(value)
    cores.get(args.core).hdl_params(args.width, **out)
    return out
