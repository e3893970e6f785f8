# SPDX-License-Identifier: Apache-2.0
"""montmul.ecc.curves: every built-in curve's constants, and user curves."""

from __future__ import annotations

import gmpy2
import pytest
from cryptography.hazmat.primitives.asymmetric import ec

from montmul import ecc
from montmul.apps.ecc.encoding import crypto_curve, sqrt_mod
from montmul.apps.ecc.field import Field
from montmul.apps.ecc.point import Arith, affine_mul_public

SEC2 = ("secp160k1", "secp160r1", "secp160r2", "secp192k1", "secp192r1", "secp224k1", "secp224r1", "secp256k1",
        "secp256r1", "secp384r1", "secp521r1")
BRAINPOOL = tuple(f"brainpoolP{b}r1" for b in (160, 192, 224, 256, 320, 384, 512))
#: the curves cryptography (OpenSSL) supports here: the tests compare with it
CRYPTOGRAPHY = ("secp192r1", "secp224r1", "secp256k1", "secp256r1", "secp384r1", "secp521r1",
                "brainpoolP256r1", "brainpoolP384r1", "brainpoolP512r1")


def test_table_holds_every_sec2_and_brainpool_r1_curve():
    assert set(ecc.CURVES) == set(SEC2) | set(BRAINPOOL)


@pytest.mark.parametrize("name", SEC2 + BRAINPOOL)
def test_domain_parameters(name):
    c = ecc.curve(name)
    assert gmpy2.is_prime(c.p) and gmpy2.is_prime(c.n)
    assert c.h == 1
    assert (4 * c.a ** 3 + 27 * c.b ** 2) % c.p != 0
    assert c.on_curve(c.gx, c.gy)
    assert affine_mul_public(c, c.n, (c.gx, c.gy)) is None  # n*G = infinity
    assert affine_mul_public(c, c.n - 1, (c.gx, c.gy)) == (c.gx, c.p - c.gy)  # (n-1)*G = -G
    assert c.oid and c.source == ("RFC 5639" if name.startswith("brainpool") else "SEC 2 v2")


@pytest.mark.parametrize("name", CRYPTOGRAPHY)
def test_generator_is_cryptographys_public_key_of_1(name):
    c = ecc.curve(name)
    cc = crypto_curve(c)
    assert cc is not None and cc.name == name
    pub = ec.derive_private_key(1, cc).public_key().public_numbers()
    assert (pub.x, pub.y) == (c.gx, c.gy)


def test_curves_cryptography_lacks_are_known_as_such():
    assert {n for n in ecc.CURVES if crypto_curve(ecc.curve(n)) is not None} == set(CRYPTOGRAPHY)


def test_order_on_a_core():
    # n*G is the point at infinity on the core too (the model's complete formulas)
    c = ecc.curve("secp160r1")
    E = Arith(c, Field("r2_basic", c.p, 161))
    G = E.point(c.gx, c.gy)
    assert E.affine(E.mul(c.n, G, bits=161)) is None
    assert E.affine(E.mul(c.n + 1, G, bits=162)) == (c.gx, c.gy)


def test_aliases_and_unknown_names():
    assert ecc.curve("P-256") is ecc.curve("prime256v1") is ecc.curve("SECP256R1") is ecc.CURVES["secp256r1"]
    with pytest.raises(ValueError, match="unknown curve 'curve25519'; known curves: secp160k1"):
        ecc.curve("curve25519")


def test_custom_curve_accepted_and_checked():
    s = ecc.curve("secp192k1")
    c = ecc.custom(s.p, s.a, s.b, s.gx, s.gy, s.n, name="mine")
    assert c.name == "mine" and c.oid is None
    with pytest.raises(ValueError, match="G is not on the curve"):
        ecc.custom(s.p, s.a, s.b, s.gx, s.gy + 1, s.n)
    with pytest.raises(ValueError, match="n must be a prime"):
        ecc.custom(s.p, s.a, s.b, s.gx, s.gy, s.n + 1)
    with pytest.raises(ValueError, match="n\\*G is not the point at infinity"):
        ecc.custom(s.p, s.a, s.b, s.gx, s.gy, int(gmpy2.next_prime(s.n)))
    with pytest.raises(ValueError, match="p must be a prime"):
        ecc.custom(s.p + 2, s.a, s.b, s.gx, s.gy, s.n)
    with pytest.raises(ValueError, match="singular"):
        ecc.custom(s.p, 0, 0, s.gx, s.gy, s.n)
    with pytest.raises(ValueError, match="cofactor h must be odd"):
        ecc.custom(s.p, s.a, s.b, s.gx, s.gy, s.n, h=2)


def test_small_custom_curve_signs_and_verifies():
    # a user curve y^2 = x^3 + 2x + b over GF(10007) of prime order (the first
    # such b; the order counted point by point with Euler's criterion)
    p = 10007

    def order(b: int) -> int:
        cnt = 1  # the point at infinity
        for x in range(p):
            f = (x ** 3 + 2 * x + b) % p
            cnt += 1 if f == 0 else (2 if pow(f, (p - 1) // 2, p) == 1 else 0)
        return cnt

    b = next(b for b in range(1, 200) if gmpy2.is_prime(order(b)))
    cnt = order(b)
    gx = next(x for x in range(1, p) if pow((x ** 3 + 2 * x + b) % p, (p - 1) // 2, p) == 1)
    gy = sqrt_mod(gx ** 3 + 2 * gx + b, p)
    c = ecc.custom(p, 2, b, gx, gy, cnt)
    d = 1234 % c.n or 1
    sig = ecc.ecdsa_sign(c, d, b"m", "sha256", core="r2_basic")
    Q = affine_mul_public(c, d, (gx, gy))
    pt = ecc.encode_point(c, *Q)
    assert ecc.ecdsa_verify(c, pt, b"m", sig, "sha256", core="r2_basic")
    assert not ecc.ecdsa_verify(c, pt, b"n", sig, "sha256", core="r2_basic")
