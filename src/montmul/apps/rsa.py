# SPDX-License-Identifier: Apache-2.0
"""RSA on montmul cores: keys, raw RSA, PKCS#1 v1.5, OAEP and PSS.

Every modular exponentiation goes through :func:`montmul.apps.modexp.modexp`
(or the CRT engine), so it runs on a chosen registered core, either on the
cycle-exact model or in RTL simulation (Icarus, Verilator), and every result
carries the cycle count of each hardware exponentiation it used.  Core
``ws``'s CRT engine is the public-key engine mm_pke (``docs/pke.md``): with
``Hardware(core="ws")`` a CRT private-key operation is one run of its
RSA-CRT program (Garner's recombination and blinding included).

    from montmul import rsa
    key = rsa.generate(2048)                       # or rsa.load_pem(open("k.pem", "rb").read())
    hw = rsa.Hardware(core="scs_new_ct", sim="model")
    sig = rsa.sign(key, b"hello", hw=hw)           # PKCS#1 v1.5, SHA-256, CRT
    sig.data, sig.cycles, sig.exps                 # signature bytes, total cycles, per exponentiation
    rsa.verify(key, b"hello", sig.data, hw=hw)     # raises ValueError on a bad signature
    sig = rsa.sign(key, b"hi", hw=hw, padding="pss", hash="sha3_256", mgf1_hash="sha1", salt_length=0)
    rsa.verify(key, b"hi", sig.data, hw=hw, padding="pss", hash="sha3_256", mgf1_hash="sha1", salt_length=0)

Keys, hashes and the key-generation randomness come from the ``cryptography``
package.  ``cryptography`` does not expose the RFC 8017 encodings as
functions (EMSA-PKCS1-v1_5, EMSA-PSS, EME-PKCS1-v1_5, EME-OAEP), so they are
written here from RFC 8017 (and RFC 8702 for RSASSA-PSS with SHAKE), hashing
with ``cryptography.hazmat.primitives.hashes``; the tests check them against
``cryptography``'s own sign/verify/encrypt/decrypt and, where ``cryptography``
has no such scheme, against an independent ``hashlib`` encoding
(``docs/rsa.md``).

Every parameter a scheme depends on is explicit and checked, never guessed:
the hash, the MGF1 hash (``mgf1_hash``, by default the message/label hash)
and, for PSS, the salt length (by default the digest length, for signing and
verifying alike; ``salt_length="auto"``, reading it from the signature, only
when asked for).  Results record what was used.

Private-key operations either exponentiate modulo n with d (``crt=False``),
or run two half-width exponentiations, c^dP mod p and c^dQ mod q, on cores of
width p.bit_length() and q.bit_length(), and recombine them with Garner's
formula (RFC 8017 Sec. 5.1.2): h = qInv (m1 - m2) mod p, m = m2 + q h.  The
recombination runs in software and is not counted in the cycles.

Blinding (``docs/security.md``): every private-key operation takes a
:class:`Blinding` — message (base) blinding, c' = c·r^e mod n, then
m = m'·r^-1 mod n, with r^e computed on the engine; exponent blinding,
d + k·φ(n) (or dP + kP·(p-1), dQ + kQ·(q-1) with CRT) with a random k of a
chosen bit length, which lengthens the exponent and so the engine's width.
Results are unchanged, byte for byte.

Not a hardened implementation: the padding checks are not constant-time and
several cores' latency depends on the data (``docs/security.md``).
"""

from __future__ import annotations

import hmac
import math
import os
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import partial

import gmpy2
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import rsa as _rsa

from .. import cores
from ..flows.sim.pke_sim import PES as PKE_PES  # the engine build's PEs (the build placed and routed)


class ParameterError(ValueError):
    """A parameter that does not fit the scheme (an unsupported hash, an MGF1
    hash or salt length where the padding has none, an unknown padding):
    the caller's mistake, not the data's."""

__all__ = [
    "KEY_SIZES", "HASHES", "SHAKE_HASHES", "DIGEST_INFO", "Hardware", "Exp", "RsaResult", "RsaKey",
    "generate", "load_pem", "from_numbers",
    "rsaep", "rsadp", "encrypt", "decrypt", "sign", "verify", "verify_many",
    "emsa_pkcs1_v15", "emsa_pss_encode", "emsa_pss_verify", "mgf1",
    "eme_pkcs1_v15_encode", "eme_pkcs1_v15_decode", "eme_oaep_encode", "eme_oaep_decode",
    "i2osp", "os2ip",
]

#: Key sizes :func:`generate` makes (and the CLI's ``--bits`` accepts).
KEY_SIZES = (1024, 2048, 3072, 4096)
#: Smallest modulus accepted from a loaded key or from numbers.
MIN_BITS = 512

#: Hash names -> a callable giving the ``cryptography`` hash object
#: (``HASHES[name]()``).  SHAKE128/256 have the fixed output lengths of RFC
#: 8702 (32 and 64 bytes) and serve RSASSA-PSS only (:data:`SHAKE_HASHES`).
HASHES: dict[str, Callable[[], hashes.HashAlgorithm]] = {
    "sha1": hashes.SHA1,
    "sha224": hashes.SHA224,
    "sha256": hashes.SHA256,
    "sha384": hashes.SHA384,
    "sha512": hashes.SHA512,
    "sha512_224": hashes.SHA512_224,
    "sha512_256": hashes.SHA512_256,
    "sha3_224": hashes.SHA3_224,
    "sha3_256": hashes.SHA3_256,
    "sha3_384": hashes.SHA3_384,
    "sha3_512": hashes.SHA3_512,
    "shake128": partial(hashes.SHAKE128, digest_size=32),
    "shake256": partial(hashes.SHAKE256, digest_size=64),
}

#: The extendable-output functions: RSASSA-PSS only, where (RFC 8702 Sec. 3.1)
#: the message hash is the SHAKE with a 32 (SHAKE128) or 64 (SHAKE256) byte
#: output and the mask generation function is the same SHAKE with the mask's
#: length as output (no MGF1).  RFC 8702 defines no PKCS#1 v1.5 or OAEP use.
SHAKE_HASHES = ("shake128", "shake256")

#: DER of DigestInfo without the digest (RFC 8017 Sec. 9.2, note 1; SHA-3:
#: the same structure with NIST's OIDs id-sha3-224 .. id-sha3-512,
#: 2.16.840.1.101.3.4.2.7 .. .10, as in RFC 8017's ASN.1 module).
DIGEST_INFO: dict[str, bytes] = {
    "sha1": bytes.fromhex("3021300906052b0e03021a05000414"),
    "sha224": bytes.fromhex("302d300d06096086480165030402040500041c"),
    "sha256": bytes.fromhex("3031300d060960864801650304020105000420"),
    "sha384": bytes.fromhex("3041300d060960864801650304020205000430"),
    "sha512": bytes.fromhex("3051300d060960864801650304020305000440"),
    "sha512_224": bytes.fromhex("302d300d06096086480165030402050500041c"),
    "sha512_256": bytes.fromhex("3031300d060960864801650304020605000420"),
    "sha3_224": bytes.fromhex("302d300d06096086480165030402070500041c"),
    "sha3_256": bytes.fromhex("3031300d060960864801650304020805000420"),
    "sha3_384": bytes.fromhex("3041300d060960864801650304020905000430"),
    "sha3_512": bytes.fromhex("3051300d060960864801650304020a05000440"),
}

