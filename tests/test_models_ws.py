# SPDX-License-Identifier: Apache-2.0
"""The ws array's model (montmul.models.ws): the arithmetic against Python
ints (the exact identity U*R = A*B + Q*Ñ, the bound U < 2Ñ, the word widths
the RTL relies on), the cycle-level ring against the arithmetic bit for bit,
the schedule rules the simulation finds, the closed forms of the chaining
against the simulation, and the figures' command."""
from __future__ import annotations

import random
from math import gcd

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from montmul.models import ws

WS = (8, 16, 17)
DS = (1, 2, 3, 4)


def _check_product(a, b, k):
    u, qs = ws.montmul(a, b, k)
    q = ws.quotient(qs, k)
    assert len(qs) == k.s and all(0 <= x < 1 << k.w for x in qs)
    assert u * k.r == a * b + q * k.ntilde  # exact, hence U = A*B*R^-1 (mod N)
    assert (u * k.r - a * b) % k.n == 0
    assert 0 <= q < k.r
    assert 0 <= u < 2 * k.ntilde
    return u, qs


def _big_ntilde(bits, w, d):
    """The ℓ-bit modulus with the largest Ñ: N = 1 mod 2^(w(d+1)) makes
    n' = 2^(w(d+1)) - 1, so Ñ is close to 2^(ℓ + w(d+1))."""
    return (1 << bits) - (1 << (w * (d + 1))) + 1


def _moduli(w, d):
    """Directed moduli: the smallest, 2^k - 1 and 2^k + 1 around word
    boundaries (2^k - 1 has n' = 1: the smallest Ñ), and the largest Ñ."""
    out = [3, 5, 7, 2**w - 1, 2**w + 1, 2 ** (w + 1) - 1, 2 ** (2 * w) - 1, 2**64 - 1, 2**127 - 1,
           2**61 + 1]
    out += [_big_ntilde(bits, w, d) for bits in (w * (d + 1) + 2, 100, 130)]
    return sorted(set(out))


# --------------------------------------------------------------------------
# Arithmetic
# --------------------------------------------------------------------------


@pytest.mark.parametrize("n", [0, 1, 2, 4, 10, 2**20, -7])
def test_precompute_rejects_bad_moduli(n):
    with pytest.raises(ValueError, match="modulus"):
        ws.precompute(n, 16, 3)


def test_precompute_rejects_bad_parameters():
    with pytest.raises(ValueError, match="word width"):
        ws.precompute(7, 1, 1)
    with pytest.raises(ValueError, match="delay"):
        ws.precompute(7, 16, 0)
    with pytest.raises(ValueError, match="does not fit"):
        ws.precompute(2**20 + 1, 16, 1, bits=20)


