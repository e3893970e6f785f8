# SPDX-License-Identifier: Apache-2.0
"""Bit-exact, cycle-counting models of every algorithm montmul implements.

Plain Python on ints: no simulator imports, so the CLI, reports and users can
reuse them.
"""
from . import dsp, radix2
from .common import InputError, MMResult, check_inputs

__all__ = ["dsp", "radix2", "InputError", "MMResult", "check_inputs"]
