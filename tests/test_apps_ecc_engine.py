# SPDX-License-Identifier: Apache-2.0
"""montmul.apps.ecc.engine: ECC programs on the pke engine's model against
the affine reference and ``cryptography`` (docs/pke_ecc.md)."""
from __future__ import annotations

import pytest
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec

from montmul.apps.ecc import engine as E
from montmul.apps.ecc.curves import affine_add_public, affine_mul_public, custom
from montmul.apps.ecc.curves import get as curve
from montmul.models import pke

#: small prime-order curves (a = -3 and a general a) for exact runs on a small array
SMALL = {
    "m3": custom(40087, 40084, 29458, 3, 3608, 40241, name="small-m3"),
    "a": custom(41023, 31973, 1858, 2, 8276, 40903, name="small-a"),
}
ARR = dict(pes=10, w=8)


def test_formulas_are_point_arith_rcb():
    dbl, add = E.formulas(curve("secp256r1"))  # a = -3: Algorithms 6 and 4
    assert dbl.products == 8 + 3 + 2 and add.products == 12 + 2  # 8M+3S+2m_b; 12M+2m_b
    assert add.comps[:3] == ["Q0", "Q1", "Q2"] and len(add.comps) == 6  # X, Y, Z and three sums
    dbl, add = E.formulas(curve("secp256k1"))  # general a: Algorithms 3 and 1
    assert dbl.products == 8 + 3 + 3 + 2 and add.products == 12 + 3 + 2


@pytest.mark.parametrize("mod_alu", [False, True], ids=["alu", "modalu"])
@pytest.mark.parametrize("kind", sorted(SMALL))
def test_scalar_mult_small_curves_exact(kind, mod_alu):
    c = SMALL[kind]
    G = (c.gx, c.gy)
    P = affine_mul_public(c, 777, G)
    for k in (0, 1, 2, 15, 16, 12345, c.n - 1, c.n):
        r = E.run_scalar_mult(c, k, P, mod_alu=mod_alu, **ARR)
        assert r.point == affine_mul_public(c, k, P), k


def test_mod_alu_program_and_cycles():
    """With the modular ALU every modular add/sub is DUAL + SEL (one MOV.LDN
    first), the same products, fewer cycles; the default build rejects it."""
    c = SMALL["m3"]
    G = (c.gx, c.gy)
    a = E.run_scalar_mult(c, 4321, G, **ARR)
    b = E.run_scalar_mult(c, 4321, G, mod_alu=True, exact=True, **ARR)
    assert a.point == b.point and a.products == b.products and b.cycles < a.cycles
    ep = E.program(E.EccBuild(c, 4, mod_alu=True, **ARR))
    ops = [i for i in ep.program if i.op in (pke.Op.ADD, pke.Op.SUB)]
    assert ops and all(i.flags & pke.F_DUAL for i in ops if not i.flags & pke.F_H0)
    assert sum(1 for i in ep.program if i.op == pke.Op.MOV and i.flags & pke.F_LDN) == 1
    banks, ks = E.images(ep, [G, G], [5, 5])
    with pytest.raises(ValueError, match="modular ALU"):
        pke.run(ep.program, banks, pke.Machine(ep.build.pb.array, ks))


@pytest.mark.parametrize("kind", sorted(SMALL))
def test_double_scalar_and_split_base(kind):
    c = SMALL[kind]
    G = (c.gx, c.gy)
    Q = affine_mul_public(c, 4321, G)
    nb = c.n.bit_length()
    for k0, k1 in ((3, 5), (0, 0), (0, 7), (1000, c.n - 1000), (c.n - 1, 1)):
        want = affine_add_public(c, affine_mul_public(c, k0, G), affine_mul_public(c, k1, Q))
        assert E.run_double(c, k0, G, k1, Q, nb, **ARR).point == want
    for k in (1, 99, c.n - 2):
        assert E.base_mult(c, k, **ARR).point == affine_mul_public(c, k, G)


def test_exact_jobs_on_ws_simulate():
    c = SMALL["m3"]
    r = E.run_scalar_mult(c, 31337, (c.gx, c.gy), exact=True, **ARR)  # every job also on ws.simulate
    assert r.point == affine_mul_public(c, 31337, (c.gx, c.gy))


@pytest.mark.parametrize("mod_alu", [False, True], ids=["alu", "modalu"])
@pytest.mark.parametrize("kind", sorted(SMALL))
def test_constant_time(kind, mod_alu):
    """Same trace (every instruction and its issue cycle) and cycles for any
    scalar and point; equal to the cycles-only run the figures use."""
    c = SMALL[kind]
    G = (c.gx, c.gy)
    arr = dict(ARR, mod_alu=mod_alu)
    runs = [E.run_scalar_mult(c, k, affine_mul_public(c, j, G), **arr) for k, j in ((1, 1), (c.n - 1, 5), (0, 9))]
    runs.append(E.run_scalar_mult(c, 0, (0, 0), compute=False, **arr))
    assert all(r.trace == runs[0].trace and r.cycles == runs[0].cycles for r in runs)
    a = E.run_double(c, 1, G, 2, G, 16, **arr)
    b = E.run_double(c, 40000, G, 0, G, 16, **arr)
    assert a.trace == b.trace


