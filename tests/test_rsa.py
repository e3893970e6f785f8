# SPDX-License-Identifier: Apache-2.0
"""montmul.apps.rsa: exponentiations against pow(), byte-identity with
``cryptography``, CRT against non-CRT, errors, and the NIST FIPS 186 RSA
PKCS#1 v1.5 / PSS vectors of the ``cryptography-vectors`` package.

CI runs a representative subset of the NIST files on the cycle-exact model,
with SigVer15 also in RTL simulation on Verilator (1024-bit).  The full
files run with ``MONTMUL_FULL_VECTORS=1`` (``pytest -m vectors_full``; slow:
every SigGen case signs on the model, up to 4096 bits).
"""

from __future__ import annotations

import dataclasses

import os
import random
import shutil
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import padding as cpad

from montmul import cores, engine
from montmul.apps import rsa
from montmul.apps.modexp import modexp_model

FULL = os.environ.get("MONTMUL_FULL_VECTORS") == "1"
FAST = rsa.Hardware(core="r2_basic")  # the fastest model; other cores below


# ---------------------------------------------------------------------------
# helpers
small_key = rsa.seeded_key  # a reproducible key (cryptography generates >= 1024 bits only)


def chash(name: str) -> hashes.HashAlgorithm:
    return rsa.HASHES[name]()


PSS_DIGEST = "digest"


def cpss(h: str, salt=cpad.PSS.DIGEST_LENGTH) -> cpad.PSS:
    return cpad.PSS(mgf=cpad.MGF1(chash(h)), salt_length=salt)


def coaep(h: str) -> cpad.OAEP:
    return cpad.OAEP(mgf=cpad.MGF1(chash(h)), algorithm=chash(h), label=None)


@pytest.fixture(scope="module")
def key512() -> rsa.RsaKey:
    return small_key(512, seed=7)


KEYS = [(1024, 0), (1024, 1), (2048, 0), (2048, 1)]


@pytest.fixture(scope="module", params=range(len(KEYS)), ids=lambda i: f"{KEYS[i][0]}-{KEYS[i][1]}")
def genkey(request) -> tuple[int, rsa.RsaKey]:
    """(index, a fresh key from cryptography): two 1024-bit and two 2048-bit keys."""
    return request.param, rsa.generate(KEYS[request.param][0])


# ---------------------------------------------------------------------------
# exponentiations: every one equals pow()
@pytest.mark.parametrize("core", list(cores.CORES))
def test_every_exponentiation_equals_pow(core, key512):
    """Raw RSA on every registered core (model), with the library's own
    check against pow() switched off so that this test is the judge."""
    hw = rsa.Hardware(core=core, check=False)
    rng = random.Random(core)
    k = key512
    m = rng.randrange(k.n)
    c = rsa.rsaep(k, m, hw)
    assert c.data == pow(m, k.e, k.n)
    (x,) = c.exps
    assert (x.width, x.exp_bits) == (k.bits, k.e.bit_length())
    # CRT on the CRT engine: one request on a half-width core, its cycles
    # those of the engine's model
    r = rsa.rsadp(k, c.data, hw, crt=True)
    assert r.data == m == pow(c.data, k.d, k.n)
    (x,) = r.exps
    assert r.crt and r.core == core and x.width == k.p.bit_length() and r.cycles == x.cycles > 0
    if core == rsa.PKE_CORE:  # ws's CRT engine is the public-key engine mm_pke (tests/test_apps_rsa_pke.py)
        assert x.what == "c^d mod pq (mm_pke)"
    else:
        req = engine.crt_request(c.data, k.p, k.q, k.dp, k.dq, core=core, width=x.width)
        want = engine.crt_engine_model(req, core=core, width=x.width)
        assert (x.cycles, x.mults) == (want.cycles, want.mults) and want.m(req.q) == m
    # CRT as two mm_modexp jobs: each one a half-width exponentiation equal
    # to pow() (non-CRT: test_crt_and_non_crt_agree_on_random_inputs)
    r = rsa.rsadp(k, c.data, rsa.Hardware(core=core, check=False, crt_engine=False), crt=True)
    assert r.data == m == pow(c.data, k.d, k.n)
    assert r.crt and r.core == core and r.cycles == sum(e.cycles for e in r.exps) > 0
    assert [e.width for e in r.exps] == [k.p.bit_length(), k.q.bit_length()]
    assert r.cycles_parallel == max(e.cycles for e in r.exps) < r.cycles
    # the reported cycles are the engine's own, job by job
    half = modexp_model(c.data % k.p, k.dp, k.p, core=core, width=k.p.bit_length())
    assert half.result == pow(c.data, k.dp, k.p)
    assert (r.exps[0].cycles, r.exps[0].mults) == (half.cycles, half.mults)


