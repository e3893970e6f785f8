# SPDX-License-Identifier: Apache-2.0
"""Keys, points and signatures in the formats of ``cryptography``.

Points: SEC1 ("SEC 1: Elliptic Curve Cryptography", Sec. 2.3.3-2.3.4)
uncompressed 04 || x || y or compressed 02/03 || x; every decoded point is
checked to lie on the curve (and the point at infinity, the one-byte 00, is
refused).  Public keys: DER SubjectPublicKeyInfo (RFC 5480) with a named
curve.  Private keys: PEM/DER PKCS#8 or SEC1 ECPrivateKey (RFC 5915).
Signatures: DER ECDSA-Sig-Value (r, s) or IEEE P1363 r || s.

``cryptography`` reads and writes every key of the curves it supports; for
the other built-in curves (secp160k1, brainpoolP160r1, ...) the named-curve
forms are read and written here with a small strict DER reader, the same
structures OpenSSL writes.  Keys with explicit curve parameters or an unknown
curve identifier are refused (ValueError).
"""

from __future__ import annotations

import base64
import re
from functools import lru_cache

from cryptography import x509
from cryptography.exceptions import UnsupportedAlgorithm
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from . import curves
from .curves import Curve

__all__ = [
    "decode_point", "encode_point", "load_public", "key_curve", "public_der", "load_private", "private_pem",
    "crypto_curve", "sqrt_mod",
]

EC_PUBLIC_KEY_OID = "1.2.840.10045.2.1"


@lru_cache(maxsize=None)
def crypto_curve(curve: Curve) -> ec.EllipticCurve | None:
    """``cryptography``'s curve object for a built-in curve it supports, else None."""
    if curve.oid is None:
        return None
    try:
        obj = ec.get_curve_for_oid(x509.ObjectIdentifier(curve.oid))()
        ec.derive_private_key(1, obj)  # UnsupportedAlgorithm where OpenSSL lacks it
    except (LookupError, UnsupportedAlgorithm):
        return None
    return obj


