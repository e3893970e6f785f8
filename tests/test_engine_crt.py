# SPDX-License-Identifier: Apache-2.0
"""The CRT engine's model (montmul.engine: crt_engine_model, crt_model,
crt_request, crt_rejects, _round_edges): results against pow() and Garner on
every registered core, the latency against independent counts (one-slot
cores: the products' own latencies; several slots: the dsp model's
RingSchedule driven product by product), the rejection rules, and the
schedule decision documented in docs/modexp.md."""
from __future__ import annotations

import random

import gmpy2
import pytest

from montmul import cores, engine
from montmul.engine import CrtRequest, Mult, crt_engine_model, crt_rejects, crt_request
from montmul.models.dsp import RingSchedule


def _prime(rng: random.Random, k: int) -> int:
    while True:
        p = int(gmpy2.next_prime(rng.getrandbits(k) | 1 << (k - 1)))
        if p.bit_length() == k:
            return p


def _key(k: int, seed: int) -> tuple[int, int, int, int]:
    """Primes p > q of k bits and CRT exponents of a key with e = 65537."""
    rng = random.Random(seed)
    while True:
        p, q = _prime(rng, k), _prime(rng, k)
        phi = (p - 1) * (q - 1)
        if p != q and gmpy2.gcd(65537, phi) == 1:
            d = int(gmpy2.invert(65537, phi))
            return p, q, d % (p - 1), d % (q - 1)


@pytest.mark.parametrize("core", sorted(cores.CORES))
def test_crt_equals_pow_on_every_core(core):
    """m = c^d mod pq on every registered core, both modes, with the primes
    given in either order (the host swaps them)."""
    k = 24
    p, q, dp, dq = _key(k, 1)
    rng = random.Random(core)
    for ladder in (False, True):
        c = rng.randrange(p * q)
        m, cycles = engine.crt_model(core, k, c, p, q, dp, dq, ladder=ladder)
        assert m == (pow(c, dp, p) * q * pow(q, -1, p) + pow(c, dq, q) * p * pow(p, -1, q)) % (p * q)
        assert cycles > 0
        assert engine.crt_model(core, k, c, q, p, dq, dp, ladder=ladder) == (m, cycles)


def test_one_slot_latency_is_the_products_plus_the_steps():
    """On a one-slot core every product costs its latency + 2 (accept and
    take), each of the seven one-cycle steps one cycle, StPre its checks or
    its exponent alignment, whichever is longer."""
    p, q, dp, dq = _key(32, 2)
    for core in ("r2_basic", "scs_new"):
        req = crt_request(12345678901, p, q, dp, dq, core=core, width=32)
        trace: list[Mult] = []
        r = crt_engine_model(req, core=core, width=32, trace=trace)
        assert r.mults == len(trace)
        pre = max(engine.CRT_PRE_CHECKS, 32 - req.dp_len, 32 - req.dq_len)
        assert r.cycles == sum(t.cycles + engine.MUL_OVERHEAD for t in trace) + len(engine.CRT_STEPS) + pre
        short = CrtRequest(**{**req.__dict__, "dq": 5, "dq_len": 3})
        trace = []
        r = crt_engine_model(short, core=core, width=32, trace=trace)
        assert r.cycles == sum(t.cycles + engine.MUL_OVERHEAD for t in trace) + len(engine.CRT_STEPS) + (32 - 3)  # dQ's alignment


def _ring_round(t0: int, lats: list[int], ilv: int, width: int) -> int:
    """The engine's round driven through RingSchedule (the dsp bench's
    timing model): present the products in order from the cycle after t0,
    take every response at once."""
    ring = RingSchedule(width, interleave=ilv)
    assert all(lat == ring.lat for lat in lats)
    e, j, last = t0 + 1, 0, t0
    while len(ring.taken) < len(lats):
        while len(ring.taken) < len(ring.filled) and ring.valid_edge() + 1 < e:
            ring.take(ring.valid_edge() + 1)
        if j < len(lats) and ring.ready(e):
            ring.accept(e, True)
            j += 1
        if len(ring.taken) < len(ring.filled) and ring.valid_edge() + 1 == e:
            last = e
            ring.take(e)
        e += 1
    return last