def test_crt_and_non_crt_agree_on_random_inputs(key512):
    rng = random.Random(3)
    for core in ("r2_basic", "scs_new_ct"):
        hw = rsa.Hardware(core=core, check=False)
        for _ in range(2):
            c = rng.randrange(key512.n)
            a = rsa.rsadp(key512, c, hw, crt=True)
            b = rsa.rsadp(key512, c, hw, crt=False)
            assert a.data == b.data == pow(c, key512.d, key512.n)
            assert len(a.exps) == 1 and len(b.exps) == 1 and a.exps[0].what == "c^d mod pq (CRT)"
    for c in (0, 1, key512.n - 1):  # edge values of the representative
        assert rsa.rsadp(key512, c, FAST, crt=True).data == pow(c, key512.d, key512.n)


def test_faulty_engine_is_caught(key512, monkeypatch):
    """Hardware.check compares every exponentiation with pow(): a wrong
    engine result (e.g. a fault in one CRT half, the Bellcore attack) raises
    instead of releasing a bad signature."""
    import montmul.apps.modexp as mx

    real = mx.modexp

    def broken(jobs, **kw):
        out = real(jobs, **kw)
        return [type(r)(r.result ^ 1, r.err, r.cycles, r.mults) for r in out]

    monkeypatch.setattr(mx, "modexp", broken)
    with pytest.raises(RuntimeError, match="differs from pow"):
        rsa.sign(key512, b"x", rsa.Hardware(core="r2_basic", crt_engine=False))
    # the CRT engine: a fault in h (or m_q) is caught the same way
    real_crt = mx.crt

    def broken_crt(reqs, **kw):
        return [type(r)(r.mq, r.h ^ 1, r.err, r.cycles, r.mults, r.rounds) for r in real_crt(reqs, **kw)]

    monkeypatch.setattr(mx, "crt", broken_crt)
    with pytest.raises(RuntimeError, match="differs from pow"):
        rsa.sign(key512, b"x", FAST)


