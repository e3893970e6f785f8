# SPDX-License-Identifier: Apache-2.0
"""Design objects: one per buildable thing around a registered core.

A registered :class:`~montmul.cores.Core` is itself the design of the core
alone.  Everything else montmul builds puts a core inside a larger top:

========  =================  ====================================================
kind      top                what it is
========  =================  ====================================================
modexp    ``mm_modexp``      the exponentiation engine (docs/modexp.md)
crt       ``mm_modexp_crt``  the RSA-CRT engine
regs      ``mm_core_regs``   the core between registers (a timing harness)
axil      ``mm_modexp_axil`` the AXI4-Lite wrapper of ``mm_modexp`` (rtl/bus/)
========  =================  ====================================================

:func:`build` makes the :class:`Design` of a kind around a core: its top, its
files in read order (the core's, the generated ``mm_modexp_core`` wrapper
that plugs the core into the engine, the engine's own), its include folders
and its HDL parameters.  Every consumer asks it: the simulation builds
(:mod:`montmul.flows.sim`), the synthesis jobs (:mod:`montmul.flows.synth`),
the formal tops (:mod:`montmul.flows.formal`), the FuseSoC core file
(:mod:`montmul.flows.fusesoc`) and the bus wrapper's bench
(:mod:`montmul.host.sim`).  Plain Python: no simulator imports.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping

from . import cores, resources

#: The engine instantiates this module; :func:`core_wrapper` writes it.
CORE_WRAPPER = "mm_modexp_core"
#: The engine's RTL (after the core's files and the wrapper).
ENGINE_RTL = "modexp/mm_modexp.sv"
#: The CRT engine's RTL (after the core's files and the wrapper).
CRT_RTL = "modexp/mm_modexp_crt.sv"
#: The engines' shared request check (exponent length), read before either engine.
LEN_CHECK_RTL = "modexp/mm_len_check.sv"
#: The core between registers, for timing only (``montmul synth --engine regs``).
REGS_RTL = "modexp/mm_core_regs.sv"
#: The AXI4-Lite wrapper's own RTL, after the engine's (package first).
BUS_RTL = ("bus/mm_modexp_regs_pkg.sv", "bus/mm_modexp_regs.sv", "bus/mm_modexp_axil.sv")
#: The checked-in wrapper (for lint and FuseSoC): the reference core.
DEFAULT_CORE = "r2_basic"

#: kind -> (top module, RTL after the core's files and its wrapper, under rtl/)
KINDS: Mapping[str, tuple[str, tuple[str, ...]]] = {
    "modexp": ("mm_modexp", (LEN_CHECK_RTL, ENGINE_RTL)),
    "crt": ("mm_modexp_crt", (LEN_CHECK_RTL, CRT_RTL)),
    "regs": ("mm_core_regs", (REGS_RTL,)),
    "axil": ("mm_modexp_axil", (LEN_CHECK_RTL, ENGINE_RTL, *BUS_RTL)),
}
#: The widest exponent port of the CRT engine (its ``ExpWidth``).
EXP_WIDTH_MAX = 16384

_PORTS = (
    ("clk_i", "input ", ""),
    ("rst_ni", "input ", ""),
    ("in_valid_i", "input ", ""),
    ("in_ready_o", "output", ""),
    ("a_i", "input ", "[Width:0]"),
    ("b_i", "input ", "[Width:0]"),
    ("n_i", "input ", "[Width-1:0]"),
    ("out_valid_o", "output", ""),
    ("out_ready_i", "input ", ""),
    ("s_o", "output", "[Width:0]"),
    ("err_o", "output", ""),
)


def check_core(c: cores.Core) -> None:
    """ValueError unless the engines can use ``c``: they feed products back
    as operands and reduce once at the end."""
    if c.out_bound > c.in_bound or c.out_bound > 2:
        raise ValueError(
            f"core {c.name!r}: outputs in [0, {c.out_bound}N) cannot be chained into inputs "
            f"[0, {c.in_bound}N) and reduced by one subtraction"
        )


def core_hdl_params(core: cores.Core | str, params: Mapping[str, int] | None = None,
                    checks: bool = False) -> dict[str, int]:
    """The core's HDL parameters other than Width, as an engine build fixes
    them: the registry's defaults, then ``params``, then the entry's fixed
    overrides (e.g. scs_new_ct's ConstTime=1), checked against their ranges;
    CheckRange and CheckMod are 0 (the engine checks its own inputs) unless
    ``checks`` (the core as registered, for mm_core_regs)."""
    c = cores.resolve(core)
    hdl = c.hdl_params(c.all_params["Width"].default, **(params or {}))
    if not checks:
        # The engine checks base < N and R2 < N itself, and every operand it
        # feeds back is a core product, below 2N (Walter's bound): the core's
        # range comparators would only add the engine's operand multiplexers
        # and a wide comparison to the clock period.
        if "CheckRange" in hdl:
            hdl["CheckRange"] = 0
        # The engine rejects an illegal N at its own request; inside it the
        # core's modulus check (an OR over all of N's bits, from the engine's
        # N register into the core's state) was the engine's critical path
        # around the fastest cores (docs/synthesis.md).
        if "CheckMod" in hdl:
            hdl["CheckMod"] = 0
    return {k: v for k, v in hdl.items() if k != "Width"}


def core_wrapper(core: cores.Core | str, params: Mapping[str, int] | None = None, checks: bool = False) -> str:
    """SystemVerilog text of ``mm_modexp_core``: the registered core's top
    module with its fixed parameters, on the common core interface.  The
    engine instantiates ``mm_modexp_core``, so choosing a core is choosing
    which generated wrapper is compiled with it; no list of cores in RTL."""
    c = cores.resolve(core)
    check_core(c)
    fixed = core_hdl_params(c, params, checks)
    w = cores.WIDTH
    plist = [("Width", "Width")]
    for k in sorted(fixed):
        # On/off parameters (range 0..1) are `bit` and get one-bit literals
        # (Icarus 11 mishandles 32-bit values there); int parameters decimal.
        v, p = fixed[k], c.all_params[k]
        plist.append((k, f"1'b{v}" if (p.lo, p.hi) == (0, 1) else str(v)))
    pw = max(len(k) for k, _ in plist)
    params_txt = ",\n".join(f"    .{k:<{pw}}({v})" for k, v in plist)
    tw = max(len(t) for _, _, t in _PORTS)
    ports_txt = ",\n".join(f"  {d} logic {t:<{tw}} {n}" for n, d, t in _PORTS)
    nw = max(len(n) for n, _, _ in _PORTS)
    conns = ",\n".join(f"    .{n:<{nw}}({n})" for n, _, _ in _PORTS)
    setting = ", ".join(f"{k}={v}" for k, v in sorted(fixed.items())) or "no other parameters"
    return f"""// SPDX-License-Identifier: Apache-2.0
//
// {CORE_WRAPPER}: the core that {"mm_core_regs (a timing harness)" if checks else "mm_modexp"} drives - registered core
// '{c.name}' ({c.top}, {setting}).
// GENERATED by montmul.design.core_wrapper('{c.name}') from the core registry
// (src/montmul/cores.py); do not edit.  Builds of mm_modexp on another core
// compile their own generated copy instead of this file (docs/modexp.md).
module {CORE_WRAPPER} #(
  parameter int Width = 32  // modulus width k: {w.lo} .. {w.hi}
) (
{ports_txt}
);

  {c.top} #(
{params_txt}
  ) u_core (
{conns}
  );

