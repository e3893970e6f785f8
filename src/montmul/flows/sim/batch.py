# SPDX-License-Identifier: Apache-2.0
"""cocotb test module for bulk runs: drives every request of a JSON file
through the DUT and writes one response row per request.

Used by :func:`montmul.flows.sim.runner.run_batch` (the CLI's ``--sim``, the
exponentiation engine's RTL path).  Environment: ``MONTMUL_BATCH_KIND`` (a
key of :data:`montmul.flows.sim.driver.BATCH_DRIVERS`), ``MONTMUL_BATCH_IN`` (a
list of requests, each a list of hex strings), ``MONTMUL_BATCH_OUT`` (the
response rows, each a list of hex strings), optionally
``MONTMUL_BATCH_PROGRESS`` (a file that holds the number of requests done,
rewritten at most every half second, for the caller's progress bar).
"""

from __future__ import annotations

import json
import os
import time

import cocotb

from .driver import BATCH_DRIVERS


@cocotb.test()
async def run_batch(dut):
    with open(os.environ["MONTMUL_BATCH_IN"]) as f:
        requests = [[int(x, 16) for x in req] for req in json.load(f)]
    drv = BATCH_DRIVERS[os.environ["MONTMUL_BATCH_KIND"]](dut)
    await drv.start()
    prog = os.environ.get("MONTMUL_BATCH_PROGRESS")
    rows, last = [], time.monotonic()
    for req in requests:
        rows.append([hex(v) for v in await drv.batch_row(*req)])
        if prog and time.monotonic() - last >= 0.5:
            last = time.monotonic()
            tmp = prog + ".tmp"
            with open(tmp, "w") as f:
                f.write(str(len(rows)))
            os.replace(tmp, prog)
    with open(os.environ["MONTMUL_BATCH_OUT"], "w") as f:
        json.dump(rows, f)
