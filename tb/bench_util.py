# SPDX-License-Identifier: Apache-2.0
"""Helpers for the cocotb benches under tb/: a registered core's (simulator x
width x parameter set) grid as pytest parameters, and the call into the
runner.  Widths and parameter sets come from the registry (``test_widths``,
``test_params``); ``MONTMUL_WIDTHS`` (comma-separated) and ``MONTMUL_SIMS``
override them for a run by hand."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from montmul import cores
from montmul.flows.sim import runner

SIMS = tuple(s for s in os.environ.get("MONTMUL_SIMS", "icarus,verilator").split(",") if s)


def grid(core_name: str):
    """pytest parameters (sim, width, params): each simulator at the core's
    test widths for it (``MONTMUL_WIDTHS`` overrides them for every
    simulator), and the registry's other parameter sets at each simulator's
    smallest width (they exercise a parameter, not the width)."""
    core = cores.lookup(core_name)
    widths = os.environ.get("MONTMUL_WIDTHS")
    out = []
    for sim in SIMS:
        ws = tuple(int(w) for w in widths.split(",")) if widths else core.test_widths[sim]
        for w in ws:
            for p in ({}, *core.test_params):
                if p and w != min(ws) and not widths:
                    continue
                tag = "-".join(f"{k}{v}" for k, v in p.items())
                out.append(pytest.param(sim, w, dict(p), id=f"{sim}-w{w}" + (f"-{tag}" if tag else "")))
    return out


def run_bench(core_name: str, sim: str, width: int, params: dict[str, int], test_file: str,
              props: bool | None = None) -> None:
    """Run the bench module ``test_file``; ``props``: on Verilator, with the
    port-level properties bound and checked (``montmul.flows.sim.runner.build``);
    None (the default): for every core on the common interface
    (``montmul.cores.CORES``), whose ports the properties watch, not for the
    carry-save units."""
    if props is None:
        props = core_name in cores.CORES
    here = Path(test_file).resolve()
    runner.run(
        cores.lookup(core_name),
        sim,
        width,
        test_module=here.stem,
        test_dir=here.parent,
        params=params,
        props=props,
    )


def core_bench(test_file: str, *core_names: str, props: bool | None = None):
    """A core bench's pytest test (bind it as ``test_<module>``): the cocotb
    tests of ``test_file`` on each core of ``core_names`` over its
    :func:`grid`, through :func:`run_bench` (``props`` as there: by default
    the port-level properties are checked on Verilator for every core on
    the common interface).  With more
    than one core, the test takes the core too and its ids begin with the
    core's name."""
    if len(core_names) == 1:
        (name,) = core_names

        @pytest.mark.parametrize("sim,width,params", grid(name))
        def test_one(sim, width, params):
            run_bench(name, sim, width, params, test_file, props=props)

        return test_one

    @pytest.mark.parametrize("core,sim,width,params",
                             [pytest.param(c, *p.values, id=f"{c}-{p.id}") for c in core_names for p in grid(c)])
    def test_each(core, sim, width, params):
        run_bench(core, sim, width, params, test_file, props=props)

    return test_each


def props_violation(core_name: str) -> str:
    """Run ``props_violation.py`` (a request that changes while held) on a
    Verilator build of the core with the port-level properties bound, at
    its smallest Verilator test width; the simulation must fail on the
    property module's check of that rule.  Returns the simulation log."""
    core = cores.lookup(core_name)
    width = min(core.test_widths["verilator"])
    here = Path(__file__).resolve().parent
    # Verilator stops at the failed assertion: the simulator's exit code
    # fails the run (RuntimeError), or the failed cocotb test does.
    with pytest.raises((AssertionError, RuntimeError)):
        runner.run(core, "verilator", width, test_module="props_violation", test_dir=here, props=True)
    hdl = core.hdl_params(width)
    return (runner.build_dir(core, "verilator", hdl, props=True) / "props_violation.log").read_text()


def check_props_live(core_name: str) -> None:
    """The bound properties are checked: a request that changes while held
    stops the Verilator simulation on the property module's assertion."""
    log = props_violation(core_name)
    assert f"Assertion failed in {cores.lookup(core_name).top}.u_core_props" in log, log[-2000:]


def props_live(core_name: str):
    """A bench's test of :func:`check_props_live` (bind it as
    ``test_<module>_props_live``); ``tb/test_props_live.py`` runs it for
    every core on the common interface."""
    def test() -> None:
        check_props_live(core_name)
    return test


