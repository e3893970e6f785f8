# SPDX-License-Identifier: Apache-2.0
"""The mm_modexp engine model (montmul.engine): results against pow(), the
multiplication count and latency formula of docs/modexp.md, the range of every
intermediate value, constant time of the ladder, and the rejection rules."""
from __future__ import annotations

import random

import pytest

from montmul import cores
from montmul.engine import (
    MUL_OVERHEAD,
    REDUCE_CYCLES,
    ModexpResult,
    Mult,
    engine_model,
    exp_len_width,
    modexp_model,
    r2_mod,
)
from montmul.apps.modexp import modexp

ALL = sorted(cores.CORES)
#: Cores whose latency does not depend on the operands.
CONST = [c for c in ALL if not cores.get(c).data_dependent]


def _odd(rng: random.Random, k: int) -> int:
    return rng.randrange(3, 1 << k) | 1


def _run(base, exp, n, core, width, ladder, exp_len=None, params=None):
    trace: list[Mult] = []
    exp_len = max(1, exp.bit_length()) if exp_len is None else exp_len
    r = engine_model(
        base, exp, n, r2_mod(n, core, width), exp_len,
        core=core, width=width, params=params, ladder=ladder, trace=trace,
    )
    return r, trace, exp_len


def _check(base, exp, n, core, width, ladder, exp_len=None, params=None) -> ModexpResult:
    r, trace, t = _run(base, exp, n, core, width, ladder, exp_len, params)
    assert r.err == 0
    assert r.result == pow(base, exp, n)
    # The multiplication count of each mode.
    ones = bin(exp).count("1")
    assert r.mults == len(trace) == (3 + 2 * t + 1 if ladder else 3 + t + ones + 1)
    # Latency formula: sum of core latencies + 2 per product + 2 reductions.
    assert r.cycles == sum(m.cycles for m in trace) + MUL_OVERHEAD * r.mults + 2 * REDUCE_CYCLES
    # Each core latency is the core model's own, for those operands.
    c = cores.get(core)
    for m in trace[:3] + trace[-3:]:
        assert c.run_model(m.a, m.b, n, width, params).cycles == m.cycles
    # Every operand and product in [0, 2N): chaining needs no subtraction.
    for m in trace:
        assert 0 <= m.a < 2 * n and 0 <= m.b < 2 * n and 0 <= m.s < 2 * n
        assert m.s % n == m.a * m.b * pow(2, -c.radix_log2(width, params, n), n) % n
    # The first product is R mod N; the last leaves the domain.
    assert trace[0].s % n == pow(2, c.radix_log2(width, params, n), n)
    assert trace[-1].b == 1
    return r


@pytest.mark.parametrize("ladder", [False, True], ids=["sqm", "ladder"])
@pytest.mark.parametrize("core", ALL)
def test_every_core_small(core, ladder):
    rng = random.Random(5)
    for k in (3, 8, 16):
        for _ in range(6):
            n = _odd(rng, k)
            _check(rng.randrange(n), rng.randrange(1 << k), n, core, k, ladder)


@pytest.mark.parametrize("ladder", [False, True], ids=["sqm", "ladder"])
@pytest.mark.parametrize("width", [8, 16, 64, 256])
def test_random_scs_new(width, ladder):
    rng = random.Random(width)
    for _ in range(4 if width == 256 else 12):
        n = _odd(rng, width)
        _check(rng.randrange(n), rng.randrange(1 << width), n, "scs_new", width, ladder)


@pytest.mark.parametrize("ladder", [False, True], ids=["sqm", "ladder"])
def test_corner_operands(ladder):
    k = 16
    mods = [3, 5, 7, (1 << k) - 1, (1 << k) - 3, (1 << (k - 1)) + 1, 0x8001, 0xFFF1]
    assert {m % 4 for m in mods} == {1, 3}
    for n in mods:
        for base in (0, 1, 2, n - 1):
            for exp in (0, 1, 2, 1 << (k - 1), (1 << k) - 1, 65535, 0x5555):
                for core in ("r2_basic", "scs_new", "fcs_mmm42"):
                    _check(base, exp, n, core, k, ladder)


def test_exp_zero_and_leading_zeros():
    n, k = 0xFFF1, 16
    assert modexp_model(0, 0, n).result == 1  # 0**0 = 1, as pow()
    assert modexp_model(7, 0, n).result == 1
    # Leading zero bits within exp_len are legal: they cost squarings.
    short = modexp_model(7, 5, n, width=k)
    long = modexp_model(7, 5, n, width=k, exp_len=k)
    assert short.result == long.result == pow(7, 5, n)
    assert long.mults == short.mults + (k - 3)


