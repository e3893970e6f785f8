# SPDX-License-Identifier: Apache-2.0
"""RSA on the public-key engine mm_pke (montmul.apps.rsa with core ``ws``,
``montmul rsa --core ws``, the default of ``montmul rsa sign/decrypt``):
byte-identity with ``cryptography``, the engine's cycles (the model's
``pke.rsa_crt``; in RTL simulation the RTL's, equal to them), blinding on
the engine, bad input, the CLI's defaults, and the engine's timing audit.

RTL: the driver :mod:`montmul.flows.sim.pke_sim` on Icarus (a 64-bit CRT
program: result and cycles equal the model's) and an RSA-512 signature on
Verilator in ``make test``, its verification in RTL (mm_modexp around ws,
Verilator) in ``make test-full``; RSA-2048 and RSA-4096 CRT
signatures on Verilator in ``make test-pke-full`` (MONTMUL_PKE_FULL=1).
"""

from __future__ import annotations

import json
import os
import random
import time

import gmpy2
import pytest
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import padding as cpad

from montmul.apps import rsa
from montmul.cli import main
from montmul.models import pke

ENGINE = rsa.Hardware(core="ws")
PKE_FULL = os.environ.get("MONTMUL_PKE_FULL") == "1"


small_key = rsa.seeded_key  # a reproducible key (cryptography generates >= 1024 bits only)


def want_sig(key: rsa.RsaKey, msg: bytes) -> bytes:
    return key.cryptography_key().sign(msg, cpad.PKCS1v15(), hashes.SHA256())


def model_cycles(key: rsa.RsaKey, exp_bits: int = 0, blind: bool = False, pes: int = 66) -> int:
    """The engine model's cycles for the key's length (cycles only)."""
    from montmul.flows.sim.pke_sim import engine_build

    ell = max(key.p.bit_length(), key.q.bit_length())
    b = engine_build(ell, ell + exp_bits, pes=pes)
    res = pke.rsa_crt(max(key.p, key.q), min(key.p, key.q), 1, 1, 0, ell, exp_bits=ell + exp_bits, pes=pes,
                      w=17, qlat=b.qlat, d=b.d, r=2 if blind else None, e=65537 if blind else None, compute=False)
    return res.cycles


@pytest.fixture(scope="module")
def key1024():
    return rsa.generate(1024)


# ---------------------------------------------------------------------------
# the model
def test_sign_on_the_engine_is_byte_identical(key1024):
    res = rsa.sign(key1024, b"engine", ENGINE)
    assert res.data == want_sig(key1024, b"engine")
    (x,) = res.exps
    assert (x.what, x.width, x.cycles) == ("c^d mod pq (mm_pke)", 512, model_cycles(key1024))
    assert res.cycles == x.cycles and res.crt
    # the cycles do not depend on the message
    assert rsa.sign(key1024, b"another message", ENGINE).cycles == res.cycles


def test_decrypt_and_public_operations(key1024):
    ct = key1024.cryptography_key().public_key().encrypt(
        b"secret", cpad.OAEP(cpad.MGF1(hashes.SHA256()), hashes.SHA256(), None))
    got = rsa.decrypt(key1024, ct, ENGINE)
    assert got.data == b"secret" and got.exps[0].what == "c^d mod pq (mm_pke)"
    # public operations run on mm_modexp around the ws core (the engine has no plain modexp program)
    enc = rsa.encrypt(key1024, b"hello", ENGINE)
    assert [x.what for x in enc.exps] == ["m^e mod n"]
    assert rsa.decrypt(key1024, enc.data, ENGINE).data == b"hello"
    sig = rsa.sign(key1024, b"v", ENGINE)
    assert rsa.verify(key1024, b"v", sig.data, ENGINE).exps[0].what == "m^e mod n"


def test_without_crt_or_crt_engine_ws_runs_on_mm_modexp():
    key = small_key()
    sig = want_sig(key, b"x")
    no_crt = rsa.sign(key, b"x", ENGINE, crt=False)
    two = rsa.sign(key, b"x", rsa.Hardware(core="ws", crt_engine=False))
    assert no_crt.data == two.data == sig
    assert [x.what for x in no_crt.exps] == ["c^d mod n"]
    assert [x.what for x in two.exps] == ["c^dP mod p", "c^dQ mod q"]


@pytest.mark.parametrize("base,exp_bits", [(True, 0), (False, 32), (True, 64)], ids=["base", "exp32", "both64"])
def test_blinding_on_the_engine(base, exp_bits):
    """Base blinding runs r^e and r^-1 on the engine (no separate r^e job);
    exponent blinding widens the engine's exponent: same signature, the
    engine model's cycles for that build."""
    key = small_key()
    b = rsa.Blinding(base=base, exp_bits=exp_bits)
    res = rsa.sign(key, b"blind", ENGINE, blinding=b)
    assert res.data == want_sig(key, b"blind")
    (x,) = res.exps
    assert x.cycles == model_cycles(key, exp_bits, base) > model_cycles(key)
    assert res.blinding == b