def test_secret_only_in_tab_reads():
    """No instruction depends on the scalar: the program is the same for
    every scalar; the window is read by TAB products and ATAB loads only."""
    ep = E.program(E.EccBuild(curve("secp256r1"), 64))
    assert pke.decode(pke.encode(ep.program)) == ep.program
    ops = {i.op for i in ep.program}
    assert pke.Op.SETX in ops and ep.tab_reads == 6


@pytest.mark.parametrize("name", ["secp256r1", "secp384r1", "secp256k1", "brainpoolP256r1"])
def test_scalar_mult_standard_curves(name):
    c = curve(name)
    k = 0xC0FFEE123456789ABCDEF0123456789 * 0x1234567 % c.n
    P = affine_mul_public(c, 0xABCDEF, (c.gx, c.gy))
    assert E.scalar_mult(c, k, P) == affine_mul_public(c, k, P)


MSG = b"montmul on the engine"


def test_sign_verify_ecdh_byte_identical_to_cryptography():
    c = curve("secp256r1")
    key = ec.derive_private_key(0x1F2E3D4C5B6A79881726354453627181, ec.SECP256R1())
    d = key.private_numbers().private_value
    sig = E.ecdsa_sign(c, d, MSG, "sha256")
    assert sig == key.sign(MSG, ec.ECDSA(hashes.SHA256(), deterministic_signing=True))
    spki = key.public_key().public_bytes(serialization.Encoding.DER,
                                         serialization.PublicFormat.SubjectPublicKeyInfo)
    assert E.ecdsa_verify(c, spki, MSG, sig, "sha256") is True
    assert E.ecdsa_verify(c, spki, MSG + b"!", sig, "sha256") is False
    peer = ec.derive_private_key(0x5A5A5A5A12345, ec.SECP256R1())
    peer_spki = peer.public_key().public_bytes(serialization.Encoding.DER,
                                               serialization.PublicFormat.SubjectPublicKeyInfo)
    assert E.ecdh(c, d, peer_spki) == key.exchange(ec.ECDH(), peer.public_key())


def test_bad_input():
    c = SMALL["m3"]
    with pytest.raises(ValueError, match="scalar outside"):
        E.run_scalar_mult(c, c.n << 2, (c.gx, c.gy), **ARR)
    with pytest.raises(ValueError, match="private key"):
        E.ecdsa_sign(curve("secp256r1"), 0, MSG)
    with pytest.raises(ValueError, match="unsupported hash"):
        E.ecdsa_sign(curve("secp256r1"), 5, MSG, "md5")


def test_docs_are_the_commands_output(capsys):
    # docs/pke_ecc.md shows the output of `python -m montmul.apps.ecc.engine`;
    # regenerate the page's tables if this fails.
    from pathlib import Path

    assert E.main([]) == 0
    out = capsys.readouterr().out.strip()
    page = (Path(__file__).resolve().parents[1] / "docs" / "pke_ecc.md").read_text()
    for table in out.split("\n\n"):
        assert table in page
    assert E.main(["--mod-alu"]) == 0
    out = capsys.readouterr().out.strip()
    for table in out.split("\n\n"):
        assert table in page
    assert E.main(["--curves", "nosuchcurve"]) == 2
    assert "error:" in capsys.readouterr().err


@pytest.mark.parametrize("mod_alu", [False, True], ids=["alu", "modalu"])
def test_estimator_matches_the_engine_as_built(mod_alu):
    """The first estimate row (serial, as built) is the measured formula
    minus its group copies and dispatch, within 5 %."""
    eb = E.EccBuild(curve("secp256r1"), 64, mod_alu=mod_alu)
    fc = E.formula_cycles(eb)
    est = E.estimates(eb)[0]
    for f in ("dbl", "add"):
        measured = fc[f]["cycles"] - fc[f]["copies cycles"]
        assert abs(est[f] - measured) <= 0.05 * measured, (f, est[f], measured)


def test_docs_example_runs():
    from pathlib import Path

    page = (Path(__file__).resolve().parents[1] / "docs" / "pke_ecc.md").read_text()
    block = page.split("```python\n", 1)[1].split("```", 1)[0]
    key = ec.derive_private_key(12345678901234567890, ec.SECP256R1())
    spki = key.public_key().public_bytes(serialization.Encoding.DER,
                                         serialization.PublicFormat.SubjectPublicKeyInfo)
    env = {"d": 12345678901234567890, "spki_der": spki, "peer_spki_der": spki}
    exec(compile(block, "docs/pke_ecc.md", "exec"), env)
    assert env["ok"] is True and len(env["secret"]) == 32