endmodule
"""


def write_core_wrapper(path, core: cores.Core | str, params: Mapping[str, int] | None = None,
                       checks: bool = False) -> Path:
    """Write :func:`core_wrapper` to ``path`` unless it already holds exactly
    that text (an unchanged file keeps its time stamp, so builds stay up to
    date); atomic, so parallel builders never see half a file."""
    path = Path(path)
    text = core_wrapper(core, params, checks)
    if path.exists() and path.read_text() == text:
        return path
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(text)
    os.replace(tmp, path)
    return path


def param_tag(params: Mapping[str, int]) -> str:
    """Parameters as a folder-name fragment: ``CheckRange1_Width64``."""
    return "_".join(f"{k}{v}" for k, v in sorted(params.items()))


@dataclass(frozen=True)
class Design:
    """One buildable thing around a core (:func:`build`): the attributes
    every consumer reads of a design, the same as a :class:`~montmul.cores.Core`
    has for the core alone (``name``, ``top``, :meth:`sources`,
    :meth:`includes`, :meth:`hdl_params`)."""

    name: str  #: unique per kind, core and core parameters: build and work folders
    kind: str  #: a key of :data:`KINDS`
    core: cores.Core
    core_params: Mapping[str, int]  #: the core's HDL parameters as the wrapper fixes them (no Width)
    files: tuple[Path, ...]  #: in read order, the generated wrapper included
    incs: tuple[Path, ...] = field(default=())

    @property
    def top(self) -> str:
        return KINDS[self.kind][0]

    @property
    def synth_defines(self) -> Mapping[str, tuple[str, ...]]:
        """The core's synthesis macros (``Core.synth_defines``): the engine
        around a vendor-primitive configuration maps onto the primitive too."""
        return self.core.synth_defines

    def sources(self) -> list[Path]:
        return list(self.files)

    def includes(self) -> list[Path]:
        return list(self.incs)

    def hdl_params(self, width: int, **given: int) -> dict[str, int]:
        """The top's HDL parameters: ``Width``, and for the CRT engine
        ``ExpWidth`` (the exponent ports, default ``Width``).  ValueError for
        a value out of range or a parameter the top does not have."""
        cores.WIDTH.check("Width", width)
        out = {"Width": width}
        if self.kind == "crt":
            exp_width = given.pop("ExpWidth", width)
            if not width <= exp_width <= EXP_WIDTH_MAX:
                raise ValueError(f"ExpWidth={exp_width} outside [{width}, {EXP_WIDTH_MAX}]")
            out["ExpWidth"] = exp_width
        if given:
            raise ValueError(f"{self.top} has no parameter {', '.join(sorted(given))}")
        return out


def rtl(kind: str, core: cores.Core | str) -> tuple[str, ...]:
    """The files of a ``kind`` design on ``core`` under rtl/, in read order,
    with :data:`CORE_WRAPPER` standing for the generated wrapper (FuseSoC and
    the formal flow, which place the wrapper themselves)."""
    if kind not in KINDS:
        raise ValueError(f"unknown design kind {kind!r}; use one of {', '.join(KINDS)}")
    return (*cores.resolve(core).rtl, CORE_WRAPPER, *KINDS[kind][1])


def default_folder(name: str) -> Path:
    """Where :func:`build` writes a design's generated wrapper by default."""
    return resources.build_root() / "designs" / name


