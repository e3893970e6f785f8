# SPDX-License-Identifier: Apache-2.0
"""montmul.ecc.protocols: ECDSA and ECDH against ``cryptography`` and the
RFC 6979 known answers (cryptography-vectors).

Most tests run on r2_basic, the quickest model (the results do not depend on
the core); parameter ids with a number >= 256 (secp256r1, P-384, ...) are
``slow`` (tests/conftest.py)."""

from __future__ import annotations

import importlib.resources
import re

import pytest
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature, encode_dss_signature

from montmul import cores, ecc
from montmul.apps.ecc import encoding as enc
from montmul.apps.ecc import protocols
from montmul.apps.ecc.point import affine_mul_public

CORE = "r2_basic"
CRYPTOGRAPHY = ("secp192r1", "secp224r1", "secp256k1", "secp256r1", "secp384r1", "secp521r1",
                "brainpoolP256r1", "brainpoolP384r1", "brainpoolP512r1")
#: the curves cryptography lacks: three 160-bit ones (a = 0, a = -3, general
#: a) in make test-fast, the wider ones slow
OTHERS = [*("secp160k1", "secp160r2", "brainpoolP160r1"),
          *(pytest.param(n, marks=pytest.mark.slow) for n in ("secp160r1", "secp192k1", "secp224k1", "brainpoolP192r1",
                                                               "brainpoolP224r1", "brainpoolP320r1"))]
FIXED_HASHES = ("sha1", "sha224", "sha256", "sha384", "sha512", "sha512_224", "sha512_256",
                "sha3_224", "sha3_256", "sha3_384", "sha3_512")
MSG = b"montmul ecc test message"


def crypto_key(name: str, d: int | None = None):
    cc = enc.crypto_curve(ecc.curve(name))
    return ec.generate_private_key(cc) if d is None else ec.derive_private_key(d, cc)


def spki(key) -> bytes:
    pub = key.public_key() if isinstance(key, ec.EllipticCurvePrivateKey) else key
    return pub.public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)


def chash(name: str) -> hashes.HashAlgorithm:
    return protocols.HASHES[name]()


def d_of(key) -> int:
    return key.private_numbers().private_value


# ---------------------------------------------------------------------------
# Byte-identical to cryptography
@pytest.mark.parametrize("name", CRYPTOGRAPHY)
def test_sign_byte_identical_to_cryptography(name):
    key = crypto_key(name)
    want = key.sign(MSG, ec.ECDSA(hashes.SHA256(), deterministic_signing=True))
    assert ecc.ecdsa_sign(name, d_of(key), MSG, "sha256", core=CORE) == want
    r, s = decode_dss_signature(want)
    L = ecc.curve(name).order_bytes
    p1363 = r.to_bytes(L, "big") + s.to_bytes(L, "big")
    assert ecc.ecdsa_sign(name, d_of(key), MSG, "sha256", "p1363", core=CORE) == p1363


@pytest.mark.parametrize("hash_name", FIXED_HASHES)
def test_sign_every_hash_byte_identical(hash_name):
    key = crypto_key("secp192r1")
    want = key.sign(MSG, ec.ECDSA(chash(hash_name), deterministic_signing=True))
    assert ecc.ecdsa_sign("secp192r1", d_of(key), MSG, hash_name, core=CORE) == want


@pytest.mark.parametrize("hash_name", ["shake128", "shake256"])
def test_shake_signatures_with_random_nonces(hash_name):
    # RFC 8692: SHAKE128/256 with 256/512-bit output; cryptography verifies
    # ours and we verify its own
    key = crypto_key("secp224r1")
    sig = ecc.ecdsa_sign("secp224r1", d_of(key), MSG, hash_name, nonce="random", core=CORE)
    key.public_key().verify(sig, MSG, ec.ECDSA(chash(hash_name)))
    theirs = key.sign(MSG, ec.ECDSA(chash(hash_name)))
    assert ecc.ecdsa_verify("secp224r1", spki(key), MSG, theirs, hash_name, core=CORE)
    assert not ecc.ecdsa_verify("secp224r1", spki(key), MSG + b"!", theirs, hash_name, core=CORE)
    with pytest.raises(ecc.ParameterError, match="RFC 6979 nonces need an HMAC hash"):
        ecc.ecdsa_sign("secp224r1", d_of(key), MSG, hash_name, core=CORE)


