# SPDX-License-Identifier: Apache-2.0
"""The timing-leak audit, and the registry's data-dependent flag checked
against it on the RTL."""
from __future__ import annotations

import shutil

import pytest

from montmul import cores
from montmul.apps.leak import audit, chosen_cases, format_report

#: a width no bench uses, so this test never shares a build directory with one
WIDTH = 12


@pytest.mark.skipif(shutil.which("iverilog") is None, reason="needs Icarus Verilog")
@pytest.mark.parametrize("name", sorted(cores.CORES))
def test_data_dependent_flag_matches_rtl(name):
    core = cores.get(name)
    rep = audit(core, WIDTH, samples=40, seed=3, sim="icarus", bases=4)
    assert rep.constant_time == (not core.data_dependent), format_report(rep)
    if core.data_dependent:
        assert rep.random["std"] > 0 and rep.drivers


def test_chosen_cases_are_legal():
    for k in (3, 8, 64):
        for label, a, b, n in chosen_cases(k):
            assert n % 2 == 1 and 3 <= n < 1 << k, label
            assert 0 <= a < 2 * n and 0 <= b < 2 * n, label


def test_audit_names_the_drivers_of_scs_new():
    """Skips depend on A and the sum bits; the conversions on B + N and the
    result: every operand drives SCS-MM-New's latency."""
    rep = audit(cores.get("scs_new"), 32, samples=100, sim="model")
    assert not rep.constant_time
    assert set(rep.drivers) == {"A", "B", "N"}
    text = format_report(rep)
    assert "DATA-DEPENDENT" in text
