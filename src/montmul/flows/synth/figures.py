# SPDX-License-Identifier: Apache-2.0
"""Derived figures of merit, as paper 000 (Sec. IV-B, Table III) defines them.

    Time       = #Cycle x Delay                    (one Montgomery multiplication)
    Throughput = k x (1 / Delay) / #Cycle          (key size times frequency over cycles)
    ATP        = Area x Time                       (area-time product)

#Cycle is the average cycle count of one multiplication (from the cycle
models or RTL simulation, ``montmul.apps.stats.cycle_stats``), Delay the critical
path delay (the clock period), k the operand width.  For an ASIC target
Delay is the register-to-register critical path and Area the cell area
(um^2); for an FPGA target Delay is 1 / Fmax and Area the LUT count.

Units: Delay in ns, Time in ns and us, Throughput in Mbit/s, ATP in
area unit x us.
"""

from __future__ import annotations


def derived(width: int, cycles: float, delay_ns: float, area: float) -> dict[str, float]:
    """Time, throughput and ATP of a ``width``-bit multiplier that needs
    ``cycles`` clock cycles per multiplication at a clock period (critical
    path delay) of ``delay_ns`` and has area ``area``."""
    if width <= 0 or cycles <= 0 or delay_ns <= 0 or area <= 0:
        raise ValueError(
            f"derived figures need positive width, cycles, delay and area (got {width}, {cycles}, {delay_ns}, {area})"
        )
    frequency_mhz = 1e3 / delay_ns
    time_ns = cycles * delay_ns
    return {
        "width": width,
        "cycles": cycles,
        "delay_ns": delay_ns,
        "frequency_mhz": frequency_mhz,
        "time_ns": time_ns,
        "time_us": time_ns / 1e3,
        "throughput_mbps": width * frequency_mhz / cycles,
        "area": area,
        "atp": area * time_ns / 1e3,
    }


def figures(result: dict, cycles: float) -> dict | None:
    """Derived figures for one synthesis result (from :func:`montmul.flows.synth.synth`)
    and the core's cycle count; None for a target without timing (xilinx)."""
    target = result["target"]
    if target == "asic":
        out = derived(result["width"], cycles, result["delay_ps"] / 1e3, result["area_um2"])
        out.update(area_unit="um^2", atp_unit="um^2 x us", delay_fa=result["delay_fa"], area_fa=result["area_fa"])
        return out
    if target == "ecp5":
        out = derived(result["width"], cycles, 1e3 / result["fmax_mhz"], result["luts"])
        out.update(area_unit="LUT4", atp_unit="LUT4 x us")
        return out
    return None
