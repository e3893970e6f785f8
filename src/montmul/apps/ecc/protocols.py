# SPDX-License-Identifier: Apache-2.0
"""ECDSA (sign with RFC 6979 or random nonces, verify) and ECDH on a core.

Every field product, modulo p (the curve's points) and modulo n (the
signature's scalars), is one Montgomery product on the chosen core's model
(:mod:`montmul.apps.ecc.field`); with ``sim="icarus"`` or ``"verilator"`` the
products are recorded and all of them then run on the core's RTL in one
batch (:func:`check_rtl`), each result and latency required to equal the
model's.  Both fields use one core width, the larger of p's and n's bit
lengths, so one simulator build serves the whole operation.

ECDSA follows "SEC 1: Elliptic Curve Cryptography" (Sec. 4.1) and FIPS
186-5: e is the hash's leftmost n-bit-length bits (RFC 6979's bits2int), the
nonce k comes from RFC 6979 Sec. 3.2 ("Deterministic Usage of the Digital
Signature Algorithm (DSA) and Elliptic Curve Digital Signature Algorithm
(ECDSA)") or from :mod:`secrets`, r = x(kG) mod n, s = k^-1 (e + r d) mod n
(k^-1 by Fermat on the core).  SHAKE128 and SHAKE256 hash with 256- and
512-bit outputs (RFC 8692); RFC 6979 defines HMAC nonces for fixed-output
hashes only, so they sign with random nonces.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from dataclasses import dataclass

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature, encode_dss_signature

from ... import cores
from .. import rsa
from . import curves
from . import encoding as enc
from .curves import Curve
from .field import Field
from .point import Arith

__all__ = [
    "DEFAULT_CORE", "HASHES", "SIMS", "EccResult", "Session", "ParameterError", "digest", "rfc6979_nonces",
    "keygen", "public_key", "sign", "verify", "exchange", "ecdh", "ecdsa_sign", "ecdsa_verify", "check_rtl",
]

#: The default core: the constant-time SCS-MM-New.  It stands in for the
#: public-key engine's array, which does not exist yet; the default will
#: become that array.
DEFAULT_CORE = "scs_new_ct"

SIMS = ("model", "icarus", "verilator")

#: Hash names -> ``cryptography`` hash objects (SHAKE: RFC 8692 output lengths): RSA's.
HASHES = rsa.HASHES
#: SHAKE output lengths in bytes (RFC 8692: 256 and 512 bits).
SHAKE_BYTES = {"shake128": 32, "shake256": 64}


class ParameterError(ValueError):
    """A parameter that does not fit (unknown hash, nonce or encoding): the
    caller's mistake, not the data's."""


@dataclass(frozen=True)
class EccResult:
    """An operation's outcome and the hardware work it took."""

    op: str  #: sign, verify, ecdh, keygen
    data: bytes | bool  #: signature, shared secret or public key bytes; verify: valid or not
    curve: str
    core: str
    sim: str
    width: int  #: core width (bits)
    products: int  #: Montgomery products on the core
    cycles: int  #: their latencies summed (the core's model; equal to the RTL's when simulated)
    seconds: float  #: wall-clock time of the model (and the RTL batch)
    why: str = ""  #: verify: why a signature was rejected


def _hash_name(name: str) -> str:
    return rsa.hash_key(name, ParameterError)


def digest(name: str, message: bytes) -> bytes:
    """The message hash: ``cryptography``'s, SHAKE128/256 with 32/64-byte
    outputs (hashlib)."""
    name = _hash_name(name)
    if name in SHAKE_BYTES:
        return getattr(hashlib, name.replace("shake", "shake_"))(message).digest(SHAKE_BYTES[name])
    h = hashes.Hash(HASHES[name]())
    h.update(message)
    return h.finalize()


def _bits2int(data: bytes, qlen: int) -> int:
    v = int.from_bytes(data, "big")
    blen = 8 * len(data)
    return v >> (blen - qlen) if blen > qlen else v


