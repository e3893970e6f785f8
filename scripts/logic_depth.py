#!/usr/bin/env python3
"""Logic depth between registers of a synthesized ECP5 netlist, by RTL source.

A place-and-route run names one critical path; this script lists the
deepest register-to-register paths of the whole netlist in seconds, from the
``netlist_src.json`` that a flow run with a critical-path trace leaves in its
work directory (``montmul synth ... --critical-path``, or any
``scripts/ws_proxy.py run``).  A LUT4 counts one level, a carry cell a
quarter, the slice's wide-function multiplexers (PFUMX, L6MUX21) none: a rough
proxy for routed delay, good enough to find the paths to cut before a
place-and-route run.

    python scripts/logic_depth.py build/ws_proxy/<run>/netlist_src.json [--top 20]

Prints, per endpoint source (``file:line`` of the register, or a block RAM's
or multiplier's input), the deepest path into it: levels, and the RTL
sources of the cells along it.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from montmul.flows.synth.critpath import Netlist  # noqa: E402

WEIGHT = {"LUT4": 1.0, "$lut": 1.0, "CCU2C": 0.25, "PFUMX": 0.0, "L6MUX21": 0.0,
          "$alu": 2.0, "$macc": 4.0}
#: Cells whose inputs end a path and whose outputs start one (the ECP5
#: netlist's; in a generic netlist every flip-flop and memory, and every
#: primitive left as a black box).
SEQ = {"TRELLIS_FF", "DP16KD", "MULT18X18D", "ALU54B", "TRELLIS_DPR16X4"}


def is_seq(t: str) -> bool:
    return t in SEQ or "DFF" in t or t.startswith("$mem") or not t.startswith("$") and t not in WEIGHT


def depths(nl: Netlist, ok=lambda cell: True) -> tuple[dict, dict]:
    """Per combinational cell: the deepest arrival at its output from the
    registers ``ok`` accepts, and the input cell it comes through (None
    at a register)."""
    NONE = float("-inf")
    arr: dict[str, float] = {}
    via: dict[str, str | None] = {}

    def inputs(name: str):
        c = nl.cells[name]
        for p, way in c["port_directions"].items():
            if way == "input":
                for b in c["connections"][p]:
                    if isinstance(b, int) and b in nl.driver:
                        yield nl.driver[b]

    sys.setrecursionlimit(100000)
    for start in nl.cells:
        if start in arr or is_seq(nl.cells[start]["type"]):
            continue
        stack = [(start, False)]
        while stack:
            name, done = stack.pop()
            if name in arr:
                continue
            if not done:
                stack.append((name, True))
                stack.extend((d, False) for d in inputs(name)
                             if d not in arr and not is_seq(nl.cells[d]["type"]))
                continue
            best, frm = NONE, None
            for d in inputs(name):
                if is_seq(nl.cells[d]["type"]):
                    a = 0.0 if ok(d) else NONE
                else:
                    a = arr.get(d, NONE)
                if frm is None or a > best:
                    best, frm = a, d
            arr[name] = best + WEIGHT.get(nl.cells[name]["type"], 1.0)
            via[name] = frm
    return arr, via


def public_names(path: Path) -> dict[int, str]:
    """Netlist bit -> the shortest public net name holding it (no ``$``)."""
    import json
    data = json.loads(Path(path).read_text())
    top = next(m for m in data["modules"].values() if m.get("attributes", {}).get("top"))
    out: dict[int, str] = {}
    for name, net in top["netnames"].items():
        if name.startswith("$"):
            continue
        for i, b in enumerate(net["bits"]):
            if isinstance(b, int):
                if b not in out or len(name) < len(out[b]):
                    out[b] = name
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("netlist", type=Path, help="netlist_src.json of a flow run")
    ap.add_argument("--top", type=int, default=20, help="endpoint sources to list")
    ap.add_argument("--to", default="", help="only endpoints whose name contains this")
    ap.add_argument("--from", dest="frm", default="",
                    help="only paths from registers whose name contains this")
    args = ap.parse_args(argv)
    if not args.netlist.is_file():
        print(f"logic_depth: no such file: {args.netlist}", file=sys.stderr)
        return 2
    nl = Netlist(args.netlist)
    names = public_names(args.netlist)

    def label(cell: str) -> str:
        """A register's RTL name where the netlist keeps it, else its source."""
        c = nl.cells[cell]
        for p, way in c["port_directions"].items():
            if way == "output":
                for b in c["connections"][p]:
                    if b in names:
                        return names[b]
        return nl.source(cell) or c["type"]

    arr, via = depths(nl, lambda c: args.frm in label(c))
    ends: dict[str, tuple[float, str, str]] = {}
    for name, c in nl.cells.items():
        if not is_seq(c["type"]):
            continue
        for p, way in c["port_directions"].items():
            if way != "input" or p in ("CLK", "CLKA", "CLKB"):
                continue
            for b in c["connections"][p]:
                d = nl.driver.get(b) if isinstance(b, int) else None
                if d is None or is_seq(nl.cells[d]["type"]):
                    continue
                key = f"{label(name)}.{p.rstrip('0123456789')}"
                if arr[d] >= 0 and (key not in ends or arr[d] > ends[key][0]):
                    ends[key] = (arr[d], d, name)
    picked = [kv for kv in ends.items() if args.to in kv[0]]
    for key, (lv, d, _) in sorted(picked, key=lambda kv: -kv[1][0])[:args.top]:
        path, cur = [], d
        while cur is not None and not is_seq(nl.cells[cur]["type"]):
            path.append(label(cur) if args.to else (nl.source(cur) or nl.cells[cur]["type"]))
            cur = via.get(cur)
        start = label(cur) if cur else "input"
        srcs = []
        for s in reversed(path):
            if not srcs or srcs[-1] != s:
                srcs.append(s)
        print(f"{lv:5.2f}  {start} -> {key}")
        print(f"       via {' > '.join(srcs)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
