# SPDX-License-Identifier: Apache-2.0
"""Run batches of multiplications on a core in RTL simulation.

The batch is split into ``jobs`` shards that run as parallel simulator
processes on one shared build.
"""

from __future__ import annotations

import json
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from ..cores import Core
from . import runner

HERE = Path(__file__).resolve().parent


@dataclass(frozen=True)
class SimResult:
    s: int
    err: int
    cycles: int


def simulate(
    core: Core,
    width: int,
    vectors: list[tuple[int, int, int]],
    sim: str = "verilator",
    jobs: int = 1,
    params: dict[str, int] | None = None,
) -> list[SimResult]:
    """Multiply every (a, b, n) of ``vectors`` on the RTL of ``core``."""
    if not vectors:
        return []
    # Build once, then shard the vectors over parallel simulator runs.
    runner.build(core, sim, width, params)
    jobs = max(1, min(jobs, len(vectors)))
    shards = [vectors[i::jobs] for i in range(jobs)]
    with tempfile.TemporaryDirectory(prefix="montmul_") as tmp:
        tmpd = Path(tmp)

        def one(idx: int) -> list[SimResult]:
            vin, vout = tmpd / f"vec{idx}.json", tmpd / f"res{idx}.json"
            vin.write_text(json.dumps([[hex(a), hex(b), hex(n)] for a, b, n in shards[idx]]))
            runner.run(
                core,
                sim,
                width,
                test_module="montmul.sim.batch",
                test_dir=tmpd / f"shard{idx}",
                extra_env={"MONTMUL_VECTORS": str(vin), "MONTMUL_RESULTS": str(vout)},
                params=params,
                tag=f"shard{idx}",
                build_first=False,
            )
            return [SimResult(int(s, 16), e, c) for s, e, c in json.loads(vout.read_text())]

        with ThreadPoolExecutor(jobs) as pool:
            parts = list(pool.map(one, range(jobs)))
    out: list[SimResult] = [None] * len(vectors)  # type: ignore[list-item]
    for i, part in enumerate(parts):
        out[i::jobs] = part
    return out
