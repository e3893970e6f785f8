# SPDX-License-Identifier: Apache-2.0
"""montmul.apps.report.p004: the RSA key, the engine cycle accounting, the ECP5
skip rule and the section's tolerance of failed synthesis (no synthesis runs
here: run_many and the 1024-bit RSA cycles are replaced)."""

from __future__ import annotations

import math

import pytest

from montmul import cores, engine
from montmul.models import systolic as model
from montmul.apps.report import p004


def test_rsa_key_reproducible_and_valid():
    k = p004.rsa_key(128, seed=3)
    assert k == p004.rsa_key(128, seed=3)
    assert k != p004.rsa_key(128, seed=4)
    assert k["n"] == k["p"] * k["q"] and k["n"].bit_length() == 128
    lam = math.lcm(k["p"] - 1, k["q"] - 1)
    assert k["e"] * k["d"] % lam == 1
    m = 0x1234567
    assert pow(pow(m, k["e"], k["n"]), k["d"], k["n"]) == m


@pytest.mark.parametrize("core", p004.CORES)
def test_rsa_cycles_accounting(core):
    """Every product of these data-independent cores costs L + 2 engine
    cycles: the engine's counts must equal products x (L + 2) + 2, the
    ladder must do two products per exponent bit, and the parallel ladder
    (computed) one product time per bit."""
    w = 8
    k = p004.rsa_key(64, seed=5)
    r = p004.rsa_cycles(core, w, k)
    lat = cores.get(core).latency_bound(64, {"WordWidth": w})
    for name in ("encrypt", "decrypt_sm", "decrypt_ladder"):
        assert r[name]["cycles"] == r[name]["mults"] * (lat + engine.MUL_OVERHEAD) + 2 * engine.REDUCE_CYCLES
    bits = k["d"].bit_length()
    assert r["decrypt_ladder"]["mults"] == 3 + 2 * bits + 1
    assert r["decrypt_sm"]["mults"] == 3 + bits + bin(k["d"]).count("1") + 1
    assert r["encrypt"]["mults"] == 3 + 17 + 2 + 1  # e = 65537: 17 squarings, 2 multiplications
    par = r["decrypt_parallel_ladder"]
    assert par["cycles"] == (3 + bits + 1) * (lat + engine.MUL_OVERHEAD) + 2 * engine.REDUCE_CYCLES
    assert par["cycles"] < r["decrypt_sm"]["cycles"] < r["decrypt_ladder"]["cycles"]
    half = r["decrypt_crt_sm"]["halves"]
    assert r["decrypt_crt_sm"]["cycles"] == sum(h["cycles"] for h in half)


def test_ecp5_skip_rule():
    js, skipped = p004.jobs()
    placed = {(j.core, j.params["WordWidth"]) for j in js if j.target == "ecp5"}
    for c in p004.CORES:
        for w in p004.WORD_WIDTHS:
            need = model.multipliers(p004.WIDTH, w, c) * math.ceil(w / 18) ** 2
            assert ((c, w) in placed) == (need <= p004.ECP5_85K_MULT18)
            assert ((c, w) in placed) != any(s["core"] == c and s["word_width"] == w for s in skipped)
    assert sum(j.target == "xilinx" for j in js) == len(p004.CORES) * len(p004.WORD_WIDTHS)


def test_section_with_failed_synthesis(monkeypatch):
    """build() and markdown() with every synthesis job failed: the section
    names the reason in the cells and still gives cycles and RSA figures."""

    def fail(jobs, **kw):
        return [{"core": j.core, "width": j.width, "target": j.target, "error": "tool exploded"} for j in jobs]

    def rsa(items, workers=1, executor=None):
        return [p004.rsa_cycles(c, w, p004.rsa_key(64, seed=5)) for c, w in items]

    monkeypatch.setattr(p004.synth, "run_many", fail)
    monkeypatch.setattr(p004, "rsa_all", rsa)
    monkeypatch.setattr(p004, "_latency", lambda c, w: {"latency": cores.get(c).latency_bound(1024, {"WordWidth": w}),
                                                        "breakdown": {"total": 1}})
    data = p004.build()
    text = p004.markdown(data)
    assert text.startswith("## Paper 004: ")
    assert "failed: tool exploded" in text
    assert "Failed runs:" in text
    assert "Not run:" in text  # the systolic core at w = 32 does not fit the ECP5's multipliers
