# SPDX-License-Identifier: Apache-2.0
"""cocotb test module for bulk exponentiations on mm_modexp: drives every
request of a JSON file and writes each response (result, error flag, latency,
products).

Used by :func:`montmul.sim.modexp_sim.simulate` (``montmul.modexp.modexp``
with ``sim="icarus"|"verilator"``).  Environment: ``MONTMUL_MODEXP_JOBS``
(input JSON: list of [base, exp, exp_len, n, r2, ladder], the big values as
hex strings), ``MONTMUL_MODEXP_RESULTS`` (output JSON).
"""

from __future__ import annotations

import json
import os

import cocotb

from .modexp_driver import ModexpDriver


@cocotb.test()
async def run_modexp_jobs(dut):
    with open(os.environ["MONTMUL_MODEXP_JOBS"]) as f:
        jobs = json.load(f)
    drv = ModexpDriver(dut)
    await drv.start()
    out = []
    for base, exp, exp_len, n, r2, ladder in jobs:
        r = await drv.modexp(int(base, 16), int(exp, 16), int(exp_len), int(n, 16), int(r2, 16), int(ladder))
        out.append([hex(r.result), r.err, r.cycles, r.mults])
    with open(os.environ["MONTMUL_MODEXP_RESULTS"], "w") as f:
        json.dump(out, f)
