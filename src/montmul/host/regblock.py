# SPDX-License-Identifier: Apache-2.0
"""What the bus drivers of montmul's AXI4-Lite wrappers share
(:class:`montmul.host.ModexpDevice`, :class:`montmul.host.PkeDevice`): a
register block at a byte address of a bus, its fields by the generated
register map (``FIELDS``: register -> {field: (lsb, width)}), the ID check,
STATUS and the wait for a job's end; and, for a cocotb bench, the clock,
the reset and the bus on a wrapper's ports (:func:`cocotb_reset`,
:func:`cocotb_open`).

A bus is any object with ``async read(addr)`` and ``async write(addr,
value)`` on 32-bit registers at byte offsets, and optionally ``async
wait_irq()`` (:mod:`montmul.host.buses`).
"""

from __future__ import annotations

from typing import Mapping

Fields = Mapping[str, Mapping[str, tuple[int, int]]]


def field(fields: Fields, reg: str, name: str, value: int) -> int:
    """Field ``name`` of register ``reg`` read from the register's value."""
    lsb, width = fields[reg][name]
    return (value >> lsb) & ((1 << width) - 1)


def place(fields: Fields, reg: str, name: str, value: int) -> int:
    """``value`` in field ``name`` of register ``reg`` (ValueError if it does not fit)."""
    lsb, width = fields[reg][name]
    if not 0 <= value < 1 << width:
        raise ValueError(f"{reg}.{name}={value} does not fit {width} bits")
    return value << lsb


class RegBlock:
    """A register block at byte address ``base`` of ``bus``.  A subclass sets
    ``FIELDS`` (its register map's), ``ID`` and ``STATUS`` (their offsets),
    ``MAGIC`` (the ID register's value), ``NAME`` (the block's module) and
    ``ERROR`` (its exception class)."""

    FIELDS: Fields = {}
    ID = 0
    STATUS = 0
    MAGIC = 0
    NAME = ""
    ERROR: type[Exception] = RuntimeError

    def __init__(self, bus, *, base: int = 0, max_polls: int = 10**7) -> None:
        self.bus = bus
        self.base = base
        self.max_polls = max_polls

    async def read(self, reg: int) -> int:
        return await self.bus.read(self.base + reg)

    async def write(self, reg: int, value: int) -> None:
        await self.bus.write(self.base + reg, value)

    async def check_id(self) -> None:
        """``ERROR`` unless the ID register reads ``MAGIC``."""
        ident = await self.read(self.ID)
        if ident != self.MAGIC:
            raise self.ERROR(f"no {self.NAME} at {self.base:#x}: ID reads {ident:#010x}, expected {self.MAGIC:#010x}")

    async def status(self) -> dict[str, int]:
        v = await self.read(self.STATUS)
        return {f: field(self.FIELDS, "STATUS", f, v) for f in self.FIELDS["STATUS"]}

    async def clear_flags(self, *flags: str) -> None:
        """Clear sticky STATUS flags (write one to each)."""
        await self.write(self.STATUS, sum(place(self.FIELDS, "STATUS", f, 1) for f in flags))

    async def wait_done(self, idle_is_error: bool) -> dict[str, int]:
        """Poll STATUS (waiting for the interrupt in between, if the bus has
        one) until DONE without BUSY; returns STATUS.  ``ERROR`` after
        ``max_polls`` polls, and with ``idle_is_error`` as soon as the block
        is idle without DONE (nothing is running)."""
        wait_irq = getattr(self.bus, "wait_irq", None)
        for _ in range(self.max_polls):
            st = await self.status()
            if st["DONE"] and not st["BUSY"]:
                return st
            if idle_is_error and not st["BUSY"]:
                raise self.ERROR(f"the engine is idle without DONE (STATUS {st}): was START ignored?")
            if wait_irq is not None:
                await wait_irq()
        raise self.ERROR(f"no DONE after {self.max_polls} polls of STATUS")


async def cocotb_reset(dut, cycles: int = 3) -> None:
    """Hold ``rst_ni`` low for ``cycles`` cycles of ``clk_i``, release it at a
    falling edge, then two cycles for the block to leave reset."""
    from cocotb.triggers import ClockCycles, FallingEdge

    dut.rst_ni.value = 0
    await ClockCycles(dut.clk_i, cycles)
    await FallingEdge(dut.clk_i)
    dut.rst_ni.value = 1
    await ClockCycles(dut.clk_i, 2)


async def cocotb_open(dut, make_device, period_ns: int = 10):
    """In a cocotb bench of a wrapper (ports ``clk_i``, ``rst_ni``, ``s_axil_*``,
    ``irq_o``): start the clock, reset, and open ``make_device(bus)`` on an
    AXI4-Lite master (:class:`montmul.host.buses.CocotbAxiLite`); returns
    (device, bus)."""
    from cocotb.clock import Clock

    from .buses import CocotbAxiLite

    Clock(dut.clk_i, period_ns, unit="ns").start()
    await cocotb_reset(dut)
    bus = CocotbAxiLite(dut, irq=dut.irq_o)
    dev = make_device(bus)
    await dev.open()
    return dev, bus
