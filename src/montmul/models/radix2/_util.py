# SPDX-License-Identifier: Apache-2.0
"""Helpers shared by the radix-2 models."""

from __future__ import annotations

from ..common import fits


def until_zero(ss: int, sc: int, step, width: int) -> tuple[int, int]:
    """Repeat the carry-save step (ss, sc) = step(ss, sc) until sc == 0.

    Returns (binary value, number of steps).  ``width`` is the register width;
    the model asserts that no step ever needs more.
    """
    ops = 0
    while sc:
        ss, sc = step(ss, sc)
        ops += 1
        if not (fits(ss, width) and fits(sc, width)):
            raise AssertionError(f"carry-save state overflows {width} bits")
    return ss, ops
