# SPDX-License-Identifier: Apache-2.0
"""Bench of mm_len_check (rtl/modexp), the engines' exponent-length check
(a set bit at or above len_i): proved equal, for every input, to the plain
mask it replaces (`|(e & {i >= len})`) by a Yosys SAT miter at widths on both
sides of its 32-bit groups, including len_i past Width; and the same proof
fails against a check that misses the boundary bit.  The engines' benches
(tb/mm_modexp, tb/mm_modexp_crt) send over-long exponents through it on
both simulators."""
from __future__ import annotations

import pytest

from bench_util import yosys_equiv
from montmul import resources

RTL = [resources.rtl_dir() / "modexp" / "mm_len_check.sv"]


def _ref(name: str, width: int, lenw: int, ge: str = ">=") -> str:
    return (f"module {name} (input logic [{width - 1}:0] e_i, input logic [{lenw - 1}:0] len_i,\n"
            f"                output logic above_o);\n"
            f"  logic [{width - 1}:0] m;\n"
            f"  always_comb begin\n"
            f"    for (int i = 0; i < {width}; i++) m[i] = ({lenw}'(i) {ge} len_i);\n"
            f"    above_o = |(e_i & m);\n"
            f"  end\nendmodule\n")


# (Width, LenW): direct mask (LenW <= 5), one group, a partial last group,
# len_i reaching past the last group, a wide LenW, the engines' 1024 bits.
CASES = [(1, 1), (3, 2), (31, 5), (32, 6), (33, 6), (64, 7), (100, 7), (100, 9), (257, 9), (1024, 11)]


@pytest.mark.parametrize("width,lenw", CASES, ids=[f"w{w}-l{n}" for w, n in CASES])
def test_mm_len_check_equivalent(width, lenw):
    rc, log, bdir = yosys_equiv(f"mm_len_check_w{width}_l{lenw}", RTL, "mm_len_check",
                                {"Width": width, "LenW": lenw}, _ref("ref_len", width, lenw), "ref_len")
    assert rc == 0 and "SAT proof finished - no model found: SUCCESS!" in log, \
        f"not equivalent or Yosys failed, see {bdir / 'equiv.log'}"


def test_mm_len_check_equivalence_can_fail():
    """Against a check that ignores the bit at position len_i itself (> for
    >=) the proof finds a counterexample, so its SUCCESS means something."""
    rc, log, _ = yosys_equiv("mm_len_check_broken", RTL, "mm_len_check", {"Width": 100, "LenW": 7},
                             _ref("bad_len", 100, 7, ">"), "bad_len")
    assert rc != 0 and "SUCCESS" not in log