@pytest.mark.parametrize("ilv", [1, 2, 3])
def test_round_timing_matches_the_ring_schedule(ilv):
    width = 64
    lat = cores.get("dsp_redundant").run_model(3, 5, 7, width, {"Interleave": ilv}).cycles
    for count in (1, 2, 3, 4):
        for t0 in range(3):
            assert engine._round_edges(t0, [lat] * count, ilv) == _ring_round(t0, [lat] * count, ilv, width)


def test_interleaved_crt_beats_the_halves_in_series():
    """The schedule decision (docs/modexp.md): with two slots the CRT halves
    overlap, so the request costs well under the two halves one after the
    other on the same core, and square-and-multiply beats the ladder."""
    k = 64
    p, q, dp, dq = _key(k, 3)
    c = 0x1234567 * p + 5
    params = {"Interleave": 2}
    m, sm = engine.crt_model("dsp_redundant", k, c, p, q, dp, dq, params=params)
    _, lad = engine.crt_model("dsp_redundant", k, c, p, q, dp, dq, params=params, ladder=True)
    series = sum(engine.modexp_model(c % n, e, n, core="dsp_redundant", width=k, params=params).cycles
                 for n, e in ((p, dp), (q, dq)))
    assert sm < 0.6 * series and sm < lad


def test_rejects():
    k = 16
    p, q, dp, dq = _key(k, 4)
    good = crt_request(99, p, q, dp, dq, core="r2_basic", width=k)
    assert crt_rejects(good, k) is None
    p, q = good.p, good.q  # ordered: p > q
    for over, why in (
        ({"p": p - 1}, "odd"), ({"q": q & ~(1 << (k - 1))}, "top bit"),
        ({"dp_len": 0}, "length"), ({"dq_len": k + 1}, "length"),
    ):
        # at the accepting edge
        req = CrtRequest(**{**good.__dict__, **over})
        assert why in crt_rejects(req, k)
        assert crt_engine_model(req, core="r2_basic", width=k).err == 1
        assert crt_engine_model(req, core="r2_basic", width=k).cycles == 0
    for over, why in (
        ({"p": q, "q": p}, "below p"), ({"dq": 1 << (k - 1), "dq_len": 2}, "bits set"),
        ({"r2p": p}, "R^2 mod p"), ({"r2q": q}, "R^2 mod q"), ({"qinvr": p}, "qInv"),
    ):
        # after StPre (its checks, or the alignment of a short exponent)
        req = CrtRequest(**{**good.__dict__, **over})
        assert why in crt_rejects(req, k)
        r = crt_engine_model(req, core="r2_basic", width=k)
        assert r.err == 1 and r.cycles == max(engine.CRT_PRE_CHECKS, k - req.dp_len, k - req.dq_len) > 0
    # a wrong R^2 or qInv*R: err after the check, with cycles
    for over in ({"r2p": (good.r2p + 1) % p}, {"r2q": (good.r2q + 1) % q}, {"qinvr": (good.qinvr + 1) % p}):
        r = crt_engine_model(CrtRequest(**{**good.__dict__, **over}), core="r2_basic", width=k)
        assert r.err == 1 and r.cycles > 0 and (r.mq, r.h) == (0, 0)
    with pytest.raises(ValueError, match="does not fit"):
        crt_engine_model(CrtRequest(**{**good.__dict__, "c": 1 << 2 * k}), core="r2_basic", width=k)
    with pytest.raises(ValueError, match="distinct"):
        engine.crt_model("r2_basic", k, 5, p, p, dp, dp)
    with pytest.raises(ValueError, match="rejects"):
        engine.crt_model("r2_basic", k + 1, 5, p, q, dp, dq)  # primes without bit k set
