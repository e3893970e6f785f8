# SPDX-License-Identifier: Apache-2.0
"""Helpers shared by the ``montmul`` subcommands (cli.py, cli_rsa.py):
argument parsing, the exit statuses and the one-line error convention."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .. import cores

#: Where a command can compute: the model, or RTL simulation.
SIMS = ("model", "icarus", "verilator")

#: Default of every ``--sim``: the cycle-exact model (no simulator build).
DEFAULT_SIM = "model"

# Exit statuses of every subcommand (README, "CLI").
EXIT_OK = 0          #: success
EXIT_CHECK = 1       #: verification failure: a signature that does not verify, or RTL that disagrees with its model
EXIT_USAGE = 2       #: bad usage: unknown option, bad option value (argparse's own status)
EXIT_INPUT = 3       #: rejected input: operands, modulus, key or ciphertext the core or RSA refuses
EXIT_TOOL = 4        #: tool or system failure: simulator, synthesis tool, file I/O, unexpected internal error
EXIT_INTERRUPT = 130  #: Ctrl-C (128 + SIGINT)
EXIT_PIPE = 141      #: output pipe closed early, e.g. ``montmul cores | head -1`` (128 + SIGPIPE)


class CliError(Exception):
    """An error the CLI reports as one line with its exit status."""

    def __init__(self, msg: str, code: int = EXIT_USAGE):
        super().__init__(msg)
        self.code = code


def add_message_args(sp) -> None:
    """The message options of a signing or encrypting action (one of them required)."""
    g = sp.add_mutually_exclusive_group(required=True)
    g.add_argument("--message", metavar="TEXT", help="message as UTF-8 text")
    g.add_argument("--message-hex", metavar="HEX", help="message as hex")
    g.add_argument("--message-file", metavar="FILE", help="message file (raw bytes; - reads standard input)")


def read_hex(text: str, what: str) -> bytes:
    """Bytes from hex (an optional 0x, colons allowed); CliError naming ``what`` otherwise."""
    try:
        return bytes.fromhex(text.removeprefix("0x").replace(":", ""))
    except ValueError:
        raise CliError(f"{what}: not hex: {text[:40]!r}", EXIT_USAGE) from None


def read_file(path: str, what: str) -> bytes:
    """A file's bytes (``-``: standard input); CliError naming ``what`` if it cannot be read."""
    if path == "-":
        return sys.stdin.buffer.read()
    try:
        return Path(path).read_bytes()
    except OSError as exc:
        raise CliError(f"{what} {path}: cannot read: {exc.strerror}", EXIT_USAGE) from None


def read_message(args) -> bytes:
    """The message of :func:`add_message_args`' options."""
    if args.message is not None:
        return args.message.encode()
    if args.message_hex is not None:
        return read_hex(args.message_hex, "--message-hex")
    return read_file(args.message_file, "--message-file")


def _int_at_least(text: str, low: int, why: str) -> int:
    try:
        v = int(text, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
    if v < low:
        raise argparse.ArgumentTypeError(f"{why}, got {v}")
    return v


def positive_int(text: str) -> int:
    """An integer >= 1 (argparse type for --samples, --jobs, --procs)."""
    return _int_at_least(text, 1, "must be at least 1")


def nonneg_int(text: str) -> int:
    """An integer >= 0 (argparse type)."""
    return _int_at_least(text, 0, "must not be negative")


def parse_widths(text: str, option: str = "--widths", allow_empty: bool = False) -> tuple[int, ...]:
    """Comma-separated positive widths, e.g. ``1024,2048``."""
    out = []
    for item in parse_csv(text):
        try:
            out.append(int(item, 0))
        except ValueError:
            raise CliError(f"{option}: not a width: {item!r} (give comma-separated integers, e.g. 1024,2048)") from None
    if not out and not allow_empty:
        raise CliError(f"{option} needs at least one width")
    for w in out:
        cores.WIDTH.check("Width", w)
    return tuple(out)


def parse_int(text: str) -> int:
    """A decimal or 0x-hex integer (argparse type)."""
    try:
        return int(text, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a decimal or 0x-hex integer: {text!r}") from None


def parse_csv(text: str) -> list[str]:
    return [t.strip() for t in text.split(",") if t.strip()]


def fail(msg: str, code: int = EXIT_USAGE) -> int:
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
