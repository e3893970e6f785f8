# SPDX-License-Identifier: Apache-2.0
"""The ``montmul ecc`` subcommand (registered by :func:`montmul.cli.commands.build_parser`).

    montmul ecc keygen --curve NAME --save-key PEM [--force]
    montmul ecc sign   --key PEM (--message TEXT | --message-hex HEX | --message-file F) [--hash H]
                       [--encoding der|p1363] [--nonce rfc6979|random] [--out FILE]
    montmul ecc verify --key PEM (--message ...) (--signature HEX | --signature-file F) [--hash H] [--encoding ...]
    montmul ecc ecdh   --key PEM (--peer PEM | --peer-hex SEC1-POINT)

Every action also takes ``--curve``, ``--core``, ``--param P=V``, ``--sim
model|icarus|verilator`` and ``--json``, before or after the action's name.
Every field product runs on the core's model (default ``scs_new_ct``,
constant time), with ``--sim icarus|verilator`` also on its RTL, checked
product by product (``docs/ecc.md``).  keygen, sign and ecdh refuse a core
whose latency depends on the operands unless ``--allow-timing-leak``.  Keys are PEM: PKCS#8 or SEC1 private
keys, SubjectPublicKeyInfo public keys (named curves); a private key file
written by keygen is mode 0600 and never overwritten without ``--force``.

Exit statuses as for every subcommand (:mod:`montmul.cli_util`): 1 a
signature that does not verify, or RTL that disagrees with the model; 2 bad
usage; 3 rejected input (a bad key, point or signature encoding); 4 file or
tool failure.
"""

from __future__ import annotations

import argparse
import base64
import json
import re
import sys
from pathlib import Path

from .. import progress
from .rsa import save_key
from .util import (
    DEFAULT_SIM, EXIT_CHECK, EXIT_INPUT, EXIT_USAGE, SIMS, CliError, add_message_args, fail, read_file, read_hex,
    read_message,
)

ACTIONS = ("keygen", "sign", "verify", "ecdh")


def _pem_der(data: bytes) -> bytes | None:
    """The DER inside a PEM PUBLIC KEY block, or None."""
    m = re.search(rb"-----BEGIN PUBLIC KEY-----(.*?)-----END PUBLIC KEY-----", data, re.S)
    if not m:
        return None
    try:
        return base64.b64decode(b"".join(m.group(1).split()), validate=True)
    except ValueError:
        raise CliError("--key: bad base64 in the PUBLIC KEY block", EXIT_INPUT) from None


def _curve_arg(ecc, args, found):
    """The key's curve, checked against --curve when both are given."""
    if args.curve and ecc.curve(args.curve).name != found.name:
        raise CliError(f"--curve {args.curve} but the key is on {found.name}", EXIT_INPUT)
    return found


def _private(ecc, args):
    if not args.key:
        raise CliError(f"ecc {args.action} needs a private key: --key PEM "
                       "(`montmul ecc keygen --curve C --save-key k.pem` writes one)", EXIT_USAGE)
    try:
        c, d = ecc.load_private(read_file(args.key, "--key"))
    except ValueError as exc:
        raise CliError(f"--key {args.key}: {exc}", EXIT_INPUT) from None
    return _curve_arg(ecc, args, c), d


def _public(ecc, args, hw):
    """(curve, SubjectPublicKeyInfo DER) from --key: a public key, or a
    private key whose public key is computed on the core."""
    if not args.key:
        raise CliError("ecc verify needs the signer's key: --key PEM (public or private)", EXIT_USAGE)
    data = read_file(args.key, "--key")
    der = _pem_der(data)
    if der is None:
        c, d = _private(ecc, args)
        return c, ecc.public_der(c, *ecc.public_key(c, d, **hw))
    try:
        c = ecc.key_curve(der)
    except ValueError as exc:
        raise CliError(f"--key {args.key}: {exc}", EXIT_INPUT) from None
    return _curve_arg(ecc, args, c), der


