# SPDX-License-Identifier: Apache-2.0
"""Build the public-key engine ``mm_pke`` (``docs/pke.md``) and run programs
on it in RTL simulation (Icarus or Verilator).

Safe to import outside a simulation, like :mod:`montmul.flows.sim.modexp_sim`
for mm_modexp: :func:`simulate` builds the engine for a
:class:`montmul.models.pke.Build` (one build directory per set of HDL
parameters, through :mod:`montmul.flows.sim.runner`, so its locking and
up-to-date checks apply) and runs the cocotb module
:mod:`montmul.flows.sim.pke_run`, which drives the engine's host ports: it
writes the program through the program port and both banks through the
bank word port, pulses ``start_i``, waits for ``done_o`` and reads the
words asked for.  Each :class:`Request` is one such run (the engine is
reset before each); :class:`Response` has the cycles from start to done,
counted as ``pke.run`` counts them (``docs/pke.md``, "The RTL": ``done_o``
is high in cycle S + ``run().cycles``), the error code and the words read.

    from montmul.models import pke
    from montmul.flows.sim import pke_sim
    b = pke.Build(256, pes=22, w=17, qlat=-1)
    banks, ks = pke.host_images(b, p, q, dp, dq, c)
    req = pke_sim.Request(pke.encode(pke.rsa_crt_program(b)), banks, reads=[(0, *pke.layout(b)["MQ"])])
    (resp,) = pke_sim.simulate(b, [req], sim="icarus")
    resp.cycles, resp.err, resp.words[0]          # the result m's words at MQ of bank 0
"""

from __future__ import annotations

import json
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from ... import progress, resources
from ...models import pke, ws
from . import runner

#: The engine's RTL in read order (under rtl/).
SOURCES = ("ws/mm_pke_pkg.sv", "ws/mm_ws_mul.sv", "ws/mm_ws_pe.sv", "ws/mm_ws_ring.sv", "ws/mm_ws_array.sv", "ws/mm_pke_bank.sv",
           "ws/mm_pke_alu.sv", "ws/mm_pke_prog.sv", "ws/mm_pke_seq.sv", "ws/mm_pke.sv")
TOP = "mm_pke"
#: Program memory words of the builds made here (mm_pke's ProgWords; the
#: synthesized builds' size): room for the RSA-CRT program with base
#: blinding's unrolled public exponent.
PROG_WORDS = 512
#: Word widths the engine takes (the exponent's four windows in bits 15..0).
WORD_WIDTHS = (16, 17, 18)
#: The engine build RSA runs on by default, the one placed and routed on the
#: LFE5U-85F (``scripts/ws_proxy.py run --top pke --pe 66 --width 17``):
#: P = 66 PEs, w = 17, L = 6 (DspRegs 3, LoopRegs 0).
PES = 66
W = 17
LATENCY = 6


def engine_build(bits: int, exp_bits: int | None = None, *, pes: int = PES, w: int = W, latency: int = LATENCY,
                 base_blind: bool = False, e: int = 65537) -> pke.Build:
    """The engine build for halves of ``bits`` bits: the least quotient delay
    d, with the array's quotient bypass (qlat = -1) where it applies (2cd =
    L, one lap at L = 6: d = 3), else qlat = 0, as mm_ws_array builds it.
    ValueError for a length the array or the banks cannot hold."""
    b = pke.Build(bits, exp_bits, pes, w, latency, -1, None, base_blind, e)
    k = ws.precompute(3, w, b.d, bits)
    if 2 * b.array.chunks(k) * b.d != latency:
        b = pke.Build(bits, exp_bits, pes, w, latency, 0, b.d, base_blind, e)
    pke.layout(b)  # the banks hold it (ValueError otherwise)
    return b


class EngineDesign:
    """``mm_pke`` as a buildable unit for :mod:`montmul.flows.sim.runner`
    (the attributes it reads of a core: name, top, sources, includes,
    HDL parameters; the width argument is not used, the parameters are
    the build's)."""

    name = TOP
    top = TOP

    def sources(self) -> list[Path]:
        return [resources.rtl_dir() / f for f in SOURCES]

    def includes(self) -> list[Path]:
        return [resources.rtl_dir() / "common"]

    def hdl_params(self, width: int, **given: int) -> dict[str, int]:
        return dict(given)


DESIGN = EngineDesign()


def hdl_params(b: pke.Build, prog_words: int = PROG_WORDS) -> dict[str, int]:
    """mm_pke's HDL parameters for the build ``b``: the array's (MaxWords =
    cP - 1, the most words its laps take, as the synthesized builds have it:
    one build runs every length with the same c) and the program memory's size.  ValueError for a build
    the RTL has no parameters for (a word width outside 16..18, an array
    latency below 5: DspRegs 2..3 plus 3, LoopRegs 0..2)."""
    if b.w not in WORD_WIDTHS:
        raise ValueError(f"mm_pke takes word widths {WORD_WIDTHS[0]}..{WORD_WIDTHS[-1]}, not w = {b.w}")
    dsp = 3 if b.latency >= 6 else 2
    loop = b.latency - 3 - dsp
    if not 0 <= loop <= 2:
        raise ValueError(f"mm_pke has no build with array latency L = {b.latency} (5 .. 8)")
    k = ws.precompute(3, b.w, b.d, b.bits)
    return {"NumPe": b.pes, "WordWidth": b.w, "DspRegs": dsp, "LoopRegs": loop, "Chunks": b.array.chunks(k),
            "QuotDelay": b.d, "MaxWords": b.array.chunks(k) * b.pes - 1, "ProgWords": prog_words,
            "ModAlu": int(b.mod_alu)}