def test_random_nonces_differ_and_verify():
    key = crypto_key("secp192r1")
    a = ecc.ecdsa_sign("secp192r1", d_of(key), MSG, "sha256", nonce="random", core=CORE)
    b = ecc.ecdsa_sign("secp192r1", d_of(key), MSG, "sha256", nonce="random", core=CORE)
    assert a != b
    for sig in (a, b):
        key.public_key().verify(sig, MSG, ec.ECDSA(hashes.SHA256()))


def corruptions(sig: bytes, n: int) -> list[bytes]:
    r, s = decode_dss_signature(sig)
    return [encode_dss_signature(r, (s + 1) % n), encode_dss_signature((r + 1) % n, s), encode_dss_signature(s, r),
            encode_dss_signature(r, n - s)[:-1] + b"\x00", sig[:-1] + bytes([sig[-1] ^ 1])]


@pytest.mark.parametrize("name", CRYPTOGRAPHY)
def test_verify_agrees_with_cryptography(name):
    key = crypto_key(name)
    pub, c = spki(key), ecc.curve(name)
    sig = key.sign(MSG, ec.ECDSA(hashes.SHA384()))
    assert ecc.ecdsa_verify(name, pub, MSG, sig, "sha384", core=CORE)
    assert not ecc.ecdsa_verify(name, pub, MSG[:-1], sig, "sha384", core=CORE)
    for bad in corruptions(sig, c.n)[:2]:
        with pytest.raises(InvalidSignature):
            key.public_key().verify(bad, MSG, ec.ECDSA(hashes.SHA384()))
        assert not ecc.ecdsa_verify(name, pub, MSG, bad, "sha384", core=CORE)


def test_verify_rejects_corrupted_signatures_as_cryptography_does():
    key = crypto_key("secp192r1")
    pub, n = spki(key), ecc.curve("secp192r1").n
    sig = key.sign(MSG, ec.ECDSA(hashes.SHA256()))
    for bad in corruptions(sig, n):
        theirs = True
        try:
            key.public_key().verify(bad, MSG, ec.ECDSA(hashes.SHA256()))
        except InvalidSignature:
            theirs = False
        assert ecc.ecdsa_verify("secp192r1", pub, MSG, bad, "sha256", core=CORE) is theirs is False


@pytest.mark.parametrize("name", CRYPTOGRAPHY)
def test_ecdh_byte_identical_to_cryptography(name):
    mine, peer = crypto_key(name), crypto_key(name)
    want = mine.exchange(ec.ECDH(), peer.public_key())
    assert ecc.ecdh(name, d_of(mine), spki(peer), core=CORE) == want
    for fmt in (serialization.PublicFormat.UncompressedPoint, serialization.PublicFormat.CompressedPoint):
        point = peer.public_key().public_bytes(serialization.Encoding.X962, fmt)
        assert ecc.ecdh(name, d_of(mine), point, "point", core=CORE) == want


def test_default_core_is_constant_time_and_gives_the_same_bytes():
    assert ecc.DEFAULT_CORE == "scs_new_ct" and not cores.get(ecc.DEFAULT_CORE).data_dependent
    key = crypto_key("secp192r1")
    res = ecc.sign("secp192r1", d_of(key), MSG, "sha256")
    assert res.data == key.sign(MSG, ec.ECDSA(hashes.SHA256(), deterministic_signing=True))
    assert res.core == "scs_new_ct" and res.width == 192 and res.products > 1000 and res.cycles > res.products


