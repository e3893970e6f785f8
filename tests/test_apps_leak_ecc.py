# SPDX-License-Identifier: Apache-2.0
"""The timing-leak audit of the public-key engine's ECC programs
(montmul.apps.leak.audit_pke_ecc, ``montmul leak --engine pke --ecc``):
constant on the generated programs (k·P, u1·G + u2·Q, k·G), and flagged for runners whose cycles or
whose dispatch order depend on the scalar."""

from __future__ import annotations

import json

import pytest

from montmul import cli
from montmul.apps.ecc import engine as E
from montmul.apps.ecc.curves import custom
from montmul.apps.leak import audit_pke_ecc, audit_runs, ecc_chosen_scalars, format_report
from montmul.models import pke


def small_curve():
    """tb/mm_pke's 16-bit prime-order curve (a = p - 3)."""
    return custom(40087, 40084, 29458, 3, 3608, 40241, name="small-m3")


def run(capsys, *argv):
    code = cli.main([str(a) for a in argv])
    cap = capsys.readouterr()
    return code, cap.out, cap.err


def test_chosen_scalars_cover_the_corners():
    c = small_curve()
    bits = c.n.bit_length()
    ks = dict((k, lab) for lab, k in ecc_chosen_scalars(c.n, bits))
    assert {0, 1, 2, c.n - 1, c.n, (1 << bits) - 1, 1 << (bits - 1)} <= set(ks)
    assert all(0 <= k < 1 << bits for k in ks)


def test_the_ecc_programs_are_constant_time():
    c = small_curve()
    kp, dbl, kg = audit_pke_ecc(c, samples=2, pes=8)
    for rep in (kp, dbl, kg):
        assert rep.constant_time and not rep.drivers, format_report(rep)
        assert rep.random["min"] == rep.random["max"] > 0
        assert all(row["trace_equal"] and row["cycles"] == rep.random["min"] for row in rep.chosen)
        assert rep.trace_instructions > 1000
    # every random, chosen, base and family run is counted
    assert kp.runs == 2 + len(kp.chosen) + 1 + 2 * 3 and set(kp.influence) == {"scalar", "point"}
    assert dbl.runs == 2 + len(dbl.chosen) + 1 + 3 * 3 and set(dbl.influence) == {"u1", "u2", "point Q"}
    assert kg.runs == 2 + len(kg.chosen) + 1 + 3 and set(kg.influence) == {"scalar"}
    assert "k·G" in kg.core and kg.random["min"] == E.base_mult(c, 0, compute=False, pes=8).cycles
    # the cycles are the model's cycles-only count of the program, not a figure of the audit's own
    assert kp.random["min"] == E.run_scalar_mult(c, 0, (c.gx, c.gy), compute=False, pes=8).cycles
    assert "verdict: constant time" in format_report(kp)


def _runner(extra):
    """The engine's model with ``extra(scalar)`` instructions before HALT (on
    the scratch T1, which the result does not read): a deliberately leaky
    variant of the ECC program."""

    def runner(ep, points, scalars):
        t1 = ep.regions["T1"][0]
        prog = ep.program[:-1] + extra(scalars[0], t1) + ep.program[-1:]
        banks, ks = E.images(ep, points, scalars)
        res = pke.run(prog, banks, ep.build.machine(ks))
        m, w = ep.build.pb.m, ep.build.pb.w
        x, y = (sum(banks[0][ep.regions[r][0] + i] << (w * i) for i in range(m)) for r in ("XOUT", "YOUT"))
        return E.Run(None if (x, y) == (0, 0) else (x, y), res.cycles, res.parts, res.products, res.trace)

    return runner


def test_a_scalar_dependent_cycle_count_is_flagged():
    c = small_curve()
    leaky = _runner(lambda k, t1: [pke.Instr(pke.Op.CLR, 0, t1, n=1)] * (k & 3))
    (rep,) = audit_pke_ecc(c, samples=2, pes=8, ops=("k·P",), runner=leaky)
    assert not rep.constant_time and "scalar" in rep.drivers and "point" not in rep.drivers
    assert rep.influence["scalar"]["max_delta_cycles"] > 0
    assert "DATA-DEPENDENT" in format_report(rep)