def build(kind: str, core: cores.Core | str, params: Mapping[str, int] | None = None,
          folder: Path | None = None) -> Design:
    """The ``kind`` design on ``core`` with the core's HDL parameters
    ``params``: writes its generated wrapper into ``folder`` (default:
    :func:`default_folder` of its name) and returns it."""
    c = cores.resolve(core)
    files = rtl(kind, c)  # checks the kind
    regs = kind == "regs"
    fixed = core_hdl_params(c, params, checks=regs)
    name = f"{kind}_{c.name}" + (f"_{param_tag(fixed)}" if fixed else "")
    wrapper = write_core_wrapper(Path(folder or default_folder(name)) / f"{CORE_WRAPPER}.sv", c, params, regs)
    root = resources.rtl_dir()
    paths = tuple(wrapper if f == CORE_WRAPPER else root / f for f in files)
    return Design(name, kind, c, fixed, paths, tuple(c.includes()))


# --- the public-key engine ------------------------------------------------
# mm_pke (rtl/ws, docs/pke.md) holds no registered core: its top, file list
# and HDL parameters are fixed here once, for the simulation driver
# (montmul.flows.sim.pke_sim), its bench (tb/mm_pke), the bus wrapper's bench
# and driver (tb/mm_pke_axil, montmul.host.pke), FuseSoC and the
# place-and-route proxy (scripts/ws_proxy.py).

#: The engine's RTL in read order (under rtl/): the generated package first.
PKE_RTL = ("ws/mm_pke_pkg.sv", "ws/mm_ws_mul.sv", "ws/mm_ws_pe.sv", "ws/mm_ws_ring.sv", "ws/mm_ws_array.sv",
           "ws/mm_pke_bank.sv", "ws/mm_pke_alu.sv", "ws/mm_pke_prog.sv", "ws/mm_pke_seq.sv", "ws/mm_pke.sv")