# ---------------------------------------------------------------------------
# RFC 6979 known answers (cryptography-vectors: OpenSSL's evppkey_ecdsa_rfc6979.txt,
# RFC 6979 appendix A.2's P-192 .. P-521 cases; P-192 in make test-fast)
def _rfc6979_vectors():
    import cryptography_vectors

    text = (importlib.resources.files(cryptography_vectors) / "asymmetric" / "ECDSA" / "RFC6979"
            / "evppkey_ecdsa_rfc6979.txt").read_text()
    pems = dict(re.findall(r"(?:PrivateKey|PublicKey)=(\S+)\n(-----BEGIN [A-Z ]+-----.*?-----END [A-Z ]+-----)",
                           text, re.S))
    curve_of = {"P-192": "secp192r1", "P-224": "secp224r1", "P-256": "secp256r1", "P-384": "secp384r1",
                "P-521": "secp521r1"}
    out = []
    for block in text.split("\n\n"):
        m = re.search(r"Digest(Sign|Verify) = (\w+)\nKey = ((P-\d+)_\w+)\n(?:NonceType = \w+\n)?"
                      r"Input = \"(\w+)\"\nOutput = (\w+)(\nResult = VERIFY_ERROR)?", block)
        if m and m.group(4) in curve_of:
            kind, h, key, cname, msg, sig, err = m.groups()
            out.append(pytest.param(kind, curve_of[cname], h.lower(), pems[key].encode(), msg.encode(),
                                    bytes.fromhex(sig), not err, id=f"{kind}-{cname}-{h}-{msg}{'-bad' if err else ''}",
                                    marks=() if cname == "P-192" else pytest.mark.slow))
    return out


RFC6979 = _rfc6979_vectors()


def test_rfc6979_vectors_found():
    kinds = {(p.values[0], p.values[1]) for p in RFC6979}
    assert {("Sign", "secp256r1"), ("Sign", "secp384r1"), ("Verify", "secp256r1")} <= kinds
    assert sum(p.values[0] == "Sign" for p in RFC6979) == 50  # 5 curves x 5 hashes x 2 messages