def test_a_scalar_dependent_order_is_flagged_with_equal_cycles():
    """The trace catches what the cycle count cannot: the same instructions
    in an order that depends on the scalar's lowest bit."""
    c = small_curve()

    def extra(k, t1):
        a, b = pke.Instr(pke.Op.CLR, 0, t1, n=1), pke.Instr(pke.Op.CLR, 0, t1, n=2)
        return [a, b] if k & 1 else [b, a]

    (rep,) = audit_pke_ecc(c, samples=2, pes=8, ops=("k·P",), runner=_runner(extra))
    cycles = {row["cycles"] for row in rep.chosen} | {rep.random["min"], rep.random["max"]}
    assert len(cycles) == 1, "the two orders must take the same cycles for this test to mean anything"
    assert not rep.constant_time and rep.drivers == ["scalar"]
    assert rep.influence["scalar"]["traces_differing"] > 0 and rep.influence["scalar"]["max_delta_cycles"] == 0
    assert any(not row["trace_equal"] for row in rep.chosen)


def test_audit_runs_on_a_toy():
    def run_(case):  # secret-dependent trace, constant cycles
        return 10, [("op", case % 2)]

    rep = audit_runs("toy", 8, run_, [2, 4], [("odd", 3)], 0, {"secret": [1, 2]})
    assert not rep.constant_time and rep.drivers == ["secret"] and rep.runs == 6
    assert audit_runs("toy", 8, run_, [2, 4], [("even", 6)], 0, {"secret": [2]}).constant_time
    # a reference count that differs from the runs' is a failure too
    assert not audit_runs("toy", 8, run_, [2], [], 0, {}, ref_cycles=11).constant_time


def test_the_wrong_point_is_an_error():
    c = small_curve()
    bad = _runner(lambda k, t1: [])

    def wrong(ep, points, scalars):
        r = bad(ep, points, scalars)
        return E.Run(None, r.cycles, r.parts, r.products, r.trace)

    with pytest.raises(RuntimeError, match="wrong point"):
        audit_pke_ecc(c, samples=1, pes=8, ops=("k·P",), runner=wrong)


def test_cli_errors(capsys):
    code, _, err = run(capsys, "leak", "--core", "scs_new", "--engine", "pke", "--ecc", "secp256r1")
    assert code == 2 and "--core ws --engine pke" in err
    code, _, err = run(capsys, "leak", "--core", "ws", "--ecc", "secp256r1")
    assert code == 2 and "--engine pke" in err
    code, _, err = run(capsys, "leak", "--core", "ws", "--engine", "pke", "--ecc", "nosuchcurve")
    assert code == 3 and "unknown curve" in err
    code, _, err = run(capsys, "leak", "--core", "ws", "--engine", "pke", "--ecc", "secp256r1", "--width", 384)
    assert code == 2 and "field length 256" in err
    code, _, err = run(capsys, "leak", "--core", "ws", "--engine", "pke", "--ecc", "secp256r1", "--rtl-samples", 2)
    assert code == 2 and "--sim icarus or verilator" in err
    code, _, err = run(capsys, "leak", "--core", "ws", "--engine", "pke")
    assert code == 2 and "--width" in err
    code, _, err = run(capsys, "leak", "--core", "ws", "--engine", "pke", "--width", 128, "--mod-alu")
    assert code == 2 and "belong to --ecc" in err


def test_cli_secp160r1_kp(capsys):
    code, out, _ = run(capsys, "leak", "--core", "ws", "--engine", "pke", "--ecc", "secp160r1", "--ecc-op", "kp",
                       "--samples", 1, "--json")
    data = json.loads(out)
    assert code == 0 and data["constant_time"] and data["curve"] == "secp160r1"
    (a,) = data["audits"]
    assert a["constant_time"] and a["runs"] > 20 and a["width"] == 160 and "k·P" in a["core"]


@pytest.mark.parametrize("curve", ["secp256r1", "secp384r1"])
def test_cli_standard_curves(capsys, curve):
    code, out, _ = run(capsys, "leak", "--core", "ws", "--engine", "pke", "--ecc", curve, "--samples", 2)
    assert code == 0 and out.count("verdict: constant time") == 3


def test_rtl_sample_verilator():
    """Chosen scalars through mm_pke's RTL (pke_sim): cycles, dispatches and
    the point equal to the model's."""
    c = small_curve()
    for rep in audit_pke_ecc(c, samples=1, pes=8, ops=("k·P", "k·G"), sim="verilator", rtl_samples=2):
        assert rep.constant_time and len(rep.rtl) == 2, format_report(rep)
        assert all(r["cycles_equal"] and r["trace_equal"] and r["result_ok"] and r["dispatches"] > 100
                   for r in rep.rtl)
