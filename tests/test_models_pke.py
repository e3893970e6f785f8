# SPDX-License-Identifier: Apache-2.0
"""The public-key engine's model (montmul.models.pke): RSA-CRT results
against pow() and byte-identical against `cryptography`'s PKCS#1 v1.5
signatures, every array job checked against ws.simulate (values and cycles)
at small sizes, the exact final reduction's bound on worst-case moduli, the
constant-time property (same trace and cycles for other data), the program
format's round trip and the errors for bad input and bad programs."""
from __future__ import annotations

import random

import gmpy2
import pytest
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import padding, rsa
from hypothesis import given, settings
from hypothesis import strategies as st

from montmul.apps.rsa import emsa_pkcs1_v15
from montmul.models import pke, ws

SMALL = {"pes": 10, "w": 8}  # ℓ = 64: c = 2 laps (d = 2)
SMALL_C1 = {"pes": 16, "w": 8}  # ℓ = 64: c = 1 (d = 4)


def _prime(rng: random.Random, bits: int, residue: tuple[int, int] | None = None) -> int:
    """A random prime of exactly ``bits`` bits, optionally ≡ r mod 2^t."""
    while True:
        x = rng.getrandbits(bits) | (1 << (bits - 1)) | 1
        if residue:
            r, t = residue
            x = (x >> t << t) | r
        if x.bit_length() == bits and gmpy2.is_prime(x):
            return x