#: The core whose CRT engine is the public-key engine mm_pke (its array).
PKE_CORE = "ws"

SIGN_PADDINGS = ("pkcs1v15", "pss")
CRYPT_PADDINGS = ("pkcs1v15", "oaep")


# ---------------------------------------------------------------------------
# Hardware configuration and results
@dataclass(frozen=True)
class Hardware:
    """Where the exponentiations run: a registered core, on its model or in
    RTL simulation, with left-to-right square-and-multiply or the Montgomery
    ladder (``montmul.apps.modexp``)."""

    core: str = "scs_new"
    sim: str = "model"  #: "model", "icarus" or "verilator"
    ladder: bool = False
    params: dict[str, int] | None = None  #: extra HDL parameters of the core
    procs: int = 1  #: parallel simulator processes
    #: CRT private-key operations on the CRT engine mm_modexp_crt (both
    #: halves side by side on one core, Garner's h on the core, m = m_q + q*h
    #: on the host); False: two mm_modexp jobs, recombined on the host
    crt_engine: bool = True
    #: compare every result with gmpy2.powmod and, in RTL simulation, every
    #: result and cycle count with the engine's model (RuntimeError if not equal)
    check: bool = True
    #: core "ws" with the CRT engine: the public-key engine mm_pke
    #: (docs/pke.md) is its CRT engine; ``pke_bits`` is the build's half
    #: length ℓ (primes of up to ℓ bits; None: the key's longer prime),
    #: ``pke_pes`` its array's PEs (w = 17, L = 6: the synthesized build)
    pke_bits: int | None = None
    pke_pes: int = PKE_PES

    def __post_init__(self) -> None:
        cores.get(self.core)  # KeyError naming the known cores
        if self.sim not in ("model", "icarus", "verilator"):
            raise ValueError(f"unknown simulator {self.sim!r}; use model, icarus or verilator")
        if self.pke_bits is not None and (not isinstance(self.pke_bits, int) or self.pke_bits < 8):
            raise ParameterError(f"the engine's half length must be an integer of at least 8 bits, "
                                 f"got {self.pke_bits!r}")
        if not isinstance(self.pke_pes, int) or not 3 <= self.pke_pes <= 512:
            raise ParameterError(f"the engine's PEs must be an integer in [3, 512], got {self.pke_pes!r}")

    def on_pke(self, crt: bool = True) -> bool:
        """Whether a private-key operation (CRT or not) runs on mm_pke."""
        return self.core == PKE_CORE and crt and self.crt_engine


@dataclass(frozen=True)
class Blinding:
    """Side-channel blinding of a private-key operation (``docs/security.md``).

    ``base``: message (base) blinding — the engine exponentiates c·r^e mod n
    instead of c (r^e mod n on the engine, counted in the cycles), and the
    host multiplies the result by r^-1 mod n; ``r`` is the blinding factor
    (None: drawn with :mod:`secrets`, uniform in [2, n-1] and coprime to n).
    ``exp_bits``: exponent blinding — d + k·φ(n), or with CRT dP + kP·(p-1)
    and dQ + kQ·(q-1), with random k of ``exp_bits`` bits (0: off); ``k``
    fixes them ((k,) without CRT, (kP, kQ) with CRT; None: drawn).  A blinded
    exponent has up to ``exp_bits`` more bits, and the engine's exponent is at
    most as wide as its core, so the blinded exponentiations run on a core
    of modulus bits + ``exp_bits``."""

    base: bool = True
    exp_bits: int = 0
    r: int | None = None
    k: tuple[int, ...] | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.exp_bits, int) or not 0 <= self.exp_bits <= 1024:
            raise ParameterError(f"exponent-blinding bits must be an integer in [0, 1024], got {self.exp_bits!r}")
        if self.r is not None and not self.base:
            raise ParameterError("a base-blinding factor r was given with base blinding off")
        if self.k is not None:
            if not self.exp_bits:
                raise ParameterError("exponent-blinding multipliers k were given with exp_bits = 0")
            if any(not isinstance(x, int) or x < 0 or x.bit_length() > self.exp_bits for x in self.k):
                raise ParameterError(f"every exponent-blinding multiplier must be an integer in [0, 2^{self.exp_bits})")

    def factor(self, n: int) -> int:
        """The base-blinding factor r for modulus n (checked, or drawn)."""
        if self.r is None:
            while True:
                r = 2 + secrets.randbelow(n - 2)
                if math.gcd(r, n) == 1:
                    return r
        if not 2 <= self.r < n or math.gcd(self.r, n) != 1:
            raise ParameterError("the base-blinding factor r must be in [2, n) and coprime to n")
        return self.r

    def multipliers(self, count: int) -> tuple[int, ...]:
        """``count`` exponent-blinding multipliers (given, or drawn)."""
        if self.k is None:
            return tuple(secrets.randbits(self.exp_bits) for _ in range(count))
        if len(self.k) != count:
            raise ParameterError(f"exponent blinding needs {count} multiplier(s) here, got {len(self.k)}")
        return self.k


@dataclass(frozen=True)
class Exp:
    """One hardware modular exponentiation."""

    what: str  #: e.g. "c^dP mod p"
    width: int  #: core width k
    exp_bits: int  #: bit length of the exponent
    cycles: int  #: engine latency in clock cycles
    mults: int  #: core multiplications


@dataclass(frozen=True)
class RsaResult:
    """The outcome of one RSA operation and the hardware work it took."""

    op: str  #: rsaep, rsadp, encrypt, decrypt, sign, verify
    data: bytes | int | bool  #: ciphertext/plaintext/signature bytes, a raw integer, or True (verified)
    exps: tuple[Exp, ...]
    crt: bool
    core: str
    sim: str
    seconds: float  #: wall-clock time of the exponentiations (model or simulation)
    padding: str | None = None
    hash: str | None = None
    #: PSS and OAEP: the MGF1 hash; None for PKCS#1 v1.5 and for PSS with a
    #: SHAKE (RFC 8702: the SHAKE itself is the mask generation function)
    mgf1_hash: str | None = None
    #: PSS: the salt length in bytes that was used (sign) or checked (verify)
    salt_length: int | None = None
    #: PSS verify with salt_length="auto": the salt length was read from the
    #: signature (any length accepted), not checked against an expected one
    salt_recovered: bool = False
    #: the blinding used by a private-key operation (None: none)
    blinding: Blinding | None = None

    @property
    def cycles(self) -> int:
        """Total cycles, the exponentiations one after the other on one engine."""
        return sum(x.cycles for x in self.exps)

    @property
    def cycles_parallel(self) -> int:
        """Cycles with one engine per exponentiation (the CRT halves side by side)."""
        return max((x.cycles for x in self.exps), default=0)

    @property
    def mults(self) -> int:
        return sum(x.mults for x in self.exps)


