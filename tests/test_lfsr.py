# SPDX-License-Identifier: Apache-2.0
"""The XNOR LFSR taps of mm_scs_new's iteration counter: for every counter
width the core can have (PosW = 4 .. 14), the sequence from state 0 has the
maximal period 2^n - 1, so the states the core compares with (LastIt,
LastIt - 1, CtSteps <= 2^PosW - 3) are reached exactly once, in order.
The taps are read from the RTL, so a changed table is checked too."""

from __future__ import annotations

import re

import pytest

from montmul.cores import RTL

SRC = (RTL / "radix2" / "mm_scs_new.sv").read_text()


def _taps() -> dict[int, list[int]]:
    body = SRC[SRC.index("function automatic logic [15:0] lfsr_taps"):SRC.index("endfunction")]
    out = {}
    for label, mask in re.findall(r"^\s*(\d+|default):\s*lfsr_taps = 16'h([0-9A-Fa-f]+);", body, re.M):
        n = 14 if label == "default" else int(label)
        m = int(mask, 16)
        out[n] = [b for b in range(16) if m >> b & 1]
    return out


TAPS = _taps()


def test_table_covers_every_counter_width():
    # PosW = clog2(Width + 8) for Width = 3 .. 8192
    widths = {(w + 8 - 1).bit_length() for w in range(3, 8193)}
    assert widths == set(range(4, 15)) and set(TAPS) == widths


@pytest.mark.parametrize("n", sorted(TAPS))
def test_period_is_maximal(n):
    taps = TAPS[n]
    assert max(taps) == n - 1
    x, seen = 0, {}
    mask = (1 << n) - 1
    for i in range(1 << n):
        if x in seen:
            break
        seen[x] = i
        fb = 1 ^ (sum((x >> t) & 1 for t in taps) & 1)  # XNOR of the taps
        x = ((x << 1) | fb) & mask
    assert len(seen) == (1 << n) - 1  # every state but the all-ones lock-up
    assert mask not in seen