@pytest.mark.parametrize("kind,name,hash_name,pem,msg,sig,valid", RFC6979)
def test_rfc6979_known_answers(kind, name, hash_name, pem, msg, sig, valid):
    if kind == "Sign":
        c, d = ecc.load_private(pem)
        assert c.name == name
        assert ecc.ecdsa_sign(name, d, msg, hash_name, core=CORE) == sig
    else:
        der = serialization.load_pem_public_key(pem).public_bytes(
            serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
        assert ecc.ecdsa_verify(name, der, msg, sig, hash_name, core=CORE) is valid


# ---------------------------------------------------------------------------
# Curves cryptography lacks: our own key formats, checked by the affine reference
@pytest.mark.parametrize("name", OTHERS)
def test_curves_cryptography_lacks(name):
    c = ecc.curve(name)
    d, res = ecc.keygen(name, core=CORE)
    Q = affine_mul_public(c, d, (c.gx, c.gy))
    assert res.data == ecc.encode_point(c, *Q)
    assert ecc.load_private(ecc.private_pem(c, d, *Q)) == (c, d)
    der = ecc.public_der(c, *Q)
    assert ecc.load_public(c, der) == Q
    sig = ecc.ecdsa_sign(name, d, MSG, "sha256", core=CORE)
    assert ecc.ecdsa_verify(name, der, MSG, sig, "sha256", core=CORE)
    assert ecc.ecdsa_verify(name, res.data, MSG, sig, "sha256", core=CORE)  # SEC1 point bytes
    assert not ecc.ecdsa_verify(name, der, MSG + b".", sig, "sha256", core=CORE)
    e = 0xC0FFEE
    shared = ecc.ecdh(name, d, ecc.public_der(c, *affine_mul_public(c, e, (c.gx, c.gy))), core=CORE)
    assert shared == affine_mul_public(c, d * e % c.n, (c.gx, c.gy))[0].to_bytes(c.field_bytes, "big")


OPENSSL_SECP160K1_KEY = b"""-----BEGIN EC PRIVATE KEY-----
MFECAQEEFQCWolRMzsGDIaqNk9D7zLpbbqoXgKAHBgUrgQQACaEsAyoABOML6Bul
CJzeRaobd9c0gabPQqGGtdOL6Vz9KPIsp/O9RDke8axAGHA=
-----END EC PRIVATE KEY-----
"""


def test_reads_an_openssl_key_of_a_curve_cryptography_lacks():
    # made by `openssl ecparam -name secp160k1 -genkey -noout`
    c, d = ecc.load_private(OPENSSL_SECP160K1_KEY)
    assert c.name == "secp160k1"
    Q = affine_mul_public(c, d, (c.gx, c.gy))
    assert ecc.private_pem(c, d, *Q) == OPENSSL_SECP160K1_KEY


# ---------------------------------------------------------------------------
# Rejected input
def test_verify_returns_false_for_every_malformed_signature():
    key = crypto_key("secp192r1")
    pub, c = spki(key), ecc.curve("secp192r1")
    n, L = c.n, c.order_bytes
    good = key.sign(MSG, ec.ECDSA(hashes.SHA256()))
    r, s = decode_dss_signature(good)
    bad_der = [b"", b"\x30", good[:-1], good + b"\x00", b"\x31" + good[1:],
               encode_dss_signature(0, s), encode_dss_signature(r, 0), encode_dss_signature(n, s),
               encode_dss_signature(r, n), encode_dss_signature(r + n, s),
               b"\x30" + bytes([good[1] + 1]) + b"\x02" + bytes([good[3] + 1]) + b"\x00" + good[4:]]  # non-minimal r
    for sig in bad_der:
        assert ecc.ecdsa_verify("secp192r1", pub, MSG, sig, "sha256", core=CORE) is False, sig.hex()
    p1363 = r.to_bytes(L, "big") + s.to_bytes(L, "big")
    assert ecc.ecdsa_verify("secp192r1", pub, MSG, p1363, "sha256", "p1363", core=CORE)
    for sig in (p1363[:-1], p1363 + b"\x00", b"\x00" * L + p1363[L:], p1363[:L] + b"\x00" * L,
                n.to_bytes(L, "big") + p1363[L:], p1363[:L] + n.to_bytes(L, "big"), b""):
        assert ecc.ecdsa_verify("secp192r1", pub, MSG, sig, "sha256", "p1363", core=CORE) is False
    res = ecc.verify("secp192r1", pub, MSG, encode_dss_signature(r, n), "sha256", core=CORE)
    assert res.data is False and res.why == "r or s outside [1, n)"


def test_bad_public_keys_raise():
    c = ecc.curve("secp192r1")
    key = crypto_key("secp192r1")
    x, y = key.public_key().public_numbers().x, key.public_key().public_numbers().y
    sig = key.sign(MSG, ec.ECDSA(hashes.SHA256()))
    other = spki(crypto_key("secp224r1"))
    cases = {
        "public key of another curve: secp224r1, not secp192r1": other,
        "point not on the curve secp192r1": ecc.encode_point(c, x, (y + 1) % c.p),
        "the point at infinity": b"\x00",
        "uncompressed point of 48 bytes": ecc.encode_point(c, x, y)[:-1],
        "compressed point of 26 bytes": ecc.encode_point(c, x, y, compressed=True) + b"\x00",
        "coordinate out of range": b"\x04" + c.p.to_bytes(24, "big") + y.to_bytes(24, "big"),
        "unknown point encoding": b"\x05" + bytes(48),
        "malformed public key": spki(key)[:-1],
        "not an elliptic-curve public key": bytes.fromhex(
            "302a300506032b6570032100") + bytes(32),  # an Ed25519 SPKI
        "empty public key": b"",
    }
    for msg, pub in cases.items():
        with pytest.raises(ValueError, match=re.escape(msg)):
            ecc.ecdsa_verify("secp192r1", pub, MSG, sig, "sha256", core=CORE)
    with pytest.raises(ValueError, match="point not on the curve secp192r1: no y"):
        bad_x = next(v for v in range(2, 100) if enc.sqrt_mod(v ** 3 + c.a * v + c.b, c.p) is None)
        ecc.ecdh("secp192r1", 5, b"\x02" + bad_x.to_bytes(24, "big"), "point", core=CORE)
    with pytest.raises(ValueError, match="public key of another curve"):
        ecc.ecdh("secp192r1", 5, other, core=CORE)
    with pytest.raises(ValueError, match="not a DER SubjectPublicKeyInfo"):
        ecc.ecdh("secp192r1", 5, ecc.encode_point(c, x, y), "der", core=CORE)


def test_explicit_and_unknown_curve_keys_are_refused():
    c = ecc.curve("secp160k1")
    Q = affine_mul_public(c, 7, (c.gx, c.gy))
    der = ecc.public_der(c, *Q)
    unknown = der.replace(bytes.fromhex("06052b81040009"), bytes.fromhex("06052b81040063"))  # 1.3.132.0.99
    with pytest.raises(ValueError, match=r"unknown curve \(identifier 1.3.132.0.99\)"):
        ecc.ecdsa_verify("secp160k1", unknown, MSG, b"", "sha256", core=CORE)
    # SEQUENCE { SEQUENCE { id-ecPublicKey, SEQUENCE { 1 } (explicit parameters, cut short) }, BIT STRING }
    alg = bytes.fromhex("06072a8648ce3d0201") + bytes.fromhex("3003020101")
    bits = b"\x00" + ecc.encode_point(c, *Q)
    body = bytes([0x30, len(alg)]) + alg + bytes([0x03, len(bits)]) + bits
    with pytest.raises(ValueError, match="explicit curve parameters"):
        ecc.ecdsa_verify("secp160k1", bytes([0x30, len(body)]) + body, MSG, b"", "sha256", core=CORE)


def test_bad_parameters():
    key = crypto_key("secp192r1")
    d, pub = d_of(key), spki(key)
    for kwargs, msg in (({"hash": "md5"}, "unsupported hash 'md5'"),
                        ({"encoding": "pem"}, "unknown signature encoding"),
                        ({"nonce": "fixed"}, "unknown nonce"), ({"sim": "vcs"}, "unknown simulator")):
        with pytest.raises(ecc.ParameterError, match=msg):
            ecc.ecdsa_sign("secp192r1", d, MSG, **{"hash": "sha256", **kwargs}, core=CORE)
    with pytest.raises(KeyError, match="unknown core"):
        ecc.ecdsa_sign("secp192r1", d, MSG, "sha256", core="nope")
    for bad_d in (0, ecc.curve("secp192r1").n, -1):
        with pytest.raises(ValueError, match=r"private key out of range \[1, n\)"):
            ecc.ecdsa_sign("secp192r1", bad_d, MSG, "sha256", core=CORE)
        with pytest.raises(ValueError, match=r"private key out of range \[1, n\)"):
            ecc.ecdh("secp192r1", bad_d, pub, core=CORE)
    with pytest.raises(ecc.ParameterError, match="unknown public-key encoding"):
        ecc.ecdh("secp192r1", d, pub, "pem", core=CORE)
    with pytest.raises(ValueError, match="unknown curve"):
        ecc.ecdsa_verify("curve25519", pub, MSG, b"", "sha256")
    assert ecc.digest("SHA-512/256", b"") == ecc.digest("sha512_256", b"")


def test_private_key_files():
    key = crypto_key("secp224r1")
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.TraditionalOpenSSL,
                            serialization.NoEncryption())
    assert ecc.load_private(pem) == (ecc.curve("secp224r1"), d_of(key))
    with pytest.raises(ValueError, match="not an elliptic-curve private key"):
        from cryptography.hazmat.primitives.asymmetric import ed25519

        ecc.load_private(ed25519.Ed25519PrivateKey.generate().private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
    with pytest.raises(ValueError, match="encrypted private keys are not supported"):
        ecc.load_private(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                           serialization.BestAvailableEncryption(b"pw")))
    with pytest.raises(ValueError, match="not an EC private key"):
        ecc.load_private(b"-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n")


