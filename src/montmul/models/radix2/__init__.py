# SPDX-License-Identifier: Apache-2.0
"""Bit-exact, cycle-counting models of the radix-2 Montgomery multipliers of
paper 000 (and its re-implementation, paper 001).

Notation (paper 000): k is the operand width, N the odd modulus (3 <= N < 2^k),
A and B the operands.  Every model here uses Walter's bound: k+2 effective
iterations, R = 2^(k+2), inputs and outputs in [0, 2N), so products chain
without a final subtraction.

Each model mirrors the phase structure of its hardware (see docs/radix2.md):

``load``        the accepting clock edge (not counted in the latency)
``precompute``  D = B + N by repeated carry-save additions until SC = 0, plus
                the cycle in which the zero detector sees SC = 0
``loop``        one cycle per (non-skipped) iteration
``convert``     carry-save to binary conversion (repeated carry-save additions
                until SC = 0 plus the detecting cycle, or a word-serial CPA)

Carry-save state is tracked exactly as the hardware holds it, because the skip
decisions and the length of every "until SC = 0" loop depend on how a value is
split between its sum and carry words, not only on the value.

The printed algorithms are modelled literally as well (``*_printed``), so that
their errors can be shown by example; see docs/radix2.md.

One module per algorithm family (basic, scs, fcs, mscs, scs_new); this
package re-exports them.
"""

from ._util import until_zero
from .basic import basic
from .fcs import fcs1, fcs1_cs, fcs2, fcs2_cs
from .fcs import fcs1_bin, fcs2_bin
from .fcs_mmm42 import fcs_mmm42, fcs_mmm42_cs, fcs_mmm42_width
from .mscs import mscs
from .scs import scs1, scs2
from .scs_new import scs_new, scs_new_ct_steps, scs_new_printed, scs_new_width

__all__ = [
    "basic", "scs1", "scs2", "fcs1", "fcs1_cs", "fcs2", "fcs2_cs", "fcs1_bin", "fcs2_bin",
    "fcs_mmm42", "fcs_mmm42_cs", "fcs_mmm42_width",
    "mscs", "scs_new", "scs_new_printed", "scs_new_ct_steps", "scs_new_width", "until_zero",
]
