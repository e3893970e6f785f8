# SPDX-License-Identifier: Apache-2.0
"""No registered core has a carry chain longer than a segment of the shared
segmented adder (rtl/common/mm_seg_add.sv): the WebAssembly nextpnr-ecp5
traps on chains past about 900 bits, and every bit of chain is delay.

Each core is synthesized by Yosys for ECP5 (up to the LUT mapping, no place
and route: montmul.flows.synth.carry_chains) and its CCU2C cells are followed
COUT -> CIN.  To keep the test fast the width is small and mm_seg_add's
SegWidth is lowered to SEG (8) bits, so a segmented adder gives chains of
SEG + 2 bits while any addition written as one `+` over the operand width
still gives a chain of about WIDE bits.  Chains that do not grow with the
width (word-level arithmetic: a 32-bit CPA word, a 2w-bit multiplier
product) are allowed: a chain longer than a segment at WIDE bits must also
occur, with the same length, at NARROW bits.  The second synthesis runs only
for cores that have such a chain.
"""

from __future__ import annotations

import json
import os
import shutil
import time
import uuid

import pytest

from montmul import cores
from montmul.flows import synth as sy
from montmul.cores import ROOT
from montmul.flows.synth import parse, tools

pytestmark = pytest.mark.rtl

SEG = 8
#: A SEG-bit `+` with carry in and out: ceil((SEG + 1) / 2) CCU2C cells of
#: two bits each.
LIMIT = 2 * ((SEG + 2) // 2)
NARROW, WIDE = 32, 64

#: Cores of other families that still have a long chain (strict: the test
#: fails once a core is fixed, so the entry must then go).
KNOWN_LONG = {
    "systolic_mux": "rtl/systolic: a chain that grows with the width",
}


def _cores():
    for name in cores.CORES:
        if name in KNOWN_LONG:
            yield pytest.param(name, marks=pytest.mark.xfail(strict=True, reason=f"long carry chain: {KNOWN_LONG[name]}"))
        else:
            yield name


@pytest.fixture(scope="module")
def build_dir():
    tools.check("ecp5")
    top = ROOT / "build" / "test_chains"
    top.mkdir(parents=True, exist_ok=True)
    for old in top.iterdir():
        if old.is_dir() and time.time() - old.stat().st_mtime > 6 * 3600:
            shutil.rmtree(old, ignore_errors=True)
    d = top / (os.environ.get("PYTEST_XDIST_TESTRUNUID") or uuid.uuid4().hex)[:16]
    d.mkdir(exist_ok=True)
    return d


def _fmt(chains):
    return ", ".join(f"{c['bits']} bits at {c['src'] or '?'}" for c in chains)


@pytest.mark.parametrize("core", _cores())
def test_no_long_carry_chain(core, build_dir):
    wide = sy.carry_chains(core, WIDE, seg_width=SEG, build_dir=build_dir)
    assert wide, f"{core}: no carry chain at all (the check would see nothing)"
    long = [c for c in wide if c["bits"] > LIMIT]
    if not long:
        return
    narrow = {c["bits"] for c in sy.carry_chains(core, NARROW, seg_width=SEG, build_dir=build_dir)}
    growing = [c for c in long if c["bits"] not in narrow]
    assert not growing, (f"{core}: carry chains longer than a {SEG}-bit segment that grow with the width "
                         f"(at {WIDE} bits): {_fmt(growing)}; use mm_seg_add")


def test_check_sees_a_long_chain(build_dir):
    """The same check with mm_seg_add's default SegWidth (256) sees
    r2_basic's (Width + 3)-bit adder as one chain: the check can fail."""
    chains = sy.carry_chains("r2_basic", WIDE, build_dir=build_dir)
    assert chains[0]["bits"] >= WIDE > LIMIT
    assert chains[0]["src"].startswith("rtl/common/mm_seg_add.sv")


def test_chain_parser(tmp_path):
    """Chains are followed COUT -> CIN across cells in any order; constant
    carry inputs start a chain; the RTL source skips the techmap files."""
    def ccu(cin, cout, src="/share/lattice/arith_map_ccu2c.v:1"):
        return {"type": "CCU2C", "attributes": {"src": src}, "connections": {"CIN": [cin], "COUT": [cout]}}
    cells = {"c2": ccu(11, 12), "c0": ccu("0", 10, "../../rtl/x.sv:5.1-5.9|/share/lattice/arith_map_ccu2c.v:1"),
             "c1": ccu(10, 11), "d0": ccu("1", 20), "lut": {"type": "LUT4", "connections": {"A": [12]}}}
    (tmp_path / "n.json").write_text(json.dumps({"modules": {"top": {"cells": cells}}}))
    got = parse.ecp5_carry_chains(tmp_path / "n.json")
    assert got == [{"cells": 3, "bits": 6, "src": "rtl/x.sv:5.1-5.9"}, {"cells": 1, "bits": 2, "src": None}]
