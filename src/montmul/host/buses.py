# SPDX-License-Identifier: Apache-2.0
"""Buses for :class:`montmul.host.ModexpDevice`: 32-bit register reads
and writes at byte offsets, and an optional wait for the interrupt.

* :class:`CocotbAxiLite`: cocotbext-axi's AXI4-Lite master in a cocotb
  simulation (counts the transactions it makes);
* :class:`Mmio`: a memory-mapped window on a board: ``/dev/mem`` at a
  physical address, or a UIO device (``/dev/uioN``, whose ``read`` blocks
  for the interrupt).
"""

from __future__ import annotations

import logging
import mmap
import os
import struct


class CocotbAxiLite:
    """cocotbext-axi ``AxiLiteMaster`` on the ``s_axil_*`` ports of ``dut``
    (clock ``clk_i``, reset ``rst_ni``); ``irq`` is the interrupt signal.
    Raises on SLVERR/DECERR responses (cocotbext-axi reports them; the
    driver never expects one)."""

    def __init__(self, dut, prefix: str = "s_axil", irq=None) -> None:
        from cocotbext.axi import AxiLiteBus, AxiLiteMaster

        self.master = AxiLiteMaster(AxiLiteBus.from_prefix(dut, prefix), dut.clk_i, dut.rst_ni, reset_active_level=False)
        # cocotbext-axi logs every transaction at INFO: thousands per operand.
        logging.getLogger(f"cocotb.{dut._name}.{prefix}").setLevel(logging.WARNING)
        self.irq = irq
        self.reads = 0
        self.writes = 0

    async def read(self, addr: int) -> int:
        from cocotbext.axi import AxiResp

        self.reads += 1
        r = await self.master.read(addr, 4)
        if r.resp != AxiResp.OKAY:
            raise OSError(f"AXI read of {addr:#x} answered {r.resp.name}")
        return int.from_bytes(r.data, "little")

    async def write(self, addr: int, value: int) -> None:
        from cocotbext.axi import AxiResp

        self.writes += 1
        r = await self.master.write(addr, value.to_bytes(4, "little"))
        if r.resp != AxiResp.OKAY:
            raise OSError(f"AXI write of {addr:#x} answered {r.resp.name}")

    async def wait_irq(self) -> None:
        if self.irq is None:
            return
        from cocotb.triggers import RisingEdge

        if not int(self.irq.value):
            await RisingEdge(self.irq)

    @property
    def transactions(self) -> int:
        return self.reads + self.writes


class Mmio:
    """A register window mapped from ``path``: ``/dev/mem`` with the block's
    physical ``address``, or ``/dev/uioN`` (map 0, ``address`` 0).  With a
    UIO device, :meth:`wait_irq` re-enables and waits for the interrupt."""

    def __init__(self, path: str = "/dev/mem", address: int = 0, size: int = 0x1000) -> None:
        self.path = path
        self.uio = os.path.basename(path).startswith("uio")
        page = mmap.PAGESIZE
        offset = address - address % page
        self._skip = address - offset
        self.fd = os.open(path, os.O_RDWR | os.O_SYNC)
        self.mem = mmap.mmap(self.fd, self._skip + size, mmap.MAP_SHARED, mmap.PROT_READ | mmap.PROT_WRITE,
                             offset=offset)

    async def read(self, addr: int) -> int:
        return struct.unpack_from("<I", self.mem, self._skip + addr)[0]

    async def write(self, addr: int, value: int) -> None:
        struct.pack_into("<I", self.mem, self._skip + addr, value & 0xFFFFFFFF)

    async def wait_irq(self) -> None:
        if not self.uio:
            return  # /dev/mem has no interrupt: the driver polls STATUS
        os.write(self.fd, struct.pack("<I", 1))  # unmask
        os.read(self.fd, 4)  # blocks until the interrupt

    def close(self) -> None:
        self.mem.close()
        os.close(self.fd)
