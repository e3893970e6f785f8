# SPDX-License-Identifier: Apache-2.0
"""A cocotb test that breaks the request rule of docs/interface.md on
purpose: while the core is busy (in_ready_o low) it presents a request and
changes its operand A before the request is taken.  Run on a build with the
port-level properties bound (``montmul.flows.sim.runner.build(..., props=True)``),
the property module's check of that rule must stop the simulation, so
``bench_util.props_violation`` shows that the properties are live.  Not a
bench of its own (pytest does not collect it)."""
from __future__ import annotations

import cocotb
from cocotb.triggers import FallingEdge, ReadOnly

from montmul.flows.sim.driver import CoreDriver


@cocotb.test()
async def request_changes_while_held(dut):
    drv = CoreDriver(dut)
    await drv.start()
    n = 11
    await drv.request(5, 7, n)  # accepted; the core is busy with it
    await ReadOnly()
    assert not int(dut.in_ready_o.value), "the core should be busy"
    await FallingEdge(dut.clk_i)
    drv.drive((1, 2, n))
    dut.in_valid_i.value = 1
    await FallingEdge(dut.clk_i)  # a rising edge with in_valid_i high, in_ready_o low
    dut.a_i.value = 3             # the held request changes: not allowed
    for _ in range(4):
        await FallingEdge(dut.clk_i)