# ---------------------------------------------------------------------------
# Keys
@dataclass(frozen=True)
class RsaKey:
    """An RSA key as integers (RFC 8017 Sec. 3).  A public key has only n, e."""

    n: int
    e: int
    d: int | None = None
    p: int | None = None
    q: int | None = None
    dp: int | None = None  #: d mod (p-1)
    dq: int | None = None  #: d mod (q-1)
    qinv: int | None = None  #: q^-1 mod p
    _crypto: object = field(default=None, repr=False, compare=False)

    @property
    def bits(self) -> int:
        return self.n.bit_length()

    @property
    def size(self) -> int:
        """k, the modulus length in octets."""
        return (self.bits + 7) // 8

    @property
    def is_private(self) -> bool:
        return self.d is not None

    def public(self) -> RsaKey:
        return RsaKey(self.n, self.e, _crypto=_rsa.RSAPublicNumbers(self.e, self.n).public_key())

    def cryptography_key(self):
        """The same key as a ``cryptography`` RSAPrivateKey or RSAPublicKey."""
        if self._crypto is not None:
            return self._crypto
        return _rsa.RSAPublicNumbers(self.e, self.n).public_key()

    def to_pem(self) -> bytes:
        """PKCS#8 (private) or SubjectPublicKeyInfo (public) PEM, unencrypted."""
        k = self.cryptography_key()
        if self.is_private:
            return k.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                   serialization.NoEncryption())
        return k.public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)


def _check_modulus(n: int) -> None:
    hi = cores.WIDTH.hi
    if n % 2 == 0 or n.bit_length() < MIN_BITS or n.bit_length() > hi:
        raise ValueError(
            f"unsupported RSA modulus of {n.bit_length()} bits: need an odd modulus of "
            f"{MIN_BITS} to {hi} bits (the largest core width)"
        )


def _from_cryptography(obj) -> RsaKey:
    if isinstance(obj, _rsa.RSAPrivateKey):
        pn = obj.private_numbers()
        pub = pn.public_numbers
        _check_modulus(pub.n)
        return RsaKey(pub.n, pub.e, pn.d, pn.p, pn.q, pn.dmp1, pn.dmq1, pn.iqmp, _crypto=obj)
    if isinstance(obj, _rsa.RSAPublicKey):
        pub = obj.public_numbers()
        _check_modulus(pub.n)
        return RsaKey(pub.n, pub.e, _crypto=obj)
    raise ValueError(f"not an RSA key: {type(obj).__name__}")


def generate(bits: int = 2048, e: int = 65537) -> RsaKey:
    """A new private key from ``cryptography`` (OpenSSL's generator; it takes
    no seed, so generated keys cannot be reproduced)."""
    if bits not in KEY_SIZES:
        raise ValueError(f"unsupported key size {bits}; use one of {', '.join(map(str, KEY_SIZES))}")
    return _from_cryptography(_rsa.generate_private_key(public_exponent=e, key_size=bits))