@pytest.mark.parametrize("w", WS)
@pytest.mark.parametrize("d", DS)
def test_constants(w, d):
    rng = random.Random(w * 10 + d)
    for n in _moduli(w, d) + [rng.randrange(3, 2**300) | 1 for _ in range(50)]:
        k = ws.precompute(n, w, d)
        low = 1 << (w * (d + 1))
        assert 0 < k.nprime < low and k.ntilde == k.nprime * n
        assert k.ntilde % low == low - 1  # the low d+1 words of Ñ are all ones
        assert k.mscaled * low == k.ntilde + 1 and k.mscaled < n
        assert 4 * k.ntilde <= k.r  # R >= 4Ñ
        # m is the smallest word count that guarantees R >= 4Ñ for every ℓ-bit modulus
        assert w * (k.m - 1) < k.bits + w * (d + 1) + 2 <= w * k.m
        assert (k.s, k.v, k.m_words) == (k.m + d, k.m + 1, -(-k.bits // w))
        assert k.mscaled >> (w * k.m_words) == 0


@pytest.mark.parametrize("w", WS)
@pytest.mark.parametrize("d", DS)
def test_directed_corners(w, d):
    for n in _moduli(w, d):
        k = ws.precompute(n, w, d)
        top = 2 * k.ntilde - 1
        for a in (0, 1, 2, n - 1, n, k.ntilde, top - 1, top):
            for b in (0, 1, top, n - 1):
                u, qs = _check_product(a, b, k)
                assert ws.waves(a, b, k)[:2] == (u, qs)
        assert ws.montmul(0, 0, k)[0] == 0


@given(st.data())
@settings(max_examples=150, deadline=None)
def test_property_products(data):
    w = data.draw(st.sampled_from(WS))
    d = data.draw(st.sampled_from(DS))
    bits = data.draw(st.integers(2, 600))
    n = data.draw(st.integers(max(3, 1 << (bits - 1)), (1 << bits) - 1).filter(lambda x: x % 2))
    k = ws.precompute(n, w, d)
    a = data.draw(st.integers(0, 2 * k.ntilde - 1))
    b = data.draw(st.integers(0, 2 * k.ntilde - 1))
    u, qs = _check_product(a, b, k)
    # chaining: the output is a legal input
    _check_product(u, u, k)


@pytest.mark.parametrize("w", WS)
@pytest.mark.parametrize("d", DS)
def test_words_match_integers(w, d):
    rng = random.Random(w + 100 * d)
    for _ in range(20):
        k = ws.precompute(rng.randrange(3, 2**200) | 1, w, d, bits=200)
        a, b = rng.randrange(2 * k.ntilde), rng.randrange(2 * k.ntilde)
        u, qs, sums = ws.waves(a, b, k)
        assert (u, qs) == ws.montmul(a, b, k)
        assert len(sums) == k.s and all(len(row) == k.v for row in sums)


def test_top_virtual_pe_is_needed():
    # X reaches word m (the top virtual PE's), so V = m + 1 cannot shrink
    # without another mechanism: with the largest operands some wave has a
    # nonzero sum at PE m.
    for w, d in ((8, 1), (16, 3), (17, 3)):
        k = ws.precompute(_big_ntilde(100, w, d), w, d)
        assert k.nprime == (1 << (w * (d + 1))) - 1
        top = 2 * k.ntilde - 1
        sums = ws.waves(top, top, k)[2]
        assert max(row[k.m] for row in sums) > 0


@pytest.mark.parametrize("w", (2, 3, 4))
def test_word_bounds_exhaustive(w):
    # The PE's sum and carry bounds, by brute force over every word value and
    # every carry up to the claimed maximum.
    r = 1 << w
    cmax = ws.carry_max(w)
    most = max(h + x * y + q * z + c for h in range(r) for x in range(r) for y in range(r)
               for q in range(r) for z in range(r) for c in (0, cmax))
    assert most == ws.sum_max(w)
    assert most >> w == cmax  # the carry bound is its own fixed point


@pytest.mark.parametrize("w", (16, 17))
def test_register_widths(w):
    r = 1 << w
    width = ws.widths(w)
    assert ws.sum_max(w) == (r - 1) + 2 * (r - 1) ** 2 + ws.carry_max(w)
    assert ws.sum_max(w) >> w == ws.carry_max(w)
    assert width["carry"] == w + 1 and width["sum"] == 2 * w + 1 and width["products"] == 2 * w + 1


def test_operand_range_rejected():
    k = ws.precompute(101, 8, 1)
    for a, b in ((2 * k.ntilde, 0), (0, 2 * k.ntilde), (-1, 0)):
        with pytest.raises(ValueError, match=r"outside \[0, 2Ñ\)"):
            ws.montmul(a, b, k)


# --------------------------------------------------------------------------
# Cycle level
# --------------------------------------------------------------------------

#: (P, w, d, L, qlat, bits): c = 1, 2 and 3 chunks, legal schedules.
CONFIGS = [
    (12, 8, 2, 3, 0, 40),  # c = 1, idle PEs on the ring
    (10, 8, 2, 3, 0, 40),  # c = 1, P = V
    (6, 8, 2, 3, 0, 40),  # c = 2
    (4, 8, 2, 3, 0, 40),  # c = 3
    (14, 8, 3, 5, 0, 60),  # c = 1, d = 3
    (7, 8, 3, 5, 1, 40),  # c = 2 with P odd: breaks the ring rule, filtered out
    (10, 8, 1, 1, 0, 40),  # d = 1 (the squaring's B is the bottleneck)
    (9, 16, 2, 3, -1, 60),  # w = 16, quotient bypass
    (11, 17, 3, 6, -1, 100),  # w = 17, L = 6
]


def _legal(cfg):
    P, w, d, L, qlat, bits = cfg
    arr = ws.Array(P, w, d, L, qlat)
    k = ws.precompute(3, w, d, bits)
    return ws.ring_ok(P, arr.chunks(k)) and arr.quotient_ok(k)


LEGAL = [cfg for cfg in CONFIGS if _legal(cfg)]


def _jobs(cfg, seed, bs_kinds, halves=2):
    P, w, d, L, qlat, bits = cfg
    rng = random.Random(seed)
    jobs = []
    for _ in range(halves):
        k = ws.precompute(rng.randrange(1 << (bits - 1), 1 << bits) | 1, w, d, bits)
        bs = [ws.SQUARE if kind == "sq" else rng.randrange(2 * k.ntilde) for kind in bs_kinds]
        jobs.append(ws.Job(k, rng.randrange(2 * k.ntilde), bs))
    return ws.Array(P, w, d, L, qlat), jobs


def _reference(job):
    x, out = job.a, []
    for b in job.bs:
        b = x if b == ws.SQUARE else out[b.product] if isinstance(b, ws.ResultOf) else b
        x = ws.montmul(x, b, job.k)[0]
        out.append(x)
    return out


def test_legal_configs_cover_every_chunk_count():
    cs = {ws.Array(*cfg[:5]).chunks(ws.precompute(3, cfg[1], cfg[2], cfg[5])) for cfg in LEGAL}
    assert cs == {1, 2, 3}


@pytest.mark.parametrize("cfg", LEGAL, ids=lambda c: "P{}-w{}-d{}-L{}-q{}-b{}".format(*c))
def test_ring_reproduces_arithmetic(cfg):
    arr, jobs = _jobs(cfg, 1, ["mem", "sq", "mem", "sq", "sq"])
    res = ws.simulate(arr, jobs)
    P, w, d, L, qlat, bits = cfg
    k = jobs[0].k
    c, s = arr.chunks(k), k.s
    for h, job in enumerate(jobs):
        half = res.halves[h]
        assert half.results == _reference(job)
        for j, t0 in enumerate(half.starts):
            assert t0 == L + h + j * arr.interval(k)
            for x in range(k.m):
                # U_x is final at virtual PE x-d+1's add in the last wave (x >= d),
                # or at PE 0's add of wave s-d+x (x < d) ...
                wave, v = (s - 1, x - d + 1) if x >= d else (s - d + x, 0)
                assert half.final[j][x] == t0 + 2 * c * wave + v
                # ... and readable at PE 0 two cycles per word apart.
                if x >= d:
                    assert half.arrive[j][x] == t0 + 2 * c * (s - 1) + 2 * (x - d + 1) + 1
    assert res.cycles == ws.chain_cycles(arr, k, 5)
    assert res.dsp_busy == 2 * 5 * arr.busy(k)


def test_one_half_alone():
    arr, jobs = _jobs(LEGAL[0], 2, ["sq", "mem"], halves=1)
    res = ws.simulate(arr, jobs)
    assert res.halves[0].results == _reference(jobs[0])
    assert res.cycles == ws.chain_cycles(arr, jobs[0].k, 2, halves=1)


def test_rsa2048_half_pair_at_68_pes():
    # A 1024-bit product pair at P = 68 (w = 17, d = 3, L = 5), and a square
    # chained to it: the speed the brief asks (well under a second here).
    rng = random.Random(2048)
    jobs = []
    for _ in range(2):
        k = ws.precompute(rng.randrange(1 << 1023, 1 << 1024) | 1, 17, 3, 1024)
        jobs.append(ws.Job(k, rng.randrange(2 * k.ntilde), [rng.randrange(2 * k.ntilde), ws.SQUARE]))
    arr = ws.Array(68, 17, 3, 5)
    res = ws.simulate(arr, jobs)
    for h in range(2):
        assert res.halves[h].results == _reference(jobs[h])
    assert arr.chunks(jobs[0].k) == 1
    assert res.cycles == ws.chain_cycles(arr, jobs[0].k, 2)


@pytest.mark.parametrize("cfg", LEGAL, ids=lambda c: "P{}-w{}-d{}-L{}-q{}-b{}".format(*c))
def test_load_path(cfg):
    # A and M loaded over the token path (the registers hold nothing until
    # their load token arrives): the same results, 2cV cycles more.
    arr, jobs = _jobs(cfg, 6, ["mem", "sq"])
    for job in jobs:
        job.load = True
    k = jobs[0].k
    res = ws.simulate(arr, jobs)
    for h in range(2):
        assert res.halves[h].results == _reference(jobs[h])
    assert res.cycles == ws.chain_cycles(arr, k, 2, load=True)
    assert ws.load_cycles(arr, k) == 2 * arr.chunks(k) * k.v
    trace = []
    ws.simulate(arr, jobs, trace=trace)
    loads = [e for e in trace if e[0] == "token" and e[3][1] == ws.LOAD]
    # each load token goes from PE 0 to its virtual PE: v + 1 token registers
    assert len(loads) == 2 * sum(v + 1 for v in range(k.v))


def test_trace_shows_every_add():
    arr, jobs = _jobs(LEGAL[0], 3, ["mem"])
    trace = []
    ws.simulate(arr, jobs, trace=trace)
    k = jobs[0].k
    adds = [e for e in trace if e[0] == "add"]
    tokens = [e for e in trace if e[0] == "token"]
    assert len(adds) == len(tokens) == 2 * k.s * k.v
    # at most one add per PE per cycle, and the waves' sums are the arithmetic's
    assert len({(e[1], e[2]) for e in adds}) == len(adds)
    sums = ws.waves(jobs[0].a, jobs[0].bs[0], k)[2]
    for _, _, _, (h, j, i, v), _, _, sv in adds:
        if h == 0:
            assert sv == sums[i][v]


def test_simulate_rejects_bad_jobs():
    arr, jobs = _jobs(LEGAL[0], 4, ["mem"])
    k = jobs[0].k
    with pytest.raises(ValueError):
        ws.simulate(arr, [])
    with pytest.raises(ValueError):
        ws.simulate(arr, [ws.Job(k, 2 * k.ntilde, [1])])
    with pytest.raises(ValueError):
        ws.simulate(arr, [ws.Job(k, 1, [])])
    with pytest.raises(ValueError):
        ws.simulate(arr, [ws.Job(k, 1, [ws.ResultOf(0)])])
    with pytest.raises(ValueError):
        ws.simulate(ws.Array(12, 8, 3, 3), jobs)  # the array's d differs
    for bad in ((0, 8, 1, 1, 0), (4, 8, 1, 0, 0), (4, 8, 1, 1, -2)):
        with pytest.raises(ValueError):
            ws.Array(*bad)


# --------------------------------------------------------------------------
# Schedule rules, as the simulation finds them
# --------------------------------------------------------------------------


@pytest.mark.parametrize("P", [10, 12, 20])  # c = 1 for V = 10
def test_quotient_rule_one_chunk(P):
    # q_(i-d) must be in wave i's token when it leaves PE 0: 2cd >= L + 1 + qlat.
    for d in (1, 2, 3):
        k = ws.precompute(101, 8, d, 40 - 8 * (d - 1))  # keeps V small
        for L in range(1, 9):
            for qlat in (-1, 0, 1):
                arr = ws.Array(max(P, k.v), 8, d, L, qlat)
                job = ws.Job(k, 5, [7])
                legal = 2 * arr.chunks(k) * d >= L + 1 + qlat
                assert arr.quotient_ok(k) == legal  # (2c >= 1 + qlat holds here)
                if legal:
                    assert ws.simulate(arr, [job]).halves[0].results == _reference(job)
                else:
                    with pytest.raises(ws.ScheduleViolation) as e:
                        ws.simulate(arr, [job])
                    assert e.value.rule == "quotient-late"


def test_quotient_rule_two_chunks():
    k = ws.precompute(101, 8, 1, 40)  # V = 9
    for L in range(1, 7):
        arr = ws.Array(6, 8, 1, L)  # c = 2, P = 2 mod 4
        job = ws.Job(k, 5, [7])
        if 4 >= L + 1:
            ws.simulate(arr, [job, job])
        else:
            with pytest.raises(ws.ScheduleViolation, match="quotient-late"):
                ws.simulate(arr, [job, job])


def test_ring_rule():
    # Two halves, c chunks: the slots h + kP must differ mod 2c, i.e. P even
    # with gcd(P/2, c) = 1 (c = 2: P = 2 mod 4).  The simulation finds it.
    k = ws.precompute(101, 8, 2, 56)  # V = 12
    seen = set()
    for P in range(2, 13):
        arr = ws.Array(P, 8, 2, 3)
        c = arr.chunks(k)
        job = ws.Job(k, 5, [7])
        ok = c == 1 or (P % 2 == 0 and gcd(P // 2, c) == 1)
        assert ws.ring_ok(P, c) == ok
        seen.add((c, ok))
        if ok:
            ws.simulate(arr, [job, job])
        else:
            with pytest.raises(ws.ScheduleViolation) as e:
                ws.simulate(arr, [job, job])
            assert e.value.rule == "token-slot"
    assert {(2, True), (2, False), (3, True), (3, False)} <= seen


@pytest.mark.parametrize("cfg", LEGAL, ids=lambda c: "P{}-w{}-d{}-L{}-q{}-b{}".format(*c))
@pytest.mark.parametrize("square", [True, False])
def test_interval_is_minimal(cfg, square):
    # The closed-form interval runs; every shorter one down to 2c(s-1) - 2
    # breaks a named rule (A not yet in place, B not yet at PE 0, a slot).
    arr, jobs = _jobs(cfg, 5, ["sq" if square else "mem"] * 3)
    k = jobs[0].k
    gap = arr.interval(k, square)
    ws.simulate(arr, jobs, interval=gap)
    rules = set()
    for g in range(2 * arr.chunks(k) * (k.s - 1) - 2, gap):
        with pytest.raises(ws.ScheduleViolation) as e:
            ws.simulate(arr, jobs, interval=g)
        rules.add(e.value.rule)
    assert rules <= set(ws.RULES)
    assert "a-not-ready" in rules or "b-not-ready" in rules


@given(st.data())
@settings(max_examples=60, deadline=None)
def test_property_ring(data):
    # Random legal rings, random chains: the ring's results are the word
    # loop's and its cycles the closed form's.
    w = data.draw(st.sampled_from((8, 16, 17)))
    d = data.draw(st.integers(1, 4))
    bits = data.draw(st.integers(8, 80))
    k = ws.precompute(3, w, d, bits)
    P = data.draw(st.integers(max(2, -(-k.v // 3)), k.v + 3))
    arr = ws.Array(P, w, d, 1)
    c = arr.chunks(k)
    L = data.draw(st.integers(1, 2 * c * d))
    qlat = data.draw(st.integers(-1, 2 * c * d - L + 1))
    arr = ws.Array(P, w, d, L, qlat)
    broken = {"token-slot"} - ({"token-slot"} if ws.ring_ok(P, c) else set())
    broken |= set() if arr.quotient_ok(k) else {"quotient-late"}
    event(f"c={c} " + (" ".join(sorted(broken)) or "legal"))
    if broken:
        with pytest.raises(ws.ScheduleViolation) as e:
            ws.simulate(arr, [ws.Job(k, 1, [1]), ws.Job(k, 1, [1])])
        assert e.value.rule in broken
        return
    kinds = data.draw(st.lists(st.sampled_from(["sq", "mem"]), min_size=1, max_size=4))
    cfg = (P, w, d, L, qlat, bits)
    arr, jobs = _jobs(cfg, data.draw(st.integers(0, 1000)), kinds)
    load = data.draw(st.booleans())
    for job in jobs:
        job.load = load
    res = ws.simulate(arr, jobs)
    for h in range(2):
        assert res.halves[h].results == _reference(jobs[h])
    assert res.cycles == ws.chain_cycles(arr, jobs[0].k, len(kinds), square="sq" in kinds, load=load)
    assert res.dsp_busy == 2 * len(kinds) * arr.busy(jobs[0].k)


def test_square_interval_differs_only_for_cd_one():
    for cfg in LEGAL:
        arr = ws.Array(*cfg[:5])
        k = ws.precompute(3, cfg[1], cfg[2], cfg[5])
        differs = arr.interval(k, True) != arr.interval(k, False)
        assert differs == (arr.chunks(k) * cfg[2] == 1)


# --------------------------------------------------------------------------
# Exponentiation and figures
# --------------------------------------------------------------------------


@pytest.mark.parametrize("cfg", [(12, 8, 2, 3, 0, 40), (6, 8, 2, 3, 0, 40)], ids=["c1", "c2"])
def test_exponentiation_on_the_ring(cfg):
    # A CRT-style pair of 40-bit exponentiations run on the ring: both
    # results are x^e mod N (in [0, Ñ]) and each chain's cycles are the
    # closed form the figures use, loads included.
    P, w, d, L, qlat, bits = cfg
    assert _legal(cfg)
    rng = random.Random(40)
    ks = [ws.precompute(rng.randrange(1 << (bits - 1), 1 << bits) | 1, w, d, bits) for _ in range(2)]
    xs = [rng.randrange(k.n) for k in ks]
    es = [rng.randrange(1 << bits) for _ in ks]
    chains = [ws.exponent_chains(k, x, e) for k, x, e in zip(ks, xs, es)]
    arr = ws.Array(P, w, d, L, qlat)
    total = 0
    for part in (0, 1):
        assert all(ch[part].load for ch in chains)  # A (and M) enter over the token path
        res = ws.simulate(arr, [ch[part] for ch in chains])
        for h in range(2):
            assert res.halves[h].results == _reference(chains[h][part])
        assert res.cycles == ws.chain_cycles(arr, ks[0], len(chains[0][part].bs), load=True)
        total += res.cycles
    for h in range(2):
        y = res.halves[h].results[-1]
        assert y % ks[h].n == pow(xs[h], es[h], ks[h].n) and y <= ks[h].ntilde
    assert total == ws.exponentiation(arr, ks[0])["cycles"]
    assert len(chains[0][0].bs) + len(chains[0][1].bs) == ws.exponentiation(arr, ks[0])["products"]


def test_exponent_chains_reject():
    k = ws.precompute(101, 8, 1)
    with pytest.raises(ValueError):
        ws.exponent_chains(k, 101, 1)
    with pytest.raises(ValueError):
        ws.exponent_chains(k, 1, 1 << k.bits)


def test_pick_delay():
    for P, w, bits, L, qlat in ((70, 17, 1024, 6, 0), (66, 17, 1024, 6, -1), (70, 17, 2048, 6, 0), (8, 8, 64, 3, 0)):
        d = ws.pick_delay(P, w, bits, L, qlat)
        assert ws.Array(P, w, d, L, qlat).quotient_ok(ws.precompute(3, w, d, bits))
        if d > 1:
            assert not ws.Array(P, w, d - 1, L, qlat).quotient_ok(ws.precompute(3, w, d - 1, bits))


def test_figures_command(capsys):
    assert ws.main(["--bits", "1024", "2048", "--mhz", "150", "165"]) == 0
    out = capsys.readouterr().out
    assert out.count("\n") == 4 and "ms @ 165 MHz" in out
    rows = ws.figures(bits_list=(1024,))
    r = rows[0]
    arr = ws.Array(r["P"], r["w"], r["d"], r["L"])
    k = ws.precompute(3, r["w"], r["d"], 1024)
    assert r["pair_cycles"] == arr.interval(k)
    assert r["exp_cycles"] == ws.exponentiation(arr, k)["cycles"]
    assert r["ms@165"] == pytest.approx(r["exp_cycles"] / 165e3)
    for bad in (["--w", "1"], ["--mhz", "0"], ["--bits", "1"], ["--pes", "0"]):
        with pytest.raises(SystemExit) as e:
            ws.main(bad)
        assert e.value.code == 2


def test_docs_tables_are_the_commands_output():
    # docs/ws.md shows the output of `python -m montmul.models.ws` and of
    # `... --pes 66 --qlat -1`; regenerate the page's tables if this fails.
    from pathlib import Path

    page = (Path(__file__).resolve().parents[1] / "docs" / "ws.md").read_text()
    for rows in (ws.figures(), ws.figures(pes=66, qlat=-1)):
        assert ws.format_figures(rows) in page


def test_docs_example_runs():
    from pathlib import Path

    page = (Path(__file__).resolve().parents[1] / "docs" / "ws.md").read_text()
    block = page.split("```python\n", 1)[1].split("```", 1)[0]
    exec(compile(block, "docs/ws.md", "exec"), {})


def test_square_interval_with_late_quotient_words():
    # Found by test_property_ring: with d = 1 (and a late quotient, qlat > 0)
    # a squaring's B word 0 is PE 0's quotient U_0, which arrives later than
    # the out path's first word; the interval covers both, and the next
    # shorter one (a multiple of 2c) breaks "b-not-ready".
    k = ws.precompute(3, 8, 1, 23)
    arr = ws.Array(6, 8, 1, 1, 2)
    assert arr.chunks(k) == 2 and arr.quotient_ok(k) and ws.ring_ok(6, 2)
    jobs = [ws.Job(k, 5, [ws.SQUARE, ws.SQUARE]), ws.Job(k, 7, [ws.SQUARE, ws.SQUARE])]
    res = ws.simulate(arr, jobs)
    assert res.halves[0].results[1] == ws.montmul(res.halves[0].results[0], res.halves[0].results[0], k)[0]
    gap = arr.interval(k)
    assert gap == 2 * 2 * (k.s - 1) + 8  # 2c(s-d) + L + 2 + qlat = 2c(s-1) + 5, rounded to a multiple of 4
    with pytest.raises(ws.ScheduleViolation) as e:
        ws.simulate(arr, jobs, interval=gap - 4)
    assert e.value.rule in ("b-not-ready", "token-slot")

