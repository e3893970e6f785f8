# SPDX-License-Identifier: Apache-2.0
"""docs/library.md's examples run: every ```python block, in order, as one
script (later blocks use names from earlier ones).  Two RTL builds on Icarus
at 16 bits and one RSA-1024 signature on the model: a few seconds."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[1] / "docs" / "library.md"


def test_library_examples_run(capsys):
    if shutil.which("iverilog") is None:
        pytest.skip("Icarus Verilog not installed")
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(), re.S)
    assert len(blocks) >= 5
    namespace: dict = {"__name__": "docs_library"}
    for i, code in enumerate(blocks):
        try:
            exec(compile(code, f"{DOC.name}[block {i}]", "exec"), namespace)
        except Exception as exc:  # pragma: no cover - the message names the block
            raise AssertionError(f"docs/library.md block {i} failed: {exc!r}\n{code}") from exc
    out = capsys.readouterr().out
    assert "rejected:" in out
