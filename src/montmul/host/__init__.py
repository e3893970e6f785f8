# SPDX-License-Identifier: Apache-2.0
"""Driving ``mm_modexp_axil``, the AXI4-Lite wrapper of the exponentiation
engine: the driver (:class:`ModexpDevice`), its buses (:mod:`.buses`), the
register map generated from SystemRDL (:mod:`.regmap`, :mod:`.generate`) and
the simulation build (:mod:`.sim`).  docs/integration.md."""

from .device import OPERANDS, DeviceError, Job, ModexpDevice

__all__ = ["ModexpDevice", "Job", "DeviceError", "OPERANDS"]