def _key(rng, bits, residues=(None, None)):
    e = 65537
    while True:
        p, q = _prime(rng, bits // 2, residues[0]), _prime(rng, bits // 2, residues[1])
        if p != q and gmpy2.gcd(e, (p - 1) * (q - 1)) == 1:
            return p, q, e, pow(e, -1, (p - 1) * (q - 1))


def _crt(p, q, d, c, **kw):
    return pke.rsa_crt(p, q, d % (p - 1), d % (q - 1), c, **kw)


# --------------------------------------------------------------------------
# Results
# --------------------------------------------------------------------------


@pytest.mark.parametrize("arr", [SMALL, SMALL_C1], ids=["c2", "c1"])
def test_rsa_crt_exact_against_simulate(arr):
    """Every array job of the program run cycle by cycle on ws.simulate
    (values and cycles equal the engine's), the result equal to pow()."""
    rng = random.Random(11)
    p, q, e, d = _key(rng, 128)
    n = p * q
    for c in (0, 1, n - 1, rng.randrange(n)):
        res = _crt(p, q, d, c, exact=True, **arr)
        assert res.value == pow(c, d, n)


def test_rsa_crt_blinding_exact():
    rng = random.Random(12)
    p, q, e, d = _key(rng, 128)
    n = p * q
    c = rng.randrange(n)
    plain = _crt(p, q, d, c, **SMALL)
    r = rng.randrange(2, n)
    based = _crt(p, q, d, c, r=r, e=e, exact=True, **SMALL)
    assert based.value == pow(c, d, n)
    assert based.parts["blinding"] > 0 and based.cycles > plain.cycles
    kp, kq = rng.getrandbits(16), rng.getrandbits(16)
    dp, dq = d % (p - 1) + kp * (p - 1), d % (q - 1) + kq * (q - 1)
    both = pke.rsa_crt(p, q, dp, dq, c, exp_bits=64 + 16, r=r, e=e, exact=True, **SMALL)
    assert both.value == pow(c, d, n)
    assert both.products > based.products  # 4 more windows


@pytest.mark.parametrize("pq_bits", [(64, 40), (40, 64), (56, 56), (64, 63)])
def test_rsa_crt_shorter_and_unbalanced_primes(pq_bits):
    """Primes shorter than the build's ℓ = 64, unbalanced, either order
    (half 0 takes the larger): the conversion in's bound needs only q < 2^ℓ."""
    rng = random.Random(sum(pq_bits))
    e = 65537
    while True:
        p, q = _prime(rng, pq_bits[0]), _prime(rng, pq_bits[1])
        if p != q and gmpy2.gcd(e, (p - 1) * (q - 1)) == 1:
            break
    d = pow(e, -1, (p - 1) * (q - 1))
    n = p * q
    for c in (n - 1, rng.randrange(n)):
        assert _crt(p, q, d, c, bits=64, **SMALL).value == pow(c, d, n)


@pytest.mark.parametrize("bits", [512, 1024, 2048])
def test_pkcs1v15_signature_byte_identical(bits):
    """RSA-CRT on the engine (the figures' array, P = 70, w = 17) signs
    byte-identically to cryptography (keys from cryptography's private
    numbers; the 512-bit key from our primes, which cryptography accepts)."""
    rng = random.Random(bits)
    if bits < 1024:
        p, q, e, d = _key(rng, bits)
        numbers = rsa.RSAPrivateNumbers(p, q, d, d % (p - 1), d % (q - 1), pow(q, -1, p),
                                        rsa.RSAPublicNumbers(e, p * q))
        key = numbers.private_key()
    else:
        key = rsa.generate_private_key(65537, bits)
        numbers = key.private_numbers()
    n = numbers.public_numbers.n
    k = (n.bit_length() + 7) // 8
    for msg in (b"montmul", b"public-key engine"):
        ref = key.sign(msg, padding.PKCS1v15(), hashes.SHA256())
        em = int.from_bytes(emsa_pkcs1_v15(msg, k, "sha256"), "big")
        res = pke.rsa_crt(numbers.p, numbers.q, numbers.dmp1, numbers.dmq1, em)
        assert res.value.to_bytes(k, "big") == ref


@pytest.mark.parametrize("residues", [((2**24 - 1, 24), (2**24 - 1, 24)), ((1, 24), (1, 24)),
                                      ((2**24 - 1, 24), (1, 24))], ids=["n'=1", "n'=max", "mixed"])
def test_rsa_crt_worst_case_moduli(residues):
    """Primes with n' = 1 (Ñ = p: the array's input bound at its tightest,
    Garner's D < 2p) and n' = 2^(w(d+1)) - 1 (Ñ largest: the exact
    reduction's worst case), w(d+1) = 24 for the small build; messages at the
    ends of the range."""
    rng = random.Random(13)
    b = pke.Build(64, **SMALL)
    assert b.w * (b.d + 1) == 24
    p, q, e, d = _key(rng, 128, residues)
    n = p * q
    for h, (r, _) in zip((p, q), residues):
        assert ws.precompute(h, b.w, b.d, 64).nprime == (1 if r != 1 else (1 << 24) - 1)
    for c in (0, 1, 2, p, q, n - 1, n - 2, rng.randrange(n)):
        assert _crt(p, q, d, c, **SMALL).value == pow(c, d, n)


# --------------------------------------------------------------------------
# The exact reduction: REDC over d+2 rows with the word MAC, then CSUB
# --------------------------------------------------------------------------


def _reduction(n, z, b: pke.Build, rows=None, csub=True):
    """Run the reduction's instructions alone on value z (array output range)
    for modulus n in both halves; returns (Y after the REDC, final)."""
    lay = pke.layout(b)
    k = ws.precompute(n, b.w, b.d, b.bits)
    rows = b.j_out if rows is None else rows
    banks = []
    for _ in range(2):
        bank = [0] * pke.MEM_WORDS
        addr, _ = lay["Z"]
        for i in range(b.m):
            bank[addr + i] = (z >> (b.w * i)) & ((1 << b.w) - 1)
        bank[lay["NINV"][0]] = -pow(n, -1, 1 << b.w) % (1 << b.w)
        for i in range(b.ln):
            bank[lay["MOD"][0] + i] = (n >> (b.w * i)) & ((1 << b.w) - 1)
        banks.append(bank)
    zaddr = lay["Z"][0]
    prog = [pke.Instr(pke.Op.CLR, 0, zaddr + b.m, n=rows),
            pke.Instr(pke.Op.MACR, pke.F_REDC, zaddr, 0, lay["MOD"][0], rows, b.ln)]
    res = pke.run(prog + [pke.Instr(pke.Op.HALT)], [x[:] for x in banks], pke.Machine(b.array, [k, k]))
    y = sum(res.banks[0][zaddr + rows + i] << (b.w * i) for i in range(b.ln + 1))
    final = None
    if csub:
        prog = pke._exact_out(lay, "Z", "MP", b, "reduction") + [pke.Instr(pke.Op.HALT)]
        res = pke.run(prog, banks, pke.Machine(b.array, [k, k]))
        final = sum(res.banks[1][lay["MP"][0] + i] << (b.w * i) for i in range(b.m))
    return y, final


@pytest.mark.parametrize("w,d,bits", [(8, 2, 64), (8, 4, 64), (17, 4, 1024), (17, 2, 2048), (3, 1, 20)])
def test_exact_reduction_bound(w, d, bits):
    """Proof (docs/pke.md): for Z < 2Ñ, Y = (Z + Q·N)/2^(w(d+2)) < Z/2^(w(d+2)) + N
    < N(1 + 2^(1-w)) < 2N, and Y ≡ Z·2^(-w(d+2)); one subtract and select
    give Z·2^(-w(d+2)) mod N exactly.  Worst cases: n' = 1 (N ≡ -1) and
    n' = 2^(w(d+1)) - 1 (N ≡ 1 mod 2^(w(d+1))), Z = 2Ñ - 1, Ñ, 0, 1."""
    b = pke.Build(bits, pes=200, w=w, d=d, latency=1)
    low = 1 << (w * (d + 1))
    rng = random.Random(bits + w + d)
    moduli = [(1 << bits) - 1, (1 << bits) - low + 1, (1 << (bits - 1)) + 1, 3,
              low - 1 if (low - 1).bit_length() <= bits else 3]
    moduli += [rng.getrandbits(bits) | 1 for _ in range(3)]
    j = d + 2
    for n in moduli:
        if n < 3:
            continue
        k = ws.precompute(n, w, d, bits)
        assert k.nprime in (1, low - 1) or n not in moduli[:2]
        for z in (2 * k.ntilde - 1, k.ntilde, 0, 1, rng.randrange(2 * k.ntilde)):
            y, final = _reduction(n, z, b)
            assert y << (w * j) < z + (n << (w * j)) and y < 2 * n
            assert (y << (w * j)) % n == z % n
            assert final == z * pow(1 << (w * j), -1, n) % n


def test_reduction_needs_d_plus_2_rows():
    """With d+1 rows the bound fails on the largest Ñ: some Z < 2Ñ gives
    Y = (Z + Q·N)/2^(w(d+1)) >= 2N, so one conditional subtraction would not
    do (the arithmetic of REDC; the engine's d+2 rows are checked above)."""
    w, d, bits = 8, 2, 64
    n = (1 << bits) - (1 << (w * (d + 1))) + 1  # n' = 2^(w(d+1)) - 1
    k = ws.precompute(n, w, d, bits)
    low = 1 << (w * (d + 1))
    zs = [2 * k.ntilde - 1 - i for i in range(0, 3000, 7)]
    assert any((z + (-z * pow(n, -1, low) % low) * n) // low >= 2 * n for z in zs)


def test_input_reduction_bound():
    """Conversion in: c < N = pq reduced by REDC over ceil(ℓ/w) rows gives
    Y < c/2^(w·ceil(ℓ/w)) + p < 2p (q < 2^ℓ), an array operand for any p."""
    rng = random.Random(5)
    b = pke.Build(64, **SMALL)
    for _ in range(5):
        p, q, e, d = _key(rng, 128)
        lay = pke.layout(b)
        banks, ks = pke.host_images(b, max(p, q), min(p, q), 1, 1, p * q - 1)
        prog = pke._reduce_in(lay, "CIN", b, "x") + [pke.Instr(pke.Op.HALT)]
        pke.run(prog, banks, pke.Machine(b.array, ks))
        for h, n in enumerate((max(p, q), min(p, q))):
            base = lay["CIN"][0] + b.ln
            y = sum(banks[h][base + i] << (b.w * i) for i in range(b.m))
            assert y < 2 * n and (y << (b.w * b.ln)) % n == (p * q - 1) % n


# --------------------------------------------------------------------------
# Constant time
# --------------------------------------------------------------------------


def test_trace_independent_of_data():
    """The executed instruction trace (every instruction, its issue cycle and
    cycles) and the total are the same for other exponents, messages and
    keys of the same length: no branch, loop count or timing depends on a
    secret (the table's address does, a block RAM read of fixed latency)."""
    rng = random.Random(21)
    runs = []
    for i in range(3):
        p, q, e, d = _key(rng, 128)
        n = p * q
        c = [0, n - 1, rng.randrange(n)][i]
        dp = [1, (p - 1) // 2, d % (p - 1)][i]
        dq = [(q - 2), 1, d % (q - 1)][i]
        res = pke.rsa_crt(p, q, dp, dq, c, exp_bits=64, **SMALL)
        assert res.value % p == pow(c, dp, p) and res.value % q == pow(c, dq, q)
        runs.append(res)
    assert all(r.trace == runs[0].trace and r.cycles == runs[0].cycles for r in runs)
    # ... and equal to the cycles-only run (the figures' mode).
    p, q, e, d = _key(rng, 128)
    assert pke.rsa_crt(p, q, 1, 1, 0, exp_bits=64, compute=False, **SMALL).trace == runs[0].trace


def test_figures_match_a_real_run():
    rows = pke.figures((2048,))
    rng = random.Random(2048)
    p, q, e, d = _key(rng, 2048)
    c = rng.randrange(p * q)
    res = _crt(p, q, d, c)
    assert res.value == pow(c, d, p * q) and rows[0]["cycles"] == res.cycles
    assert rows[0]["products"] == res.products
    assert sum(rows[0][part] for part in pke.PARTS) == res.cycles


# --------------------------------------------------------------------------
# Program and format
# --------------------------------------------------------------------------


def test_program_follows_the_array_schedule():
    """The exponentiation job's products are ws.exponent_chains' second
    chain (four squarings and a table product per further window, then the
    conversion out), the table job its first (15 products)."""
    b = pke.Build(64, **SMALL)
    prog = pke.rsa_crt_program(b)
    k = ws.precompute((1 << 64) - 59, b.w, b.d, 64)
    job1, job2 = ws.exponent_chains(k, 5, (1 << 63) + 12345)
    jobs = [i for i, x in enumerate(prog) if x.op == pke.Op.JOB]
    assert prog[jobs[0]].b == len(job1.bs) and prog[jobs[1]].b == len(job2.bs)
    trace = pke.rsa_crt((1 << 64) - 59, (1 << 63) + 29, 3, 3, 7, **SMALL, compute=False).trace
    kinds = [("SQ" in text.split()[0]) for _, text, _, _ in trace if text.startswith("PROD")]
    kinds = kinds[len(job1.bs): len(job1.bs) + len(job2.bs)]
    assert kinds == [b_ == ws.SQUARE for b_ in job2.bs]


@pytest.mark.parametrize("build", [pke.Build(64, **SMALL), pke.Build(1024), pke.Build(2048, 2112, base_blind=True)])
def test_encode_decode_round_trip(build):
    prog = pke.rsa_crt_program(build)
    words = pke.encode(prog)
    assert all(0 <= x < 1 << pke.INSTR_BITS for x in words)
    assert pke.decode(words) == prog


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(list(pke.Op)), *[st.integers(0, (1 << bits) - 1) for _, bits in pke.FIELDS[1:]])
def test_encode_decode_fields(op, flags, dst, a, b, c, n):
    ins = pke.Instr(op, flags, dst, a, b, c, n)
    word = ins.encode()
    assert pke.Instr.decode(word) == ins
    assert word >> (pke.INSTR_BITS - 5) == op


def test_encode_rejects():
    with pytest.raises(ValueError, match="field n"):
        pke.Instr(pke.Op.ADD, n=1 << 10).encode()
    with pytest.raises(ValueError, match="unknown opcode"):
        pke.Instr.decode(31 << (pke.INSTR_BITS - 5))
    with pytest.raises(ValueError, match="72 bits"):
        pke.Instr.decode(1 << 72)


def test_mod_add_sub():
    """The word-serial modular addition and subtraction fragments (the ECC
    seam), both halves with different moduli, against Python ints."""
    b = pke.Build(64, **SMALL)
    k = ws.precompute(101, b.w, b.d, 64)
    mach = pke.Machine(b.array, [k, k])
    rng = random.Random(41)
    g1, n = pke.GROUP_WORDS, 9  # 9 words of 8 bits: room for a + b < 2N with N < 2^64
    A, B, MOD, T1, T2, OUT = 0, g1, g1 + 20, 40, g1 + 40, 80
    for _ in range(40):
        mods = [rng.getrandbits(64) | 1 | rng.choice([0, 1 << 63]) for _ in range(2)]
        vals = [(rng.randrange(x), rng.randrange(x)) for x in mods]
        vals[0] = rng.choice([vals[0], (0, 0), (mods[0] - 1, mods[0] - 1), (0, mods[0] - 1)])
        for frag, fn in ((pke.mod_add, lambda x, y, z: (x + y) % z), (pke.mod_sub, lambda x, y, z: (x - y) % z)):
            banks = [[0] * pke.MEM_WORDS for _ in range(2)]
            for h in range(2):
                for base, v in ((A, vals[h][0]), (B, vals[h][1]), (MOD, mods[h])):
                    banks[h][base: base + n] = [(v >> (8 * i)) & 255 for i in range(n)]
            res = pke.run(frag(OUT, A, B, MOD, T1, T2, n) + [pke.Instr(pke.Op.HALT)], banks, mach)
            for h in range(2):
                got = sum(banks[h][OUT + i] << (8 * i) for i in range(n))
                assert got == fn(*vals[h], mods[h])
            assert res.cycles == 4 * mach.timing.dispatch + 3 * mach.timing.stream(n)


def test_alu_cycle_formulas():
    b = pke.Build(64, **SMALL)
    k = ws.precompute(101, b.w, b.d, 64)
    mach = pke.Machine(b.array, [k, k])
    tm = mach.timing
    banks = [[0] * pke.MEM_WORDS for _ in range(2)]
    banks[0][10], banks[0][pke.GROUP_WORDS + 10] = 200, 100
    g1 = pke.GROUP_WORDS
    prog = [pke.Instr(pke.Op.SUB, pke.F_H0, g1 + 20, 10, g1 + 10, n=5),
            pke.Instr(pke.Op.SEL, 0, 30, 10, g1 + 20, n=5),
            pke.Instr(pke.Op.MACR, pke.F_H0, 40, 10, pke.GROUP_WORDS + 10, 2, 3),
            pke.Instr(pke.Op.HALT)]
    res = pke.run(prog, banks, mach)
    assert res.cycles == 4 * tm.dispatch + 2 * tm.stream(5) + tm.macr(2, 3)
    assert [x[2] for x in res.trace] == [1, 2 + tm.stream(5), 3 + 2 * tm.stream(5),
                                         4 + 2 * tm.stream(5) + tm.macr(2, 3)]
    assert banks[0][g1 + 20] == 100 and banks[0][30] == 100  # no borrow: F = 0 selects b (the difference)
    assert banks[1][30] == 0
    assert banks[0][40] == 200 * 100 % 256 and banks[0][41] == 200 * 100 >> 8


# --------------------------------------------------------------------------
# Errors
# --------------------------------------------------------------------------


def test_bad_inputs():
    rng = random.Random(31)
    p, q, e, d = _key(rng, 128)
    n = p * q
    cases = [((p + 1, q, 1, 1, 5), "even"), ((1, q, 1, 1, 5), "below 3"), ((p, p, 1, 1, 5), "equal"),
             ((p, q, 0, 1, 5), "at least 1"), ((p, q, 1, 0, 5), "at least 1"),
             ((p, q, 1 << 64, 1, 5), "longer than the build"), ((p, q, 1, 1, n), r"outside \[0, N\)"),
             ((p, q, 1, 1, -1), r"outside \[0, N\)")]
    for args, msg in cases:
        with pytest.raises(ValueError, match=msg):
            pke.rsa_crt(*args, **SMALL)
    with pytest.raises(ValueError, match="coprime"):
        pke.rsa_crt(p, q, 1, 1, 5, r=p, e=e, **SMALL)
    with pytest.raises(ValueError, match="public exponent"):
        pke.rsa_crt(p, q, 1, 1, 5, r=7, **SMALL)
    with pytest.raises(ValueError, match="does not fit"):
        pke.rsa_crt(p, q, 1, 1, 5, bits=32, **SMALL)
    with pytest.raises(ValueError, match="laps of the ring"):
        pke.Build(64, pes=8, w=8)


def _mach():
    b = pke.Build(64, **SMALL)
    k = ws.precompute(101, b.w, b.d, 64)
    return b, pke.Machine(b.array, [k, k]), [[0] * pke.MEM_WORDS for _ in range(2)]


@pytest.mark.parametrize("prog,msg", [
    ([pke.Instr(pke.Op.ADD, 0, 0, 10, 20, n=2), pke.Instr(pke.Op.HALT)], "same EBR group"),
    ([pke.Instr(pke.Op.PROD)], "outside a JOB"),
    ([pke.Instr(pke.Op.CLR, 0, 0, n=1)], "without HALT"),
    ([pke.Instr(pke.Op.END)], "END without REP"),
    ([pke.Instr(pke.Op.REP, n=2)] * 3 + [pke.Instr(pke.Op.HALT)], "nested deeper"),
    ([pke.Instr(pke.Op.REP, n=0), pke.Instr(pke.Op.HALT)], "below 1"),
    ([pke.Instr(pke.Op.MOV, 0, pke.GROUP_WORDS - 1, 0, n=2), pke.Instr(pke.Op.HALT)], "straddle"),
    ([pke.Instr(pke.Op.CLR, 0, pke.MEM_WORDS - 1, n=2), pke.Instr(pke.Op.HALT)], "outside the bank"),
])
def test_bad_programs(prog, msg):
    _, mach, banks = _mach()
    with pytest.raises(ValueError, match=msg):
        pke.run(prog, banks, mach)


def test_bad_jobs():
    b, mach, banks = _mach()
    m, g1 = b.m, pke.GROUP_WORDS
    job = pke.Instr(pke.Op.JOB, pke.F_LOAD, 0, 0, 2, g1, m)
    with pytest.raises(ValueError, match="previous product"):
        pke.run([job, pke.Instr(pke.Op.PROD, pke.F_STORE, 100, 0, 200),
                 pke.Instr(pke.Op.PROD, 0, 0, 0, 100), pke.Instr(pke.Op.HALT)], banks, mach)
    with pytest.raises(ValueError, match="the table at"):
        pke.run([pke.Instr(pke.Op.SETX, 0, 0, 0, m), pke.Instr(pke.Op.JOB, pke.F_LOAD, 0, 0, 2, g1, m),
                 pke.Instr(pke.Op.PROD, pke.F_STORE, 100 + 3 * m, 0, 200),
                 pke.Instr(pke.Op.PROD, pke.F_BTAB, 0, 0, 100), pke.Instr(pke.Op.HALT)], banks, mach)
    # the table stride is SETX's b: a stride in the JOB or the PROD is refused, not ignored
    with pytest.raises(ValueError, match="stride is SETX's b"):
        pke.run([pke.Instr(pke.Op.SETX, 0, 0, 0, m), pke.Instr(pke.Op.JOB, pke.F_LOAD, 0, 0, 1, g1, m),
                 pke.Instr(pke.Op.PROD, pke.F_BTAB, 0, 0, 100, n=m), pke.Instr(pke.Op.HALT)], banks, mach)
    with pytest.raises(ValueError, match="stride is SETX's b"):
        pke.run([pke.Instr(pke.Op.SETX, 0, 0, 0, m), pke.Instr(pke.Op.JOB, pke.F_LOAD | pke.F_ATAB, m, 100, 1, g1, m),
                 pke.Instr(pke.Op.PROD, 0, 0, 0, 200), pke.Instr(pke.Op.HALT)], banks, mach)
    with pytest.raises(ValueError, match="program ends"):
        pke.run([job, pke.Instr(pke.Op.PROD, 0, 0, 0, 200)], banks, mach)
    with pytest.raises(ValueError, match="scaled modulus"):
        pke.run([job, pke.Instr(pke.Op.PROD, 0, 0, 0, 200), pke.Instr(pke.Op.PROD, pke.F_BSQ),
                 pke.Instr(pke.Op.HALT)], banks, mach)
    with pytest.raises(ValueError, match="word count"):
        pke.run([pke.Instr(pke.Op.JOB, pke.F_LOAD, 0, 0, 1, g1, m + 1)], banks, mach)


def test_figures_command(capsys):
    assert pke.main(["--rsa", "2048", "--mhz", "141"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("| RSA |") and "\n| 2048 | 1024 | 70 |" in out
    with pytest.raises(SystemExit) as exc:
        pke.main(["--rsa", "2047"])
    assert exc.value.code == 2


def test_docs_are_the_commands_output():
    # docs/pke.md shows the output of the module's command (figures, memory
    # map, listing); regenerate the page's tables if this fails.
    from pathlib import Path

    page = (Path(__file__).resolve().parents[1] / "docs" / "pke.md").read_text()
    assert pke.format_figures(pke.figures()) in page
    assert pke.format_figures(pke.figures(pes=66, qlat=-1)) in page
    assert pke.format_figures(pke.figures((2048, 4096), exp_blind=64, base_blind=True)) in page
    assert pke.format_layout(pke.Build(1024, base_blind=True)) in page
    assert pke.format_listing(pke.rsa_crt_program(pke.Build(1024))) in page


def test_docs_example_runs():
    from pathlib import Path

    page = (Path(__file__).resolve().parents[1] / "docs" / "pke.md").read_text()
    block = page.split("```python\n", 1)[1].split("```", 1)[0]
    exec(compile(block, "docs/pke.md", "exec"), {})


def test_sv_package_is_generated_from_the_model():
    """rtl/ws/mm_pke_pkg.sv (the opcodes, flag bits and fields mm_pke_seq and
    mm_pke_alu use) is the generator's output: regenerate it with
    `python -m montmul.models.pke --sv-package > rtl/ws/mm_pke_pkg.sv`."""
    from pathlib import Path

    text = (Path(__file__).resolve().parents[1] / "rtl" / "ws" / "mm_pke_pkg.sv").read_text()
    assert text == pke.sv_package()
    for op in pke.Op:  # every opcode and field, with the model's value
        assert f"Op{op.name.capitalize()} " in text and f"= 5'd{int(op)};" in text
    lsb = pke.INSTR_BITS
    for name, bits in pke.FIELDS:
        lsb -= bits
        assert f"Fld{name.capitalize()}Lsb" in text and f"= {lsb};" in text


def test_sv_modules_read_the_package():
    """mm_pke_seq and mm_pke_alu take their opcodes and flags from mm_pke_pkg,
    no literal opcode of their own."""
    import re
    from pathlib import Path

    rtl = Path(__file__).resolve().parents[1] / "rtl" / "ws"
    for f in ("mm_pke_seq.sv", "mm_pke_alu.sv"):
        text = (rtl / f).read_text()
        assert "mm_pke_pkg::OpAdd" in text
        assert not re.search(r"\bOp[A-Z][a-z]+\s*=\s*5'd", text), f
        assert not re.search(r"instr_i\[\d+:\d+\]", text), f


def test_mod_alu_dual_add_sub():
    """ADD/SUB.DUAL + SEL (mod_alu builds) give (a ± b) mod N as the three-op
    fragments do, in fewer cycles; rejected on builds without it."""
    import random

    b = pke.Build(64, pes=12, w=17, mod_alu=True)
    n = (1 << 63) + 25
    k = ws.precompute(n, 17, b.d, 64)
    m = b.m
    G = pke.GROUP_WORDS
    A, B, NM, T1, T2, D = 0, G, G + 40, 40, G + 80, 80
    rng = random.Random(5)
    for trial in range(20):
        x, y = rng.randrange(n), rng.randrange(n)
        if trial == 0:
            x, y = n - 1, n - 1
        for op in ("add", "sub"):
            outs = {}
            for dual in (False, True):
                banks = [[0] * pke.MEM_WORDS for _ in range(2)]
                for bank in banks:
                    for addr, v in ((A, x), (B, y), (NM, n)):
                        bank[addr: addr + m] = [(v >> (17 * i)) & 0x1FFFF for i in range(m)]
                prog = [pke.Instr(pke.Op.MOV, pke.F_LDN, T1, NM, n=m)] if dual else []
                frag = pke.mod_add if op == "add" else pke.mod_sub
                prog += frag(D, A, B, NM, T1, T2, m, dual=dual) + [pke.Instr(pke.Op.HALT)]
                r = pke.run(prog, banks, pke.Machine(b.array, [k, k], mod_alu=dual))
                got = sum(banks[0][D + i] << (17 * i) for i in range(m))
                outs[dual] = (got, r.cycles)
            want = (x + y) % n if op == "add" else (x - y) % n
            assert outs[False][0] == outs[True][0] == want
            op_cyc = pke.Timing().stream(m) + pke.Timing().dispatch  # one stream op with its dispatch
            assert outs[False][1] == 3 * op_cyc + 1 and outs[True][1] == op_cyc + 2 * op_cyc + 1  # + HALT; LDN
    banks = [[0] * pke.MEM_WORDS for _ in range(2)]
    with pytest.raises(ValueError, match="modular ALU"):
        pke.run(pke.mod_add(D, A, B, NM, T1, T2, m, dual=True) + [pke.Instr(pke.Op.HALT)], banks,
                pke.Machine(b.array, [k, k]))
    with pytest.raises(ValueError, match="MOV.LDN first"):
        pke.run(pke.mod_add(D, A, B, NM, T1, T2, m, dual=True) + [pke.Instr(pke.Op.HALT)], banks,
                pke.Machine(b.array, [k, k], mod_alu=True))
    with pytest.raises(ValueError, match="same EBR group"):
        pke.run([pke.Instr(pke.Op.MOV, pke.F_LDN, T1, NM, n=m),
                 pke.Instr(pke.Op.ADD, pke.F_DUAL, T1, A, B, T1 + m, n=m), pke.Instr(pke.Op.HALT)], banks,
                pke.Machine(b.array, [k, k], mod_alu=True))


def test_ldn_and_dual_share_the_redc_flag():
    """mm_pke_alu reads one flag bit (cmd_redc_i) as REDC on MACR, LDN on MOV
    and DUAL on ADD/SUB."""
    assert pke.F_LDN == pke.F_DUAL == pke.F_REDC
