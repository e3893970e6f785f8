# SPDX-License-Identifier: Apache-2.0
"""``montmul modexp`` and ``montmul rsa`` (model path): outputs, checks
against pow() and cryptography, exit codes."""
from __future__ import annotations

import json

import pytest
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import padding as cpad

from montmul.apps import rsa
from montmul.cli import main
from montmul.apps.modexp import modexp_model


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out = capsys.readouterr()
    return code, out.out, out.err


N64 = 0xFFFFFFFFFFFFFFC5  # the largest 64-bit prime


@pytest.mark.parametrize("ladder", [False, True])
def test_modexp_json_equals_pow_and_model(capsys, ladder):
    argv = ["modexp", "--core", "scs_new", "--width", 64, "--base", 123456789, "--exp", "0x10001",
            "--mod", hex(N64), "--json"] + (["--ladder"] if ladder else [])
    code, out, _ = run(capsys, *argv)
    assert code == 0
    d = json.loads(out)
    assert int(d["result"], 16) == pow(123456789, 65537, N64)  # big integers as hex strings
    want = modexp_model(123456789, 65537, N64, core="scs_new", width=64, ladder=ladder)
    assert (d["cycles"], d["mults"]) == (want.cycles, want.mults) and d["ladder"] is ladder


def test_modexp_text(capsys):
    code, out, _ = run(capsys, "modexp", "--core", "r2_basic", "--width", 32, "--base", 2, "--exp", 10,
                       "--mod", 1000003)
    assert code == 0 and "1024 (0x400)" in out and "cycles" in out


@pytest.mark.parametrize("argv, msg", [
    (["--base", 5, "--exp", 3, "--mod", 100], "must be odd"),
    (["--base", 200, "--exp", 3, "--mod", 101], "not below N"),
    (["--base", 5, "--exp", 3, "--mod", 1 << 40 | 1], "does not fit"),
    (["--base", 5, "--exp", -1, "--mod", 101], "does not fit"),
])
def test_modexp_rejects(capsys, argv, msg):
    code, _, err = run(capsys, "modexp", "--core", "scs_new", "--width", 32, *argv)
    assert code == 3 and msg in err  # rejected input


@pytest.fixture(scope="module")
def keyfile(tmp_path_factory):
    key = rsa.generate(1024)
    path = tmp_path_factory.mktemp("rsa") / "k.pem"
    path.write_bytes(key.to_pem())
    return key, path


def test_rsa_sign_then_verify(capsys, keyfile, tmp_path):
    key, path = keyfile
    code, out, _ = run(capsys, "rsa", "--core", "r2_basic", "--key", path, "sign", "--message", "hello",
                       "--out", tmp_path / "sig", "--json")
    assert code == 0
    d = json.loads(out)
    want = key.cryptography_key().sign(b"hello", cpad.PKCS1v15(), hashes.SHA256())
    assert bytes.fromhex(d["result"]) == want == (tmp_path / "sig").read_bytes()
    assert d["crt"] and [x["what"] for x in d["exps"]] == ["c^d mod pq (CRT)"]
    assert d["cycles"] == d["cycles_parallel"] == d["exps"][0]["cycles"]
    assert d["cryptography_ok"] and "byte-identical" in d["cryptography"]
    # verify (text output), from the hex and from the file
    code, out, _ = run(capsys, "rsa", "--core", "r2_basic", "--key", path, "verify", "--message", "hello",
                       "--signature", want.hex())
    assert code == 0 and "signature valid" in out and "cryptography agrees" in out
    code, _, err = run(capsys, "rsa", "--core", "r2_basic", "--key", path, "verify", "--message", "hellO",
                       "--signature-file", tmp_path / "sig")
    assert code == 1 and "invalid signature" in err  # verification failure, not a usage error


def test_rsa_bad_signature_message(capsys, keyfile):
    _, path = keyfile
    code, _, err = run(capsys, "rsa", "--core", "r2_basic", "--key", path, "verify", "--message", "x",
                       "--signature", "00" * 128)
    assert code == 1 and "invalid signature" in err


def test_rsa_no_crt_and_pss(capsys, keyfile):
    key, path = keyfile
    code, out, _ = run(capsys, "rsa", "--core", "scs_new_ct", "--key", path, "--no-crt", "--no-ladder",
                       "--allow-timing-leak", "--json", "sign",
                       "--message-hex", "00ff", "--padding", "pss", "--hash", "sha384")
    assert code == 0
    d = json.loads(out)
    assert not d["crt"] and [x["width"] for x in d["exps"]] == [1024]
    # a constant-time core, but square-and-multiply: the note names only the exponent leak
    assert "square-and-multiply" in d["note"] and "scs_new_ct" not in d["note"]
    key.cryptography_key().public_key().verify(
        bytes.fromhex(d["result"]), b"\x00\xff",
        cpad.PSS(cpad.MGF1(hashes.SHA384()), cpad.PSS.AUTO), hashes.SHA384())


