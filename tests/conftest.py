# SPDX-License-Identifier: Apache-2.0
"""Marks the tests under tests/ that run EDA tools (RTL simulation, lint,
synthesis) as ``rtl``, so ``make test-fast`` (``pytest -m "not rtl" tests``)
runs only the pure-Python ones."""
from __future__ import annotations

import pytest

#: Whole files that run Verilator/Verible lint, Yosys, nextpnr or OpenSTA.
TOOL_FILES = {"test_lint.py", "test_modexp_lint.py", "test_synth.py", "test_report.py"}

#: Words in a test's name or parameter ids that mean it simulates RTL.
RTL_WORDS = ("icarus", "verilator")

#: Tests that simulate RTL without saying so in their name.
RTL_TESTS = {"test_rtl_paths", "test_data_dependent_flag_matches_rtl"}


def pytest_collection_modifyitems(config, items):
    for item in items:
        name = item.nodeid.rsplit("::", 1)[-1].lower()
        if (item.path.name in TOOL_FILES or any(w in name for w in RTL_WORDS)
                or getattr(item, "originalname", item.name) in RTL_TESTS):
            item.add_marker(pytest.mark.rtl)
