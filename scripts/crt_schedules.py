#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The CRT engine's schedules by measured (model) cycles, for docs/modexp.md:
one RSA-CRT private-key operation (a reproducible key of --bits bits, e = 65537,
one random c) on each core, as

* ``crt s&m`` / ``crt ladder``: one mm_modexp_crt request (both halves in
  rounds on one core, Garner's h on the core), square-and-multiply or ladder;
* ``series``: the two halves as two mm_modexp requests one after the other
  on one engine (montmul.apps.rsa with Hardware(crt_engine=False): RsaResult.cycles);
* ``2 engines``: the same two requests on two engines side by side
  (RsaResult.cycles_parallel: twice the hardware).

Usage: PYTHONPATH=src python scripts/crt_schedules.py [--bits 1024]
"""
from __future__ import annotations

import argparse
import random

import gmpy2

from montmul import engine


def key(bits: int, seed: int = 1) -> tuple[int, int, int, int, int]:
    rng = random.Random(seed)
    half = bits // 2
    while True:
        p = int(gmpy2.next_prime(rng.getrandbits(half) | 3 << (half - 2)))
        q = int(gmpy2.next_prime(rng.getrandbits(half) | 3 << (half - 2)))
        phi = (p - 1) * (q - 1)
        if p != q and (p * q).bit_length() == bits and gmpy2.gcd(65537, phi) == 1:
            d = int(gmpy2.invert(65537, phi))
            return p, q, d, d % (p - 1), d % (q - 1)


ROWS = [
    ("r2_basic", None),
    ("scs_new", None),
    ("dsp_redundant", {"Interleave": 1}),
    ("dsp_redundant", {"Interleave": 2}),
    ("dsp_redundant", {"Interleave": 3}),
]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bits", type=int, default=1024)
    args = ap.parse_args()
    p, q, d, dp, dq = key(args.bits)
    c = random.Random(2).randrange(p * q)
    k = p.bit_length()
    print(f"RSA-{args.bits} (primes of {k} bits), one c; cycles (model)\n")
    print("| core | slots | crt s&m | crt ladder | series s&m | 2 engines s&m | crt s&m / series |")
    print("|---|---|---|---|---|---|---|")
    for core, params in ROWS:
        sm = engine.crt_model(core, k, c, p, q, dp, dq, params=params)
        lad = engine.crt_model(core, k, c, p, q, dp, dq, params=params, ladder=True)
        assert sm[0] == lad[0] == pow(c, d, p * q)
        halves = [engine.modexp_model(c % n, e, n, core=core, width=k, params=params).cycles
                  for n, e in ((p, dp), (q, dq))]
        name = core + (f" Interleave={params['Interleave']}" if params else "")
        print(f"| {name} | {engine.crt_slots(core, params)} | {sm[1]} | {lad[1]} | {sum(halves)} | "
              f"{max(halves)} | {sm[1] / sum(halves):.3f} |", flush=True)


if __name__ == "__main__":
    main()