def _crypto_check(ecc, args, c, d, msg: bytes, res) -> tuple[str, bool]:
    """What ``cryptography`` says of a signature or shared secret: (text, ok)."""
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature

    cc = ecc.crypto_curve(c)
    if cc is None:
        return f"not checked: cryptography lacks {c.name}", True
    key = ec.derive_private_key(d, cc)
    if args.action == "ecdh":
        peer = ecc.public_der(c, *args._peer)
        from cryptography.hazmat.primitives import serialization

        same = key.exchange(ec.ECDH(), serialization.load_der_public_key(peer)) == res.data
        return ("byte-identical to cryptography's shared secret" if same else
                "DIFFERS from cryptography's shared secret"), same
    h = ecc.HASHES[args.hash]()
    sig = res.data
    if args.encoding == "p1363":
        L = c.order_bytes
        sig = encode_dss_signature(int.from_bytes(sig[:L], "big"), int.from_bytes(sig[L:], "big"))
    if args.nonce == "rfc6979":
        same = key.sign(msg, ec.ECDSA(h, deterministic_signing=True)) == sig
        return ("byte-identical to cryptography's RFC 6979 signature" if same else
                "DIFFERS from cryptography's RFC 6979 signature"), same
    try:
        key.public_key().verify(sig, msg, ec.ECDSA(h))
        return "cryptography verifies it (random nonce: no byte comparison)", True
    except InvalidSignature:
        return "cryptography REJECTS it", False


