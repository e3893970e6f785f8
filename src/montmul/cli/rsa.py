# SPDX-License-Identifier: Apache-2.0
"""The ``montmul modexp`` and ``montmul rsa`` subcommands (registered by
:func:`montmul.cli.build_parser`).

    montmul modexp --core NAME --width K --base X --exp E --mod N [--ladder] [--sim ...] [--json]
    montmul rsa [--core NAME] (--bits B | --key PEM) [--save-key PEM [--force]] [--crt | --no-crt] [--no-crt-engine]
                [--pke-bits L] [--pke-pes P]
                [--sim ...] [--ladder | --no-ladder] [--allow-timing-leak] [--json]
                {sign,verify,encrypt,decrypt} ...

Safe by default: private-key operations (sign, decrypt) with the CRT run on
the public-key engine mm_pke (core ``ws``, constant time by its audit), or
with ``--no-crt``, ``--no-crt-engine`` or ``--ladder`` on the constant-time
``scs_new_ct`` with the Montgomery ladder; a data-dependent core or
square-and-multiply for them needs ``--allow-timing-leak`` and prints why.
Key files are written 0600 and never overwritten without ``--force``.

Exit statuses as for every subcommand (:mod:`montmul.cli.util`): 1 a
signature that does not verify, or a hardware result that disagrees with
pow(), the model or ``cryptography``; 2 bad usage; 3 rejected input (a
failed decryption, a message too long, a key that is not RSA); 4 file or
tool failure.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from .. import progress
from .util import (
    DEFAULT_SIM, EXIT_CHECK, EXIT_INPUT, EXIT_TOOL, EXIT_USAGE, SIMS, CliError, add_message_args, core_and_width, fail,
    hdl_params, parse_int, positive_int, read_file, read_hex, read_message,
)

ACTIONS = ("sign", "verify", "encrypt", "decrypt")


# --------------------------------------------------------------------------
def cmd_modexp(args) -> int:
    from .. import engine
    from ..apps import modexp as mx

    core, k = core_and_width(args)
    params = hdl_params(args)
    base, exp, n = args.base, args.exp, args.mod
    for name, v in (("--base", base), ("--exp", exp), ("--mod", n)):
        if v < 0 or v >= 1 << k:
            return fail(f"{name} {v:#x} does not fit the engine's {k}-bit port (--width {k})", EXIT_INPUT)
    why = engine.rejects(base, exp, n, engine.r2_mod(n, core.name, k, params) if n >= 1 else 0,
                         engine.default_exp_len(exp), k)
    if why:
        return fail(f"rejected input: {why}", EXIT_INPUT)
    import time

    t0 = time.perf_counter()
    try:
        (r,) = mx.modexp([(base, exp, n)], core=core, width=k, sim=args.sim, ladder=args.ladder, params=params)
    except mx.ModelMismatch as exc:
        return fail(str(exc), EXIT_CHECK)
    secs = time.perf_counter() - t0
    if r.err or r.result != pow(base, exp, n):
        return fail(f"{args.sim}: result {r.result:#x} (err {r.err}) differs from pow() = {pow(base, exp, n):#x}",
                    EXIT_CHECK)
    out = {
        "core": core.name, "width": k, "sim": args.sim, "ladder": args.ladder,
        "base": hex(base), "exp": hex(exp), "mod": hex(n), "result": hex(r.result),
        "cycles": r.cycles, "mults": r.mults, "seconds": round(secs, 3),
        "wall_seconds": progress.wall_seconds(args._t0),
    }
    if args.json:
        print(json.dumps(out))
        return 0
    print(f"core      {core.name} (width {k}, {args.sim}, {'Montgomery ladder' if args.ladder else 'square-and-multiply'})")
    print(f"result    {r.result} ({r.result:#x})  = base^exp mod N, equals pow()")
    print(f"cycles    {r.cycles}  ({r.mults} core multiplications)")
    if args.sim != "model":
        print(f"          RTL result and cycles equal the model's ({secs:.2f} s simulation)")
    return 0


# --------------------------------------------------------------------------
def _blinding_text(b) -> str:
    parts = (["message (base)"] if b.base else []) + ([f"exponent ({b.exp_bits}-bit k)"] if b.exp_bits else [])
    return " + ".join(parts)


def _read_bytes(hex_text: str | None, path: str | None, what: str) -> bytes:
    return read_hex(hex_text, what) if hex_text is not None else read_file(path, what)


def _salt(text: str):
    if text in ("digest", "max", "auto"):
        return text
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"salt length: 'digest', 'max', 'auto' or an integer, not {text!r}") from None
    if v < 0:
        raise argparse.ArgumentTypeError("salt length must not be negative")
    return v


def _key(args, rsa):
    """The key and a description of where it came from."""
    if args.key:
        try:
            data = Path(args.key).read_bytes()
        except OSError as exc:
            raise ValueError(f"--key: cannot read {args.key}: {exc.strerror}") from None
        key = _load_key(rsa, data, args.key, _password(args))
        if args.bits and args.bits != key.bits:
            raise ValueError(f"--bits {args.bits} but the key in {args.key} has {key.bits} bits")
        return key, f"{'private' if key.is_private else 'public'} key from {args.key}"
    if args.action in ("verify", "decrypt"):
        raise ValueError(f"{args.action} needs the key that made the "
                         f"{'signature' if args.action == 'verify' else 'ciphertext'}: give --key PEM "
                         "(`montmul rsa --bits B --save-key K.pem sign ...` writes one)")
    if not args.bits:
        raise ValueError("give --bits (1024, 2048, 3072, 4096) to generate a key, or --key PEM")
    key = rsa.generate(args.bits)
    return key, (f"generated RSA-{args.bits} key (e={key.e}) by cryptography; it cannot be reproduced "
                 "(cryptography's key generation takes no seed)" + (f"; saved to {args.save_key}" if args.save_key else
                                                                    "; --save-key FILE keeps it"))


#: Environment variable holding the password of an encrypted --key.
PASSWORD_ENV = "MONTMUL_KEY_PASSWORD"


def _password(args) -> bytes | None:
    """The --key's password: --key-password-file (its first line), else
    $MONTMUL_KEY_PASSWORD, else None."""
    path = getattr(args, "key_password_file", None)
    if path:
        try:
            text = Path(path).read_bytes()
        except OSError as exc:
            raise CliError(f"--key-password-file: cannot read {path}: {exc.strerror}", EXIT_USAGE) from None
        return text.splitlines()[0] if text.strip(b"\r\n") else b""
    env = os.environ.get(PASSWORD_ENV)
    return env.encode() if env is not None else None


def _load_key(rsa, data: bytes, path: str, password: bytes | None = None):
    """An RSA key from PEM; one clear line for anything else."""
    # PKCS#8 (BEGIN ENCRYPTED PRIVATE KEY) or OpenSSL's traditional PKCS#1 (Proc-Type: 4,ENCRYPTED)
    if b"-----BEGIN ENCRYPTED PRIVATE KEY-----" in data or b"Proc-Type: 4,ENCRYPTED" in data:
        if password is None:
            raise CliError(f"--key {path}: the key is encrypted: give its password with --key-password-file FILE "
                           f"or the environment variable {PASSWORD_ENV}", EXIT_USAGE)
        try:
            return rsa.load_pem(data, password=password)
        except ValueError as exc:
            if "unsupported RSA modulus" in str(exc):
                raise CliError(f"--key {path}: {exc}", EXIT_INPUT) from None
            raise CliError(f"--key {path}: wrong password for the encrypted key (or a damaged key)", EXIT_USAGE) from None
    try:
        return rsa.load_pem(data)
    except ValueError as exc:
        if "unsupported RSA modulus" in str(exc):
            raise CliError(f"--key {path}: {exc}", EXIT_INPUT) from None
    from cryptography.hazmat.primitives import serialization

    for load in (lambda: serialization.load_pem_private_key(data, password=None),
                 lambda: serialization.load_pem_public_key(data)):
        try:
            obj = load()
        except (ValueError, TypeError):
            continue
        kind = type(obj).__name__.lstrip("_").replace("PrivateKey", " private key").replace("PublicKey", " public key")
        raise CliError(f"--key {path}: not an RSA key ({kind}); montmul rsa needs an RSA key", EXIT_INPUT)
    raise CliError(f"--key {path}: not a PEM RSA key (PKCS#1, PKCS#8 or SPKI; unencrypted)", EXIT_INPUT)


def save_key(path: str, pem: bytes, force: bool) -> None:
    """Write a private key file readable by its owner only (0600), never over
    an existing file unless ``force``."""
    p = Path(path)
    if p.is_dir():
        raise CliError(f"--save-key {path}: is a directory", EXIT_USAGE)
    if not p.parent.is_dir():
        raise CliError(f"--save-key {path}: directory {p.parent} does not exist", EXIT_USAGE)
    flags = os.O_WRONLY | os.O_CREAT | (os.O_TRUNC if force else os.O_EXCL)
    try:
        fd = os.open(p, flags, 0o600)
    except FileExistsError:
        raise CliError(f"--save-key {path}: file exists; not overwritten (--force replaces it)", EXIT_USAGE) from None
    except OSError as exc:
        raise CliError(f"--save-key {path}: {exc.strerror}", EXIT_TOOL) from None
    with os.fdopen(fd, "wb") as f:
        os.fchmod(f.fileno(), 0o600)  # also when --force replaced an older, wider-open file
        f.write(pem)


#: Constant-time default core for private-key operations (docs/security.md).
SAFE_CORE = "scs_new_ct"


#: Default core of the private-key operations with the CRT on the CRT
#: engine: ws, whose CRT engine is the public-key engine mm_pke, constant
#: time by the engine's audit (``montmul leak --engine pke``, docs/rsa.md).
ENGINE_CORE = "ws"


def default_core(action: str, crt: bool, crt_engine: bool) -> str:
    """The core without --core: sign and decrypt with the CRT on the CRT
    engine run on mm_pke (:data:`ENGINE_CORE`); everything else on
    :data:`SAFE_CORE`."""
    if action in ("sign", "decrypt") and crt and crt_engine:
        return ENGINE_CORE
    return SAFE_CORE


def _timing_leaks(args, cores) -> list[str]:
    """Why this configuration leaks a private key through timing ([] if it does not)."""
    if args.action not in ("sign", "decrypt"):
        return []
    leaks = []
    if cores.get(args.core).data_dependent:
        leaks.append(f"{args.core}'s latency depends on the operands (docs/security.md)")
    if args.ladder is False:
        leaks.append("square-and-multiply's cycle count depends on the exponent's bits (the ladder's does not)")
    return leaks


def _crypto_check(args, key, rsa, msg: bytes, res) -> tuple[str, bool]:
    """What ``cryptography`` says about our result: (text, ok).  ``cryptography``
    gets the parameters the result records (hash, MGF1 hash, salt length)."""
    from cryptography.exceptions import UnsupportedAlgorithm

    if res.padding == "pss" and res.mgf1_hash is None:
        return f"not checked: cryptography has no RSASSA-PSS with {res.hash} (RFC 8702)", True
    try:
        return _crypto_verdict(args, key, rsa, msg, res)
    except UnsupportedAlgorithm:  # e.g. OAEP with SHA-3 or an MGF1 hash other than SHA-1/SHA-2
        return (f"not checked: cryptography does not support {res.padding} with {res.hash}, "
                f"MGF1-{res.mgf1_hash}"), True


def _crypto_verdict(args, key, rsa, msg: bytes, res) -> tuple[str, bool]:
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric import padding as cpad

    h = rsa.HASHES[res.hash]() if res.hash else None
    mgf = cpad.MGF1(rsa.HASHES[res.mgf1_hash]()) if res.mgf1_hash else None
    ck = key.cryptography_key()
    pub = ck.public_key() if key.is_private else ck
    if res.padding == "pss":
        # the salt length we used or checked; "auto" only where we read it too
        pss = cpad.PSS(mgf, cpad.PSS.AUTO if res.salt_recovered else res.salt_length)
    if args.action == "sign":
        if res.padding == "pkcs1v15":
            same = ck.sign(msg, cpad.PKCS1v15(), h) == res.data
            return ("byte-identical to cryptography's signature" if same else
                    "DIFFERS from cryptography's signature"), same
        try:
            pub.verify(res.data, msg, pss, h)
            return "cryptography verifies it (PSS is randomized: no byte comparison)", True
        except InvalidSignature:
            return "cryptography REJECTS it", False
    if args.action == "verify":
        pad = cpad.PKCS1v15() if res.padding == "pkcs1v15" else pss
        try:
            pub.verify(args._sig, msg, pad, h)
            return "cryptography agrees: valid", True
        except InvalidSignature:
            return "cryptography DISAGREES: invalid", False
    if args.action == "encrypt":
        if not key.is_private:
            return "not checked (public key: cryptography cannot decrypt)", True
        pad = cpad.PKCS1v15() if res.padding == "pkcs1v15" else cpad.OAEP(mgf, h, args.label.encode() or None)
        same = ck.decrypt(res.data, pad) == msg
        return ("cryptography decrypts it to the message (encryption is randomized: no byte comparison)" if same
                else "cryptography decrypts it to SOMETHING ELSE"), same
    if key.is_private:  # decrypt: cryptography's decryption of the same ciphertext
        pad = cpad.PKCS1v15() if res.padding == "pkcs1v15" else cpad.OAEP(mgf, h, args.label.encode() or None)
        same = ck.decrypt(args._ct, pad) == res.data
        return ("same message as cryptography's decryption" if same else "DIFFERS from cryptography's decryption"), same
    return "", True


def cmd_rsa(args) -> int:
    from .. import cores
    from ..apps import rsa

    if args.action is None:
        return fail("rsa: give an action: sign, verify, encrypt or decrypt")
    if args.core is None:  # --ladder/--no-ladder choose mm_modexp's method: then its default core
        args.core = default_core(args.action, args.crt, args.crt_engine) if args.ladder is None else SAFE_CORE
    cores.get(args.core)  # unknown core: one line naming the known ones
    if (args.pke_bits is not None or args.pke_pes is not None) and not (
            args.core == rsa.PKE_CORE and args.action in ("sign", "decrypt") and args.crt and args.crt_engine):
        return fail(f"--pke-bits/--pke-pes set the public-key engine mm_pke, which runs sign and decrypt with "
                    f"the CRT on core {rsa.PKE_CORE} (--core {rsa.PKE_CORE}, --crt, --crt-engine)", EXIT_USAGE)
    on_pke = args.core == rsa.PKE_CORE and args.action in ("sign", "decrypt") and args.crt and args.crt_engine
    if on_pke:
        if args.ladder is not None:
            return fail("--ladder/--no-ladder choose mm_modexp's method (the Montgomery ladder or "
                        "square-and-multiply); mm_pke, which runs sign and decrypt on core ws with the CRT, "
                        "has fixed 4-bit windows", EXIT_USAGE)
        args.ladder = None  # the engine's fixed windows: no ladder or square-and-multiply to choose
    elif args.ladder is None:  # default: the ladder for private-key operations, square-and-multiply otherwise
        args.ladder = args.action in ("sign", "decrypt")
    leaks = _timing_leaks(args, cores)
    if leaks and not args.allow_timing_leak:
        return fail(f"rsa {args.action} refused: timing would leak the private key: " + "; ".join(leaks)
                    + f". Use a constant-time core (default {SAFE_CORE}) with the ladder (default), "
                      "or pass --allow-timing-leak for lab use", EXIT_USAGE)
    params = {}
    if args.param:
        if any(item.partition("=")[0] == "Width" for item in args.param):
            return fail("rsa: --param Width is not allowed: RSA sets the core width from the key "
                        "(half the key size with the CRT, the key size without)", EXIT_USAGE)
        args.width = rsa.MIN_BITS  # _params checks ranges at some width; RSA picks the widths itself
        params = hdl_params(args)
    try:
        hw = rsa.Hardware(core=args.core, sim=args.sim, ladder=bool(args.ladder), params=params or None,
                          procs=args.procs, crt_engine=args.crt_engine, pke_bits=args.pke_bits,
                          pke_pes=rsa.PKE_PES if args.pke_pes is None else args.pke_pes)
    except rsa.ParameterError as exc:
        return fail(str(exc), EXIT_USAGE)
    key, origin = _key(args, rsa)
    if args.save_key:
        if not key.is_private:
            return fail(f"--save-key {args.save_key}: the key from {args.key} is public; nothing secret to save "
                        "(copy the file instead)", EXIT_USAGE)
        save_key(args.save_key, key.to_pem(), args.force)
    elif args.force:
        return fail("--force only applies to --save-key", EXIT_USAGE)
    out_file = getattr(args, "out", None)
    if out_file and not Path(out_file).parent.is_dir():  # before a long run, not after it
        return fail(f"--out {out_file}: directory {Path(out_file).parent} does not exist", EXIT_USAGE)
    msg = b""
    if args.action in ("sign", "verify", "encrypt"):
        msg = read_message(args)
    if (args.blind or args.exp_blind_bits) and args.action not in ("sign", "decrypt"):
        return fail(f"--blind/--exp-blind-bits apply to private-key operations (sign, decrypt), not {args.action}",
                    EXIT_USAGE)
    try:
        blinding = (rsa.Blinding(base=args.blind, exp_bits=args.exp_blind_bits)
                    if args.blind or args.exp_blind_bits else None)
        if args.action == "sign":
            res = rsa.sign(key, msg, hw, padding=args.padding, hash=args.hash, crt=args.crt,
                           salt_length=args.salt_length, mgf1_hash=args.mgf1_hash, blinding=blinding)
        elif args.action == "verify":
            args._sig = _read_bytes(args.signature, args.signature_file, "signature")
            res = rsa.verify(key, msg, args._sig, hw, padding=args.padding, hash=args.hash,
                             salt_length=args.salt_length, mgf1_hash=args.mgf1_hash)
        elif args.action == "encrypt":
            res = rsa.encrypt(key, msg, hw, padding=args.padding, hash=args.hash, label=args.label.encode(),
                              mgf1_hash=args.mgf1_hash)
        else:
            args._ct = _read_bytes(args.ciphertext, args.ciphertext_file, "ciphertext")
            res = rsa.decrypt(key, args._ct, hw, padding=args.padding, hash=args.hash, label=args.label.encode(),
                              crt=args.crt, mgf1_hash=args.mgf1_hash, blinding=blinding)
    except RuntimeError as exc:
        return fail(str(exc), EXIT_CHECK)
    except rsa.ParameterError as exc:
        return fail(str(exc), EXIT_USAGE)  # an option value that does not fit the scheme
    except ValueError as exc:
        msg = str(exc.args[0] if exc.args else exc)
        if msg.startswith("invalid signature"):
            return fail(msg, EXIT_CHECK)
        return fail(f"rejected input: {msg}", EXIT_INPUT)
    check, ok = _crypto_check(args, key, rsa, msg, res)
    if out_file and isinstance(res.data, bytes):
        Path(out_file).write_bytes(res.data)
    private = args.action in ("sign", "decrypt")
    note = ("timing leaks the secret exponent: " + "; ".join(leaks) + ". Lab use only.") if leaks else ""
    if note:
        print(f"montmul: warning: {note}", file=sys.stderr)
    data = res.data
    engine = ("mm_pke" if on_pke else "mm_modexp_crt" if any(x.what == "c^d mod pq (CRT)" for x in res.exps)
              else "mm_modexp")
    out = {
        "action": args.action, "core": args.core, "engine": engine, "sim": args.sim, "ladder": args.ladder,
        "bits": key.bits, "key": origin, "crt": res.crt, "padding": res.padding, "hash": res.hash,
        "mgf1_hash": res.mgf1_hash, "salt_length": res.salt_length, "salt_recovered": res.salt_recovered,
        "result": data.hex() if isinstance(data, bytes) else data,
        "exps": [vars(x) for x in res.exps], "cycles": res.cycles, "cycles_parallel": res.cycles_parallel,
        "seconds": round(res.seconds, 3), "cryptography": check, "cryptography_ok": ok,
        "blinding": ({"base": res.blinding.base, "exp_bits": res.blinding.exp_bits} if res.blinding else None),
    }
    if note:
        out["note"] = note
    if args.json:
        out["wall_seconds"] = progress.wall_seconds(args._t0)
        print(json.dumps(out))
        return 0 if ok else EXIT_CHECK
    print(f"key       {origin}")
    method = ("the public-key engine mm_pke, fixed 4-bit windows" if on_pke else
              "Montgomery ladder" if args.ladder else "square-and-multiply")
    print(f"hardware  {args.core}, {args.sim}, {method}"
          + (f", {'CRT' if res.crt else 'no CRT'}" if private else "")
          + (f", blinding: {_blinding_text(res.blinding)}" if res.blinding else ""))
    scheme = {"pkcs1v15": "PKCS#1 v1.5", "pss": "PSS", "oaep": "OAEP"}[res.padding]
    if res.hash:
        scheme += f", {res.hash}"
    if res.padding == "pss" and res.mgf1_hash is None:
        scheme += f", mask {res.hash} (RFC 8702)"
    elif res.mgf1_hash:
        scheme += f", MGF1-{res.mgf1_hash}"
    if res.salt_length is not None:
        scheme += (f", salt {res.salt_length} bytes" +
                   (" (read from the signature: --salt-length auto, not checked)" if res.salt_recovered else ""))
    print(f"scheme    {scheme}")
    if args.action == "sign":
        print(f"signature {data.hex()}")
    elif args.action == "verify":
        print("signature valid")
    elif args.action == "encrypt":
        print(f"ciphertext {data.hex()}")
    else:
        try:
            print(f"message   {data.decode('utf-8')}")
        except UnicodeDecodeError:
            print(f"message   (hex) {data.hex()}")
    if out_file and isinstance(data, bytes):
        print(f"          written to {out_file}")
    for x in res.exps:
        print(f"  {x.what:11s} width {x.width:5d}  exponent {x.exp_bits:5d} bits  {x.mults:6d} mults  {x.cycles:10d} cycles")
    if on_pke:
        print(f"cycles    {res.cycles} (mm_pke: both halves side by side on the ws array; conversions, exact "
              "reduction, Garner's recombination" + (" and blinding" if res.blinding else "") + " on the engine)")
    elif any(x.what == "c^d mod pq (CRT)" for x in res.exps):
        print(f"cycles    {res.cycles} (CRT engine: both halves and Garner's h on one core; "
              "m = m_q + q*h on the host, not counted)")
    elif len(res.exps) > 1:
        print(f"cycles    {res.cycles} on one engine, {res.cycles_parallel} with the CRT halves on two engines "
              "(Garner's recombination in software, not counted)")
    else:
        print(f"cycles    {res.cycles}")
    sim_note = "model" if args.sim == "model" else f"{args.sim} simulation, RTL results and cycles equal the model's"
    print(f"time      {res.seconds:.2f} s ({sim_note})")
    if check:
        print(f"check     {check}")
    if note:
        print(f"note      {note}")
    return 0 if ok else EXIT_CHECK


# --------------------------------------------------------------------------
def add_parsers(sub, core_args, subparser) -> None:
    """Register ``modexp`` and ``rsa`` on the CLI's subparsers (``subparser(sub,
    name, ...)`` makes one that shows every option's default)."""
    me = subparser(sub, "modexp", help="one modular exponentiation on the mm_modexp engine")
    core_args(me)
    me.add_argument("--base", type=parse_int, required=True, help="base, below N")
    me.add_argument("--exp", type=parse_int, required=True, help="exponent")
    me.add_argument("--mod", type=parse_int, required=True, help="odd modulus N that fits --width")
    me.add_argument("--ladder", action="store_true", help="Montgomery powering ladder (default: square-and-multiply)")
    me.add_argument("--sim", choices=SIMS, default=DEFAULT_SIM, help="where to compute: the model, or RTL simulation")
    me.set_defaults(func=cmd_modexp)

    r = subparser(sub, "rsa", help="RSA sign/verify/encrypt/decrypt with every exponentiation on a core",
                       description="RSA with the modular exponentiations on the mm_modexp engine (core ws: "
                                   "the CRT private-key operations on the public-key engine mm_pke). "
                                   "Without --key a key is generated (cryptography; no seed possible).")
    r.add_argument("--core", default=None,
                   help=f"core name (see `montmul cores`); default: sign and decrypt with the CRT on {ENGINE_CORE} "
                        f"(its CRT engine is the public-key engine mm_pke, docs/pke.md), everything else on "
                        f"{SAFE_CORE}; sign and decrypt refuse a data-dependent core without --allow-timing-leak")
    r.add_argument("--pke-bits", type=positive_int, default=None, metavar="L",
                   help="mm_pke: the build's half length, primes of up to L bits (default: the key's longer prime)")
    r.add_argument("--pke-pes", type=positive_int, default=None, metavar="P",
                   help="mm_pke: the array's PEs (default 66, the synthesized build)")
    r.add_argument("--param", action="append", metavar="P=V", help="HDL parameter of the core (repeatable)")
    r.add_argument("--bits", type=int, choices=(1024, 2048, 3072, 4096), help="key size (generate, or check --key)")
    r.add_argument("--key", metavar="PEM", help="private or public key, PEM (PKCS#1, PKCS#8 or SPKI)")
    r.add_argument("--key-password-file", metavar="FILE",
                   help=f"the password of an encrypted --key, the file's first line (or ${PASSWORD_ENV})")
    r.add_argument("--save-key", metavar="PEM", help="write the private key (PKCS#8 PEM, unencrypted, mode 0600)")
    r.add_argument("--force", action="store_true", help="let --save-key replace an existing file")
    r.add_argument("--crt", action=argparse.BooleanOptionalAction, default=True,
                   help="private-key operations with the CRT (two half-width exponentiations); default on")
    r.add_argument("--crt-engine", action=argparse.BooleanOptionalAction, default=True,
                   help="with --crt: one request on the CRT engine mm_modexp_crt (both halves on one core, "
                        "Garner's h on the core); --no-crt-engine: two mm_modexp jobs; default on (docs/modexp.md)")
    r.add_argument("--blind", action="store_true",
                   help="sign/decrypt: message (base) blinding, c*r^e mod n on the engine, then *r^-1 "
                        "(r from the OS's CSPRNG); docs/security.md")
    r.add_argument("--exp-blind-bits", type=int, default=0, metavar="B",
                   help="sign/decrypt: exponent blinding, d + k*phi (CRT: dP + kP*(p-1), dQ + kQ*(q-1)) with "
                        "random k of B bits (0: off, the default); docs/security.md")
    r.add_argument("--sim", choices=SIMS, default=DEFAULT_SIM, help="where to compute: the model, or RTL simulation")
    r.add_argument("--ladder", action=argparse.BooleanOptionalAction, default=None,
                   help="Montgomery powering ladder (default: on for sign and decrypt, off for verify and encrypt)")
    r.add_argument("--allow-timing-leak", action="store_true",
                   help="let sign/decrypt run on a data-dependent core or with --no-ladder (lab use; says why)")
    r.add_argument("--procs", type=positive_int, default=1, help="parallel simulator processes")
    r.add_argument("--json", action="store_true", help="print one JSON object")
    acts = r.add_subparsers(dest="action", metavar="{sign,verify,encrypt,decrypt}")

    def common(sp, paddings, default):
        # --json is also accepted after the action (it is a global option of `rsa`)
        sp.add_argument("--json", action="store_true", default=argparse.SUPPRESS, help="print one JSON object")
        sp.add_argument("--padding", choices=paddings, default=default, help="padding scheme")
        sp.add_argument("--hash", default="sha256",
                        help="sha1, sha224, sha256 (default), sha384, sha512, sha512_224, sha512_256, "
                             "sha3_224, sha3_256, sha3_384, sha3_512; shake128, shake256 (PSS only, RFC 8702)")
        sp.add_argument("--mgf1-hash", metavar="HASH", default=None,
                        help="PSS/OAEP: the MGF1 hash (default: --hash; none with shake128/256)")

    s = acts.add_parser("sign", help="sign a message (PKCS#1 v1.5 or PSS)")
    add_message_args(s)
    common(s, ("pkcs1v15", "pss"), "pkcs1v15")
    s.add_argument("--salt-length", type=_salt, default=None, help="PSS salt: digest (default), max or bytes")
    s.add_argument("--out", metavar="FILE", help="also write the signature (raw bytes)")

    v = acts.add_parser("verify", help="verify a signature")
    add_message_args(v)
    common(v, ("pkcs1v15", "pss"), "pkcs1v15")
    g = v.add_mutually_exclusive_group(required=True)
    g.add_argument("--signature", metavar="HEX", help="signature as hex")
    g.add_argument("--signature-file", metavar="FILE", help="raw bytes")
    v.add_argument("--salt-length", type=_salt, default=None,
                   help="PSS salt length to check: digest (default), max or bytes; auto reads it from the "
                        "signature instead (weaker: any salt length is accepted)")

    e = acts.add_parser("encrypt", help="encrypt a message (OAEP or PKCS#1 v1.5)")
    add_message_args(e)
    common(e, ("oaep", "pkcs1v15"), "oaep")
    e.add_argument("--label", default="", help="OAEP label (text)")
    e.add_argument("--out", metavar="FILE", help="also write the ciphertext (raw bytes)")

    d = acts.add_parser("decrypt", help="decrypt a ciphertext")
    g = d.add_mutually_exclusive_group(required=True)
    g.add_argument("--ciphertext", metavar="HEX", help="ciphertext as hex")
    g.add_argument("--ciphertext-file", metavar="FILE", help="raw bytes")
    common(d, ("oaep", "pkcs1v15"), "oaep")
    d.add_argument("--label", default="", help="OAEP label (text)")
    d.add_argument("--out", metavar="FILE", help="also write the message (raw bytes)")
    r.set_defaults(func=cmd_rsa)