# ---------------------------------------------------------------------------
# RTL: every product of the operation through the core's RTL
def test_rtl_mismatch_is_a_clear_error(monkeypatch):
    from montmul.flows.sim import api

    def wrong(core, width, vectors, sim="verilator", jobs=1, params=None):  # the model, one product changed
        out = []
        for i, (a, b, n) in enumerate(vectors):
            r = cores.get(core.name).run_model(a, b, n, width)
            out.append(api.SimResult(r.result ^ (i == 7), 0, r.cycles))
        return out

    from montmul.apps.modexp import ModelMismatch

    monkeypatch.setattr(api, "simulate", wrong)
    with pytest.raises(ModelMismatch, match=r"disagrees with the model on product 7 of \d+"):
        ecc.ecdsa_sign("secp160r1", 5, MSG, "sha256", core=CORE, sim="icarus")


def test_sign_on_verilator():
    key = crypto_key("secp192r1")
    res = ecc.sign("secp192r1", d_of(key), MSG, "sha256", sim="verilator")
    assert res.data == key.sign(MSG, ec.ECDSA(hashes.SHA256(), deterministic_signing=True))
    model = ecc.sign("secp192r1", d_of(key), MSG, "sha256")
    assert (res.products, res.cycles) == (model.products, model.cycles)


