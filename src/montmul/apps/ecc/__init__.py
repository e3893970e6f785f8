# SPDX-License-Identifier: Apache-2.0
"""Elliptic-curve cryptography on montmul cores (``docs/ecc.md``).

    from montmul import ecc
    sig = ecc.ecdsa_sign("secp256r1", d, b"hello", "sha256")             # RFC 6979, DER
    ecc.ecdsa_verify("secp256r1", spki_der, b"hello", sig, "sha256")      # True / False
    secret = ecc.ecdh("secp256r1", d, peer_spki_der)                      # x(d*Q), field length

The implementation of :mod:`montmul.ecc` (which re-exports these names).
Every field product runs on a registered core's model (``core=``, default
:data:`DEFAULT_CORE`, the constant-time ``scs_new_ct``, standing in for the
public-key engine's array that will become the default), or also on its RTL
(``sim="icarus"`` / ``"verilator"``).  Layers: :mod:`.curves` (the SEC 2 and
Brainpool curves as data, user curves), :mod:`.field` (GF(p) in the
Montgomery domain on a core), :mod:`.point` (complete projective formulas,
fixed-window and ladder scalar multiplication), :mod:`.encoding` (keys, points, signatures),
:mod:`.protocols` (ECDSA, ECDH).
"""

from .curves import ALIASES, CURVES, Curve, custom
from .curves import get as curve
from .encoding import (
    crypto_curve, decode_point, encode_point, key_curve, load_private, load_public, private_pem, public_der,
)
from .protocols import (
    DEFAULT_CORE, HASHES, EccResult, ParameterError, check_rtl, digest, ecdh, ecdsa_sign, ecdsa_verify, exchange,
    keygen, public_key, sign, verify,
)

__all__ = [
    "ALIASES", "CURVES", "Curve", "custom", "curve",
    "crypto_curve", "decode_point", "encode_point", "key_curve", "load_private", "load_public", "private_pem",
    "public_der",
    "DEFAULT_CORE", "HASHES", "EccResult", "ParameterError", "check_rtl", "digest",
    "ecdh", "ecdsa_sign", "ecdsa_verify", "exchange", "keygen", "public_key", "sign", "verify",
]