# ---------------------------------------------------------------------------
# byte-identity with cryptography (random keys)
def test_pkcs1v15_sign_byte_identical(genkey):
    _, genkey = genkey
    ck = genkey.cryptography_key()
    msg = os.urandom(100)
    want = ck.sign(msg, cpad.PKCS1v15(), hashes.SHA256())
    got = rsa.sign(genkey, msg, FAST)
    assert got.data == want
    assert len(got.exps) == 1 and all(e.width == genkey.bits // 2 for e in got.exps)
    # verify ours (and cryptography's, which is the same bytes) on our path
    v = rsa.verify(genkey.public(), msg, want, FAST)
    assert v.data is True and len(v.exps) == 1
    # a wrong message or a flipped bit is rejected by both
    with pytest.raises(ValueError, match="invalid signature"):
        rsa.verify(genkey, msg + b"!", want, FAST)
    bad = bytearray(want)
    bad[-1] ^= 1
    with pytest.raises(ValueError, match="invalid signature"):
        rsa.verify(genkey, msg, bytes(bad), FAST)


def test_pkcs1v15_sign_without_crt_byte_identical():
    key = rsa.generate(1024)
    msg = b"without CRT"
    want = key.cryptography_key().sign(msg, cpad.PKCS1v15(), hashes.SHA384())
    got = rsa.sign(key, msg, rsa.Hardware(core="scs_new"), crt=False, hash="sha384")
    assert got.data == want and not got.crt and [e.width for e in got.exps] == [1024]


@pytest.mark.parametrize("h", ["sha1", "sha224", "sha512", "sha512_256"])
def test_pkcs1v15_hashes_byte_identical(key512, h):
    """DigestInfo prefixes of RFC 8017 Sec. 9.2 note 1, one per hash."""
    if h == "sha512":  # 512-bit key: 64 + 19 + 11 > 64 bytes
        with pytest.raises(ValueError, match="too short"):
            rsa.sign(key512, b"m", FAST, hash=h)
        key = rsa.generate(1024)
    else:
        key = key512
    msg = b"digest info " + h.encode()
    want = key.cryptography_key().sign(msg, cpad.PKCS1v15(), chash(h))
    assert rsa.sign(key, msg, FAST, hash=h).data == want


def test_pss_both_ways(genkey):
    idx, genkey = genkey
    ck = genkey.cryptography_key()
    msg = os.urandom(40)
    # cryptography signs (maximal or digest-length salt), we verify
    salt, ours_name = ((cpad.PSS.MAX_LENGTH, "max"), (cpad.PSS.DIGEST_LENGTH, None))[idx % 2]
    sig = ck.sign(msg, cpss("sha256", salt), hashes.SHA256())
    assert rsa.verify(genkey, msg, sig, FAST, padding="pss", salt_length=ours_name).data is True
    # we sign, cryptography verifies (raises InvalidSignature otherwise);
    # the salt length rotates over the keys
    ours_salt, theirs_salt = [("digest", cpad.PSS.DIGEST_LENGTH), ("max", cpad.PSS.MAX_LENGTH),
                              (0, 0), (17, 17)][idx]
    ours = rsa.sign(genkey, msg, FAST, padding="pss", salt_length=ours_salt)
    ck.public_key().verify(ours.data, msg, cpss("sha256", theirs_salt), hashes.SHA256())
    assert rsa.verify(genkey, msg, ours.data, FAST, padding="pss", salt_length=ours_salt).data is True
    with pytest.raises(ValueError, match="invalid signature"):
        rsa.verify(genkey, msg[:-1], ours.data, FAST, padding="pss")
    with pytest.raises(ValueError, match="invalid signature"):  # PSS signature is not PKCS#1 v1.5
        rsa.verify(genkey, msg, ours.data, FAST, padding="pkcs1v15")


def test_encryption_both_ways(genkey):
    _, genkey = genkey
    ck = genkey.cryptography_key()
    msg = b"attack at dawn"
    for pad, cp in (("oaep", coaep("sha256")), ("pkcs1v15", cpad.PKCS1v15())):
        ours = rsa.encrypt(genkey.public(), msg, FAST, padding=pad)
        assert len(ours.data) == genkey.size
        assert ck.decrypt(ours.data, cp) == msg
        theirs = ck.public_key().encrypt(msg, cp)
        assert rsa.decrypt(genkey, theirs, FAST, padding=pad).data == msg


def test_raw_encryption_byte_identical(key512):
    """Encryption paddings are randomized; the raw operation is not: the
    encoded message under cryptography's ciphertext, encrypted again on the
    core, gives cryptography's ciphertext byte for byte."""
    key = rsa.generate(1024)
    ck = key.cryptography_key()
    theirs = ck.public_key().encrypt(b"m", coaep("sha1"))
    em = rsa.rsadp(key, rsa.os2ip(theirs), FAST).data
    assert rsa.i2osp(rsa.rsaep(key, em, FAST).data, key.size) == theirs
    assert rsa.eme_oaep_decode(rsa.i2osp(em, key.size), key.size, "sha1") == b"m"


def test_oaep_label_and_hashes():
    key = rsa.generate(1024)
    ck = key.cryptography_key()
    for h in ("sha1", "sha384"):
        cp = cpad.OAEP(mgf=cpad.MGF1(chash(h)), algorithm=chash(h), label=b"lbl")
        c = rsa.encrypt(key, b"x" * 10, FAST, hash=h, label=b"lbl")
        assert ck.decrypt(c.data, cp) == b"x" * 10
        with pytest.raises(ValueError, match="decryption error"):
            rsa.decrypt(key, c.data, FAST, hash=h, label=b"other")


# ---------------------------------------------------------------------------
# keys and errors
def test_key_pem_round_trip(tmp_path):
    key = rsa.generate(1024)
    pem = key.to_pem()
    back = rsa.load_pem(pem)
    assert (back.n, back.e, back.d, back.p, back.q, back.dp, back.dq, back.qinv) == (
        key.n, key.e, key.d, key.p, key.q, key.dp, key.dq, key.qinv)
    assert back.qinv == pow(back.q, -1, back.p) and back.dp == back.d % (back.p - 1)
    pub = rsa.load_pem(key.public().to_pem())
    assert not pub.is_private and (pub.n, pub.e) == (key.n, key.e)
    with pytest.raises(ValueError, match="needs a private key"):
        rsa.sign(pub, b"m", FAST)
    with pytest.raises(ValueError, match="not a PEM RSA"):
        rsa.load_pem(b"-----BEGIN NONSENSE-----\nAAAA\n-----END NONSENSE-----\n")
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    ecpem = ec.generate_private_key(ec.SECP256R1()).private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    with pytest.raises(ValueError, match="not an RSA key"):
        rsa.load_pem(ecpem)


def test_errors(key512):
    with pytest.raises(ValueError, match="unsupported key size 1000"):
        rsa.generate(1000)
    with pytest.raises(ValueError, match="unsupported RSA modulus of 256 bits"):
        small_key(256)
    k = key512
    # message too long: PKCS#1 v1.5 allows k - 11 bytes, OAEP k - 2 hLen - 2
    rsa.encrypt(k, b"a" * (k.size - 11), FAST, padding="pkcs1v15")
    with pytest.raises(ValueError, match="message too long"):
        rsa.encrypt(k, b"a" * (k.size - 10), FAST, padding="pkcs1v15")
    with pytest.raises(ValueError, match="message too long"):
        rsa.encrypt(k, b"a" * (k.size - 2 * 32 - 1), FAST, padding="oaep")
    with pytest.raises(ValueError, match="decryption error"):
        rsa.decrypt(k, b"\x00" * (k.size - 1) + b"\x05", FAST, padding="pkcs1v15")
    with pytest.raises(ValueError, match="ciphertext is"):
        rsa.decrypt(k, b"\x01" * (k.size + 1), FAST)
    with pytest.raises(ValueError, match="out of range"):
        rsa.rsaep(k, k.n, FAST)
    with pytest.raises(ValueError, match="invalid signature: .* bytes"):
        rsa.verify(k, b"m", b"\x00" * 3, FAST)
    with pytest.raises(ValueError, match="not below n"):
        rsa.verify(k, b"m", rsa.i2osp(k.n, k.size), FAST)
    with pytest.raises(ValueError, match="unsupported hash"):
        rsa.sign(k, b"m", FAST, hash="md5")
    with pytest.raises(ValueError, match="unknown signature padding"):
        rsa.sign(k, b"m", FAST, padding="oaep")
    with pytest.raises(ValueError, match="512-bit key is too short for sha512 with any salt"):
        rsa.sign(k, b"m", FAST, padding="pss", hash="sha512", salt_length="max")  # emLen < hLen + 2
    with pytest.raises(ValueError, match="CRT needs"):
        rsa.rsadp(rsa.RsaKey(k.n, k.e, k.d), 5, FAST, crt=True)
    with pytest.raises(KeyError, match="unknown core"):
        rsa.Hardware(core="nope")
    with pytest.raises(ValueError, match="unknown simulator"):
        rsa.Hardware(sim="spice")


# ---------------------------------------------------------------------------
# NIST FIPS 186 RSA vectors (cryptography-vectors)
def _vector_dir() -> Path:
    cv = pytest.importorskip("cryptography_vectors")
    return Path(cv.__file__).parent / "asymmetric" / "RSA" / "FIPS_186-2"


def parse_rsp(path: Path) -> list[dict]:
    """Cases of a CAVS .rsp/.txt file: each a dict of its fields (hex
    strings) with the section's modulus size and the key fields in force.
    n, p, q start a new key (a section may hold several: SigVer15 changes n
    within [mod = 2048]); e and d given before the key's first case belong to
    the key, after SHAAlg to the case (SigVer gives e, d per case)."""
    cases: list[dict] = []
    ctx: dict = {}
    cur: dict | None = None
    for raw in path.read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("[mod"):
            ctx, cur = {"mod": int(line.split("=")[1].strip(" ]"))}, None
            continue
        name, _, value = (t.strip() for t in line.partition("="))
        if name == "SHAAlg":
            cur = dict(ctx, SHAAlg=value)
            cases.append(cur)
        elif name in ("n", "p", "q"):
            if name == "n":
                ctx = {"mod": ctx["mod"]}
            ctx[name], cur = value, None
        else:
            (ctx if cur is None else cur)[name] = value
    return cases


def _private_key(c: dict) -> rsa.RsaKey:
    """SigGen key: n, e, d (the primes are recovered, so signing uses CRT)."""
    return rsa.from_numbers(int(c["n"], 16), int(c["e"], 16), int(c["d"], 16))


def _public_key(c: dict) -> rsa.RsaKey:
    """SigVer key: n and the case's e, as given (some failing cases change
    e, so not through cryptography's key checks)."""
    return rsa.RsaKey(int(c["n"], 16), int(c["e"], 16))


def _hash(c: dict) -> str:
    return c["SHAAlg"].lower()


def _siggen_cases():
    return parse_rsp(_vector_dir() / "SigGen15_186-2.txt")


def _sigver_cases():
    return parse_rsp(_vector_dir() / "SigVer15_186-3.rsp")


def test_parser_reads_whole_files():
    gen = _siggen_cases()
    assert len(gen) == 250 and {c["mod"] for c in gen} == {1024, 1536, 2048, 3072, 4096}
    assert all({"n", "e", "d", "Msg", "S"} <= set(c) for c in gen)
    ver = _sigver_cases()
    assert len(ver) == 450 and sum(c["Result"].startswith("P") for c in ver) == 75
    # a section may change n: [mod = 2048] of SigVer15 uses two moduli
    assert len({c["n"] for c in ver if c["mod"] == 2048}) == 2
    # SigVer gives e and d per case ("Public Key e changed" cases change e)
    assert all({"n", "e", "Msg", "S", "Result"} <= set(c) for c in ver)


def _subset_siggen():
    """1024 bits: every hash once; 2048 bits: SHA-256 and SHA-512."""
    picks, seen = [], set()
    for c in _siggen_cases():
        want = {1024: {"SHA1", "SHA224", "SHA256", "SHA384", "SHA512"},
                2048: {"SHA256", "SHA512"}}.get(c["mod"], set())
        if c["SHAAlg"] in want and (c["mod"], c["SHAAlg"]) not in seen:
            seen.add((c["mod"], c["SHAAlg"]))
            picks.append(c)
    return picks


def _subset_sigver(mods=(1024, 2048)):
    """Per modulus size: one case of each result (pass, and the five kinds
    of failure), rotating over the hashes."""
    picks, seen = [], set()
    for c in _sigver_cases():
        kind = c["Result"].split("(")[0].strip() + c["Result"][3:5]
        if c["mod"] in mods and (c["mod"], kind) not in seen and \
                c["SHAAlg"] == ["SHA1", "SHA224", "SHA256", "SHA384", "SHA512"][len(seen) % 5]:
            seen.add((c["mod"], kind))
            picks.append(c)
    return picks


def _check_siggen(cases, hw):
    for c in cases:
        key = _private_key(c)
        got = rsa.sign(key, bytes.fromhex(c["Msg"]), hw, hash=_hash(c))
        assert got.data.hex() == c["S"].lower(), (c["mod"], c["SHAAlg"], c["Msg"][:16])
        assert got.cycles > 0


def _check_sigver(cases, hw):
    items = [(_public_key(c), bytes.fromhex(c["Msg"]), bytes.fromhex(c["S"])) for c in cases]
    results = rsa.verify_many(items, hw, hash=[_hash(c) for c in cases])
    for c, r in zip(cases, results):
        if c["Result"].startswith("P"):
            assert isinstance(r, rsa.RsaResult) and r.data is True and r.cycles > 0, c["Result"]
        else:
            assert isinstance(r, ValueError) and "invalid signature" in str(r), c["Result"]
    return results


def test_nist_siggen15_subset_model():
    cases = _subset_siggen()
    assert len(cases) == 7
    _check_siggen(cases, FAST)


def test_nist_sigver15_subset_model():
    cases = _subset_sigver()
    assert len(cases) == 12 and {c["SHAAlg"] for c in cases} >= {"SHA1", "SHA256", "SHA512"}
    assert sum(c["Result"].startswith("P") for c in cases) == 2
    _check_sigver(cases, rsa.Hardware(core="scs_new"))


def test_nist_siggen_pss_known_salt():
    """PSS is randomized, but the NIST SigGenPSS file gives the salt: with it
    our RSASSA-PSS signatures are byte-identical to NIST's."""
    cases = parse_rsp(_vector_dir() / "SigGenPSS_186-2.txt")
    picks = [c for c in cases if c["mod"] == 1024][::10]  # one per hash
    assert {c["SHAAlg"] for c in picks} == {"SHA1", "SHA224", "SHA256", "SHA384", "SHA512"}
    for c in picks:
        got = rsa.sign(_private_key(c), bytes.fromhex(c["Msg"]), FAST, padding="pss", hash=_hash(c),
                       salt=bytes.fromhex(c["SaltVal"]))
        assert got.data.hex() == c["S"].lower()


def _sigverpss_cases():
    return parse_rsp(_vector_dir() / "SigVerPSS_186-3.rsp")


def _check_sigverpss(cases, hw):
    """NIST made every SigVerPSS signature with a 10-byte salt: the verdicts
    are right with salt_length=10, and with the default (the digest length)
    the passing cases fail too: the salt length is checked, not read from
    the signature."""
    items = [(_public_key(c), bytes.fromhex(c["Msg"]), bytes.fromhex(c["S"])) for c in cases]
    hs = [_hash(c) for c in cases]
    assert {len(c["SaltVal"]) // 2 for c in cases} == {10}
    given = rsa.verify_many(items, hw, padding="pss", hash=hs, salt_length=10)
    for c, r in zip(cases, given):
        assert isinstance(r, rsa.RsaResult) == c["Result"].startswith("P"), c["Result"]
    assert all(r.salt_length == 10 and not r.salt_recovered for r in given if isinstance(r, rsa.RsaResult))
    default = rsa.verify_many(items, hw, padding="pss", hash=hs)
    assert all(isinstance(r, ValueError) and "invalid signature" in str(r) for r in default)


def test_nist_sigverpss_subset_salt_length_given():
    """1024 bits: one case of each verdict, rotating over the hashes."""
    picks, seen = [], set()
    for c in _sigverpss_cases():
        kind = c["Result"][:5]
        if c["mod"] == 1024 and kind not in seen and \
                c["SHAAlg"] == ["SHA1", "SHA224", "SHA256", "SHA384", "SHA512"][len(seen) % 5]:
            seen.add(kind)
            picks.append(c)
    assert len(picks) >= 4 and sum(c["Result"].startswith("P") for c in picks) == 1
    _check_sigverpss(picks, FAST)


def _sim_ready(sim: str) -> bool:
    """The engine's simulated path has landed and the simulator is installed."""
    import importlib.util

    return importlib.util.find_spec("montmul.flows.sim.modexp_sim") is not None and \
        shutil.which(sim if sim != "icarus" else "iverilog") is not None


@pytest.mark.skipif(not _sim_ready("verilator"), reason="no simulated modexp path or no Verilator")
def test_nist_sigver15_subset_verilator():
    """The 1024-bit SigVer15 subset in RTL simulation of the exponentiation
    engine on Verilator: all six s^e mod n in one simulator run."""
    cases = _subset_sigver(mods=(1024,))
    assert len(cases) == 6
    results = _check_sigver(cases, rsa.Hardware(core="scs_new", sim="verilator"))
    assert all(r.sim == "verilator" for r in results if isinstance(r, rsa.RsaResult))


# --- the whole files: MONTMUL_FULL_VECTORS=1 --------------------------------
full = pytest.mark.skipif(not FULL, reason="set MONTMUL_FULL_VECTORS=1 for the whole NIST files")


@pytest.mark.vectors_full
@full
@pytest.mark.parametrize("mod", [1024, 1536, 2048, 3072, 4096])
def test_nist_siggen15_full(mod):
    _check_siggen([c for c in _siggen_cases() if c["mod"] == mod], FAST)


@pytest.mark.vectors_full
@full
def test_nist_sigver15_full():
    sim = os.environ.get("MONTMUL_VECTORS_SIM", "model")
    _check_sigver(_sigver_cases(), rsa.Hardware(core="scs_new", sim=sim))


@pytest.mark.vectors_full
@full
def test_nist_siggen_pss_full():
    for c in parse_rsp(_vector_dir() / "SigGenPSS_186-2.txt"):
        got = rsa.sign(_private_key(c), bytes.fromhex(c["Msg"]), FAST, padding="pss", hash=_hash(c),
                       salt=bytes.fromhex(c["SaltVal"]))
        assert got.data.hex() == c["S"].lower()


@pytest.mark.vectors_full
@full
def test_nist_sigverpss_full():
    _check_sigverpss(_sigverpss_cases(), FAST)


# ---------------------------------------------------------------------------
# blinding (docs/security.md)
def _capture_jobs(monkeypatch) -> list:
    """Record every (what, base, exp, n) job rsa sends to the engine."""
    seen: list = []
    real = rsa._run

    real_crt = rsa._run_crt

    def spy(jobs, hw, exp_bits=0):
        seen.extend(jobs)
        return real(jobs, hw, exp_bits)

    def spy_crt(c, p, q, dp, dq, hw, exp_bits=0):
        # the CRT engine's request, as the two halves it computes
        seen.extend([("c^dP mod p", c % p, dp, p), ("c^dQ mod q", c % q, dq, q)])
        return real_crt(c, p, q, dp, dq, hw, exp_bits)

    monkeypatch.setattr(rsa, "_run", spy)
    monkeypatch.setattr(rsa, "_run_crt", spy_crt)
    return seen


@pytest.mark.parametrize("crt", [True, False], ids=["crt", "no-crt"])
@pytest.mark.parametrize("base,exp_bits", [(True, 0), (False, 32), (True, 64)], ids=["base", "exp32", "both64"])
def test_blinded_sign_byte_identical_and_blinded(key512, monkeypatch, crt, base, exp_bits):
    """Blinded signatures equal cryptography's bytes, and the engine really
    saw blinded inputs: base c*r^e instead of c, exponent d + k*phi (or
    dP + kP(p-1), dQ + kQ(q-1)) on a core exp_bits wider."""
    key = key512
    msg = b"blinded"
    want = key.cryptography_key().sign(msg, cpad.PKCS1v15(), hashes.SHA256())
    plain = rsa.sign(key, msg, FAST, crt=crt)
    r = 0x1234567 | 1
    ks = tuple(random.Random(exp_bits).getrandbits(exp_bits) | 1 << (exp_bits - 1)
               for _ in range(2 if crt else 1)) if exp_bits else None
    seen = _capture_jobs(monkeypatch)
    got = rsa.sign(key, msg, FAST, crt=crt, blinding=rsa.Blinding(base=base, exp_bits=exp_bits, r=r if base else None, k=ks))
    assert got.data == want == plain.data
    c = rsa.os2ip(rsa.emsa_pkcs1_v15(msg, key.size, "sha256"))
    cb = c * pow(r, key.e, key.n) % key.n if base else c
    priv = [j for j in seen if j[0] != "r^e mod n"]
    if crt:
        want_jobs = [(cb % key.p, key.dp + (ks[0] * (key.p - 1) if ks else 0), key.p),
                     (cb % key.q, key.dq + (ks[1] * (key.q - 1) if ks else 0), key.q)]
    else:
        want_jobs = [(cb, key.d + (ks[0] * (key.p - 1) * (key.q - 1) if ks else 0), key.n)]
    assert [j[1:] for j in priv] == want_jobs
    assert [j[0] for j in seen].count("r^e mod n") == (1 if base else 0)
    if base:
        assert seen[0][1:] == (r, key.e, key.n)
    widths = [x.width for x in got.exps if x.what != "r^e mod n"]
    if crt:
        # the CRT engine: a core as wide as the primes, exponent ports exp_bits wider
        assert widths == [key.p.bit_length()]
    else:
        assert widths == [n.bit_length() + exp_bits for *_, n in want_jobs]
    # Blinding only adds work: r^e, and the longer exponents on a wider core.
    assert got.cycles > plain.cycles
    assert got.blinding is not None and got.blinding.exp_bits == exp_bits


def test_blinded_decrypt_draws_fresh_factors(key512):
    """Without r and k given, each operation draws its own (secrets), and the
    plaintext is still right."""
    key = key512
    ct = key.cryptography_key().public_key().encrypt(b"secret", cpad.PKCS1v15())
    bl = rsa.Blinding(exp_bits=16)
    a = rsa.decrypt(key, ct, FAST, padding="pkcs1v15", blinding=bl)
    b = rsa.decrypt(key, ct, FAST, padding="pkcs1v15", blinding=bl)
    assert a.data == b.data == b"secret"


def test_blinding_errors(key512):
    with pytest.raises(rsa.ParameterError, match="exponent-blinding bits"):
        rsa.Blinding(exp_bits=-1)
    with pytest.raises(rsa.ParameterError, match="with exp_bits = 0"):
        rsa.Blinding(k=(1,))
    with pytest.raises(rsa.ParameterError, match=r"in \[0, 2\^8\)"):
        rsa.Blinding(exp_bits=8, k=(256, 1))
    with pytest.raises(rsa.ParameterError, match="base blinding off"):
        rsa.Blinding(base=False, r=3)
    with pytest.raises(rsa.ParameterError, match="coprime"):
        rsa.sign(key512, b"m", FAST, blinding=rsa.Blinding(r=key512.p))
    with pytest.raises(rsa.ParameterError, match="needs 2 multiplier"):
        rsa.sign(key512, b"m", FAST, blinding=rsa.Blinding(exp_bits=8, k=(1,)))
    no_primes = rsa.RsaKey(key512.n, key512.e, key512.d)  # d only: no phi(n)
    with pytest.raises(rsa.ParameterError, match="needs the primes"):
        rsa.sign(no_primes, b"m", FAST, crt=False, blinding=rsa.Blinding(base=False, exp_bits=8))


# (core, params, blinding of the blinded signature): a one-slot constant-
# time core with base and exponent blinding, dsp_redundant with two products
# in flight (the CRT halves interleaved) with exponent blinding (base
# blinding's r^e mod n would need a full-width mm_modexp build as well).
_RTL_CRT = [
    ("scs_new_ct", None, dict(r=5, exp_bits=8, k=(0x81, 0xC3))),
    ("dsp_redundant", {"Interleave": 2}, dict(base=False, exp_bits=8, k=(0x81, 0xC3))),
]


@pytest.mark.parametrize("core,params,blind", _RTL_CRT, ids=[c for c, *_ in _RTL_CRT])
def test_crt_sign_on_verilator(key512, core, params, blind):
    """CRT signatures through the CRT engine's RTL (Verilator, 256-bit
    halves), with and without blinding: the bytes equal cryptography's, the
    RTL's response and cycles the model's (rsa._run_crt checks them too,
    Hardware.check), and the blinded one costs more."""
    hw = rsa.Hardware(core=core, sim="verilator", ladder=True, params=params)
    want = key512.cryptography_key().sign(b"rtl", cpad.PKCS1v15(), hashes.SHA256())
    plain = rsa.sign(key512, b"rtl", hw)
    got = rsa.sign(key512, b"rtl", hw, blinding=rsa.Blinding(**blind))
    assert plain.data == got.data == want
    (x,) = plain.exps
    c = rsa.os2ip(rsa.emsa_pkcs1_v15(b"rtl", key512.size, "sha256"))
    # the exponent ports are as wide as the primes, in simulation as in the model (issue 47)
    m, cycles = engine.crt_model(core, None, c, key512.p, key512.q, key512.dp, key512.dq, ladder=True, params=params,
                                 exp_width=key512.p.bit_length())
    assert (x.what, x.width, x.cycles) == ("c^d mod pq (CRT)", key512.p.bit_length(), cycles)
    assert m == pow(c, key512.d, key512.n)
    assert got.exps[-1].cycles > x.cycles
    # `montmul rsa --sim model` prints the cycles the simulation printed
    model = dataclasses.replace(hw, sim="model")
    assert rsa.sign(key512, b"rtl", model).exps[0].cycles == x.cycles
    assert rsa.sign(key512, b"rtl", model, blinding=rsa.Blinding(**blind)).exps[-1].cycles == got.exps[-1].cycles


@pytest.mark.skipif(not os.environ.get("MONTMUL_RSA2048_CRT"),
                    reason="set MONTMUL_RSA2048_CRT=1 (or =core:Interleave) for RSA-2048 through the CRT engine's RTL")
def test_rsa2048_crt_sign_on_verilator():
    """Opt-in: one RSA-2048 CRT signature through the CRT engine on Verilator
    (dsp_redundant, Interleave 2, square-and-multiply, by default), with and
    without exponent blinding; cycles printed (pytest -s)."""
    spec = os.environ["MONTMUL_RSA2048_CRT"]
    core, _, ilv = (spec if spec != "1" else "dsp_redundant:2").partition(":")
    params = {"Interleave": int(ilv)} if ilv else None
    key = rsa.generate(2048)
    hw = rsa.Hardware(core=core, sim="verilator", params=params)
    want = key.cryptography_key().sign(b"rsa-2048", cpad.PKCS1v15(), hashes.SHA256())
    plain = rsa.sign(key, b"rsa-2048", hw)
    got = rsa.sign(key, b"rsa-2048", hw, blinding=rsa.Blinding(base=False, exp_bits=32))
    assert plain.data == got.data == want
    print(f"\nRSA-2048 CRT sign, {core} {params or ''}: {plain.exps[0].cycles} cycles "
          f"({plain.exps[0].mults} products); exponent-blinded (32 bits): {got.exps[-1].cycles} cycles")