def cmd_ecc(args) -> int:
    from .. import cores, ecc
    from ..ecc import DEFAULT_CORE

    if args.action is None:
        return fail("ecc: give an action: keygen, sign, verify or ecdh")
    core = cores.get(args.core)  # unknown core: one line naming the known ones
    params = {}
    for item in args.param or []:
        name, sep, value = item.partition("=")
        if not sep:
            return fail(f"--param takes NAME=VALUE, got {item!r}")
        if name == "Width":
            return fail("ecc: --param Width is not allowed: the curve sets the core width")
        try:
            params[name] = int(value, 0)
        except ValueError:
            return fail(f"--param {name}: not an integer: {value!r}")
    core.hdl_params(64, **params)  # names, ranges and fixed values (ValueError: usage)
    leaks = args.action != "verify" and core.data_dependent
    if leaks and not args.allow_timing_leak:
        return fail(f"ecc {args.action} refused: timing would leak the private key: {core.name}'s latency depends "
                    f"on the operands (docs/security.md). Use a constant-time core (default {DEFAULT_CORE}), or "
                    "pass --allow-timing-leak for lab use", EXIT_USAGE)
    hw = {"core": args.core, "sim": args.sim, "params": params or None}
    if args.action != "keygen" and args.save_key:
        return fail("--save-key only applies to keygen", EXIT_USAGE)
    out_file = getattr(args, "out", None)
    if out_file and not Path(out_file).parent.is_dir():
        return fail(f"--out {out_file}: directory {Path(out_file).parent} does not exist", EXIT_USAGE)
    msg, check, ok = b"", "", True
    try:
        if args.action == "keygen":
            if not args.curve:
                return fail("ecc keygen needs --curve (e.g. secp256r1; see docs/ecc.md for the list)", EXIT_USAGE)
            if not args.save_key:
                return fail("ecc keygen needs --save-key FILE (the private key, PEM, mode 0600)", EXIT_USAGE)
            c = ecc.curve(args.curve)
            d, res = ecc.keygen(c, **hw)
            pt = ecc.decode_point(c, res.data)
            save_key(args.save_key, ecc.private_pem(c, d, *pt), args.force)
            pub_der = ecc.public_der(c, *pt)
            b64 = base64.b64encode(pub_der).decode()
            result = {"public_key_pem": "-----BEGIN PUBLIC KEY-----\n"
                      + "\n".join(b64[i:i + 64] for i in range(0, len(b64), 64)) + "\n-----END PUBLIC KEY-----\n",
                      "public_point": res.data.hex(), "private_key_file": args.save_key}
        elif args.action == "sign":
            c, d = _private(ecc, args)
            msg = read_message(args)
            res = ecc.sign(c, d, msg, args.hash, args.encoding, args.nonce, **hw)
            check, ok = _crypto_check(ecc, args, c, d, msg, res)
            if out_file:
                Path(out_file).write_bytes(res.data)
            result = {"signature": res.data.hex()}
        elif args.action == "verify":
            c, der = _public(ecc, args, hw)
            msg = read_message(args)
            sig = (read_hex(args.signature, "--signature") if args.signature is not None
                   else read_file(args.signature_file, "--signature-file"))
            res = ecc.verify(c, der, msg, sig, args.hash, args.encoding, **hw)
            result = {"valid": res.data, "why": res.why}
        else:
            c, d = _private(ecc, args)
            if args.peer is not None:
                peer_der = _pem_der(read_file(args.peer, "--peer"))
                if peer_der is None:
                    raise CliError(f"--peer {args.peer}: not a PEM PUBLIC KEY (SubjectPublicKeyInfo)", EXIT_INPUT)
                args._peer = ecc.load_public(c, peer_der)
                res = ecc.exchange(c, d, peer_der, "der", **hw)
            else:
                point = read_hex(args.peer_hex, "--peer-hex")
                args._peer = ecc.decode_point(c, point)
                res = ecc.exchange(c, d, point, "point", **hw)
            check, ok = _crypto_check(ecc, args, c, d, msg, res)
            result = {"shared_secret": res.data.hex()}
    except ecc.ParameterError as exc:
        return fail(str(exc), EXIT_USAGE)
    except RuntimeError as exc:
        return fail(str(exc), EXIT_CHECK)
    except ValueError as exc:
        text = str(exc.args[0] if exc.args else exc)
        if text.startswith("unknown curve"):
            return fail(text, EXIT_USAGE)
        return fail(f"rejected input: {text}", EXIT_INPUT)
    out = {"action": args.action, "curve": res.curve, "core": res.core, "sim": res.sim, "width": res.width,
           **result, "products": res.products, "cycles": res.cycles, "seconds": round(res.seconds, 3)}
    if args.action in ("sign", "verify"):
        out.update(hash=args.hash, encoding=args.encoding)
    if args.action == "sign":
        out["nonce"] = args.nonce
    if check:
        out.update(cryptography=check, cryptography_ok=ok)
    valid = args.action != "verify" or res.data
    if leaks:
        out["note"] = f"timing leaks the private key: {core.name}'s latency depends on the operands. Lab use only."
        print(f"montmul: warning: {out['note']}", file=sys.stderr)
    if args.json:
        out["wall_seconds"] = progress.wall_seconds(args._t0)
        print(json.dumps(out))
        return 0 if ok and valid else EXIT_CHECK
    print(f"curve     {res.curve}")
    rtl = ", every product also run on the RTL: equal" if res.sim != "model" else ""
    print(f"hardware  {res.core}, {res.sim}{rtl}")
    if args.action == "keygen":
        print(f"private   written to {args.save_key}")
        print(f"public    {res.data.hex()}")
        print(result["public_key_pem"], end="")
    elif args.action == "sign":
        print(f"scheme    ECDSA, {args.hash}, {args.nonce} nonce, {args.encoding}")
        print(f"signature {res.data.hex()}" + (f"\n          written to {out_file}" if out_file else ""))
    elif args.action == "verify":
        print(f"scheme    ECDSA, {args.hash}, {args.encoding}")
        print("signature valid" if res.data else f"signature INVALID: {res.why}")
    else:
        print(f"shared    {res.data.hex()}")
    if check:
        print(f"check     {check}")
    print(f"work      {res.products} products, {res.cycles} cycles (core width {res.width})")
    if not valid:
        return EXIT_CHECK
    return 0 if ok else EXIT_CHECK