def test_bad_input():
    key = small_key()
    with pytest.raises(ValueError, match="odd modulus"):
        rsa.from_numbers(key.n * 2, 65537)
    with pytest.raises(ValueError, match="longer than the engine build's halves"):
        rsa.sign(key, b"m", rsa.Hardware(core="ws", pke_bits=200))
    with pytest.raises(ValueError, match="out of range"):
        rsa.rsadp(key, key.n, ENGINE)
    with pytest.raises(ValueError, match="no build"):  # halves too long for the banks
        rsa.sign(key, b"m", rsa.Hardware(core="ws", pke_bits=4096))
    with pytest.raises(rsa.ParameterError, match="PEs"):
        rsa.Hardware(core="ws", pke_pes=2)
    # a build longer than the key: the primes fit, the engine runs the longer build's cycles
    longer = rsa.sign(key, b"m", rsa.Hardware(core="ws", pke_bits=300))
    assert longer.data == want_sig(key, b"m") and longer.exps[0].width == 300
    assert longer.cycles > rsa.sign(key, b"m", ENGINE).cycles


def test_faulty_engine_is_caught(monkeypatch):
    key = small_key()
    real = pke.rsa_crt

    def wrong(*a, **k):
        res = real(*a, **k)
        res.value ^= 1
        return res

    monkeypatch.setattr(pke, "rsa_crt", wrong)
    with pytest.raises(RuntimeError, match="differs from pow"):
        rsa.sign(key, b"m", ENGINE)


# ---------------------------------------------------------------------------
# the CLI
def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture(scope="module")
def pem512(tmp_path_factory):
    path = tmp_path_factory.mktemp("pke") / "k512.pem"
    path.write_bytes(small_key().to_pem())
    return path


def test_cli_sign_defaults_to_the_engine(capsys, pem512):
    key = rsa.load_pem(pem512.read_bytes())
    code, out, _ = run(capsys, "rsa", "--key", pem512, "--json", "sign", "--message", "hi")
    assert code == 0
    got = json.loads(out)
    assert (got["core"], got["engine"], got["cryptography_ok"]) == ("ws", "mm_pke", True)
    assert bytes.fromhex(got["result"]) == want_sig(key, b"hi")
    assert got["cycles"] == got["exps"][0]["cycles"] == model_cycles(key)
    # verify and encrypt keep the constant-time scs_new_ct on mm_modexp
    code, out, _ = run(capsys, "rsa", "--key", pem512, "--json", "verify", "--message", "hi",
                       "--signature", got["result"])
    v = json.loads(out)
    assert code == 0 and (v["core"], v["engine"]) == ("scs_new_ct", "mm_modexp")
    # without the CRT engine the default stays scs_new_ct
    code, out, _ = run(capsys, "rsa", "--key", pem512, "--no-crt", "--json", "sign", "--message", "hi")
    assert code == 0 and json.loads(out)["core"] == "scs_new_ct"


def test_cli_text_and_errors(capsys, pem512):
    code, out, _ = run(capsys, "rsa", "--key", pem512, "--core", "ws", "sign", "--message", "hi")
    assert code == 0 and "mm_pke" in out and "byte-identical" in out
    # a key longer than the build: rejected input
    code, _, err = run(capsys, "rsa", "--key", pem512, "--pke-bits", "128", "sign", "--message", "hi")
    assert code == 3 and "longer than the engine build" in err
    # a ciphertext not below n: rejected input
    code, _, err = run(capsys, "rsa", "--key", pem512, "decrypt", "--ciphertext", "ff" * 64)
    assert code == 3 and "not below n" in err
    # engine options where the engine does not run: usage
    code, _, err = run(capsys, "rsa", "--key", pem512, "--pke-bits", "256", "verify", "--message", "hi",
                       "--signature", "00" * 64)
    assert code == 2 and "--pke-bits" in err


# ---------------------------------------------------------------------------
# the timing audit
def test_leak_audit_of_the_engine(capsys):
    from montmul.apps.leak import audit_pke

    rep = audit_pke(128, samples=3, pes=10)
    assert rep.constant_time and not rep.drivers
    assert rep.random["min"] == rep.random["max"]
    assert all(row["trace_equal"] for row in rep.chosen)
    assert set(rep.influence) == {"key", "message", "exponent"}
    blinded = audit_pke(128, samples=2, pes=10, blind=True, exp_blind_bits=16)
    assert blinded.constant_time and blinded.random["min"] > rep.random["min"]
    code, out, _ = run(capsys, "leak", "--core", "ws", "--width", 128, "--engine", "pke", "--samples", 2,
                       "--pes", 10, "--json")
    assert code == 0 and json.loads(out)["constant_time"]
    code, _, err = run(capsys, "leak", "--core", "scs_new", "--width", 128, "--engine", "pke")
    assert code == 2 and "--core ws" in err


