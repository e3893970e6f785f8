# SPDX-License-Identifier: Apache-2.0
"""Driving ``mm_modexp_axil``, the AXI4-Lite wrapper of the exponentiation
engine: the driver (:class:`ModexpDevice`), its buses (:mod:`.buses`), the
register map generated from SystemRDL (:mod:`.regmap`, :mod:`.generate`) and
the simulation build (:mod:`.sim`).  docs/integration.md.

``mm_pke_axil``, the public-key engine's wrapper: :class:`PkeDevice`
(:mod:`.pke`, offsets in :mod:`.pke_regmap`), docs/pke_axil.md."""

from .device import OPERANDS, DeviceError, Job, ModexpDevice
from .pke import PkeDevice, PkeError

__all__ = ["ModexpDevice", "Job", "DeviceError", "OPERANDS", "PkeDevice", "PkeError"]