def add_parsers(sub, subparser) -> None:
    """Register ``montmul ecc`` on the CLI's subparsers."""
    from ..ecc import CURVES, DEFAULT_CORE, HASHES

    def common(sp, top: bool):
        # the same options before and after the action (SUPPRESS: an action's
        # parser does not overwrite what was given before the action)
        d = (lambda v: v) if top else (lambda v: argparse.SUPPRESS)
        sp.add_argument("--curve", default=d(None),
                        help="curve (" + ", ".join(CURVES) + "); keygen needs it, other actions read it from "
                             "--key and check it against --curve")
        sp.add_argument("--core", default=d(DEFAULT_CORE),
                        help=f"core for every field product (see `montmul cores`); default {DEFAULT_CORE}, "
                             "constant time, standing in for the public-key engine's array")
        sp.add_argument("--param", action="append", default=d(None), metavar="P=V",
                        help="HDL parameter of the core (repeatable)")
        sp.add_argument("--sim", choices=SIMS, default=d(DEFAULT_SIM),
                        help="the model, or also the RTL (every product, checked against the model)")
        sp.add_argument("--key", default=d(None), metavar="PEM",
                        help="private key (PKCS#8 or SEC1 PEM) or, for verify, a public key (SPKI PEM)")
        sp.add_argument("--save-key", default=d(None), metavar="PEM", help="keygen: write the private key here (0600)")
        sp.add_argument("--force", action="store_true", default=d(False), help="let --save-key replace a file")
        sp.add_argument("--allow-timing-leak", action="store_true", default=d(False),
                        help="let keygen, sign and ecdh run on a data-dependent core (lab use)")
        sp.add_argument("--json", action="store_true", default=d(False), help="print one JSON object")

    e = subparser(sub, "ecc", help="ECDSA and ECDH with every field product on a core (docs/ecc.md)",
                  description="Elliptic-curve cryptography with every field product on a core's model or RTL.")
    common(e, True)
    acts = e.add_subparsers(dest="action", metavar="{keygen,sign,verify,ecdh}")

    def scheme(sp):
        sp.add_argument("--hash", default="sha256", choices=tuple(HASHES),
                        help="message hash (shake128/256: 256/512-bit outputs, RFC 8692; random nonces only)")
        sp.add_argument("--encoding", default="der", choices=("der", "p1363"),
                        help="signature: DER (r, s) or P1363 r||s")

    k = acts.add_parser("keygen", help="a new key pair (the public key computed on the core)")
    common(k, False)
    s = acts.add_parser("sign", help="sign a message (ECDSA)")
    common(s, False)
    add_message_args(s)
    scheme(s)
    s.add_argument("--nonce", default="rfc6979", choices=("rfc6979", "random"), help="the per-signature nonce k")
    s.add_argument("--out", metavar="FILE", help="also write the signature (raw bytes)")
    v = acts.add_parser("verify", help="verify a signature (exit status 1 if it does not verify)")
    common(v, False)
    add_message_args(v)
    scheme(v)
    g = v.add_mutually_exclusive_group(required=True)
    g.add_argument("--signature", metavar="HEX", help="signature as hex")
    g.add_argument("--signature-file", metavar="FILE", help="signature file (raw bytes)")
    x = acts.add_parser("ecdh", help="the shared secret x(d*Q) with a peer's public key")
    common(x, False)
    g = x.add_mutually_exclusive_group(required=True)
    g.add_argument("--peer", metavar="PEM", help="the peer's public key (SubjectPublicKeyInfo PEM)")
    g.add_argument("--peer-hex", metavar="HEX", help="the peer's public point (SEC1, uncompressed or compressed)")
    e.set_defaults(func=cmd_ecc)
