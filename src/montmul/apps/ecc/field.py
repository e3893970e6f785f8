# SPDX-License-Identifier: Apache-2.0
"""Prime-field arithmetic GF(p) in the Montgomery domain of a core's model.

Every product is one Montgomery multiplication a*b*R^-1 mod p on the chosen
core's bit- and cycle-exact model (``montmul.cores``), R = 2^r the core's
radix for the modulus; additions, subtractions and negations are integer
arithmetic with one masked correction.  Elements are kept canonical, in
[0, p): a product comes back in [0, out_bound*p) and is reduced by
out_bound - 1 masked subtractions (a fixed number, whatever the value), so
every operand the core sees lies in [0, p), within its input range.

Constant-time rules (``docs/ecc.md``): no branch and no memory index depends
on an element's value.  Corrections are masks, ``x + (p & (x >> S))`` with
``x >> S`` either 0 or -1; inversion is Fermat's a^(p-2), whose sequence of
squares and products depends on p only.  (Python's integers are not
constant-time; the rules fix the sequence of core operations, which is what
the hardware will run.)

A :class:`Field` records every product it runs when asked (``record=True``):
``(a, b, result, cycles)``, for replaying them on the core's RTL
(:func:`montmul.apps.ecc.protocols.check_rtl`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from ... import cores

__all__ = ["Field", "constants", "Constants"]


@dataclass(frozen=True)
class Constants:
    """What a core needs per (core, width, parameters, modulus), computed once."""

    core: str
    width: int
    p: int
    r_log2: int  #: R = 2^r_log2
    r2: int  #: R^2 mod p (to enter the domain)
    one: int  #: R mod p (1 in the domain)
    out_bound: int
    model: object  #: the core's model function
    kwargs: tuple[tuple[str, int], ...]  #: its keyword arguments for these HDL parameters
    params: tuple[tuple[str, int], ...]  #: the HDL parameters given (for the RTL)


@lru_cache(maxsize=256)
def _constants(core: str, width: int, p: int, params: tuple[tuple[str, int], ...]) -> Constants:
    c = cores.get(core)
    hp = c.hdl_params(width, **dict(params))
    if p % 2 == 0 or p < 3 or p >= 1 << width:
        raise ValueError(f"modulus of {p.bit_length()} bits does not fit a {width}-bit core (odd, 3 <= p < 2^{width})")
    if c.in_bound < 1:
        raise ValueError(f"core {core} takes operands below {c.in_bound}*N only; the field layer needs [0, N)")
    r = c.r_log2(width, hp, p)
    kwargs = tuple((kw, hp[hdl]) for hdl, kw in c.model_args.items())
    return Constants(core, width, p, r, pow(2, 2 * r, p), pow(2, r, p), c.out_bound, c.model, kwargs, params)


def constants(core: str, width: int, p: int, params: dict[str, int] | None = None) -> Constants:
    """The cached :class:`Constants` of ``core`` at ``width`` for modulus p."""
    return _constants(core, width, p, tuple(sorted((params or {}).items())))


class Field:
    """GF(p) on a core's model.  Elements are ints in [0, p) in the Montgomery
    domain (x is held as x*R mod p); :meth:`enter` and :meth:`leave` convert,
    each with one product on the core."""

    def __init__(self, core: str, p: int, width: int | None = None, params: dict[str, int] | None = None,
                 record: bool = False):
        self.k = constants(core, width or p.bit_length(), p, params)
        self.p = p
        self._shift = self.k.width + 8  # x >> _shift is -1 for every negative x here, 0 otherwise
        self._model = self.k.model
        self._kw = dict(self.k.kwargs)
        self.one = self.k.one
        self.zero = 0
        self.products = 0  #: products run
        self.cycles = 0  #: their latencies, summed (the core's model)
        self.log: list[tuple[int, int, int, int]] | None = [] if record else None

    # -- the core ------------------------------------------------------------
    def mul(self, a: int, b: int) -> int:
        """a*b*R^-1 mod p (one product on the core), canonical."""
        r = self._model(a, b, self.p, self.k.width, **self._kw)
        self.products += 1
        self.cycles += r.cycles
        if self.log is not None:
            self.log.append((a, b, r.result, r.cycles))
        x = r.result
        for _ in range(self.k.out_bound - 1):  # a fixed count: the core's output range
            x = self._csub(x)
        return x

    def sqr(self, a: int) -> int:
        return self.mul(a, a)

    # -- integer side ----------------------------------------------------------
    def _csub(self, x: int) -> int:
        """x - p if x >= p, else x, by a mask (x in [0, 2p))."""
        d = x - self.p
        return d + (self.p & (d >> self._shift))

    def add(self, a: int, b: int) -> int:
        return self._csub(a + b)

    def sub(self, a: int, b: int) -> int:
        d = a - b
        return d + (self.p & (d >> self._shift))

    def neg(self, a: int) -> int:
        return self.sub(0, a)

    def select(self, bit: int, a: int, b: int) -> int:
        """b if bit else a (bit 0 or 1), by a mask."""
        return a ^ (-bit & (a ^ b))

    # -- domain ----------------------------------------------------------------
    def enter(self, x: int) -> int:
        """x*R mod p for x in [0, p) (one product with R^2 mod p)."""
        if not 0 <= x < self.p:
            raise ValueError("field element out of range [0, p)")
        return self.mul(x, self.k.r2)

    def leave(self, x: int) -> int:
        """x*R^-1 mod p: the ordinary value of a domain element (one product with 1)."""
        return self.mul(x, 1)

    def inv(self, a: int) -> int:
        """a^(p-2) = a^-1 (0 for 0), by Fermat: left-to-right square-and-multiply
        over the public exponent p-2, the same products for every a."""
        return self.pow_public(a, self.p - 2)

    def pow_public(self, a: int, e: int) -> int:
        """a^e for a public exponent e (square-and-multiply)."""
        r = self.one
        for i in range(e.bit_length() - 1, -1, -1):
            r = self.sqr(r)
            if (e >> i) & 1:
                r = self.mul(r, a)
        return r