def test_rsa_encrypt_decrypt(capsys, keyfile, tmp_path):
    key, path = keyfile
    for pad in ("oaep", "pkcs1v15"):
        code, out, _ = run(capsys, "rsa", "--core", "r2_basic", "--key", path, "encrypt", "--message", "hi",
                           "--padding", pad, "--out", tmp_path / "ct")
        assert code == 0 and "cryptography decrypts it to the message" in out
        code, out, _ = run(capsys, "rsa", "--core", "r2_basic", "--key", path, "decrypt", "--padding", pad,
                           "--ciphertext-file", tmp_path / "ct")
        assert code == 0 and "message   hi\n" in out and "same message as cryptography's" in out


def test_rsa_generated_key(capsys, tmp_path):
    code, out, _ = run(capsys, "rsa", "--core", "r2_basic", "--bits", 1024, "--save-key", tmp_path / "g.pem",
                       "sign", "--message", "m")
    assert code == 0 and "generated RSA-1024" in out and "no seed" in out
    key = rsa.load_pem((tmp_path / "g.pem").read_bytes())
    assert key.bits == 1024 and key.is_private


@pytest.mark.parametrize("argv, msg, status", [
    (["--bits", 1024, "verify", "--message", "x", "--signature", "00"], "needs the key", 2),
    (["sign", "--message", "x"], "give --bits", 2),
    (["--bits", 2048, "--key", "KEY", "sign", "--message", "x"], "has 1024 bits", 2),
    (["--key", "/nonexistent.pem", "sign", "--message", "x"], "cannot read", 2),
    (["--key", "KEY", "encrypt", "--message", "a" * 100], "message too long", 3),
    (["--key", "KEY", "decrypt", "--ciphertext", "zz"], "not hex", 2),
    (["--key", "KEY", "sign", "--message", "x", "--hash", "md5"], "unsupported hash", 2),
    (["--key", "KEY", "sign", "--message", "x", "--hash", "shake128"], "RSASSA-PSS only", 2),
    (["--key", "KEY", "sign", "--message", "x", "--mgf1-hash", "sha1"], "mgf1_hash does not apply", 2),
    (["--key", "KEY", "sign", "--message", "x", "--padding", "pss", "--salt-length", "auto"], "verification only", 2),
    (["--key", "KEY", "sign", "--message", "x", "--padding", "pss", "--hash", "shake256", "--mgf1-hash", "sha256"],
     "mgf1_hash does not apply to PSS with shake256", 2),
    (["--core", "nope", "--key", "KEY", "sign", "--message", "x"], "unknown core", 2),
])
def test_rsa_errors(capsys, keyfile, argv, msg, status):
    _, path = keyfile
    argv = [path if a == "KEY" else a for a in argv]
    code, _, err = run(capsys, "rsa", *argv)
    assert code == status and msg in err


def test_rsa_usage_errors(capsys):
    code, _, err = run(capsys, "rsa", "--bits", "1000", "sign", "--message", "x")
    assert code == 2 and "invalid choice" in err
    code, _, err = run(capsys, "rsa", "--bits", 1024)
    assert code == 2 and "give an action" in err


# --------------------------------------------------------------------------
# explicit PSS/OAEP parameters (issue 21).  Keys as in test_rsa_conformance.py:
# E from cryptography with e = 3 (cheap public operations on the model), D the
# same primes with e and d swapped (cheap private operations).
@pytest.fixture(scope="module")
def cheap_keys(tmp_path_factory):
    from cryptography.hazmat.primitives.asymmetric import rsa as crsa

    nums = crsa.generate_private_key(public_exponent=3, key_size=1024).private_numbers()
    n, p, q, d = nums.public_numbers.n, nums.p, nums.q, nums.d
    out = {}
    for name, e, dd in (("E", 3, d), ("D", d, 3)):
        key = rsa.from_numbers(n, e, dd, p, q)
        path = tmp_path_factory.mktemp("keys") / f"{name}.pem"
        path.write_bytes(key.to_pem())
        out[name] = (key, path)
    return out