def rfc6979_nonces(curve: Curve, d: int, h1: bytes, hash_name: str):
    """The candidate nonces k of RFC 6979 Sec. 3.2 (a generator: the next
    candidate after one that gave r = 0 or s = 0)."""
    hname = _hash_name(hash_name)
    if hname in SHAKE_BYTES:
        raise ParameterError(f"RFC 6979 nonces need an HMAC hash; {hname} has none: use nonce='random'")
    q = curve.n
    qlen = q.bit_length()
    rlen = curve.order_bytes
    mac = lambda key, data: hmac.new(key, data, hname).digest()  # noqa: E731
    hlen = len(mac(b"", b""))
    z1 = _bits2int(h1, qlen)
    z2 = z1 - q if z1 >= q else z1
    x_oct, h_oct = d.to_bytes(rlen, "big"), z2.to_bytes(rlen, "big")
    V, K = b"\x01" * hlen, b"\x00" * hlen
    K = mac(K, V + b"\x00" + x_oct + h_oct)
    V = mac(K, V)
    K = mac(K, V + b"\x01" + x_oct + h_oct)
    V = mac(K, V)
    while True:
        T = b""
        while 8 * len(T) < qlen:
            V = mac(K, V)
            T += V
        k = _bits2int(T, qlen)
        if 1 <= k < q:
            yield k
        K = mac(K, V + b"\x00")
        V = mac(K, V)


# ---------------------------------------------------------------------------
class Session:
    """One operation's arithmetic on a core: the curve's group law over GF(p)
    (:attr:`E`) and the scalars' field GF(n) (:attr:`S`), both on ``core`` at
    one width; with ``sim`` other than "model" every product is recorded for
    :func:`check_rtl`."""

    def __init__(self, curve: Curve, core: str, sim: str, params: dict[str, int] | None = None):
        if sim not in SIMS:
            raise ParameterError(f"unknown simulator {sim!r}; use model, icarus or verilator")
        cores.get(core)  # KeyError naming the known cores
        self.curve, self.core, self.sim, self.params = curve, core, sim, dict(params or {})
        self.width = max(curve.p.bit_length(), curve.n.bit_length())
        rec = sim != "model"
        self.t0 = time.perf_counter()
        self.F = Field(core, curve.p, self.width, self.params, record=rec)
        self.S = Field(core, curve.n, self.width, self.params, record=rec)
        self.E = Arith(curve, self.F)

    def result(self, op: str, data, why: str = "") -> EccResult:
        check_rtl(self)
        return EccResult(op, data, self.curve.name, self.core, self.sim, self.width,
                         self.F.products + self.S.products, self.F.cycles + self.S.cycles,
                         time.perf_counter() - self.t0, why)

    def base_mul(self, k: int) -> tuple[int, int]:
        """k*G in affine coordinates (constant-time ladder)."""
        c = self.curve
        R = self.E.affine(self.E.mul(k, self.E.point(c.gx, c.gy)))
        if R is None:
            raise ValueError("k*G is the point at infinity: the scalar is a multiple of n")
        return R


def check_rtl(session: Session) -> None:
    """Run every product the session recorded through its core's RTL in one
    batch and require each result and latency to equal the model's;
    :class:`montmul.apps.modexp.ModelMismatch` (a RuntimeError) naming the
    first mismatch otherwise.  Nothing to do for
    ``sim="model"``."""
    if session.sim == "model":
        return
    from ...flows.sim.api import simulate
    from ..modexp import ModelMismatch

    jobs = [(a, b, F.p, r, cyc) for F in (session.F, session.S) for a, b, r, cyc in F.log]
    got = simulate(cores.get(session.core), session.width, [j[:3] for j in jobs], sim=session.sim,
                   params=session.params or None)
    if len(got) != len(jobs):
        raise ModelMismatch(f"{session.sim} returned {len(got)} results for {len(jobs)} products")
    for i, ((a, b, n, r, cyc), g) in enumerate(zip(jobs, got)):
        if g.err or g.s != r or g.cycles != cyc:
            raise ModelMismatch(
                f"RTL ({session.sim}, {session.core}, width {session.width}) disagrees with the model on product "
                f"{i} of {len(jobs)}: a={a:#x} b={b:#x} n={n:#x}: result {g.s:#x} (err {g.err}), {g.cycles} cycles; "
                f"model {r:#x}, {cyc} cycles")


def _curve(curve: str | Curve) -> Curve:
    return curves.get(curve)


def _check_private(c: Curve, d: int) -> None:
    if isinstance(d, bool) or not isinstance(d, int) or not 1 <= d < c.n:
        raise ValueError(f"private key out of range [1, n) for {c.name}")