@pytest.mark.parametrize("core", CONST)
def test_ladder_constant_time(core):
    """On a constant-time core, the ladder's latency depends on the exponent
    length only: not on the exponent's bits, the base or the modulus."""
    rng = random.Random(11)
    k = 16
    # The scalable cores' latency follows the modulus length (a public key
    # size): compare their moduli at one length, k bits.
    scalable = cores.get(core).family == "scalable"
    for t in (1, 5, 16):
        seen = set()
        for _ in range(10):
            n = _odd(rng, k) | ((1 << (k - 1)) if scalable else 0)
            exp = rng.randrange(1 << t)
            seen.add(modexp_model(rng.randrange(n), exp, n, core=core, width=k, ladder=True, exp_len=t).cycles)
        if not scalable:
            seen.add(modexp_model(1, 0, 3, core=core, width=k, ladder=True, exp_len=t).cycles)
        seen.add(modexp_model(2, (1 << t) - 1, (1 << k) - 1, core=core, width=k, ladder=True, exp_len=t).cycles)
        assert len(seen) == 1, f"{core} t={t}: ladder cycles {seen}"


def test_square_and_multiply_is_not_constant_time():
    # The contrast to the ladder: one more product per set bit.
    a = modexp_model(3, 0b1000000000000001, 0xFFF1, core="r2_basic")
    b = modexp_model(3, 0b1111111111111111, 0xFFF1, core="r2_basic")
    assert b.mults - a.mults == 14 and b.cycles > a.cycles


def test_r2_mod():
    for core in ALL:
        for k, n in ((8, 251), (16, 0xFFF1), (64, (1 << 64) - 59)):
            r = cores.get(core).radix_log2(k, n=n)
            assert r2_mod(n, core, k) == (1 << (2 * r)) % n
    with pytest.raises(ValueError):
        r2_mod(0, "scs_new", 8)


def test_rejections():
    k, n = 16, 0xFFF1
    r2 = r2_mod(n, "scs_new", k)
    bad = [
        (1, 1, 0xFFF0, 0, 1),  # even modulus
        (0, 1, 1, 0, 1),  # modulus below 3
        (0, 1, 2, 0, 1),
        (1, 1, 0, 0, 1),
        (n, 1, n, r2, 1),  # base not below N
        (n + 1, 1, n, r2, 1),
        (2, 1, n, r2, 0),  # exp_len 0
        (2, 1, n, r2, k + 1),  # exp_len above Width
        (2, 0b100, n, r2, 2),  # a bit at or above exp_len
        (2, 1 << (k - 1), n, r2, k - 1),
        (2, 1, n, n, 1),  # R^2 not below N
    ]
    for base, exp, m, rr, t in bad:
        r = engine_model(base, exp, m, rr, t, core="scs_new", width=k)
        assert r == ModexpResult(0, 1, 0, 0), (base, exp, m, rr, t)


@pytest.mark.parametrize("core", ["r2_basic", "scs_new"])
def test_wrong_r2_rejected(core):
    """A wrong R^2 (in range) is caught by the check product: err after the
    first two products and one reduction, never a wrong result."""
    k, n = 16, 0xFFF1
    good = r2_mod(n, core, k)
    for r2 in (0, 1, good - 1, (good + 1) % n, n - 1):
        trace: list[Mult] = []
        r = engine_model(3, 65537 % (1 << k), n, r2, k, core=core, width=k, trace=trace)
        assert r.err == 1 and r.result == 0 and r.mults == 2
        assert r.cycles == sum(m.cycles for m in trace) + 2 * MUL_OVERHEAD + REDUCE_CYCLES


def test_port_overflow_raises():
    with pytest.raises(ValueError):
        modexp_model(1, 1 << 16, 0xFFF1, width=16)  # exponent wider than the port
    with pytest.raises(ValueError):
        modexp_model(-1, 3, 0xFFF1)
    with pytest.raises(ValueError):
        engine_model(1, 1, 0xFFF1, 1, 1 << exp_len_width(16), width=16)
    # A base not below N that fits the port is an err, not an exception.
    assert modexp_model(0xFFF2, 3, 0xFFF1).err == 1