def test_rsa_verify_checks_the_salt_length(capsys, cheap_keys):
    """A 0-byte-salt PSS signature: rejected without --salt-length (the
    digest length is expected), accepted with --salt-length 0, and with
    --salt-length auto, which says the length was read, not checked."""
    key, path = cheap_keys["E"]
    sig = key.cryptography_key().sign(b"m", cpad.PSS(cpad.MGF1(hashes.SHA256()), 0), hashes.SHA256())
    base = ["rsa", "--core", "r2_basic", "--key", path, "verify", "--message", "m", "--padding", "pss",
            "--signature", sig.hex()]
    code, _, err = run(capsys, *base)
    assert code == 1 and "invalid signature" in err
    code, out, _ = run(capsys, *base, "--salt-length", 0)
    assert code == 0 and "signature valid" in out and "salt 0 bytes\n" in out and "cryptography agrees" in out
    code, out, _ = run(capsys, *base, "--salt-length", "auto", "--json")
    d = json.loads(out)
    assert code == 0 and (d["salt_length"], d["salt_recovered"], d["mgf1_hash"]) == (0, True, "sha256")
    assert d["cryptography_ok"]


def test_rsa_pss_sha3_with_mgf1_sha1(capsys, cheap_keys):
    key, path = cheap_keys["D"]
    code, out, _ = run(capsys, "rsa", "--core", "r2_basic", "--key", path, "--json", "sign", "--message", "m",
                       "--padding", "pss", "--hash", "SHA3-256", "--mgf1-hash", "sha1", "--salt-length", 0)
    d = json.loads(out)
    assert code == 0 and (d["hash"], d["mgf1_hash"], d["salt_length"]) == ("sha3_256", "sha1", 0)
    assert d["cryptography_ok"] and "cryptography verifies it" in d["cryptography"]
    key.cryptography_key().public_key().verify(bytes.fromhex(d["result"]), b"m",
                                               cpad.PSS(cpad.MGF1(hashes.SHA1()), 0), hashes.SHA3_256())


def test_rsa_pss_shake(capsys, cheap_keys):
    _, path = cheap_keys["D"]
    code, out, _ = run(capsys, "rsa", "--core", "r2_basic", "--key", path, "sign", "--message", "m",
                       "--padding", "pss", "--hash", "shake128")
    assert code == 0 and "scheme    PSS, shake128, mask shake128 (RFC 8702), salt 32 bytes" in out
    assert "not checked: cryptography has no RSASSA-PSS with shake128" in out


def test_rsa_oaep_mgf1_hash(capsys, cheap_keys, tmp_path):
    """Java's OAEPWithSHA-256AndMGF1Padding both ways; OAEP with SHA-3, which
    cryptography cannot check, says so."""
    (_, epath), (dkey, dpath) = cheap_keys["E"], cheap_keys["D"]
    code, out, _ = run(capsys, "rsa", "--core", "r2_basic", "--key", epath, "encrypt", "--message", "hi",
                       "--mgf1-hash", "sha1")
    assert code == 0 and "OAEP, sha256, MGF1-sha1" in out and "cryptography decrypts it to the message" in out
    ct = dkey.cryptography_key().public_key().encrypt(b"hi", cpad.OAEP(cpad.MGF1(hashes.SHA1()), hashes.SHA256(), None))
    code, out, _ = run(capsys, "rsa", "--core", "r2_basic", "--key", dpath, "decrypt", "--ciphertext", ct.hex(),
                       "--mgf1-hash", "sha1")
    assert code == 0 and "message   hi\n" in out and "same message as cryptography's" in out
    code, _, err = run(capsys, "rsa", "--core", "r2_basic", "--key", dpath, "decrypt", "--ciphertext", ct.hex())
    assert code == 3 and "decryption error" in err
    code, out, _ = run(capsys, "rsa", "--core", "r2_basic", "--key", epath, "encrypt", "--message", "hi",
                       "--hash", "sha3_256", "--out", tmp_path / "ct")
    assert code == 0 and "not checked: cryptography does not support oaep with sha3_256, MGF1-sha3_256" in out
    code, out, _ = run(capsys, "rsa", "--core", "r2_basic", "--key", epath, "decrypt", "--hash", "sha3_256",
                       "--ciphertext-file", tmp_path / "ct")
    assert code == 0 and "message   hi\n" in out


def test_rsa_blinded_sign(capsys, keyfile):
    key, path = keyfile
    code, out, _ = run(capsys, "rsa", "--key", path, "--core", "r2_basic", "--blind", "--exp-blind-bits", 16,
                       "--json", "sign", "--message", "blind")
    d = json.loads(out)
    assert code == 0 and d["cryptography_ok"] is True
    assert d["blinding"] == {"base": True, "exp_bits": 16}
    assert [x["what"] for x in d["exps"]] == ["r^e mod n", "c^d mod pq (CRT)"]
    # the CRT engine's core is as wide as the primes; its exponents 16 bits longer at most
    assert [x["width"] for x in d["exps"][1:]] == [key.p.bit_length()]
    assert d["exps"][1]["exp_bits"] <= key.p.bit_length() + 16
    # as two mm_modexp jobs: cores 16 bits wider
    code, out, _ = run(capsys, "rsa", "--key", path, "--core", "r2_basic", "--blind", "--exp-blind-bits", 16,
                       "--no-crt-engine", "--json", "sign", "--message", "blind")
    d = json.loads(out)
    assert code == 0 and d["cryptography_ok"] is True
    assert [x["what"] for x in d["exps"]] == ["r^e mod n", "c^dP mod p", "c^dQ mod q"]
    assert [x["width"] for x in d["exps"][1:]] == [key.p.bit_length() + 16, key.q.bit_length() + 16]
    code, out, _ = run(capsys, "rsa", "--key", path, "--core", "r2_basic", "--blind", "sign", "--message", "b")
    assert code == 0 and "blinding: message (base)" in out


