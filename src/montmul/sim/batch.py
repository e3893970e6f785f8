# SPDX-License-Identifier: Apache-2.0
"""cocotb test module for bulk runs: drives every vector of a JSON file
through the core and writes each response (result, error flag, latency).

Used by :func:`montmul.sim.api.simulate` (the CLI's ``--sim icarus|verilator``).
Environment: ``MONTMUL_VECTORS`` (input JSON: list of [a, b, n] as hex
strings), ``MONTMUL_RESULTS`` (output JSON).
"""

from __future__ import annotations

import json
import os

import cocotb

from .driver import CoreDriver


@cocotb.test()
async def run_vectors(dut):
    with open(os.environ["MONTMUL_VECTORS"]) as f:
        vectors = [tuple(int(x, 16) for x in v) for v in json.load(f)]
    drv = CoreDriver(dut)
    await drv.start()
    out = []
    for a, b, n in vectors:
        r = await drv.mul(a, b, n)
        out.append([hex(r.s), r.err, r.cycles])
    with open(os.environ["MONTMUL_RESULTS"], "w") as f:
        json.dump(out, f)