def test_modexp_batch_model_and_width():
    rng = random.Random(3)
    jobs = [(rng.randrange(n), rng.randrange(1 << 12), n) for n in (_odd(rng, 12) for _ in range(5))]
    jobs.append((5, 3, 0xFFF1))
    out = modexp(jobs, core="scs1", params={"CpaWidth": 4})
    assert [r.result for r in out] == [pow(b, e, n) for b, e, n in jobs]
    # width=None: one width for the batch, the largest modulus' bit length.
    assert out == [modexp_model(b, e, n, core="scs1", width=16, params={"CpaWidth": 4}) for b, e, n in jobs]
    with pytest.raises(ValueError):
        modexp(jobs, sim="spice")


def test_checked_in_wrapper_is_generated():
    """rtl/modexp/mm_modexp_core.sv (the default core, for lint and FuseSoC)
    is exactly what the generator writes for the reference core."""
    from montmul.design import CORE_WRAPPER, DEFAULT_CORE, core_wrapper

    path = cores.RTL / "modexp" / f"{CORE_WRAPPER}.sv"
    assert path.read_text() == core_wrapper(DEFAULT_CORE), (
        "regenerate: python -c \"from montmul.design import *; "
        "write_core_wrapper('rtl/modexp/mm_modexp_core.sv', DEFAULT_CORE)\""
    )


@pytest.mark.parametrize("core", ALL)
def test_wrapper_follows_the_registry(core):
    """The generated wrapper instantiates the registry's top module with its
    fixed parameters (no list of cores anywhere in the engine)."""
    from montmul.design import core_hdl_params, core_wrapper

    c = cores.get(core)
    text = core_wrapper(core)
    assert f"  {c.top} #(" in text and "module mm_modexp_core" in text
    for k, v in core_hdl_params(core).items():
        p = c.all_params[k]
        lit = f"1'b{v}" if (p.lo, p.hi) == (0, 1) else str(v)
        assert f"({lit})" in text.split(f".{k}", 1)[1].splitlines()[0]
    for k, v in c.fixed.items():
        assert core_hdl_params(core)[k] == v


@pytest.mark.parametrize("core", ALL)
def test_final_subtraction_is_needed(core):
    """The exit product MM(x, 1) can be exactly N (N divides base^exp while
    x != 0): the engine's final subtraction is not dead logic.  The bench
    runs this case (N = 3^j, base 3) on the RTL."""
    k = 8
    n = 243
    for ladder in (False, True):
        r, trace, _ = _run(3, 255, n, core, k, ladder)
        assert r.result == 0 and trace[-1].s == n


def test_rtl_results_are_checked_against_the_model(monkeypatch):
    """The one model-or-RTL dispatch (montmul.apps.modexp): a simulated
    result or cycle count that is not the model's raises ModelMismatch, for
    both engines; check=False returns the RTL's answer as it is."""
    from dataclasses import replace

    from montmul.apps import modexp as mx
    from montmul.flows.sim import crt_sim, modexp_sim

    jobs = [(5, 0x2B, 0xC5)]
    good = mx.modexp(jobs, core="r2_basic", width=8)

    def off_by_one(jobs, **kw):
        return [replace(r, cycles=r.cycles + 1) for r in mx.modexp(jobs, core=kw["core"], width=kw["width"])]

    monkeypatch.setattr(modexp_sim, "simulate", off_by_one)
    with pytest.raises(mx.ModelMismatch, match="cycles"):
        mx.modexp(jobs, core="r2_basic", width=8, sim="icarus")
    assert mx.modexp(jobs, core="r2_basic", width=8, sim="icarus", check=False)[0].cycles == good[0].cycles + 1

    req = mx.crt_request(0x1234, 0xFB, 0xF1, 0x2F, 0x35, core="r2_basic", width=8)
    want = mx.crt([req], core="r2_basic", width=8)

    def wrong_h(reqs, **kw):
        return [replace(r, h=r.h ^ 1, mults=0) for r in want]

    monkeypatch.setattr(crt_sim, "simulate", wrong_h)
    with pytest.raises(mx.ModelMismatch, match="h "):
        mx.crt([req], core="r2_basic", width=8, sim="verilator")
    monkeypatch.setattr(crt_sim, "simulate", lambda reqs, **kw: [replace(r, mults=0) for r in want])
    assert mx.crt([req], core="r2_basic", width=8, sim="verilator") == want  # products counted by the model