@pytest.mark.parametrize("argv, msg", [
    (["--blind", "verify", "--message", "m", "--signature", "00"], "private-key operations"),
    (["--exp-blind-bits", -3, "sign", "--message", "m"], "exponent-blinding bits"),
])
def test_rsa_blinding_usage_errors(capsys, keyfile, argv, msg):
    _, path = keyfile
    code, _, err = run(capsys, "rsa", "--key", path, "--core", "r2_basic", *argv)
    assert code == 2 and msg in err


# --------------------------------------------------------------------------
# issue 47: the options of `montmul rsa` are accepted after the action too
def test_rsa_options_after_the_action(capsys, keyfile):
    key, path = keyfile
    code, before, _ = run(capsys, "rsa", "--core", "r2_basic", "--key", path, "sign", "--message", "hello", "--json")
    assert code == 0
    code, after, err = run(capsys, "rsa", "sign", "--core", "r2_basic", "--key", path, "--message", "hello",
                           "--json")
    assert code == 0, err
    b, a = json.loads(before), json.loads(after)
    assert a["core"] == b["core"] == "r2_basic" and a["result"] == b["result"] and a["cycles"] == b["cycles"]
    # one given after the action wins over the same one before it
    code, out, err = run(capsys, "rsa", "--core", "scs_new_ct", "--key", path, "sign", "--core", "r2_basic",
                         "--message", "hello", "--json")
    assert code == 0 and json.loads(out)["core"] == "r2_basic"
    # a boolean pair and the simulator after the action
    code, out, err = run(capsys, "rsa", "--key", path, "verify", "--sim", "model", "--no-crt", "--message", "hello",
                         "--signature", b["result"])
    assert code == 0 and "signature valid" in out


# --------------------------------------------------------------------------
# issue 47: encrypted keys, and `-` for standard input
@pytest.fixture(scope="module")
def encrypted_keyfile(keyfile, tmp_path_factory):
    from cryptography.hazmat.primitives import serialization

    key, _ = keyfile
    pem = key.cryptography_key().private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                               serialization.BestAvailableEncryption(b"s3cret pass"))
    d = tmp_path_factory.mktemp("enc")
    (d / "k.pem").write_bytes(pem)
    (d / "pw").write_text("s3cret pass\n")  # one trailing newline, as `echo` writes it
    (d / "bad").write_text("nope\n")
    return key, d


def test_rsa_encrypted_key(capsys, encrypted_keyfile, monkeypatch):
    key, d = encrypted_keyfile
    want = key.cryptography_key().sign(b"hi", cpad.PKCS1v15(), hashes.SHA256()).hex()
    code, _, err = run(capsys, "rsa", "--core", "r2_basic", "--key", d / "k.pem", "sign", "--message", "hi")
    assert code == 2 and "encrypted" in err and "--key-password-file" in err and "MONTMUL_KEY_PASSWORD" in err
    code, out, err = run(capsys, "rsa", "--core", "r2_basic", "--key", d / "k.pem", "--key-password-file", d / "pw",
                         "sign", "--message", "hi", "--json")
    assert code == 0, err
    assert json.loads(out)["result"] == want
    code, _, err = run(capsys, "rsa", "--core", "r2_basic", "--key", d / "k.pem", "--key-password-file", d / "bad",
                       "sign", "--message", "hi")
    assert code == 2 and "wrong password" in err
    monkeypatch.setenv("MONTMUL_KEY_PASSWORD", "s3cret pass")
    code, out, err = run(capsys, "rsa", "--core", "r2_basic", "--key", d / "k.pem", "sign", "--message", "hi", "--json")
    assert code == 0 and json.loads(out)["result"] == want


def test_rsa_message_file_dash_is_stdin(capsys, keyfile, monkeypatch):
    import io
    import sys

    key, path = keyfile
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"from stdin\n")))
    code, out, err = run(capsys, "rsa", "--core", "r2_basic", "--key", path, "sign", "--message-file", "-", "--json")
    assert code == 0, err
    want = key.cryptography_key().sign(b"from stdin\n", cpad.PKCS1v15(), hashes.SHA256())
    assert bytes.fromhex(json.loads(out)["result"]) == want
