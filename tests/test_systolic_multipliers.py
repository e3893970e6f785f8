# SPDX-License-Identifier: Apache-2.0
"""The RTL of paper 004's cores has the multipliers the model counts: Yosys
elaborates both configurations of mm_systolic (no technology mapping) and
counts their $mul cells, which must equal
montmul.models.systolic.multipliers; the multiplexed core must have at most
half as many as the systolic one at the same width and word width."""
from __future__ import annotations

import re
import subprocess

import pytest

from montmul import cores
from montmul.models import systolic as sy
from montmul.flows.synth.tools import find, tool_path

CASES = ((64, 8), (128, 16), (200, 32))  # 10, 9 and 7 words


def _muls(core_name: str, width: int, word_width: int, tmp_path) -> int:
    core = cores.get(core_name)
    srcs = " ".join(tool_path(p, tmp_path) for p in core.sources())
    inc = " ".join(f"-I{tool_path(d, tmp_path)}" for d in core.includes())
    sets = " ".join(f"-set {k} {v}" for k, v in sorted(core.hdl_params(width, WordWidth=word_width).items()))
    script = (
        f"read_verilog -sv {inc} {srcs}; "
        f"chparam {sets} {core.top}; "
        f"hierarchy -top {core.top}; proc; flatten; opt_clean; stat"
    )
    proc = subprocess.run(
        [find("yosys"), "-p", script], cwd=tmp_path, capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr
    m = re.findall(r"^\s*(\d+)\s+\$mul\s*$", proc.stdout, re.M)
    assert m, "no $mul cells reported:\n" + proc.stdout[-3000:]
    return int(m[-1])


@pytest.mark.parametrize("width,word_width", CASES, ids=lambda v: str(v))
def test_multiplier_count(width, word_width, tmp_path):
    sys_n = _muls("systolic", width, word_width, tmp_path)
    mux_n = _muls("systolic_mux", width, word_width, tmp_path)
    assert sys_n == sy.multipliers(width, word_width, "systolic")
    assert mux_n == sy.multipliers(width, word_width, "systolic_mux")
    assert 2 * mux_n <= sys_n
