# SPDX-License-Identifier: Apache-2.0
"""Shared pieces of the bit-exact models: results, input checks, carry-save cells.

Every model is plain Python on ints.  A model returns an :class:`MMResult`
holding the Montgomery product and, where the matching RTL core claims it, the
exact latency in clock cycles with a breakdown by phase.

Latency convention (the same for every core, see ``docs/interface.md``): the
number of rising clock edges after the edge that accepts the request
(``in_valid_i && in_ready_o``) up to and including the edge after which
``out_valid_o`` is high.
"""

from __future__ import annotations

from dataclasses import dataclass, field


class InputError(ValueError):
    """A request that a core rejects with its error flag."""


@dataclass(frozen=True)
class MMResult:
    """Result of one Montgomery multiplication.

    ``result``    the product A*B*R^-1 mod N, in the core's output range
    ``cycles``    latency in clock cycles (see module docstring)
    ``breakdown`` cycles (and event counts such as ``skips``) per phase
    """

    result: int
    cycles: int
    breakdown: dict[str, int] = field(default_factory=dict)


def check_inputs(a: int, b: int, n: int, width: int, in_bound_mult: int = 2) -> None:
    """Raise :class:`InputError` unless (a, b, n) is a legal request.

    A legal request has an odd modulus 3 <= n < 2**width and operands
    0 <= a, b < in_bound_mult * n.  These are exactly the conditions the RTL
    cores check before they start.
    """
    if width < 2:
        raise InputError(f"width must be at least 2, got {width}")
    if n < 3:
        raise InputError(f"modulus N={n} is below 3")
    if n % 2 == 0:
        raise InputError(f"modulus N={n} is even; Montgomery multiplication needs an odd modulus")
    if n >= 1 << width:
        raise InputError(f"modulus N={n} does not fit in {width} bits")
    for name, v in (("A", a), ("B", b)):
        if v < 0 or v >= in_bound_mult * n:
            raise InputError(
                f"operand {name}={v} is outside the accepted range [0, {in_bound_mult}N)"
            )


def bit(x: int, i: int) -> int:
    """Bit i of x (0 for negative i)."""
    return (x >> i) & 1 if i >= 0 else 0


def csa(x: int, y: int, z: int) -> tuple[int, int]:
    """Three-to-two carry-save addition: returns (sum, carry) with carry already
    shifted into place, so sum + carry == x + y + z exactly."""
    s = x ^ y ^ z
    c = ((x & y) | (x & z) | (y & z)) << 1
    return s, c


def ha(x: int, y: int) -> tuple[int, int]:
    """Two-input carry-save (half-adder) step: sum + carry == x + y."""
    return x ^ y, (x & y) << 1


def ha2(x: int, y: int) -> tuple[int, int]:
    """Two serial half-adder steps in one cycle (paper 000's 2H_CSA mode)."""
    s1, c1 = ha(x, y)
    return ha(s1, c1)


def ceil_div(x: int, y: int) -> int:
    """ceil(x / y) for positive y, on ints."""
    return -(-x // y)


def mask(width: int) -> int:
    return (1 << width) - 1


def fits(x: int, width: int) -> bool:
    return 0 <= x < (1 << width)
