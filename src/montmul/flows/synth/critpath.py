"""The routed critical path of an ECP5 result, mapped back to the RTL.

nextpnr's report names the path's cells by their netlist names, which say
nothing about the RTL: the flow's netlist drops Yosys's ``src`` attributes
(they make the JSON too large for the WebAssembly nextpnr, flows.py).  This
module reruns the job's own Yosys script (``synth.ys`` in the job's work
directory) with the attributes kept, writing ``netlist_src.json`` beside it
(the same commands on the same files give the same cell names), and reads the
path of the seed whose Fmax the result reports:

- every flip-flop and LUT on the path with its RTL source (``file:line`` of
  the ``always_ff`` block for a register; a flip-flop without one is a state
  register that Yosys's ``fsm`` pass re-encoded);
- for the path's two end registers, the registers in the fan-in cone of
  their D input (through logic only), counted by RTL source: which registers
  a path really starts from even when its start is a re-encoded state.

Used by ``montmul synth ... --critical-path`` and in docs/synthesis.md.
"""
from __future__ import annotations

import collections
import json
from pathlib import Path

from . import tools

#: The flow script's tail that drops the attributes and writes the netlist.
_TAIL = ("setattr -unset src", "tee -q -o stat.json stat -json", "write_json netlist.json")


def src_script(script: str) -> str:
    """The job's Yosys script with the ``src`` attributes kept and the netlist
    written to ``netlist_src.json``; ValueError if the script's tail is not the
    flow's (the flow changed: this module must follow it)."""
    lines = script.rstrip("\n").split("\n")
    if tuple(x.strip() for x in lines[-3:]) != _TAIL:
        raise ValueError("synth.ys does not end with the ECP5 flow's netlist-writing commands")
    return "\n".join([*lines[:-3], "write_json netlist_src.json"]) + "\n"


def _short(src: str) -> str:
    """The RTL part of a ``src`` attribute: ``mm_x.sv:12`` (no techmap files)."""
    for part in src.split("|"):
        name = part.rsplit("/", 1)[-1]
        if name.startswith("mm_"):
            file, _, pos = name.partition(":")
            return f"{file}:{pos.split('.', 1)[0]}" if pos else file
    return ""


class Netlist:
    """The top module of ``netlist_src.json``: cells, their drivers, sources."""

    def __init__(self, path: Path):
        data = json.loads(Path(path).read_text())
        top = [m for m in data["modules"].values() if m.get("attributes", {}).get("top")]
        if len(top) != 1:
            raise ValueError(f"{path}: expected one top module, found {len(top)}")
        self.cells: dict[str, dict] = top[0]["cells"]
        self.driver: dict[int, str] = {}
        for name, cell in self.cells.items():
            for port, way in cell["port_directions"].items():
                if way == "output":
                    for bit in cell["connections"][port]:
                        if isinstance(bit, int):
                            self.driver[bit] = name

    def find(self, name: str) -> str | None:
        """The cell ``name`` of nextpnr's report (packed cells carry a suffix)."""
        if name in self.cells:
            return name
        best = max((c for c in self.cells if name.startswith(c)), key=len, default=None)
        return best

    def source(self, name: str) -> str:
        return _short(self.cells[name].get("attributes", {}).get("src", ""))

    def cone(self, name: str) -> dict[str, int]:
        """Registers feeding ``name``'s D input through logic, by RTL source
        (``fsm state`` for re-encoded state registers)."""
        cell = self.cells[name]
        todo = [b for p in ("DI", "M", "D") for b in cell["connections"].get(p, [])]
        seen: set[str] = set()
        count: collections.Counter = collections.Counter()
        while todo:
            bit = todo.pop()
            drv = self.driver.get(bit) if isinstance(bit, int) else None
            if drv is None or drv in seen:
                continue
            seen.add(drv)
            c = self.cells[drv]
            if c["type"] == "TRELLIS_FF":
                count[self.source(drv) or "fsm state"] += 1
                continue
            todo.extend(b for p, way in c["port_directions"].items() if way == "input"
                        for b in c["connections"][p])
        return dict(count.most_common())


