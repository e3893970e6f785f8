# SPDX-License-Identifier: Apache-2.0
"""The ECP5 flow's tuning per core and width: the flow options
(overrides of :data:`montmul.flows.synth.flows.DEFAULTS` ``["ecp5"]``) a run
of a core, or of an engine around it, takes by default.  ``montmul synth``,
the reports and the benches all ask :func:`ecp5_options`, so they meet each
other's cached and stored results.  The measurements behind each choice:
docs/synthesis.md, "Flow options" (and docs/dsp.md for the DSP cores).

A table maps the smallest width an entry applies to onto its options; a run
takes the entry with the largest key not above its width (none below every
key: the flow's defaults).
"""

from __future__ import annotations

from typing import Mapping

from ... import cores

Table = Mapping[int, Mapping[str, object]]

#: Every core: from 1024 bits one placement seed; nextpnr's default router
#: (router1).
DEFAULT: Table = {1024: {"seeds": 1}}
#: What an engine around a core (``--engine modexp|crt``) adds from 1024
#: bits: router2 and the heap placer's timing weight 60 (nextpnr's default
#: 10).  The core alone and between registers that the ECP5 report compares
#: an engine with take the same (montmul.apps.report.ecp5).
ENGINE: Table = {1024: {"router": "router2", "timing_weight": 60}}
#: The carry-save cores at 2048 bits, which router1 does not route within
#: the hour: router2 and a two-hour budget.
WIDE_ROUTE: Table = {**DEFAULT, 2048: {**DEFAULT[1024], "router": "router2", "budget_s": 7200}}
#: The systolic cores: a two-hour budget from 1024 bits, router2 at 2048.
SYSTOLIC: Table = {1024: {"budget_s": 7200, "seeds": 1},
                   2048: {"budget_s": 7200, "seeds": 1, "router": "router2"}}
#: The DSP cores from 1024 bits: without Yosys's `share` pass (its SAT search
#: over the multipliers does not end in useful time), a two-hour budget,
#: router2, one seed.
DSP: Table = {1024: {"share": 0, "budget_s": 7200, "router": "router2", "seeds": 1}}

#: Cores whose table is not :data:`DEFAULT`.
BY_CORE: dict[str, Table] = {
    "fcs1_bin": WIDE_ROUTE,
    "fcs2_bin": WIDE_ROUTE,
    "mscs": WIDE_ROUTE,
    "fcs_mmm42": WIDE_ROUTE,
    "systolic": SYSTOLIC,
    "systolic_mux": SYSTOLIC,
    "dsp_redundant": DSP,
    "dsp_redundant_ecp5": DSP,
}


def table(core: cores.Core | str) -> Table:
    """The ECP5 options table of ``core`` (a core or a unit, by name or object)."""
    name = core.name if isinstance(core, cores.Core) else cores.lookup(core).name
    return BY_CORE.get(name, DEFAULT)


def pick(tab: Table, width: int) -> dict[str, object]:
    """The entry of ``tab`` with the largest key not above ``width``, or {}."""
    keys = [w for w in tab if w <= width]
    return dict(tab[max(keys)]) if keys else {}


def ecp5_options(core: cores.Core | str, width: int, engine: bool = False) -> dict[str, object]:
    """The ECP5 flow options of a ``width``-bit run of ``core`` (or, with
    ``engine``, of an exponentiation engine around it): the core's table
    entry for the width, and for an engine :data:`ENGINE`'s on top."""
    return {**pick(table(core), width), **(pick(ENGINE, width) if engine else {})}