def seeded_key(bits: int = 512, seed: int = 1, e: int = 65537) -> RsaKey:
    """A reproducible private key of ``bits`` bits (tests and benches:
    ``cryptography`` generates keys of 1024 bits and more and takes no seed):
    primes of bits/2 bits with their two top bits set, drawn from Python's
    ``random`` seeded with ``seed``, d = e^-1 mod lcm(p - 1, q - 1).  Not for
    real keys (the primes are predictable).  ValueError for a length
    :func:`from_numbers` does not take."""
    import random

    rng = random.Random(seed)
    half = bits // 2
    while True:
        p = int(gmpy2.next_prime(rng.getrandbits(half) | 3 << (half - 2)))
        q = int(gmpy2.next_prime(rng.getrandbits(half) | 3 << (half - 2)))
        n = p * q
        if p != q and n.bit_length() == bits and gmpy2.gcd(e, (p - 1) * (q - 1)) == 1:
            return from_numbers(n, e, int(gmpy2.invert(e, (p - 1) * (q - 1) // gmpy2.gcd(p - 1, q - 1))), p, q)


def load_pem(data: bytes | str, password: bytes | None = None) -> RsaKey:
    """A private key (PKCS#1 or PKCS#8) or public key (PKCS#1 or SPKI) from PEM."""
    if isinstance(data, str):
        data = data.encode()
    errors = []
    try:
        return _from_cryptography(serialization.load_pem_private_key(data, password=password))
    except (ValueError, TypeError) as exc:
        errors.append(str(exc))
    try:
        return _from_cryptography(serialization.load_pem_public_key(data))
    except (ValueError, TypeError) as exc:
        errors.append(str(exc))
    if any("unsupported RSA modulus" in m for m in errors):
        raise ValueError(next(m for m in errors if "unsupported RSA modulus" in m))
    raise ValueError("not a PEM RSA private or public key (" + "; ".join(errors) + ")")


def from_numbers(n: int, e: int, d: int | None = None, p: int | None = None, q: int | None = None) -> RsaKey:
    """A key from its integers.  With d but without p, q (as in the NIST
    SigGen files) the primes are recovered from n, e, d; the CRT values are
    computed.  ``cryptography`` checks the private key's consistency."""
    _check_modulus(n)
    if d is None:
        return _from_cryptography(_rsa.RSAPublicNumbers(e, n).public_key())
    if p is None or q is None:
        p, q = _rsa.rsa_recover_prime_factors(n, e, d)
    if p < q:  # conventional order; qInv = q^-1 mod p either way
        p, q = q, p
    nums = _rsa.RSAPrivateNumbers(
        p=p, q=q, d=d,
        dmp1=_rsa.rsa_crt_dmp1(d, p), dmq1=_rsa.rsa_crt_dmq1(d, q), iqmp=_rsa.rsa_crt_iqmp(p, q),
        public_numbers=_rsa.RSAPublicNumbers(e, n),
    )
    return _from_cryptography(nums.private_key())


# ---------------------------------------------------------------------------
# Integer <-> octets (RFC 8017 Sec. 4)
def i2osp(x: int, length: int) -> bytes:
    if x < 0 or x >= 1 << (8 * length):
        raise ValueError("integer too large")
    return x.to_bytes(length, "big")


def os2ip(data: bytes) -> int:
    return int.from_bytes(data, "big")


# ---------------------------------------------------------------------------
# Exponentiations on the hardware
def _run(jobs: list[tuple[str, int, int, int]], hw: Hardware, exp_bits: int = 0) -> tuple[list[int], list[Exp], float]:
    """Run ``(what, base, exp, n)`` jobs, grouped by core width
    (max(modulus bits, exponent bits); one ``modexp`` call, hence one
    simulator build and run, per width).  ``exp_bits`` > 0 (exponent
    blinding): the core is modulus bits + exp_bits wide whatever the drawn
    multiplier, so the width (hence the cycles) does not depend on it.  The
    returned seconds are those of the ``modexp`` calls only."""
    from .modexp import modexp

    groups: dict[int, list[int]] = {}
    for i, (_, _, e, n) in enumerate(jobs):
        # The engine's exponent is at most as wide as its core (a blinded
        # exponent can be wider than the modulus).
        width = n.bit_length() + exp_bits
        if e.bit_length() > width:
            raise ValueError(f"{jobs[i][0]}: exponent of {e.bit_length()} bits wider than the core ({width} bits)")
        groups.setdefault(width, []).append(i)
    values: list[int] = [0] * len(jobs)
    exps: list[Exp | None] = [None] * len(jobs)
    seconds = 0.0
    for width, idx in groups.items():
        t0 = time.perf_counter()
        # in RTL simulation (hw.check) every result and cycle count is the model's
        res = modexp([jobs[i][1:] for i in idx], core=hw.core, width=width, sim=hw.sim,
                     ladder=hw.ladder, params=hw.params, procs=hw.procs, check=hw.check)
        seconds += time.perf_counter() - t0
        for i, r in zip(idx, res):
            what, b, e, n = jobs[i]
            if r.err:
                raise RuntimeError(f"the exponentiation engine rejected {what} (width {width}, core {hw.core})")
            if hw.check and r.result != int(gmpy2.powmod(b, e, n)):
                raise RuntimeError(f"{what} on {hw.core} ({hw.sim}) differs from pow(): the engine is faulty")
            values[i] = r.result
            exps[i] = Exp(what, width, e.bit_length(), r.cycles, r.mults)
    return values, exps, seconds  # type: ignore[return-value]


def _run_crt(c: int, p: int, q: int, dp: int, dq: int, hw: Hardware, exp_bits: int = 0
             ) -> tuple[int, list[Exp], float]:
    """c^d mod pq on the CRT engine mm_modexp_crt (``montmul.engine``,
    ``docs/modexp.md``): the host's precomputation (prime order, R^2 mod p
    and q, qInv*R mod p), one engine request, then m = m_q + q*h.  The core
    is as wide as the primes; the exponent ports are ``exp_bits`` wider
    (exponent blinding), whatever the drawn multipliers, in RTL simulation
    as in the model, so both print the same cycles: the port width costs the
    exponents' alignment before the first product (one cycle per bit between
    an exponent's length and the port width, montmul.engine.crt_pre_cycles).
    A blinded request therefore has a simulator build of its own."""
    from ..engine import crt_rejects
    from .modexp import crt, crt_request

    width = max(p.bit_length(), 3)
    exp_width = width + exp_bits
    for e in (dp, dq):
        if e.bit_length() > exp_width:
            raise ValueError(f"CRT exponent of {e.bit_length()} bits wider than the engine's {exp_width}-bit port")
    req = crt_request(c, p, q, dp, dq, core=hw.core, width=width, params=hw.params)
    if why := crt_rejects(req, width, exp_width):
        raise ValueError(f"the CRT engine rejects this key: {why}")
    t0 = time.perf_counter()
    # in RTL simulation (hw.check) every result and cycle count is the model's
    (r,) = crt([req], core=hw.core, width=width, exp_width=exp_width, sim=hw.sim, ladder=hw.ladder,
               params=hw.params, check=hw.check)
    seconds = time.perf_counter() - t0
    what = "c^d mod pq (CRT)"
    if r.err:
        raise RuntimeError(f"the CRT engine rejected {what} (width {width}, core {hw.core})")
    m = r.m(req.q)
    if hw.check and (m >= p * q or (m % p, m % q) != (int(gmpy2.powmod(c, dp, p)), int(gmpy2.powmod(c, dq, q)))):
        raise RuntimeError(f"{what} on {hw.core} ({hw.sim}) differs from pow(): the engine is faulty")
    exp = Exp(what, width, max(dp.bit_length(), dq.bit_length()), r.cycles, r.mults)
    return m, [exp], seconds


def _run_pke(c: int, p: int, q: int, dp: int, dq: int, hw: Hardware, exp_bits: int = 0,
             r: int | None = None, e: int = 65537) -> tuple[int, list[Exp], float]:
    """c^d mod pq on the public-key engine mm_pke (``docs/pke.md``): one run
    of the RSA-CRT program, both halves side by side on the ws array,
    conversions, exact reduction and Garner's recombination on the engine;
    with ``r`` base blinding on the engine (r^e with the public e, then
    r^-1), with ``exp_bits`` > 0 exponent ports that many bits wider than ℓ.
    The host computes the banks' constants (``pke.host_images``).  The
    model (``pke.rsa_crt``) gives the value and the cycles; in RTL
    simulation the engine runs the same program and banks
    (:mod:`montmul.flows.sim.pke_sim`) and, with ``hw.check``, its result
    and cycles must equal the model's (RuntimeError)."""
    from ..flows.sim import pke_sim
    from ..models import pke

    if q > p:  # half 0 holds the larger prime
        p, q, dp, dq = q, p, dq, dp
    ell = p.bit_length() if hw.pke_bits is None else hw.pke_bits
    if p.bit_length() > ell:
        raise ValueError(f"a prime of {p.bit_length()} bits is longer than the engine build's halves "
                         f"(ℓ = {ell} bits)")
    for e_ in (dp, dq):
        if e_.bit_length() > ell + exp_bits:
            raise ValueError(f"CRT exponent of {e_.bit_length()} bits wider than the engine's {ell + exp_bits}")
    try:
        b = pke_sim.engine_build(ell, ell + exp_bits, pes=hw.pke_pes, base_blind=r is not None, e=e)
    except ValueError as exc:
        raise ValueError(f"the engine has no build for {ell}-bit halves with {hw.pke_pes} PEs: {exc}") from None
    t0 = time.perf_counter()
    model = pke.rsa_crt(p, q, dp, dq, c, ell, exp_bits=b.exp_bits, pes=b.pes, w=b.w, latency=b.latency,
                        qlat=b.qlat, d=b.d, r=r, e=e if r is not None else None)
    m, cycles = model.value, model.cycles
    if hw.sim != "model":
        rinv = int(gmpy2.invert(r, p * q)) if r is not None else None
        banks, _ = pke.host_images(b, p, q, dp, dq, c, r, rinv)
        addr, size = pke.layout(b)["MQ"]
        req = pke_sim.Request(pke.encode(pke.rsa_crt_program(b)), banks, reads=[(0, addr, size)])
        (resp,) = pke_sim.simulate(b, [req], sim=hw.sim)
        if resp.err:
            raise RuntimeError(f"mm_pke ({hw.sim}) stopped with error code {resp.err} (docs/pke.md, \"Errors\")")
        rtl = pke_sim.value(resp.words[0], b.w)
        if hw.check and (rtl, resp.cycles) != (m, cycles):
            raise RuntimeError(f"mm_pke ({hw.sim}): result or cycles ({resp.cycles}) differ from the model's "
                               f"({cycles}): the engine is faulty")
        m, cycles = rtl, resp.cycles
    seconds = time.perf_counter() - t0
    what = "c^d mod pq (mm_pke)"
    if hw.check and (m >= p * q or (m % p, m % q) != (int(gmpy2.powmod(c, dp, p)), int(gmpy2.powmod(c, dq, q)))):
        raise RuntimeError(f"{what} ({hw.sim}) differs from pow(): the engine is faulty")
    return m, [Exp(what, ell, max(dp.bit_length(), dq.bit_length()), cycles, model.products)], seconds


def _need_private(key: RsaKey, op: str) -> None:
    if not key.is_private:
        raise ValueError(f"{op} needs a private key; this key is public")


def _crt_ok(key: RsaKey) -> bool:
    return None not in (key.p, key.q, key.dp, key.dq, key.qinv)


def rsaep(key: RsaKey, m: int, hw: Hardware | None = None, *, op: str = "rsaep") -> RsaResult:
    """RSAEP / RSAVP1: c = m^e mod n (RFC 8017 Sec. 5.1.1, 5.2.2)."""
    hw = hw or Hardware()
    if not 0 <= m < key.n:
        raise ValueError("message representative out of range: need 0 <= m < n")
    (c,), exps, secs = _run([("m^e mod n", m, key.e, key.n)], hw)
    return RsaResult(op, c, tuple(exps), False, hw.core, hw.sim, secs)


def rsadp(key: RsaKey, c: int, hw: Hardware | None = None, *, crt: bool = True, op: str = "rsadp",
          blinding: Blinding | None = None) -> RsaResult:
    """RSADP / RSASP1: m = c^d mod n, with CRT (two half-width
    exponentiations and Garner's recombination) or without, optionally
    blinded (:class:`Blinding`)."""
    hw = hw or Hardware()
    _need_private(key, op)
    if not 0 <= c < key.n:
        raise ValueError("ciphertext representative out of range: need 0 <= c < n")
    if crt and not _crt_ok(key):
        raise ValueError("CRT needs p, q, dP, dQ and qInv; this key has only d (use crt=False)")
    if hw.on_pke(crt):
        # the engine blinds on its own: r^e with the public e, then r^-1 (docs/pke.md)
        p, q, dp, dq = key.p, key.q, key.dp, key.dq
        exp_bits = blinding.exp_bits if blinding else 0
        if exp_bits:
            kp, kq = blinding.multipliers(2)
            dp, dq = dp + kp * (p - 1), dq + kq * (q - 1)
        r = blinding.factor(key.n) if blinding is not None and blinding.base else None
        m, exps_, secs = _run_pke(c, p, q, dp, dq, hw, exp_bits, r, key.e)
        return RsaResult(op, m, tuple(exps_), crt, hw.core, hw.sim, secs, blinding=blinding)
    exps: list[Exp] = []
    secs = 0.0
    r = None
    if blinding is not None and blinding.base:
        r = blinding.factor(key.n)
        (re,), e_exps, s0 = _run([("r^e mod n", r, key.e, key.n)], hw)
        exps += e_exps
        secs += s0
        c = c * re % key.n
    if not crt:
        d = key.d
        if blinding is not None and blinding.exp_bits:
            if not (key.p and key.q):
                raise ParameterError("exponent blinding needs the primes p and q (for phi(n)); this key has only d")
            (k,) = blinding.multipliers(1)
            d += k * (key.p - 1) * (key.q - 1)
        (m,), d_exps, s1 = _run([("c^d mod n", c, d, key.n)], hw, blinding.exp_bits if blinding else 0)
    else:
        p, q = key.p, key.q
        dp, dq = key.dp, key.dq
        if blinding is not None and blinding.exp_bits:
            kp, kq = blinding.multipliers(2)
            dp, dq = dp + kp * (p - 1), dq + kq * (q - 1)
        exp_bits = blinding.exp_bits if blinding else 0
        if hw.crt_engine and p.bit_length() == q.bit_length():
            m, d_exps, s1 = _run_crt(c, p, q, dp, dq, hw, exp_bits)
        else:
            # two mm_modexp jobs (also for primes of different lengths, which
            # the CRT engine does not take: docs/modexp.md)
            (m1, m2), d_exps, s1 = _run([("c^dP mod p", c % p, dp, p), ("c^dQ mod q", c % q, dq, q)], hw,
                                        exp_bits)
            h = key.qinv * (m1 - m2) % p  # Garner
            m = m2 + q * h
    exps += d_exps
    secs += s1
    if r is not None:
        m = m * int(gmpy2.invert(r, key.n)) % key.n
    return RsaResult(op, m, tuple(exps), crt, hw.core, hw.sim, secs, blinding=blinding)


# ---------------------------------------------------------------------------
# Hashes and mask generation
def hash_key(name: str, error: type[ValueError] = ParameterError) -> str:
    """The :data:`HASHES` key for ``name``: "sha256", "SHA-256", "sha_256",
    "sha3-256", "SHA3_256", "sha512/224", "SHA-512/224", "shake128",
    "SHAKE-128" ...; ``error`` (default :class:`ParameterError`) for a hash
    it does not have."""
    key = str(name).lower().strip().replace("/", "_").replace("-", "_")
    for prefix in ("sha_", "shake_"):
        if key.startswith(prefix):
            key = prefix[:-1] + key[len(prefix):]
    if key not in HASHES:
        raise error(f"unsupported hash {name!r}; use one of {', '.join(HASHES)}")
    return key


def _fixed_hash(name: str, what: str) -> str:
    """A hash with a fixed output for PKCS#1 v1.5, OAEP or MGF1 (not a SHAKE)."""
    name = hash_key(name)
    if name in SHAKE_HASHES:
        raise ParameterError(f"unsupported hash {name!r} for {what}: RFC 8702 defines {name.upper()} "
                         "for RSASSA-PSS only, as both message hash and mask function")
    return name


def _digest(name: str, data: bytes) -> bytes:
    h = hashes.Hash(HASHES[name]())
    h.update(data)
    return h.finalize()


def _shake(name: str, data: bytes, length: int) -> bytes:
    """SHAKE128/256 of ``data`` with an output of ``length`` bytes."""
    h = hashes.Hash({"shake128": hashes.SHAKE128, "shake256": hashes.SHAKE256}[name](digest_size=length))
    h.update(data)
    return h.finalize()


def mgf1(seed: bytes, length: int, hash_name: str = "sha256") -> bytes:
    """MGF1 (RFC 8017 Appendix B.2.1) over a fixed-output hash."""
    hash_name = _fixed_hash(hash_name, "MGF1")
    out = bytearray()
    counter = 0
    while len(out) < length:
        out += _digest(hash_name, seed + counter.to_bytes(4, "big"))
        counter += 1
    return bytes(out[:length])


def _mgf1_hash(hash_name: str, mgf1_hash: str | None, what: str) -> str | None:
    """The mask function's hash for ``hash_name``: ``mgf1_hash`` (default the
    same hash), or None for a SHAKE (its own mask function, RFC 8702)."""
    if hash_name in SHAKE_HASHES:
        if mgf1_hash is not None:
            raise ParameterError(f"mgf1_hash does not apply to {what} with {hash_name}: RFC 8702 uses "
                             f"{hash_name.upper()} itself as the mask generation function, not MGF1")
        return None
    return _fixed_hash(hash_name if mgf1_hash is None else mgf1_hash, "MGF1")


def _mask(seed: bytes, length: int, hash_name: str, mgf1_hash: str | None) -> bytes:
    if hash_name in SHAKE_HASHES:
        return _shake(hash_name, seed, length)
    return mgf1(seed, length, mgf1_hash)


def _xor(a: bytes, b: bytes) -> bytes:
    return bytes(x ^ y for x, y in zip(a, b))


# ---------------------------------------------------------------------------
# Encodings (RFC 8017; PSS with SHAKE: RFC 8702)
def emsa_pkcs1_v15(message: bytes, em_len: int, hash_name: str = "sha256") -> bytes:
    """EMSA-PKCS1-v1_5 (RFC 8017 Sec. 9.2): 00 01 FF..FF 00 DigestInfo."""
    hash_name = _fixed_hash(hash_name, "PKCS#1 v1.5")
    t = DIGEST_INFO[hash_name] + _digest(hash_name, message)
    if em_len < len(t) + 11:
        raise ValueError(f"intended encoded message length too short: a {em_len * 8}-bit key cannot sign with {hash_name}")
    return b"\x00\x01" + b"\xff" * (em_len - len(t) - 3) + b"\x00" + t


def _salt_len(salt_length: int | str | None, em_len: int, h_len: int) -> int:
    """The salt length in bytes for None/"digest" (hLen), "max" (emLen - hLen
    - 2) or an integer; "auto" is for verification and handled there."""
    if salt_length is None or salt_length == "digest":
        return h_len
    if salt_length == "max":
        return em_len - h_len - 2
    if isinstance(salt_length, int) and not isinstance(salt_length, bool) and salt_length >= 0:
        return salt_length
    if salt_length == "auto":
        raise ParameterError("salt length 'auto' is for verification only; to sign give 'digest', 'max' or a number")
    raise ParameterError(f"salt length must be 'digest', 'max', 'auto' (verify only) or a non-negative integer, "
                     f"got {salt_length!r}")


def emsa_pss_encode(message: bytes, em_bits: int, hash_name: str = "sha256",
                    salt_length: int | str | None = None, salt: bytes | None = None, *,
                    mgf1_hash: str | None = None) -> bytes:
    """EMSA-PSS-ENCODE (RFC 8017 Sec. 9.1.1).  The mask function is MGF1 over
    ``mgf1_hash`` (default: ``hash_name``), or for SHAKE128/256 the SHAKE
    itself (RFC 8702).  ``salt_length``: None/"digest" (hLen, default), "max"
    or bytes; ``salt`` fixes the salt (known-answer tests), else it is random."""
    hash_name = hash_key(hash_name)
    mgf1_hash = _mgf1_hash(hash_name, mgf1_hash, "PSS")
    m_hash = _digest(hash_name, message)
    h_len = len(m_hash)
    em_len = (em_bits + 7) // 8
    s_len = _salt_len(salt_length, em_len, h_len)
    if salt is not None:
        if salt_length is not None and len(salt) != s_len:
            raise ValueError(f"salt is {len(salt)} bytes but the salt length is {s_len}")
        s_len = len(salt)
    if em_len < h_len + max(s_len, 0) + 2:  # s_len < 0: "max" on a key shorter than hLen + 2 bytes
        salt_text = f"a {s_len}-byte salt" if s_len >= 0 else "any salt"
        raise ValueError(f"encoding error: a {em_bits + 1}-bit key is too short for {hash_name} with {salt_text}")
    if salt is None:
        salt = os.urandom(s_len)
    h = _digest(hash_name, b"\x00" * 8 + m_hash + salt)
    db = b"\x00" * (em_len - s_len - h_len - 2) + b"\x01" + salt
    masked = bytearray(_xor(db, _mask(h, em_len - h_len - 1, hash_name, mgf1_hash)))
    masked[0] &= 0xFF >> (8 * em_len - em_bits)
    return bytes(masked) + h + b"\xbc"


def emsa_pss_verify(message: bytes, em: bytes, em_bits: int, hash_name: str = "sha256",
                    salt_length: int | str | None = None, *, mgf1_hash: str | None = None) -> int:
    """EMSA-PSS-VERIFY (RFC 8017 Sec. 9.1.2) for the salt length the verifier
    expects: None/"digest" (hLen, default), "max" or bytes; a signature with
    any other salt length is inconsistent.  ``salt_length="auto"`` instead
    reads the salt length from the encoding (weaker: it accepts every salt
    length, so the signer's choice is not checked).  Returns the salt
    length; raises ValueError("invalid signature: ...") when inconsistent."""
    hash_name = hash_key(hash_name)
    mgf1_hash = _mgf1_hash(hash_name, mgf1_hash, "PSS")
    auto = salt_length == "auto"
    m_hash = _digest(hash_name, message)
    h_len = len(m_hash)
    em_len = (em_bits + 7) // 8
    s_len = None if auto else _salt_len(salt_length, em_len, h_len)  # bad parameters raise here
    bad = ValueError("invalid signature: PSS encoding inconsistent")
    if len(em) != em_len or em_len < h_len + 2 or em[-1] != 0xBC:
        raise bad
    masked, h = em[: em_len - h_len - 1], em[em_len - h_len - 1 : -1]
    top = 0xFF >> (8 * em_len - em_bits)
    if masked[0] & ~top & 0xFF:
        raise bad
    db = bytearray(_xor(masked, _mask(h, em_len - h_len - 1, hash_name, mgf1_hash)))
    db[0] &= top
    if auto:
        sep = next((i for i, b in enumerate(db) if b), None)
        if sep is None or db[sep] != 0x01:
            raise bad
        s_len = len(db) - sep - 1
    else:
        if em_len < h_len + s_len + 2:
            raise bad
        ps_len = em_len - h_len - s_len - 2
        if any(db[:ps_len]) or db[ps_len] != 0x01:  # RFC 8017 9.1.2 step 10
            raise bad
    salt = bytes(db[len(db) - s_len :]) if s_len else b""
    if not hmac.compare_digest(h, _digest(hash_name, b"\x00" * 8 + m_hash + salt)):
        raise bad
    return s_len


def eme_pkcs1_v15_encode(message: bytes, k: int) -> bytes:
    """EME-PKCS1-v1_5 (RFC 8017 Sec. 7.2.1): 00 02 PS 00 M, PS random nonzero."""
    if len(message) > k - 11:
        raise ValueError(f"message too long: {len(message)} bytes, at most {k - 11} with PKCS#1 v1.5 and a {k * 8}-bit key")
    ps = bytearray()
    while len(ps) < k - len(message) - 3:
        ps += bytes(b for b in os.urandom(k) if b)
    return b"\x00\x02" + bytes(ps[: k - len(message) - 3]) + b"\x00" + message


def eme_pkcs1_v15_decode(em: bytes) -> bytes:
    """EME-PKCS1-v1_5 decoding; every defect raises the same
    ValueError("decryption error") (RFC 8017 Sec. 7.2.2 note)."""
    sep = em.find(b"\x00", 2)
    if len(em) < 11 or em[0] != 0 or em[1] != 2 or sep < 10:
        raise ValueError("decryption error")
    return em[sep + 1 :]


def eme_oaep_encode(message: bytes, k: int, hash_name: str = "sha256", label: bytes = b"",
                    seed: bytes | None = None, *, mgf1_hash: str | None = None) -> bytes:
    """EME-OAEP (RFC 8017 Sec. 7.1.1): label hash ``hash_name``, MGF1 over
    ``mgf1_hash`` (default: ``hash_name``).  ``seed`` fixes the seed (tests)."""
    hash_name = _fixed_hash(hash_name, "OAEP")
    mgf1_hash = _mgf1_hash(hash_name, mgf1_hash, "OAEP")
    l_hash = _digest(hash_name, label)
    h_len = len(l_hash)
    if len(message) > k - 2 * h_len - 2:
        raise ValueError(f"message too long: {len(message)} bytes, at most {max(0, k - 2 * h_len - 2)} "
                         f"with OAEP/{hash_name} and a {k * 8}-bit key")
    seed = os.urandom(h_len) if seed is None else seed
    if len(seed) != h_len:
        raise ValueError(f"OAEP seed must be {h_len} bytes for {hash_name}")
    db = l_hash + b"\x00" * (k - len(message) - 2 * h_len - 2) + b"\x01" + message
    masked_db = _xor(db, mgf1(seed, k - h_len - 1, mgf1_hash))
    masked_seed = _xor(seed, mgf1(masked_db, h_len, mgf1_hash))
    return b"\x00" + masked_seed + masked_db


def eme_oaep_decode(em: bytes, k: int, hash_name: str = "sha256", label: bytes = b"", *,
                    mgf1_hash: str | None = None) -> bytes:
    """EME-OAEP decoding (RFC 8017 Sec. 7.1.2 step 3).  Whatever is wrong (Y
    not zero, lHash, the 01 separator, a wrong label or hash or MGF1 hash) it
    raises the same ValueError("decryption error"), as step 3g requires: no
    padding oracle through the error.  (Not constant-time: ``docs/rsa.md``.)"""
    hash_name = _fixed_hash(hash_name, "OAEP")
    mgf1_hash = _mgf1_hash(hash_name, mgf1_hash, "OAEP")
    l_hash = _digest(hash_name, label)
    h_len = len(l_hash)
    if k < 2 * h_len + 2 or len(em) != k:
        raise ValueError("decryption error")
    masked_seed, masked_db = em[1 : 1 + h_len], em[1 + h_len :]
    seed = _xor(masked_seed, mgf1(masked_db, h_len, mgf1_hash))
    db = _xor(masked_db, mgf1(seed, k - h_len - 1, mgf1_hash))
    rest = db[h_len:]
    sep = next((i for i, b in enumerate(rest) if b), len(rest))
    # every check is evaluated before the one decision (Y, lHash, separator)
    good = (em[0] == 0) & hmac.compare_digest(db[:h_len], l_hash) & (sep < len(rest) and rest[sep] == 0x01)
    if not good:
        raise ValueError("decryption error")
    return rest[sep + 1 :]


# ---------------------------------------------------------------------------
# Schemes
def _with(res: RsaResult, op: str, data, padding: str, hash_name: str | None, **what) -> RsaResult:
    return replace(res, op=op, data=data, padding=padding, hash=hash_name, **what)


def _no_pss_params(padding: str, mgf1_hash=None, salt_length=None, salt=None) -> None:
    """PKCS#1 v1.5 has no MGF and no salt: a given one is a mistake, not ignored."""
    for name, v in (("mgf1_hash", mgf1_hash), ("salt_length", salt_length), ("salt", salt)):
        if v is not None:
            raise ParameterError(f"{name} does not apply to {padding} padding "
                             f"({'PSS and OAEP' if name == 'mgf1_hash' else 'PSS'} only)")


def encrypt(key: RsaKey, message: bytes, hw: Hardware | None = None, *, padding: str = "oaep",
            hash: str = "sha256", label: bytes = b"", mgf1_hash: str | None = None) -> RsaResult:
    """RSAES-OAEP or RSAES-PKCS1-v1_5 encryption; ``data`` is the k-byte
    ciphertext.  OAEP: label hash ``hash``, MGF1 over ``mgf1_hash`` (default
    ``hash``; e.g. hash="sha256", mgf1_hash="sha1" is Java's
    OAEPWithSHA-256AndMGF1Padding)."""
    k = key.size
    mgf = None
    if padding == "oaep":
        hash = _fixed_hash(hash, "OAEP")
        mgf = _mgf1_hash(hash, mgf1_hash, "OAEP")
        em = eme_oaep_encode(message, k, hash, label, mgf1_hash=mgf)
    elif padding == "pkcs1v15":
        _no_pss_params(padding, mgf1_hash)
        em = eme_pkcs1_v15_encode(message, k)
        hash = None
    else:
        raise ParameterError(f"unknown encryption padding {padding!r}; use {' or '.join(CRYPT_PADDINGS)}")
    res = rsaep(key, os2ip(em), hw)
    return _with(res, "encrypt", i2osp(res.data, k), padding, hash, mgf1_hash=mgf)


def decrypt(key: RsaKey, ciphertext: bytes, hw: Hardware | None = None, *, padding: str = "oaep",
            hash: str = "sha256", label: bytes = b"", crt: bool = True, mgf1_hash: str | None = None,
            blinding: Blinding | None = None) -> RsaResult:
    """RSAES-OAEP or RSAES-PKCS1-v1_5 decryption; ``data`` is the message.
    Raises ValueError("decryption error") on any bad padding, the same
    whatever part was wrong."""
    _need_private(key, "decrypt")
    k = key.size
    mgf = None
    if padding == "oaep":
        hash = _fixed_hash(hash, "OAEP")
        mgf = _mgf1_hash(hash, mgf1_hash, "OAEP")
    elif padding == "pkcs1v15":
        _no_pss_params(padding, mgf1_hash)
        hash = None
    else:
        raise ParameterError(f"unknown encryption padding {padding!r}; use {' or '.join(CRYPT_PADDINGS)}")
    if len(ciphertext) != k:
        raise ValueError(f"decryption error: ciphertext is {len(ciphertext)} bytes, the key needs {k}")
    c = os2ip(ciphertext)
    if c >= key.n:
        raise ValueError("decryption error: ciphertext representative not below n")
    res = rsadp(key, c, hw, crt=crt, blinding=blinding)
    em = i2osp(res.data, k)
    if padding == "oaep":
        msg = eme_oaep_decode(em, k, hash, label, mgf1_hash=mgf)
    else:
        msg = eme_pkcs1_v15_decode(em)
    return _with(res, "decrypt", msg, padding, hash, mgf1_hash=mgf)


def sign(key: RsaKey, message: bytes, hw: Hardware | None = None, *, padding: str = "pkcs1v15",
         hash: str = "sha256", crt: bool = True, salt_length: int | str | None = None,
         salt: bytes | None = None, mgf1_hash: str | None = None, blinding: Blinding | None = None) -> RsaResult:
    """RSASSA-PKCS1-v1_5 or RSASSA-PSS signature; ``data`` is the k-byte signature.
    PSS: ``salt_length`` "digest" (default, also for None), "max" or bytes;
    ``salt`` fixes the salt; ``mgf1_hash`` the MGF1 hash (default ``hash``;
    none with SHAKE128/256, whose mask function is the SHAKE, RFC 8702)."""
    _need_private(key, "sign")
    hash = hash_key(hash)
    k = key.size
    what = {}
    if padding == "pkcs1v15":
        _no_pss_params(padding, mgf1_hash, salt_length, salt)
        em = emsa_pkcs1_v15(message, k, hash)
    elif padding == "pss":
        mgf = _mgf1_hash(hash, mgf1_hash, "PSS")
        em = emsa_pss_encode(message, key.bits - 1, hash, salt_length, salt, mgf1_hash=mgf)
        s_len = len(salt) if salt is not None else _salt_len(salt_length, (key.bits + 6) // 8, len(_digest(hash, b"")))
        what = {"mgf1_hash": mgf, "salt_length": s_len}
    else:
        raise ParameterError(f"unknown signature padding {padding!r}; use {' or '.join(SIGN_PADDINGS)}")
    res = rsadp(key, os2ip(em), hw, crt=crt, op="sign", blinding=blinding)
    return _with(res, "sign", i2osp(res.data, k), padding, hash, **what)


def _verify_params(padding: str, hash: str, mgf1_hash: str | None, salt_length) -> tuple[str, str | None]:
    """Check the scheme's parameters (ValueError naming the bad one) before
    any signature is looked at: (hash, MGF1 hash)."""
    if padding not in SIGN_PADDINGS:
        raise ParameterError(f"unknown signature padding {padding!r}; use {' or '.join(SIGN_PADDINGS)}")
    if padding == "pkcs1v15":
        _no_pss_params(padding, mgf1_hash, salt_length)
        return _fixed_hash(hash, "PKCS#1 v1.5"), None
    hash = hash_key(hash)
    if salt_length != "auto":
        _salt_len(salt_length, 0, 0)  # the kind of value; its size is checked per key
    return hash, _mgf1_hash(hash, mgf1_hash, "PSS")


def _verify_pre(key: RsaKey, signature: bytes) -> int:
    if len(signature) != key.size:
        raise ValueError(f"invalid signature: {len(signature)} bytes, the key needs {key.size}")
    s = os2ip(signature)
    if s >= key.n:
        raise ValueError("invalid signature: signature representative not below n")
    return s


def _verify_post(key: RsaKey, message: bytes, m: int, padding: str, hash: str, mgf1_hash: str | None,
                 salt_length) -> int | None:
    """Check the encoding; the PSS salt length checked (or found), else None."""
    k = key.size
    if padding == "pkcs1v15":
        # RFC 8017 Sec. 8.2.2: compare with the encoding of the message.
        if not hmac.compare_digest(i2osp(m, k), emsa_pkcs1_v15(message, k, hash)):
            raise ValueError("invalid signature: PKCS#1 v1.5 encoding does not match the message")
        return None
    em_bits = key.bits - 1
    em_len = (em_bits + 7) // 8
    if m >= 1 << (8 * em_len):
        raise ValueError("invalid signature: PSS encoding inconsistent")
    return emsa_pss_verify(message, i2osp(m, em_len), em_bits, hash, salt_length, mgf1_hash=mgf1_hash)


def _pss_what(padding: str, mgf1_hash: str | None, s_len: int | None, salt_length) -> dict:
    if padding != "pss":
        return {}
    return {"mgf1_hash": mgf1_hash, "salt_length": s_len, "salt_recovered": salt_length == "auto"}


def verify(key: RsaKey, message: bytes, signature: bytes, hw: Hardware | None = None, *,
           padding: str = "pkcs1v15", hash: str = "sha256", salt_length: int | str | None = None,
           mgf1_hash: str | None = None) -> RsaResult:
    """RSASSA-PKCS1-v1_5 or RSASSA-PSS verification.  Returns a result with
    ``data`` True; raises ValueError("invalid signature: ...") otherwise.

    PSS checks the salt length it is given, as RFC 8017 Sec. 9.1.2 expects
    of a verifier: "digest" (the default, also for None, as in :func:`sign`),
    "max" or bytes; a signature with another salt length is invalid.
    ``salt_length="auto"`` reads the length from the signature instead and so
    accepts any (weaker; ``cryptography``'s ``PSS.AUTO``); the result's
    ``salt_recovered`` says so.  ``mgf1_hash`` as in :func:`sign`."""
    hash, mgf = _verify_params(padding, hash, mgf1_hash, salt_length)
    s = _verify_pre(key, signature)
    res = rsaep(key, s, hw, op="verify")
    s_len = _verify_post(key, message, res.data, padding, hash, mgf, salt_length)
    return _with(res, "verify", True, padding, hash, **_pss_what(padding, mgf, s_len, salt_length))


def _per_item(value, n: int, name: str, many: bool) -> list:
    if not many:
        return [value] * n
    value = list(value)
    if len(value) != n:
        raise ValueError(f"one {name} per item, or a single {name}")
    return value


def verify_many(items: list[tuple[RsaKey, bytes, bytes]], hw: Hardware | None = None, *,
                padding: str = "pkcs1v15", hash: str | list[str] = "sha256",
                salt_length: int | str | None | list = None,
                mgf1_hash: str | None | list = None) -> list[RsaResult | ValueError]:
    """Verify many ``(key, message, signature)`` at once: every s^e mod n of
    one width runs in a single ``modexp`` call (one simulator run), which is
    what makes RTL simulation of a test-vector file affordable.  ``hash``,
    ``salt_length`` and ``mgf1_hash`` are each one value for all, or a list
    or tuple with one per item; their meaning and defaults are those of
    :func:`verify`.  Returns, per item, the result (``data`` True) or the
    ValueError that :func:`verify` would have raised."""
    hw = hw or Hardware()
    n = len(items)
    hash_list = _per_item(hash, n, "hash", not isinstance(hash, str))
    salt_list = _per_item(salt_length, n, "salt length", isinstance(salt_length, (list, tuple)))
    mgf_list = _per_item(mgf1_hash, n, "MGF1 hash", isinstance(mgf1_hash, (list, tuple)))
    out: list[RsaResult | ValueError | None] = [None] * n
    jobs, where = [], []
    for i, (key, _, sig) in enumerate(items):
        try:
            hash_list[i], mgf_list[i] = _verify_params(padding, hash_list[i], mgf_list[i], salt_list[i])
            s = _verify_pre(key, sig)
        except ValueError as exc:
            out[i] = exc
            continue
        jobs.append(("m^e mod n", s, key.e, key.n))
        where.append(i)
    values, exps, secs = _run(jobs, hw) if jobs else ([], [], 0.0)
    for i, m, x in zip(where, values, exps):
        key, msg, _ = items[i]
        try:
            s_len = _verify_post(key, msg, m, padding, hash_list[i], mgf_list[i], salt_list[i])
            out[i] = RsaResult("verify", True, (x,), False, hw.core, hw.sim, secs, padding, hash_list[i],
                               **_pss_what(padding, mgf_list[i], s_len, salt_list[i]))
        except ValueError as exc:
            out[i] = exc
    return out  # type: ignore[return-value]
