# SPDX-License-Identifier: Apache-2.0
"""montmul.apps.report.choosing: each recommendation is the best measured row for
its criterion, and the tracked docs/choosing.md is what the stored results
give today (so the guide cannot go stale)."""

from __future__ import annotations

from pathlib import Path

import pytest

from montmul.apps.report import choosing

ROOT = Path(__file__).resolve().parents[1]


def _e(core, width, us, luts, dsp=0):
    return {"core": core, "width": width, "us": us, "luts": luts, "dsp": dsp, "fmax_mhz": 100.0,
            "cycles": us * 100, "ct": choosing.constant_time(core)}


def test_picks_are_the_best_rows():
    ecp5 = [_e("scs_new", 1024, 5.0, 20_000), _e("scs1", 1024, 9.0, 15_000), _e("r2_basic", 1024, 24.0, 13_000),
            _e("dsp_redundant_ecp5", 1024, 2.0, 25_000, 131), _e("scs1", 256, 1.0, 4_000)]
    rsa = [{"core": "scs_new", "params": {}, "bits": 1024, "ms": 25.0, "luts": 34_000, "dsp": 0, "ct": False},
           {"core": "systolic", "params": {}, "bits": 1024, "ms": 7.0, "luts": 31_000, "dsp": 66, "ct": True}]
    got = {need: (r or {}).get("core") for need, r, _ in choosing.picks(ecp5, [], rsa)}
    assert got["1024-bit product on ECP5, fastest"] == "dsp_redundant_ecp5"
    assert got["1024-bit product on ECP5, fastest constant-time without DSP blocks"] == "scs1"  # scs_new is not
    assert got["1024-bit product on ECP5, fewest LUTs"] == "r2_basic"
    assert got["ECC-sized 256-bit product on ECP5, fastest"] == "scs1"
    assert got["RSA-1024 private key on ECP5, fastest"] == "systolic"
    assert got["RSA-1024 private key on ECP5, fastest without DSP blocks"] == "scs_new"
    assert got["RSA-1024 private key on ECP5, fastest constant-time core without DSP blocks"] is None
    page = choosing.markdown(ecp5, ["systolic at 2048"], [], rsa)
    assert "No measured row yet for: RSA-1024 private key on ECP5, fastest constant-time core without DSP" in page
    assert "Not measured yet on ECP5" in page and "systolic at 2048" in page
    assert "n/a" not in page


def test_model_cycles():
    """Exact model cycles for a constant-latency core; the report's average
    for a data-dependent one, None where it has none."""
    results = {"rows": [{"core": "scs_new", "params": {}, "unit": False,
                         "widths": {"1024": {"cycles": {"avg": 855.5}}}}]}
    assert choosing.model_cycles("r2_basic", 64, results) == 66  # k + 2
    assert choosing.model_cycles("scs_new", 1024, results) == 855.5
    assert choosing.model_cycles("scs_new", 2048, results) is None


def test_tracked_page_is_current(monkeypatch):
    monkeypatch.setenv("MONTMUL_SYNTH_STORE", str(ROOT / "syn" / "results"))  # conftest turns it off
    rows, missing, asic, rsa = choosing.load(ROOT)
    if not rows:
        pytest.skip("no ECP5 result readable (synthesis tools not installed)")
    assert (ROOT / "docs" / "choosing.md").read_text() == choosing.markdown(rows, missing, asic, rsa), \
        f"docs/choosing.md is stale: run {choosing.CMD}"