def test_cofactor_curve_rejects_small_subgroup_points():
    # the user curve y^2 = x^3 + 2x + 8 over GF(10007) has 9921 = 3 * 3307
    # points (counted here with Euler's criterion; 3307 is prime): G = 3*P
    # has order n = 3307, and n*P, a point of order 3, is refused as a key
    import gmpy2

    p, b = 10007, 8
    count = 1 + sum(1 if f == 0 else (2 if pow(f, (p - 1) // 2, p) == 1 else 0)
                    for f in ((x ** 3 + 2 * x + b) % p for x in range(p)))
    n = count // 3
    assert count == 3 * n and gmpy2.is_prime(n)
    base = ecc.Curve("t", p, 2, b, 0, 0, n, 3)
    for x in range(1, p):
        y = enc.sqrt_mod(x ** 3 + 2 * x + b, p)
        if y is not None and affine_mul_public(base, n, (x, y)) is not None:
            P = (x, y)
            break
    G = affine_mul_public(base, 3, P)
    c = ecc.custom(p, 2, b, *G, n, h=3)
    small = affine_mul_public(base, n, P)
    assert affine_mul_public(c, 3, small) is None
    with pytest.raises(ValueError, match="not in the subgroup of order n"):
        ecc.ecdh(c, 5, ecc.encode_point(c, *small), "point", core=CORE)
    Q = affine_mul_public(c, 7, G)
    assert ecc.ecdh(c, 5, ecc.encode_point(c, *Q), "point", core=CORE) == \
        affine_mul_public(c, 35, G)[0].to_bytes(c.field_bytes, "big")


# ---------------------------------------------------------------------------
# OpenSSL as the reference where cryptography lacks the curve
def openssl(*args, data: bytes | None = None) -> bytes:
    import subprocess

    return subprocess.run(["openssl", *map(str, args)], input=data, capture_output=True, check=True).stdout


@pytest.mark.parametrize("name", ["secp160k1", "brainpoolP160r1",
                                  *(pytest.param(n, marks=pytest.mark.slow) for n in (
                                      "secp160r1", "secp160r2", "secp192k1", "secp224k1", "brainpoolP192r1",
                                      "brainpoolP224r1", "brainpoolP320r1"))])
def test_openssl_agrees_on_curves_cryptography_lacks(name, tmp_path):
    import shutil

    if shutil.which("openssl") is None:
        pytest.skip("no openssl command")
    c = ecc.curve(name)
    # our key files, signature and shared secret, read by OpenSSL
    d, res = ecc.keygen(name, core=CORE)
    Q = ecc.decode_point(c, res.data)
    (tmp_path / "k.pem").write_bytes(ecc.private_pem(c, d, *Q))
    pub_pem = openssl("ec", "-in", tmp_path / "k.pem", "-pubout")
    der = openssl("ec", "-pubin", "-inform", "PEM", "-outform", "DER", data=pub_pem)
    assert der == ecc.public_der(c, *Q)
    (tmp_path / "k.pub").write_bytes(pub_pem)
    (tmp_path / "m").write_bytes(MSG)
    (tmp_path / "sig").write_bytes(ecc.ecdsa_sign(name, d, MSG, "sha256", core=CORE))
    assert b"Verified OK" in openssl("dgst", "-sha256", "-verify", tmp_path / "k.pub", "-signature",
                                     tmp_path / "sig", tmp_path / "m")
    # OpenSSL's key and signature, read by us
    (tmp_path / "peer.pem").write_bytes(openssl("ecparam", "-name", name, "-genkey", "-noout"))
    peer_pub = openssl("ec", "-in", tmp_path / "peer.pem", "-pubout", "-outform", "DER")
    (tmp_path / "peer.pub").write_bytes(openssl("ec", "-in", tmp_path / "peer.pem", "-pubout"))
    theirs = openssl("dgst", "-sha256", "-sign", tmp_path / "peer.pem", tmp_path / "m")
    assert ecc.ecdsa_verify(name, peer_pub, MSG, theirs, "sha256", core=CORE)
    want = openssl("pkeyutl", "-derive", "-inkey", tmp_path / "k.pem", "-peerkey", tmp_path / "peer.pub")
    assert ecc.ecdh(name, d, peer_pub, core=CORE) == want


# ---------------------------------------------------------------------------
# RFC 7027's brainpool ECDH answers (cryptography-vectors)
def _brainpool_ecdh():
    import cryptography_vectors

    text = (importlib.resources.files(cryptography_vectors) / "asymmetric" / "ECDH" / "brainpool.txt").read_text()
    out = []
    for block in text.split("\n\n"):
        f = dict(re.findall(r"^(\w+) = (\w+)$", block, re.M))
        if "curve" in f:
            out.append(pytest.param(f["curve"], int(f["dA"], 16), int(f["x_qB"], 16), int(f["y_qB"], 16),
                                    bytes.fromhex(f["x_Z"]), id=f["curve"]))
    return out


@pytest.mark.parametrize("name,dA,xB,yB,z", _brainpool_ecdh())
def test_rfc7027_brainpool_ecdh(name, dA, xB, yB, z):
    c = ecc.curve(name)
    assert ecc.ecdh(name, dA, ecc.encode_point(c, xB, yB), "point", core=CORE) == z


@pytest.mark.slow
@pytest.mark.parametrize("core", sorted(cores.CORES))
def test_every_core_gives_the_same_signature(core):
    # the same RFC 6979 signature on every registered core's model (their
    # radices and output ranges differ; the field layer hides both)
    key = crypto_key("secp192r1", 0x5EC)
    want = key.sign(MSG, ec.ECDSA(hashes.SHA256(), deterministic_signing=True))
    assert ecc.ecdsa_sign("secp192r1", d_of(key), MSG, "sha256", core=core) == want
