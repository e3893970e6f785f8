# SPDX-License-Identifier: Apache-2.0
"""docs/security.md's verdict table names every registered core once, with
the registry's constant-time flag (itself checked against the RTL by
tests/test_leak.py)."""

from __future__ import annotations

import re
from pathlib import Path

from montmul import cores

DOC = Path(__file__).resolve().parents[1] / "docs" / "security.md"


def test_verdicts_cover_every_core():
    text = DOC.read_text().split("## Verdicts", 1)[1].split("\n## ", 1)[0]
    verdicts = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) >= 2 and cells[0].startswith("`"):
            for name in re.findall(r"`([a-z0-9_]+)`", cells[0]):
                assert name not in verdicts, f"{name} listed twice"
                verdicts[name] = cells[1].strip("*") == "yes"
    assert sorted(verdicts) == sorted(cores.CORES)
    assert {n: not c.data_dependent for n, c in cores.CORES.items()} == verdicts