def _seed_log(result: dict, seed_opt: int) -> str:
    """The report file of the seed whose Fmax the result reports."""
    seeds = result.get("fmax_seeds") or {str(seed_opt): result["fmax_mhz"]}
    seed = next(int(s) for s, f in seeds.items() if round(f, 3) == round(result["fmax_mhz"], 3))
    return "report.json" if seed == seed_opt else f"report_seed{seed}.json"


def trace(cwd: Path, result: dict, seed_opt: int = 1, timeout: float | None = None) -> dict:
    """The critical path of the ECP5 run in ``cwd`` whose result is
    ``result``, mapped to the RTL (reruns Yosys once unless
    ``netlist_src.json`` is newer than ``synth.ys``)."""
    cwd = Path(cwd)
    if result.get("status") != "ok":
        raise ValueError(f"no routed design: the run's status is {result.get('status')!r}")
    ys, nl = cwd / "synth.ys", cwd / "netlist_src.json"
    if not ys.is_file():
        raise FileNotFoundError(f"{ys}: the run's work directory is gone (rerun with --force)")
    if not nl.is_file() or nl.stat().st_mtime < ys.stat().st_mtime:
        (cwd / "synth_src.ys").write_text(src_script(ys.read_text()))
        tools.run("yosys", ["-q", "-l", "synth_src.log", "synth_src.ys"], cwd, "synth_src.out", timeout=timeout)
    report = cwd / _seed_log(result, seed_opt)
    paths = json.loads(report.read_text()).get("critical_paths", [])
    steps = next((p["path"] for p in paths if p.get("from", "").endswith("clk_i") and p.get("to", "").endswith("clk_i")),
                 None)
    if not steps:
        raise ValueError(f"{report}: no clk_i to clk_i path")
    net = Netlist(nl)
    hops, seen = [], set()
    for step in steps:
        for end in ("from", "to"):
            name = net.find(step[end]["cell"])
            if name is None or name in seen:
                continue
            seen.add(name)
            kind = net.cells[name]["type"]
            src = net.source(name)
            hops.append({"cell": name, "type": kind, "src": src or ("fsm state" if kind == "TRELLIS_FF" else "")})
    regs = [h for h in hops if h["type"] == "TRELLIS_FF"]
    return {
        "report": report.name,
        "logic_levels": sum(1 for h in hops if h["type"] in ("LUT4", "PFUMX", "L6MUX21", "CCU2C")),
        "logic_ns": round(sum(s["delay"] for s in steps if s["type"] not in ("routing",)), 3),
        "routing_ns": round(sum(s["delay"] for s in steps if s["type"] == "routing"), 3),
        "hops": hops,
        "start": {**regs[0], "cone": net.cone(regs[0]["cell"])} if regs else None,
        "end": {**regs[-1], "cone": net.cone(regs[-1]["cell"])} if len(regs) > 1 else None,
    }


def format_trace(title: str, tr: dict) -> str:
    def reg(r: dict | None) -> str:
        if r is None:
            return "-"
        cone = ", ".join(f"{n} x {s}" for s, n in list(r["cone"].items())[:6]) or "none"
        return f"{r['src']} (D input fed by registers: {cone})"

    kinds = collections.Counter(h["type"] for h in tr["hops"] if h["type"] != "TRELLIS_FF")
    lines = [
        f"{title}: {tr['logic_levels']} logic levels ({', '.join(f'{n} {k}' for k, n in sorted(kinds.items()))}), "
        f"{tr['logic_ns']} ns logic + {tr['routing_ns']} ns routing ({tr['report']})",
        f"  from {reg(tr['start'])}",
        f"  to   {reg(tr['end'])}",
    ]
    lines += [f"    {h['type']:<10} {h['src']}" for h in tr["hops"] if h["src"]]
    return "\n".join(lines)