def check_build(b: pke.Build) -> None:
    """ValueError unless the RTL runs ``b`` as the model does: the array's
    quotient bypass (qlat = -1) exactly when 2cd = L, as mm_ws_array builds
    it (``docs/ws.md``)."""
    k = ws.precompute(3, b.w, b.d, b.bits)
    bypass = 2 * b.array.chunks(k) * b.d == b.latency
    if bypass != (b.qlat == -1) or b.qlat > 0:
        raise ValueError(f"mm_pke builds the quotient bypass exactly when 2cd = L: this build has "
                         f"2cd = {2 * b.array.chunks(k) * b.d}, L = {b.latency}, qlat = {b.qlat}")


@dataclass
class Request:
    """One run of the engine: the program (instruction words, at most the
    build's program memory), the two banks as the host writes them (every
    word of ``addrs``, default every region of ``pke.layout``), and the
    words to read afterwards: (bank, address, words) per read.  ``trace``:
    record the main-timeline dispatches (mm_pke's debug port)."""

    program: list[int]
    banks: list[list[int]]
    reads: list[tuple[int, int, int]] = field(default_factory=list)
    addrs: list[int] | None = None
    trace: bool = False


@dataclass(frozen=True)
class Response:
    cycles: int  #: start to done_o (pke.run's count)
    err: int  #: err_code_o (0: none)
    words: list[list[int]]  #: per read of the request, its words
    #: with ``Request.trace``: (cycle, pc) of every main-timeline dispatch
    #: (``dbg_disp_o``, ``dbg_pc_o``), cycle 1 the one after start, as
    #: ``pke.run`` issues its non-PROD instructions (``tb/mm_pke``)
    dispatches: list[tuple[int, int]] = field(default_factory=list)


def region_addrs(b: pke.Build) -> list[int]:
    """Every address of every region of the build's memory map."""
    return sorted(a for addr, size in pke.layout(b).values() for a in range(addr, addr + size))


def value(words: list[int], w: int) -> int:
    """The integer of little-endian w-bit words."""
    return sum(x << (w * i) for i, x in enumerate(words))


def simulate(b: pke.Build, requests: list[Request], *, sim: str = "verilator", cycle_limit: int | None = None,
             prog_words: int = PROG_WORDS) -> list[Response]:
    """Run every request on one build of mm_pke for ``b``, in one simulator
    process, the engine reset before each.  ``cycle_limit``: a run without
    done_o within that many cycles is a hang (RuntimeError; default: twice
    the program's cycles in the model, plus 1000)."""
    if sim not in runner.SIMULATORS:
        raise ValueError(f"unknown simulator {sim!r}; use one of {', '.join(runner.SIMULATORS)}")
    check_build(b)
    params = hdl_params(b, prog_words)
    if not requests:
        return []
    addrs = region_addrs(b)
    jobs = []
    for r in requests:
        if len(r.program) > prog_words:
            raise ValueError(f"program of {len(r.program)} words; the build's program memory holds {prog_words}")
        if len(r.banks) != 2 or any(len(x) != pke.MEM_WORDS for x in r.banks):
            raise ValueError(f"two banks of {pke.MEM_WORDS} words")
        a = addrs if r.addrs is None else sorted(r.addrs)
        limit = cycle_limit
        if limit is None:
            # the model's count of this program (cycles do not depend on the data)
            ks = [ws.precompute(3, b.w, b.d, b.bits)] * 2
            limit = 2 * pke.run(pke.decode(r.program), [[0] * pke.MEM_WORDS for _ in range(2)],
                                pke.Machine(b.array, ks, mod_alu=b.mod_alu), compute=False).cycles + 1000
        jobs.append({"program": [hex(x) for x in r.program],
                     "writes": [[[addr, hex(bank[addr])] for addr in a] for bank in r.banks],
                     "reads": [list(x) for x in r.reads], "limit": limit, "trace": r.trace})
    runner.build(DESIGN, sim, 0, params)
    with tempfile.TemporaryDirectory(prefix="montmul_pke_") as tmp:
        tmpd = Path(tmp)
        vin, vout = tmpd / "in.json", tmpd / "out.json"
        vin.write_text(json.dumps(jobs))
        env = {"MONTMUL_PKE_IN": str(vin), "MONTMUL_PKE_OUT": str(vout), "MONTMUL_PKE_W": str(b.w)}
        with progress.phase("simulate"):
            try:
                runner.run(DESIGN, sim, 0, test_module="montmul.flows.sim.pke_run", test_dir=tmpd / "run",
                           extra_env=env, params=params, build_first=False)
            except AssertionError as exc:
                raise RuntimeError(f"mm_pke on {sim}: {exc}") from None
        rows = json.loads(vout.read_text())
    return [Response(row["cycles"], row["err"], [[int(x, 16) for x in ws_] for ws_ in row["words"]],
                     [tuple(d) for d in row.get("disp", [])]) for row in rows]