def yosys_equiv(name: str, rtl: list[Path], top: str, params: dict[str, int], other: str,
                other_top: str) -> tuple[int, str, Path]:
    """Yosys miter of ``top`` (files ``rtl``, HDL ``params``) against the
    module ``other_top`` (source text ``other``), proved by ``sat
    -prove-asserts`` for every input: (return code, log text, build folder).
    Success means the log says "SAT proof finished - no model found:
    SUCCESS!"."""
    import subprocess

    from montmul import resources
    from montmul.flows.synth import tools

    bdir = resources.build_root() / "sim" / "equiv" / name
    bdir.mkdir(parents=True, exist_ok=True)
    (bdir / "other.sv").write_text(other)
    # YoWASP Yosys sees the working directory only: copy the RTL next to the script.
    common = resources.rtl_dir() / "common"
    (bdir / "mm_macros.svh").write_text((common / "mm_macros.svh").read_text())
    for f in rtl:
        (bdir / f.name).write_text(f.read_text())
    sets = " ".join(f"-set {k} {v}" for k, v in params.items())
    (bdir / "equiv.ys").write_text(
        f"read_verilog -sv -I. {' '.join(f.name for f in rtl)} other.sv\n"
        + (f"chparam {sets} {top}\n" if sets else "")
        + "hierarchy -check\nproc\nflatten\nopt_clean\n"
        f"miter -equiv -flatten -make_assert {top} {other_top} miter\n"
        "hierarchy -top miter\nsat -verify -prove-asserts -set-init-zero -show-ports miter\n")
    r = subprocess.run([tools.find("yosys"), "-q", "-l", "equiv.log", "equiv.ys"], cwd=bdir,
                       capture_output=True, text=True, timeout=600)
    log = (bdir / "equiv.log").read_text() if (bdir / "equiv.log").is_file() else r.stdout + r.stderr
    return r.returncode, log, bdir


def unit_bench(test_file: str, top: str, sources: list[str], params: dict[str, int], sim: str, *,
               opt: bool = True, build_args: tuple[str, ...] = (), netlist: bool = False) -> None:
    """Build ``top`` from ``sources`` (paths under rtl/) with ``params`` and
    run the bench module ``test_file`` on it: the benches of units that are
    not registered cores (rtl/ws).  The bench sees ``WS_PARAMS`` (the
    parameters as JSON) and ``MONTMUL_IN_SIM``.  Verilator builds as
    :mod:`montmul.flows.sim.runner` builds the cores, its C++ at -O2 with
    ``opt``, unoptimised without (for benches of a few thousand cycles,
    whose cost is the compile); ``build_args`` are added.  ``netlist``:
    simulate Yosys' reading of the sources instead (:func:`yosys_netlist`,
    the parameters set in the netlist), so a construct the simulators and
    Yosys read differently fails the bench."""
    import json

    from cocotb_tools.runner import get_runner

    from montmul import resources

    resources.setup_tool_env()
    here = Path(test_file).resolve()
    rtl = resources.rtl_dir()
    bdir = resources.build_root() / "sim" / sim / (top + "_" + "_".join(f"{k}{v}" for k, v in params.items())
                                                    + ("_netlist" if netlist else ""))
    srcs = [str(rtl / s) for s in sources]
    hdl = params
    if netlist:
        srcs, hdl = [str(yosys_netlist(top, sources, params, bdir))], {}
    args: list[str] = []
    if sim == "verilator":
        args = ["-Wno-fatal", "-Werror-USERFATAL", *(("-O3",) if opt else ()), "--x-assign", "fast",
                "--x-initial", "fast", *build_args]
        os.environ["MAKEFLAGS"] = "CFG_CXXFLAGS_PCH_I=-include OPT_FAST=" + ("-O2" if opt else "-O0")
    run = get_runner(sim)
    run.build(sources=srcs, hdl_toplevel=top, includes=[str(rtl / "common")],
              parameters=hdl, build_dir=str(bdir), build_args=args, timescale=("1ns", "1ps"),
              log_file=str(bdir / "build.log"))
    run.test(hdl_toplevel=top, test_module=here.stem, test_dir=str(here.parent), build_dir=str(bdir),
             extra_env={"MONTMUL_IN_SIM": "1", "WS_PARAMS": json.dumps(params),
                        "PYTHONPATH": os.pathsep.join([str(here.parent), resources.python_path()])},
             log_file=str(bdir / "test.log"), results_xml=str(bdir / "results.xml"))