# ---------------------------------------------------------------------------
# Keys
def keygen(curve: str | Curve, *, core: str = DEFAULT_CORE, sim: str = "model",
           params: dict[str, int] | None = None) -> tuple[int, EccResult]:
    """A new private key d (uniform in [1, n), :mod:`secrets`) and its public
    point d*G computed on the core (the result's data: SEC1 uncompressed)."""
    c = _curve(curve)
    d = 1 + secrets.randbelow(c.n - 1)
    ses = Session(c, core, sim, params)
    x, y = ses.base_mul(d)
    return d, ses.result("keygen", enc.encode_point(c, x, y))


def public_key(curve: str | Curve, private_key: int, *, core: str = DEFAULT_CORE, sim: str = "model",
               params: dict[str, int] | None = None) -> tuple[int, int]:
    """The public point d*G (affine), on the core."""
    c = _curve(curve)
    _check_private(c, private_key)
    return Session(c, core, sim, params).base_mul(private_key)


# ---------------------------------------------------------------------------
# ECDSA
def sign(curve: str | Curve, private_key: int, message: bytes, hash: str = "sha256", encoding: str = "der",
         nonce: str = "rfc6979", *, core: str = DEFAULT_CORE, sim: str = "model",
         params: dict[str, int] | None = None) -> EccResult:
    """An ECDSA signature and the work it took (:func:`ecdsa_sign`)."""
    c = _curve(curve)
    _check_private(c, private_key)
    hname = _hash_name(hash)
    if encoding not in ("der", "p1363"):
        raise ParameterError(f"unknown signature encoding {encoding!r}; use der or p1363")
    if nonce not in ("rfc6979", "random"):
        raise ParameterError(f"unknown nonce {nonce!r}; use rfc6979 or random")
    h1 = digest(hname, bytes(message))
    n = c.n
    e = _bits2int(h1, n.bit_length())
    e -= n & -(e >= n)  # e < 2^qlen <= 2n: one masked subtraction
    if nonce == "rfc6979":
        ks = rfc6979_nonces(c, private_key, h1, hname)
    else:
        ks = iter(lambda: 1 + secrets.randbelow(n - 1), None)
    ses = Session(c, core, sim, params)
    S = ses.S
    for k in ks:
        x, _ = ses.base_mul(k)
        r = x % n  # x is public once r is
        if r == 0:
            continue
        kinv = S.inv(S.enter(k))
        t = S.add(S.enter(e), S.mul(S.enter(r), S.enter(private_key)))
        s = S.leave(S.mul(kinv, t))
        if s != 0:
            break
    if encoding == "der":
        sig = encode_dss_signature(r, s)
    else:
        sig = r.to_bytes(c.order_bytes, "big") + s.to_bytes(c.order_bytes, "big")
    return ses.result("sign", sig)


def _decode_signature(c: Curve, signature: bytes, enc: str) -> tuple[int, int] | str:
    """(r, s) or why the signature is malformed."""
    if enc == "der":
        try:
            r, s = decode_dss_signature(bytes(signature))
        except (ValueError, TypeError):
            return "malformed DER signature"
        # decode_dss_signature reads strict DER; re-encoding must give the input back
        if encode_dss_signature(r, s) != bytes(signature):
            return "non-canonical DER signature"
        return r, s
    L = c.order_bytes
    if len(signature) != 2 * L:
        return f"P1363 signature of {len(signature)} bytes; {c.name} needs {2 * L}"
    return int.from_bytes(signature[:L], "big"), int.from_bytes(signature[L:], "big")


def verify(curve: str | Curve, public_key: bytes, message: bytes, signature: bytes, hash: str = "sha256",
           encoding: str = "der", *, core: str = DEFAULT_CORE, sim: str = "model",
           params: dict[str, int] | None = None) -> EccResult:
    """Verify an ECDSA signature; the result's data is True or False (and
    ``why`` says why not).  Raises ValueError for a bad public key, hash or
    encoding name, never for the signature."""
    c = _curve(curve)
    hname = _hash_name(hash)
    if encoding not in ("der", "p1363"):
        raise ParameterError(f"unknown signature encoding {encoding!r}; use der or p1363")
    qx, qy = enc.load_public(c, public_key)
    ses = Session(c, core, sim, params)
    rs = _decode_signature(c, signature, encoding)
    if isinstance(rs, str):
        return ses.result("verify", False, rs)
    r, s = rs
    n = c.n
    if not (1 <= r < n and 1 <= s < n):
        return ses.result("verify", False, "r or s outside [1, n)")
    e = _bits2int(digest(hname, bytes(message)), n.bit_length()) % n
    S, E = ses.S, ses.E
    w = S.inv(S.enter(s))
    u1 = S.leave(S.mul(S.enter(e), w))
    u2 = S.leave(S.mul(S.enter(r), w))
    R = E.affine(E.mul2_public(u1, E.point(c.gx, c.gy), u2, E.point(qx, qy)))
    if R is None:
        return ses.result("verify", False, "u1*G + u2*Q is the point at infinity")
    if R[0] % n != r:
        return ses.result("verify", False, "x(u1*G + u2*Q) mod n differs from r")
    return ses.result("verify", True)


