# SPDX-License-Identifier: Apache-2.0
"""``montmul ecc`` (model path): keygen, sign, verify, ecdh; outputs, the
check against cryptography, exit codes."""
from __future__ import annotations

import json
import os

import pytest
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec

from montmul import ecc
from montmul.cli import main

FAST = ("--core", "r2_basic")


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture
def p192(tmp_path):
    key = ec.generate_private_key(ec.SECP192R1())
    priv = tmp_path / "k.pem"
    priv.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                       serialization.NoEncryption()))
    pub = tmp_path / "pub.pem"
    pub.write_bytes(key.public_key().public_bytes(serialization.Encoding.PEM,
                                                  serialization.PublicFormat.SubjectPublicKeyInfo))
    return key, priv, pub


def test_sign_verify_options_after_the_action(capsys, p192, tmp_path):
    key, priv, pub = p192
    code, out, _ = run(capsys, "ecc", "sign", "--key", priv, "--message", "hi", "--hash", "sha384", *FAST, "--json",
                       "--out", tmp_path / "sig")
    assert code == 0
    d = json.loads(out)
    want = key.sign(b"hi", ec.ECDSA(hashes.SHA384(), deterministic_signing=True))
    assert bytes.fromhex(d["signature"]) == want == (tmp_path / "sig").read_bytes()
    assert d["cryptography_ok"] and d["curve"] == "secp192r1" and d["core"] == "r2_basic" and d["products"] > 0
    # options before the action too; a public key file
    code, out, _ = run(capsys, "ecc", *FAST, "verify", "--key", pub, "--message", "hi", "--hash", "sha384",
                       "--signature", want.hex())
    assert code == 0 and "signature valid" in out
    code, out, _ = run(capsys, "ecc", *FAST, "verify", "--key", pub, "--message", "ho", "--hash", "sha384",
                       "--signature", want.hex())
    assert code == 1 and "signature INVALID" in out
    code, out, _ = run(capsys, "ecc", *FAST, "verify", "--key", pub, "--message", "hi", "--hash", "sha384",
                       "--signature", want.hex()[:-2])
    assert code == 1 and "malformed DER signature" in out


def test_p1363_and_random_nonce(capsys, p192):
    key, priv, _ = p192
    code, out, _ = run(capsys, "ecc", "sign", "--key", priv, "--message", "x", "--encoding", "p1363", "--nonce",
                       "random", *FAST, "--json")
    d = json.loads(out)
    assert code == 0 and len(d["signature"]) == 96 and "cryptography verifies it" in d["cryptography"]
    code, out, _ = run(capsys, "ecc", "verify", "--key", priv, "--message", "x", "--encoding", "p1363",
                       "--signature", d["signature"], *FAST)
    assert code == 0, out


def test_keygen_and_ecdh(capsys, tmp_path):
    a, b = tmp_path / "a.pem", tmp_path / "b.pem"
    for f in (a, b):
        code, out, _ = run(capsys, "ecc", "keygen", "--curve", "secp160k1", "--save-key", f, *FAST, "--json")
        assert code == 0
        d = json.loads(out)
        assert (os.stat(f).st_mode & 0o777) == 0o600
        (tmp_path / (f.stem + ".pub")).write_text(d["public_key_pem"])
        (tmp_path / (f.stem + ".hex")).write_text(d["public_point"])
    code, out, _ = run(capsys, "ecc", "ecdh", "--key", a, "--peer", tmp_path / "b.pub", *FAST, "--json")
    assert code == 0
    s1 = json.loads(out)
    assert s1["cryptography"] == "not checked: cryptography lacks secp160k1"
    code, out, _ = run(capsys, "ecc", "ecdh", "--key", b, "--peer-hex", (tmp_path / "a.hex").read_text(), *FAST,
                       "--json")
    assert code == 0 and json.loads(out)["shared_secret"] == s1["shared_secret"]
    code, _, err = run(capsys, "ecc", "keygen", "--curve", "secp160k1", "--save-key", a, *FAST)
    assert code == 2 and "file exists" in err


def test_ecdh_matches_cryptography(capsys, p192, tmp_path):
    key, priv, _ = p192
    peer = ec.generate_private_key(ec.SECP192R1())
    point = peer.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.CompressedPoint)
    code, out, _ = run(capsys, "ecc", "ecdh", "--key", priv, "--peer-hex", point.hex(), *FAST)
    assert code == 0 and "byte-identical to cryptography's shared secret" in out
    assert key.exchange(ec.ECDH(), peer.public_key()).hex() in out


def test_errors(capsys, p192, tmp_path):
    key, priv, pub = p192
    (tmp_path / "junk.pem").write_text("not a key")
    cases = [
        (("ecc",), 2, "give an action"),
        (("ecc", "keygen", "--save-key", tmp_path / "x.pem"), 2, "needs --curve"),
        (("ecc", "keygen", "--curve", "secp192r1"), 2, "needs --save-key"),
        (("ecc", "keygen", "--curve", "curve25519", "--save-key", tmp_path / "x.pem"), 2, "unknown curve"),
        (("ecc", "sign", "--message", "m"), 2, "needs a private key"),
        (("ecc", "sign", "--key", tmp_path / "junk.pem", "--message", "m"), 3, "not an EC private key"),
        (("ecc", "sign", "--key", tmp_path / "none.pem", "--message", "m"), 2, "cannot read"),
        (("ecc", "sign", "--key", priv, "--curve", "secp224r1", "--message", "m"), 3, "the key is on secp192r1"),
        (("ecc", "sign", "--key", priv, "--message", "m", "--hash", "shake128"), 2, "RFC 6979 nonces need an HMAC"),
        (("ecc", "sign", "--key", priv, "--message", "m", "--hash", "md5"), 2, "invalid choice"),
        (("ecc", "sign", "--key", priv, "--message", "m", "--core", "nope"), 2, "unknown core"),
        (("ecc", "sign", "--key", priv, "--message", "m", "--param", "Width=8"), 2, "--param Width is not allowed"),
        (("ecc", "sign", "--key", priv, "--message", "m", "--core", "scs_new"), 2, "timing would leak the private key"),
        (("ecc", "verify", "--key", pub, "--message", "m", "--signature", "zz"), 2, "not hex"),
        (("ecc", "ecdh", "--key", priv, "--peer-hex", "04" + "00" * 48), 3, "point not on the curve"),
        (("ecc", "ecdh", "--key", priv, "--peer-hex", "00"), 3, "point at infinity"),
        (("ecc", "ecdh", "--key", priv, "--peer", pub.parent / "junk.pem"), 3, "not a PEM PUBLIC KEY"),
        (("ecc", "ecdh", "--key", priv, "--peer-hex", "02" + "00" * 10), 3, "compressed point of 11 bytes"),
    ]
    other = tmp_path / "other.pub"
    other.write_bytes(ec.generate_private_key(ec.SECP224R1()).public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo))
    cases.append((("ecc", "ecdh", "--key", priv, "--peer", other), 3, "public key of another curve"))
    for argv, want_code, want in cases:
        code, out, err = run(capsys, argv[0], *FAST, *argv[1:])
        assert code == want_code and want in err, (argv, code, err)
        assert "Traceback" not in err