# ---------------------------------------------------------------------------
# Points (SEC1)
def sqrt_mod(a: int, p: int) -> int | None:
    """A square root of a mod the odd prime p, or None (Tonelli-Shanks; public data)."""
    a %= p
    if a == 0:
        return 0
    if pow(a, (p - 1) // 2, p) != 1:
        return None
    if p % 4 == 3:
        return pow(a, (p + 1) // 4, p)
    q, s = p - 1, 0
    while q % 2 == 0:
        q //= 2
        s += 1
    z = 2
    while pow(z, (p - 1) // 2, p) != p - 1:
        z += 1
    m, c, t, r = s, pow(z, q, p), pow(a, q, p), pow(a, (q + 1) // 2, p)
    while t != 1:
        i, t2 = 0, t
        while t2 != 1:
            t2 = t2 * t2 % p
            i += 1
        b = pow(c, 1 << (m - i - 1), p)
        m, c, t, r = i, b * b % p, t * b * b % p, r * b % p
    return r


def decode_point(curve: Curve, data: bytes) -> tuple[int, int]:
    """An affine point from SEC1 bytes, checked on the curve; ValueError for a
    malformed encoding, the point at infinity or a point not on the curve."""
    data = bytes(data)
    L = curve.field_bytes
    if not data:
        raise ValueError("empty point encoding")
    if data == b"\x00":
        raise ValueError("the point at infinity is not a valid public key")
    tag = data[0]
    if tag == 4:
        if len(data) != 1 + 2 * L:
            raise ValueError(f"uncompressed point of {len(data)} bytes; {curve.name} needs {1 + 2 * L}")
        x, y = int.from_bytes(data[1:1 + L], "big"), int.from_bytes(data[1 + L:], "big")
    elif tag in (2, 3):
        if len(data) != 1 + L:
            raise ValueError(f"compressed point of {len(data)} bytes; {curve.name} needs {1 + L}")
        x = int.from_bytes(data[1:], "big")
        if x >= curve.p:
            raise ValueError("point coordinate out of range [0, p)")
        y = sqrt_mod(x * x * x + curve.a * x + curve.b, curve.p)
        if y is None:
            raise ValueError(f"point not on the curve {curve.name}: no y for this x")
        if y & 1 != tag & 1:
            y = curve.p - y
    else:
        raise ValueError(f"unknown point encoding (first byte {tag:#04x}; SEC1 uses 02, 03 or 04)")
    if x >= curve.p or y >= curve.p:
        raise ValueError("point coordinate out of range [0, p)")
    if not curve.on_curve(x, y):
        raise ValueError(f"point not on the curve {curve.name}")
    _check_subgroup(curve, x, y)
    return x, y


def _check_subgroup(curve: Curve, x: int, y: int) -> None:
    """A point of a curve with cofactor h > 1 must have order n (no
    small-subgroup points); every point of a prime-order curve has."""
    if curve.h != 1 and curves.affine_mul_public(curve, curve.n, (x, y)) is not None:
        raise ValueError(f"point not in the subgroup of order n of {curve.name}")


def encode_point(curve: Curve, x: int, y: int, compressed: bool = False) -> bytes:
    L = curve.field_bytes
    if compressed:
        return bytes([2 | (y & 1)]) + x.to_bytes(L, "big")
    return b"\x04" + x.to_bytes(L, "big") + y.to_bytes(L, "big")


# ---------------------------------------------------------------------------
# A small strict DER reader and writer (named-curve key structures only)
def _tlv(data: bytes, tag: int) -> tuple[bytes, bytes]:
    """(content, rest) of one element with ``tag`` at the start of ``data``."""
    if len(data) < 2 or data[0] != tag:
        raise ValueError("malformed DER")
    n = data[1]
    off = 2
    if n & 0x80:
        k = n & 0x7F
        if k == 0 or k > 4 or len(data) < 2 + k or data[2] == 0:
            raise ValueError("malformed DER length")
        n = int.from_bytes(data[2:2 + k], "big")
        if n < 0x80:
            raise ValueError("malformed DER length")
        off = 2 + k
    if len(data) < off + n:
        raise ValueError("truncated DER")
    return data[off:off + n], data[off + n:]


def _oid_text(body: bytes) -> str:
    if not body:
        raise ValueError("malformed DER object identifier")
    out, v = [], 0
    for b in body:
        v = (v << 7) | (b & 0x7F)
        if not b & 0x80:
            out.append(v)
            v = 0
    first = out[0]
    head = [min(first // 40, 2), first - 40 * min(first // 40, 2)]
    return ".".join(map(str, head + out[1:]))


def _len(n: int) -> bytes:
    if n < 0x80:
        return bytes([n])
    b = n.to_bytes((n.bit_length() + 7) // 8, "big")
    return bytes([0x80 | len(b)]) + b


def _el(tag: int, body: bytes) -> bytes:
    return bytes([tag]) + _len(len(body)) + body


def _oid_der(text: str) -> bytes:
    parts = [int(x) for x in text.split(".")]
    body = bytearray([40 * parts[0] + parts[1]])
    for v in parts[2:]:
        chunk = [v & 0x7F]
        v >>= 7
        while v:
            chunk.append(0x80 | (v & 0x7F))
            v >>= 7
        body += bytes(reversed(chunk))
    return _el(6, bytes(body))


def _curve_of(oid: bytes) -> Curve:
    """The named curve whose OBJECT IDENTIFIER body is ``oid``."""
    c = curves.by_oid(_oid_text(oid))
    if c is None:
        raise ValueError(f"EC key on an unknown curve (identifier {_oid_text(oid)})")
    return c


def _named_curve(alg: bytes) -> Curve:
    """The curve of an AlgorithmIdentifier body {ecPublicKey, namedCurve}."""
    oid, rest = _tlv(alg, 6)
    if _oid_text(oid) != EC_PUBLIC_KEY_OID:
        raise ValueError("not an elliptic-curve key (algorithm is not id-ecPublicKey)")
    if not rest or rest[0] != 6:
        raise ValueError("EC key with explicit curve parameters: only named curves are supported")
    cid, rest = _tlv(rest, 6)
    if rest:
        raise ValueError("malformed DER")
    return _curve_of(cid)


def _spki(data: bytes) -> tuple[Curve, bytes]:
    body, rest = _tlv(data, 0x30)
    if rest:
        raise ValueError("trailing bytes after the public key")
    alg, body = _tlv(body, 0x30)
    bits, body = _tlv(body, 3)
    if body or not bits or bits[0] != 0:
        raise ValueError("malformed DER public key")
    return _named_curve(alg), bits[1:]


# ---------------------------------------------------------------------------
# Public keys
def load_public(curve: Curve, data: bytes) -> tuple[int, int]:
    """The public point of ``data``, a DER SubjectPublicKeyInfo (or SEC1 point
    bytes), checked to be a point of ``curve``.  ValueError otherwise."""
    data = bytes(data)
    if not data:
        raise ValueError("empty public key")
    if data[0] != 0x30:
        return decode_point(curve, data)
    try:
        key = serialization.load_der_public_key(data)
    except UnsupportedAlgorithm:
        key = None  # a curve cryptography lacks: read it here
    except ValueError as exc:
        if "trailing" in str(exc).lower():
            raise ValueError("malformed public key: trailing data") from None
        key = None
    if key is not None:
        if not isinstance(key, ec.EllipticCurvePublicKey):
            raise ValueError(f"not an elliptic-curve public key ({type(key).__name__.lstrip('_')})")
        their = curves.get(key.curve.name).name
        if their != curve.name:
            raise ValueError(f"public key of another curve: {their}, not {curve.name}")
        nums = key.public_numbers()
        x, y = nums.x, nums.y
        if not curve.on_curve(x, y):
            raise ValueError(f"point not on the curve {curve.name}")
        _check_subgroup(curve, x, y)
        return x, y
    try:
        kc, point = _spki(data)
    except ValueError as exc:
        raise ValueError(f"malformed public key: {exc}") from None
    if kc.name != curve.name:
        raise ValueError(f"public key of another curve: {kc.name}, not {curve.name}")
    return decode_point(curve, point)


def key_curve(data: bytes) -> Curve:
    """The built-in curve of a DER SubjectPublicKeyInfo (named curve);
    ValueError for anything else."""
    data = bytes(data)
    try:
        key = serialization.load_der_public_key(data)
    except UnsupportedAlgorithm:
        key = None
    except ValueError:
        key = None
    if key is not None:
        if not isinstance(key, ec.EllipticCurvePublicKey):
            raise ValueError(f"not an elliptic-curve public key ({type(key).__name__.lstrip('_')})")
        return curves.get(key.curve.name)
    try:
        return _spki(data)[0]
    except ValueError as exc:
        raise ValueError(f"malformed public key: {exc}") from None


def public_der(curve: Curve, x: int, y: int) -> bytes:
    """DER SubjectPublicKeyInfo of the point (named curve, uncompressed)."""
    if curve.oid is None:
        raise ValueError("a user-defined curve has no object identifier: use SEC1 point bytes (encode_point)")
    alg = _el(0x30, _oid_der(EC_PUBLIC_KEY_OID) + _oid_der(curve.oid))
    return _el(0x30, alg + _el(3, b"\x00" + encode_point(curve, x, y)))


# ---------------------------------------------------------------------------
# Private keys
def _pem_body(data: bytes) -> tuple[str, bytes]:
    m = re.search(rb"-----BEGIN ([A-Z ]+)-----(.*?)-----END \1-----", data, re.S)
    if not m:
        raise ValueError("not a PEM key")
    try:
        return m.group(1).decode(), base64.b64decode(b"".join(m.group(2).split()), validate=True)
    except ValueError:
        raise ValueError("not a PEM key (bad base64)") from None


def _ec_private_key(body: bytes, curve: Curve | None) -> tuple[Curve, int]:
    """RFC 5915 ECPrivateKey (its content), the curve from its parameters or ``curve``."""
    ver, body = _tlv(body, 2)
    if ver != b"\x01":
        raise ValueError("unsupported ECPrivateKey version")
    d, body = _tlv(body, 4)
    if body and body[0] == 0xA0:
        params, body = _tlv(body, 0xA0)
        oid, extra = _tlv(params, 6)
        if extra:
            raise ValueError("malformed ECPrivateKey")
        c = _curve_of(oid)
        if curve is not None and c.name != curve.name:
            raise ValueError("ECPrivateKey curve differs from its PKCS#8 algorithm")
        curve = c
    if curve is None:
        raise ValueError("ECPrivateKey without curve parameters")
    return curve, int.from_bytes(d, "big")


def load_private(data: bytes) -> tuple[Curve, int]:
    """(curve, private scalar) from a PEM or DER private key: PKCS#8 or SEC1
    ECPrivateKey, unencrypted, named curve.  ValueError otherwise."""
    data = bytes(data)
    try:
        if data.lstrip().startswith(b"-----"):
            key = serialization.load_pem_private_key(data, password=None)
        else:
            key = serialization.load_der_private_key(data, password=None)
    except TypeError:  # cryptography: "Password was not given but private key is encrypted"
        raise ValueError("encrypted private keys are not supported") from None
    except (UnsupportedAlgorithm, ValueError):
        key = None
    if key is not None:
        if not isinstance(key, ec.EllipticCurvePrivateKey):
            raise ValueError(f"not an elliptic-curve private key ({type(key).__name__.lstrip('_')})")
        return curves.get(key.curve.name), key.private_numbers().private_value
    kind, der = _pem_body(data) if data.lstrip().startswith(b"-----") else ("", data)
    try:
        body, rest = _tlv(der, 0x30)
        if rest:
            raise ValueError("trailing bytes")
        if kind == "EC PRIVATE KEY" or (kind == "" and body[:3] == b"\x02\x01\x01"):
            c, d = _ec_private_key(body, None)
        else:
            ver, body = _tlv(body, 2)
            alg, body = _tlv(body, 0x30)
            inner, body = _tlv(body, 4)
            if ver != b"\x00":
                raise ValueError("unsupported PKCS#8 version")
            c = _named_curve(alg)
            ek, extra = _tlv(inner, 0x30)
            if extra:
                raise ValueError("trailing bytes")
            c, d = _ec_private_key(ek, c)
    except (ValueError, IndexError) as exc:
        raise ValueError(f"not an EC private key (PKCS#8 or SEC1, unencrypted, named curve): {exc}") from None
    if not 1 <= d < c.n:
        raise ValueError(f"private key out of range [1, n) for {c.name}")
    return c, d


def private_pem(curve: Curve, d: int, x: int, y: int) -> bytes:
    """PKCS#8 PEM (``cryptography``) where ``cryptography`` has the curve, else
    SEC1 "EC PRIVATE KEY" PEM (RFC 5915, named curve, as OpenSSL writes it)."""
    cc = crypto_curve(curve)
    if cc is not None:
        key = ec.derive_private_key(d, cc)
        return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                 serialization.NoEncryption())
    if curve.oid is None:
        raise ValueError("a user-defined curve has no object identifier: no PEM form")
    body = (_el(2, b"\x01") + _el(4, d.to_bytes(curve.order_bytes, "big")) + _el(0xA0, _oid_der(curve.oid))
            + _el(0xA1, _el(3, b"\x00" + encode_point(curve, x, y))))
    b64 = base64.b64encode(_el(0x30, body)).decode()
    lines = "\n".join(b64[i:i + 64] for i in range(0, len(b64), 64))
    return f"-----BEGIN EC PRIVATE KEY-----\n{lines}\n-----END EC PRIVATE KEY-----\n".encode()