# ---------------------------------------------------------------------------
# ECDH
def exchange(curve: str | Curve, private_key: int, peer_public_key: bytes, encoding: str = "der", *,
         core: str = DEFAULT_CORE, sim: str = "model", params: dict[str, int] | None = None) -> EccResult:
    """The shared secret x(d*Q) and the work it took (:func:`montmul.ecc.ecdh`)."""
    c = _curve(curve)
    _check_private(c, private_key)
    if encoding == "der":
        if not peer_public_key or bytes(peer_public_key)[:1] != b"\x30":
            raise ValueError("malformed public key: not a DER SubjectPublicKeyInfo")
        qx, qy = enc.load_public(c, peer_public_key)
    elif encoding == "point":
        qx, qy = enc.decode_point(c, bytes(peer_public_key))
    else:
        raise ParameterError(f"unknown public-key encoding {encoding!r}; use der or point")
    ses = Session(c, core, sim, params)
    E = ses.E
    R = E.affine(E.mul(private_key, E.point(qx, qy)))
    if R is None:
        raise ValueError("the shared point is the point at infinity")
    return ses.result("ecdh", R[0].to_bytes(c.field_bytes, "big"))


# ---------------------------------------------------------------------------
# The public API (montmul.ecc)
def ecdsa_sign(curve: str, private_key: int, message: bytes, hash: str = "sha256", encoding: str = "der",
               nonce: str = "rfc6979", *, core: str = DEFAULT_CORE, sim: str = "model",
               params: dict[str, int] | None = None) -> bytes:
    """An ECDSA signature of ``message`` with private key d on ``curve``.

    ``hash``: a hashlib name (sha224 ... sha512, sha512_224, sha512_256,
    sha3_224 ... sha3_512, shake128/shake256 with 256/512-bit outputs as RFC
    8692 defines; sha1 for old data); ``encoding``: "der" (ASN.1
    ECDSA-Sig-Value) or "p1363" (r || s); ``nonce``: "rfc6979"
    (deterministic, byte-identical to ``cryptography``'s
    ``deterministic_signing=True``) or "random".  ``core``: any registered
    core; the default :data:`DEFAULT_CORE` (constant time) stands in for the
    public-key engine's array, which will become the default.  ``sim``:
    "model", or "icarus"/"verilator" (every product also run on the RTL and
    checked against the model)."""
    return sign(curve, private_key, message, hash, encoding, nonce, core=core, sim=sim, params=params).data


def ecdsa_verify(curve: str, public_key: bytes, message: bytes, signature: bytes, hash: str,
                 encoding: str = "der", *, core: str = DEFAULT_CORE, sim: str = "model",
                 params: dict[str, int] | None = None) -> bool:
    """True if ``signature`` is a valid ECDSA signature of ``message`` under
    ``public_key`` (a DER SubjectPublicKeyInfo, or SEC1 point bytes), False for
    every invalid or malformed signature.  ValueError for a public key that is
    malformed, not on the curve or of another curve, and for an unknown hash
    or encoding.  ``core``, ``sim``: as :func:`ecdsa_sign`."""
    return bool(verify(curve, public_key, message, signature, hash, encoding, core=core, sim=sim,
                       params=params).data)


def ecdh(curve: str, private_key: int, peer_public_key: bytes, encoding: str = "der", *,
                core: str = DEFAULT_CORE, sim: str = "model", params: dict[str, int] | None = None) -> bytes:
    """The ECDH shared secret: x(d*Q), big-endian, the field's length.
    ``peer_public_key``: a DER SubjectPublicKeyInfo (``encoding="der"``) or a
    SEC1 point, uncompressed or compressed (``"point"``).  ValueError for a
    point not on the curve, the point at infinity, a key of another curve or
    a malformed encoding.  ``core``, ``sim``: as :func:`ecdsa_sign`."""
    return exchange(curve, private_key, peer_public_key, encoding, core=core, sim=sim, params=params).data