# ---------------------------------------------------------------------------
# RTL
def test_driver_cycles_equal_the_model_icarus():
    """The RTL run through montmul.flows.sim.pke_sim: the RSA-CRT program at
    ℓ = 64 on a 12-PE build with the quotient bypass (one lap, w = 17) and
    on a 6-PE build (two laps, w = 16): result and cycles equal pke.run's."""
    from montmul.flows.sim import pke_sim

    rng = random.Random(3)
    for pes, w, laps in ((12, 17, 1), (6, 16, 2)):
        b = pke_sim.engine_build(64, pes=pes, w=w)
        assert pke_sim.hdl_params(b)["Chunks"] == laps and (b.qlat == -1) == (laps == 1)
        p, q = (int(gmpy2.next_prime(rng.getrandbits(64) | 1 << 63)) for _ in range(2))
        p, q = max(p, q), min(p, q)
        dp, dq, c = rng.randrange(1, p), rng.randrange(1, q), rng.randrange(p * q)
        banks, ks = pke.host_images(b, p, q, dp, dq, c)
        prog = pke.rsa_crt_program(b)
        model = pke.run(prog, [x[:] for x in banks], pke.Machine(b.array, ks))
        addr, size = pke.layout(b)["MQ"]
        (resp,) = pke_sim.simulate(b, [pke_sim.Request(pke.encode(prog), banks, [(0, addr, size)])], sim="icarus")
        m = pke_sim.value(resp.words[0], b.w)
        assert resp.err == 0 and resp.cycles == model.cycles
        assert (m % p, m % q) == (pow(c, dp, p), pow(c, dq, q))


def test_driver_reports_a_bad_program_icarus():
    from montmul.flows.sim import pke_sim

    b = pke_sim.engine_build(64, pes=12)
    bad = [pke.Instr(pke.Op.END).encode(), pke.Instr(pke.Op.HALT).encode()]
    zero = [[0] * pke.MEM_WORDS for _ in range(2)]
    (resp,) = pke_sim.simulate(b, [pke_sim.Request(bad, zero)], sim="icarus", cycle_limit=100)
    assert resp.err == 3  # END without REP (docs/pke.md, "Errors")
    with pytest.raises(ValueError, match="program memory"):
        pke_sim.simulate(b, [pke_sim.Request([0] * (pke_sim.PROG_WORDS + 1), zero)], sim="icarus")


def test_rsa512_sign_verilator():
    """An RSA-512 signature through mm_pke's RTL on Verilator (a 22-PE
    build, one lap; Icarus takes minutes), with base and exponent blinding
    too: byte-identical to cryptography's, the cycles the model's."""
    key = small_key()
    hw = rsa.Hardware(core="ws", sim="verilator", pke_pes=22)
    want = want_sig(key, b"rtl")
    sig = rsa.sign(key, b"rtl", hw)
    assert sig.data == want
    assert sig.cycles == rsa.sign(key, b"rtl", rsa.Hardware(core="ws", pke_pes=22)).cycles == model_cycles(key, pes=22)
    blinded = rsa.sign(key, b"rtl", hw, blinding=rsa.Blinding(base=True, exp_bits=16))
    assert blinded.data == want and blinded.cycles == model_cycles(key, 16, True, pes=22)


def test_rsa512_verify_verilator():
    """The verification of an engine signature in RTL: s^e mod n on
    mm_modexp around ws (512 bits; its Verilator build is make test-full's)."""
    key = small_key()
    sig = rsa.sign(key, b"rtl", ENGINE)
    res = rsa.verify(key, b"rtl", sig.data, rsa.Hardware(core="ws", sim="verilator"))
    assert res.data is True and res.exps[0].what == "m^e mod n"


@pytest.mark.skipif(not PKE_FULL, reason="set MONTMUL_PKE_FULL=1 (make test-pke-full): RSA-2048/4096 on Verilator")
@pytest.mark.parametrize("bits", [2048, 4096])
def test_pke_full_crt_sign_verilator(bits):
    """RSA-2048 and RSA-4096 CRT signatures through mm_pke (P = 66, w = 17:
    the synthesized builds) on Verilator: byte-identical to cryptography's,
    the cycles the model's (wall time printed; pytest -s)."""
    key = rsa.generate(bits)
    t0 = time.perf_counter()
    sig = rsa.sign(key, b"montmul pke", rsa.Hardware(core="ws", sim="verilator"))
    wall = time.perf_counter() - t0
    assert sig.data == want_sig(key, b"montmul pke")
    assert sig.cycles == rsa.sign(key, b"montmul pke", ENGINE).cycles == model_cycles(key)
    print(f"\nRSA-{bits} on mm_pke, Verilator: {sig.cycles} cycles, {wall:.0f} s wall (build included)")