#: mm_pke_axil (rtl/bus, docs/pke_axil.md): its register block, the engine, the wrapper.
PKE_AXIL_RTL = ("bus/mm_pke_regs_pkg.sv", "bus/mm_pke_regs.sv", *PKE_RTL, "bus/mm_pke_axil.sv")
#: Word widths the engine takes (the exponent's four windows in bits 15..0).
PKE_WORD_WIDTHS = (16, 17, 18)


@dataclass(frozen=True)
class FixedDesign:
    """A top with a fixed file list (no core inside): the attributes the
    simulation runner reads of a design (``name``, ``top``, :meth:`sources`,
    :meth:`includes`, :meth:`hdl_params`; the width argument is not used,
    the parameters are the build's)."""

    name: str
    top: str
    rtl: tuple[str, ...]  #: under rtl/, in read order

    def sources(self) -> list[Path]:
        return [resources.rtl_dir() / f for f in self.rtl]

    def includes(self) -> list[Path]:
        return [resources.rtl_dir() / "common"]

    def hdl_params(self, width: int, **given: int) -> dict[str, int]:
        return dict(given)


PKE = FixedDesign("mm_pke", "mm_pke", PKE_RTL)
PKE_AXIL = FixedDesign("mm_pke_axil", "mm_pke_axil", PKE_AXIL_RTL)


def pke_build(bits: int, exp_bits: int | None = None, *, pes: int, w: int = 17, latency: int = 6,
              d: int | None = None, base_blind: bool = False, e: int = 65537, mod_alu: bool = False):
    """The engine build (:class:`montmul.models.pke.Build`) for halves of
    ``bits`` bits on an array of ``pes`` PEs, word width ``w``, latency L:
    quotient delay ``d`` (default: the least legal one), with the array's
    quotient bypass (the model's qlat = -1) exactly where mm_ws_array builds
    it, 2cd = L (``docs/ws.md``), else qlat = 0.  ValueError for a length the
    array or the banks cannot hold."""
    from .models import pke, ws

    if d is None:
        d = pke.Build(bits, exp_bits, pes, w, latency, -1).d
    c = ws.Array(pes, w, d, latency).chunks(ws.precompute(3, w, d, bits))
    qlat = -1 if 2 * c * d == latency else 0
    b = pke.Build(bits, exp_bits, pes, w, latency, qlat, d, base_blind, e, mod_alu)
    pke.layout(b)  # the banks hold it (ValueError otherwise)
    return b


def pke_hdl_params(b, prog_words: int, max_words: int | None = None) -> dict[str, int]:
    """mm_pke's HDL parameters for the build ``b``: the array's (``MaxWords``
    default cP - 1, the most words its laps take, as the synthesized builds
    have it: one build runs every length with the same c), the program
    memory's size, and ``ModAlu`` = 1 for a build with the modular ALU (0 is
    the RTL's default).  ValueError for a build the RTL has no
    parameters for (a word width outside 16..18, an array latency outside
    5..8: DspRegs 2..3 plus 3, LoopRegs 0..2)."""
    from .models import ws

    if b.w not in PKE_WORD_WIDTHS:
        raise ValueError(f"mm_pke takes word widths {PKE_WORD_WIDTHS[0]}..{PKE_WORD_WIDTHS[-1]}, not w = {b.w}")
    dsp = 3 if b.latency >= 6 else 2
    loop = b.latency - 3 - dsp
    if not 0 <= loop <= 2:
        raise ValueError(f"mm_pke has no build with array latency L = {b.latency} (5 .. 8)")
    c = b.array.chunks(ws.precompute(3, b.w, b.d, b.bits))
    return {"NumPe": b.pes, "WordWidth": b.w, "DspRegs": dsp, "LoopRegs": loop, "Chunks": c, "QuotDelay": b.d,
            "MaxWords": c * b.pes - 1 if max_words is None else max_words, "ProgWords": prog_words,
            **({"ModAlu": 1} if b.mod_alu else {})}