def yosys_netlist(top: str, sources: list[str], params: dict[str, int], bdir: Path) -> Path:
    """Yosys' elaboration of ``top`` (sources under rtl/, ``params`` set):
    read as the synthesis flows read it, processes, flattened, memories kept
    as arrays, written back as Verilog (``bdir/netlist.v``).  Simulating it
    checks the RTL means to Yosys what it means to the simulators (a packed
    array of a struct type, for one, Yosys 0.70 reads as one element)."""
    from montmul import resources
    from montmul.flows.synth import tools

    rtl = resources.rtl_dir()
    bdir.mkdir(parents=True, exist_ok=True)
    srcs = " ".join(tools.tool_path(rtl / s, bdir) for s in sources)
    sets = " ".join(f"-set {k} {int(v)}" for k, v in params.items())
    (bdir / "netlist.ys").write_text("\n".join([
        f"read_verilog -sv -I{tools.tool_path(rtl / 'common', bdir)} {srcs}",
        f"chparam {sets} {top}",
        f"hierarchy -check -top {top}",
        f"rename -top {top}",
        "proc", "flatten", "opt_clean", "memory -nomap", "opt -fast", "check -assert",
        "write_verilog -noattr netlist.v", ""]))
    tools.run("yosys", ["-q", "-l", "netlist.log", "netlist.ys"], bdir, "netlist.out", timeout=1800)
    return bdir / "netlist.v"


def ws_directed_moduli(k: int, w: int, d: int) -> list[int]:
    """Directed moduli for the ws benches: 3, 2^k - 1, 2^(k-1) + 1 and the
    modulus with the largest n' = -N^-1 mod 2^(w(d+1)) (the largest scaled
    modulus Ñ = n' N)."""
    e1 = w * (d + 1)
    mod = 1 << e1
    if k > e1:
        big = (1 << k) - mod + 1  # N = 1 mod 2^E': n' = 2^E' - 1
    else:
        top = range(max(3, (1 << k) - (1 << 12) + 1), 1 << k, 2)
        big = max([*range(3, min(1 << k, 1 << 12), 2), *top], key=lambda n: -pow(n, -1, mod) % mod)
    return sorted({3, (1 << k) - 1, (1 << (k - 1)) + 1, big})


#: the cases of the benches of the ws adapter's units mm_ws_prep and
#: mm_ws_redc: (simulator, Width, WordWidth, QuotDelay); Icarus at 3 (w = 2,
#: the smallest build), 8 and 64 bits, Verilator at 256
WS_UNIT_CASES = [("icarus", 3, 2, 1), ("icarus", 8, 8, 1), ("icarus", 64, 16, 2), ("verilator", 256, 17, 4)]
WS_UNIT_IDS = [f"{c[0]}-w{c[1]}-ww{c[2]}-d{c[3]}" for c in WS_UNIT_CASES]


def ws_unit_params() -> tuple[int, int, int]:
    """Inside a ws unit's simulation: (Width, WordWidth, QuotDelay) of the build."""
    import json

    p = json.loads(os.environ["WS_PARAMS"])
    return p["Width"], p["WordWidth"], p["QuotDelay"]


async def ws_unit_start(dut, inputs: tuple[str, ...]) -> None:
    """Start the clock and reset a ws unit with ``inputs`` (and in_valid_i,
    n_i, out_ready_i) low; returns at the falling edge where rst_ni rises."""
    import cocotb
    from cocotb.clock import Clock
    from cocotb.triggers import FallingEdge, RisingEdge

    cocotb.start_soon(Clock(dut.clk_i, 10, unit="ns").start())
    dut.rst_ni.value = 0
    for name in ("in_valid_i", *inputs, "n_i", "out_ready_i"):
        getattr(dut, name).value = 0
    await RisingEdge(dut.clk_i)
    await FallingEdge(dut.clk_i)
    dut.rst_ni.value = 1


def ws_unit_bench(test_file: str, top: str, sim: str, k: int, w: int, d: int) -> None:
    """Build and run the bench of ws unit ``top`` (mm_ws_prep, mm_ws_redc) at
    Width ``k``, WordWidth ``w``, QuotDelay ``d``, with the unit's invariants
    (its MM_FORMAL block) checked every cycle."""
    unit_bench(test_file, top,
               ["common/mm_csa_row.sv", "common/mm_cs_halve.sv", "common/mm_cpa_fc.sv", f"ws/{top}.sv"],
               {"Width": k, "WordWidth": w, "QuotDelay": d}, sim, opt=False,
               build_args=("-DMM_FORMAL", "--assert"))
