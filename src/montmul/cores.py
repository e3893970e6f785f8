# SPDX-License-Identifier: Apache-2.0
"""The registry of montmul cores: one datasheet entry per RTL core.

Tests, the CLI, synthesis, benchmarks and reports iterate over :data:`CORES`;
adding a core means writing its RTL on the shared shell, its model and one
:func:`register` call here (``docs/adding-a-core.md``).

Every entry answers the same questions, each by a field or a function of
``(k, p)``, where ``k`` is the modulus width (HDL parameter ``Width``) and
``p`` the complete dict of HDL parameters of a build (:meth:`Core.hdl_params`):

* what it is: ``name``, ``family``, ``paper``, ``description``;
* how it is built: ``top``, ``rtl`` (files under ``rtl/``, dependencies
  first), ``params`` (beyond the shared ``Width``, ``CheckRange`` and ``CheckMod``),
  ``fixed`` (parameters a configuration pins), ``check`` (legal combinations);
* what it computes: ``model``, ``r_log2(k, p, n)`` (the Montgomery radix
  R = 2^r_log2 may depend on the request's modulus ``n`` in scalable cores),
  ``in_bound``/``out_bound`` (operands in [0, in_bound*N), results in
  [0, out_bound*N));
* how long it takes: ``latency_bound(k, p)`` (worst case, cycles),
  ``data_dependent``, ``in_flight(p)`` (multiplications it keeps in flight;
  responses come back in request order);
* how it is tested: ``test_widths``, ``test_params``, ``test_random``.

The registry holds datasheet facts only; how the synthesis flows are tuned
for a core lives with the flow (:mod:`montmul.flows.synth.tuning`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Mapping

from . import resources
from .models import MMResult, dsp, radix2, scalable, systolic, ws_core
from .models.common import ceil_div


def __getattr__(name: str) -> Path:
    # ROOT (the folder holding rtl/, syn/, lint/: the checkout, or the
    # package data of an installed wheel) and RTL, resolved when first used
    # (montmul.resources), so importing the registry never needs the files.
    if name == "ROOT":
        return resources.data_root()
    if name == "RTL":
        return resources.rtl_dir()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

Params = Mapping[str, int]


@dataclass(frozen=True)
class Param:
    """An HDL parameter: its default, legal range (inclusive) and meaning."""

    default: int
    lo: int
    hi: int
    doc: str

    def check(self, name: str, value: int) -> None:
        if not self.lo <= value <= self.hi:
            raise ValueError(f"parameter {name}={value} outside its legal range [{self.lo}, {self.hi}]")


#: Parameters every core has (docs/interface.md).
WIDTH = Param(32, 3, 8192, "modulus width k: N < 2^k")
CHECK_RANGE = Param(1, 0, 1, "1: reject operands outside the input range (0 leaves the comparators out)")
CHECK_MOD = Param(1, 0, 1, "1: reject an even N or N < 3 (0: the host guarantees a legal N, as mm_modexp does)")
SHARED_PARAMS: dict[str, Param] = {"Width": WIDTH, "CheckRange": CHECK_RANGE, "CheckMod": CHECK_MOD}

#: Widths the RTL benches run a core at, per simulator (a core may choose
#: others): Icarus builds in a second but simulates slowly, Verilator builds
#: in 20-40 s and simulates fast; 64 bits runs on both.
TEST_WIDTHS: Mapping[str, tuple[int, ...]] = {"icarus": (8, 64), "verilator": (64, 256)}


def _one(p: Params) -> int:
    return 1


@dataclass(frozen=True)
class Core:
    """Everything the tooling needs to know about one core (see the module
    docstring for the meaning of each field)."""

    name: str
    family: str
    paper: str
    top: str
    rtl: tuple[str, ...]
    model: Callable[..., MMResult]  #: model(a, b, n, k, **{model_args[P]: p[P]})
    r_log2: Callable[[int, Params, int], int]
    latency_bound: Callable[[int, Params], int]
    description: str
    params: Mapping[str, Param] = field(default_factory=dict)  #: beyond Width, CheckRange, CheckMod
    fixed: Mapping[str, int] = field(default_factory=dict)
    model_args: Mapping[str, str] = field(default_factory=dict)  #: HDL parameter -> model keyword
    check: Callable[[int, Params], None] | None = None
    in_bound: int = 2
    out_bound: int = 2
    data_dependent: bool = False
    in_flight: Callable[[Params], int] = _one
    test_widths: Mapping[str, tuple[int, ...]] = field(default_factory=lambda: dict(TEST_WIDTHS))
    #: non-default parameter sets the bench also runs (at each simulator's
    #: smallest test width)
    test_params: tuple[Params, ...] = ()
    #: random products per bench run: about test_random / k, in [8, 200]
    test_random: int = 4096
    #: Verilog macros a synthesis target defines (target -> names), for a
    #: configuration mapped onto a vendor primitive (``ws_ecp5``: MM_ECP5_DSP,
    #: the ECP5 MULT18X18D); simulation and the other targets read the RTL
    #: without them
    synth_defines: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    # --- parameters --------------------------------------------------------
    @property
    def all_params(self) -> dict[str, Param]:
        """Every HDL parameter the top module has: the shared ones first."""
        return {**SHARED_PARAMS, **self.params}

    @property
    def tunable(self) -> dict[str, Param]:
        """The parameters a user may set (all but the fixed ones)."""
        return {k: p for k, p in self.all_params.items() if k not in self.fixed}

    def hdl_params(self, width: int, **given: int) -> dict[str, int]:
        """The complete HDL parameters of one build: defaults, then ``given``,
        then the entry's fixed values; each checked against its range and the
        combination against :attr:`check`.  ValueError otherwise."""
        unknown = set(given) - set(self.all_params)
        if unknown:
            raise ValueError(
                f"core {self.name} has no parameter {', '.join(sorted(unknown))}; "
                f"it has {', '.join(self.tunable)}"
            )
        pinned = {k: v for k, v in given.items() if k in self.fixed and v != self.fixed[k]}
        if pinned:
            raise ValueError(
                f"core {self.name} fixes " + ", ".join(f"{k}={self.fixed[k]}" for k in sorted(pinned))
            )
        values = {k: p.default for k, p in self.all_params.items()}
        values["Width"] = width
        values.update(given)
        values.update(self.fixed)
        for k, v in values.items():
            self.all_params[k].check(k, v)
        if self.check is not None:
            self.check(width, values)
        return values

    # --- behaviour -----------------------------------------------------------
    def bound(self, width: int, params: Params | None = None) -> int:
        """Worst-case latency in cycles at ``width`` for the parameters ``params``."""
        return self.latency_bound(width, self.hdl_params(width, **(params or {})))

    def radix_log2(self, width: int, params: Params | None = None, n: int | None = None) -> int:
        """log2 of the Montgomery radix R of a request with modulus ``n``
        (default: the largest modulus of the width)."""
        p = self.hdl_params(width, **(params or {}))
        return self.r_log2(width, p, (1 << width) - 1 if n is None else n)

    def run_model(self, a: int, b: int, n: int, width: int, params: Params | None = None) -> MMResult:
        """The model's answer to one request, for the parameters ``params``."""
        p = self.hdl_params(width, **(params or {}))
        return self.model(a, b, n, width, **{kw: p[hdl] for hdl, kw in self.model_args.items()})

    # --- files -------------------------------------------------------------
    def sources(self) -> list[Path]:
        rtl = resources.rtl_dir()
        return [rtl / f for f in self.rtl]

    def includes(self) -> list[Path]:
        """Include directories (shared headers live in rtl/common)."""
        return [resources.rtl_dir() / "common"]


CORES: dict[str, Core] = {}
#: Synthesizable cores that are not on the common interface (the carry-save
#: FCS cores, which paper 000 measures without conversion to binary): their
#: own benches and the synthesis report build them; CLI and engine do not.
UNITS: dict[str, Core] = {}


def register(core: Core, unit: bool = False) -> Core:
    table = UNITS if unit else CORES
    if core.name in CORES or core.name in UNITS:
        raise ValueError(f"core {core.name!r} registered twice")
    extra = set(core.params) & set(SHARED_PARAMS)
    if extra:
        raise ValueError(f"core {core.name!r} redefines the shared parameters {sorted(extra)}")
    table[core.name] = core
    return core


def get(name: str) -> Core:
    """A registered core (on the common interface)."""
    try:
        return CORES[name]
    except KeyError:
        raise KeyError(f"unknown core {name!r}; known cores: {', '.join(sorted(CORES))}") from None


def resolve(core: Core | str) -> Core:
    """``core`` itself, or the registered core of that name (:func:`get`):
    the entry point of every function that takes a core, so that callers
    below the command line pass :class:`Core` objects and names alike."""
    return core if isinstance(core, Core) else get(core)


def lookup(name: str) -> Core:
    """A registered core or unit (for synthesis and the unit benches)."""
    if name in UNITS:
        return UNITS[name]
    return get(name)


# ---------------------------------------------------------------------------
# Radix-2 family (papers 000 and 001): Walter's bound, R = 2^(k+2), inputs and
# outputs in [0, 2N).  docs/radix2.md.
# ---------------------------------------------------------------------------
def walter(k: int, p: Params, n: int) -> int:
    """R = 2^(k+2): k+2 iterations, so 4N < R and no final subtraction."""
    return k + 2


#: Every core's first files: the shared constants (mm_pkg, read before any
#: module that uses them) and the request/response shell.
SHELL = ("common/mm_pkg.sv", "common/mm_seg_add.sv", "common/mm_in_check.sv", "common/mm_req_ctrl.sv")
CSA_CELLS = ("common/mm_cfa_row.sv", "common/mm_sm3.sv", "common/mm_skip_d.sv")
SCS_LOOP = ("common/mm_csa_row.sv", "radix2/mm_scs_csa2.sv")
MSCS_CELLS = ("common/mm_csa_row.sv", "common/mm_sm3.sv")
FCS1_CS_RTL = SHELL + ("common/mm_csa_row.sv", "common/mm_brfa.sv", "radix2/mm_fcs1.sv")
FCS2_CS_RTL = SHELL + ("common/mm_csa_row.sv", "common/mm_sm3.sv", "common/mm_brfa.sv", "radix2/mm_fcs2.sv")
FCS_CS2BIN = ("common/mm_cpa_fc.sv", "common/mm_cs2bin.sv")
#: The binary wrapper mm_fcs_bin holds either carry-save core (its Variant
#: parameter picks one), so both configurations read both cores' files.
FCS_BIN_RTL = FCS2_CS_RTL + ("radix2/mm_fcs1.sv",) + FCS_CS2BIN + ("radix2/mm_fcs_bin.sv",)
FCS_BIN_PARAMS = {
    "CpaWidth": Param(32, 4, 256, "word width w of the word-serial carry-propagate converter"),
    "Variant": Param(1, 1, 2, "the carry-save core: 1 = FCS-MM-1, 2 = FCS-MM-2"),
}


def scs_new_bound(k: int, p: Params) -> int:
    """Precompute and conversion each resolve a (k+5)-bit carry chain two
    bits per cycle, ceil((k+5)/2) steps + 1 detecting cycle; the loop runs
    k+6 iterations."""
    chain = ceil_div(k + 5, 2) + 1
    return chain + (k + 6) + chain


def scs2_bound(k: int, p: Params) -> int:
    """k+2 iterations, then double half-adder steps until SC = 0: SS + SC <
    2^(k+1), so at most k+1 half-adder steps, ceil((k+1)/2) cycles, + 1
    detecting cycle."""
    return k + 2 + ceil_div(k + 1, 2) + 1


def mscs_bound(k: int, p: Params) -> int:
    """Precompute: SS + SC = D < 3N < 2^(k+2), at most k+2 half-adder steps
    + 1 detecting cycle; loop k+2; conversion S < 2^(k+1): k+1 steps + 1."""
    return (k + 3) + (k + 2) + (k + 2)


def fcs_mmm42_bound(k: int, p: Params) -> int:
    """1 precompute cycle, at most k+2 loop cycles (no skip), conversion two
    half-adder steps per cycle: at most k//2 + 1 cycles + 1 detecting."""
    return 1 + (k + 2) + (k // 2 + 1) + 1


register(Core(
    name="r2_basic",
    family="radix2",
    paper="000 Fig. 1 (Walter's k+2 iterations)",
    top="mm_r2_basic",
    rtl=SHELL + ("radix2/mm_r2_basic.sv",),
    model=radix2.basic,
    r_log2=walter,
    latency_bound=lambda k, p: k + 2,
    description="Reference radix-2 MM: binary, one carry-propagate adder, k+2 cycles",
))

register(Core(
    name="scs1",
    family="radix2",
    paper="000 Fig. 2/3, 001 Algorithm 1",
    top="mm_scs1",
    rtl=SHELL + SCS_LOOP + ("common/mm_cpa_fc.sv", "radix2/mm_scs1.sv"),
    model=radix2.scs1,
    params={"CpaWidth": Param(32, 4, 256, "CPA_FC word width w")},
    model_args={"CpaWidth": "cpa_width"},
    r_log2=walter,
    # k+2 iterations, then one CPA_FC word per cycle over the k+1 result bits.
    latency_bound=lambda k, p: k + 2 + ceil_div(k + 1, p["CpaWidth"]),
    description="SCS-MM-1: two-level CSA loop, word-serial CPA format converter (CPA_FC)",
    test_params=({"CpaWidth": 64}, {"CpaWidth": 7}),
))

register(Core(
    name="scs2",
    family="radix2",
    paper="000 Fig. 4",
    top="mm_scs2",
    rtl=SHELL + SCS_LOOP + ("radix2/mm_scs2.sv",),
    model=radix2.scs2,
    r_log2=walter,
    latency_bound=scs2_bound,
    data_dependent=True,
    description="SCS-MM-2: two-level CSA loop, reused for the conversion until SC = 0",
))

register(Core(
    name="fcs1_bin",
    family="radix2",
    paper="000 Sec. II-C Fig. 5/6, 001 Algorithm 2; binary wrapper ours",
    top="mm_fcs_bin",
    rtl=FCS_BIN_RTL,
    model=radix2.fcs1_bin,
    params=FCS_BIN_PARAMS,
    fixed={"Variant": 1},
    model_args={"CpaWidth": "cpa_width"},
    r_log2=walter,
    # Constant: k+2 iterations, then ceil((k+1)/w) converter words.
    latency_bound=lambda k, p: (k + 2) + ceil_div(k + 1, p["CpaWidth"]),
    description="FCS-MM-1 (five-to-two CSA, BRFA, carry-save in/out) with a word-serial CPA to binary",
))

register(Core(
    name="fcs2_bin",
    family="radix2",
    paper="000 Sec. II-C (McIvor et al.'s FCS-MM-2); binary wrapper ours",
    top="mm_fcs_bin",
    rtl=FCS_BIN_RTL,
    model=radix2.fcs2_bin,
    params=FCS_BIN_PARAMS,
    fixed={"Variant": 2},
    model_args={"CpaWidth": "cpa_width"},
    r_log2=walter,
    # Constant: 1 precompute cycle (D = B + N), k+2 iterations, converter words.
    latency_bound=lambda k, p: 1 + (k + 2) + ceil_div(k + 1, p["CpaWidth"]),
    description="FCS-MM-2 (D = B + N in carry-save, four-to-two CSA) with a word-serial CPA to binary",
))

register(Core(
    name="mscs",
    family="radix2",
    paper="000 Fig. 7 (Sec. III-A), 001 Algorithm 3",
    top="mm_mscs",
    rtl=SHELL + MSCS_CELLS + ("radix2/mm_mscs.sv",),
    model=radix2.mscs,
    r_log2=walter,
    latency_bound=mscs_bound,
    data_dependent=True,
    description="MSCS-MM: one-level CSA for D = B + N, the k+2 iterations and the conversion",
))

register(Core(
    name="fcs_mmm42",
    family="radix2",
    paper="000 [10] (Kuang et al.), reconstructed: docs/radix2.md",
    top="mm_fcs_mmm42",
    rtl=SHELL + MSCS_CELLS + ("radix2/mm_fcs_mmm42.sv",),
    model=radix2.fcs_mmm42,
    r_log2=walter,
    latency_bound=fcs_mmm42_bound,
    data_dependent=True,
    description="FCS-MMM42 (reconstructed): 4:2 CSA, skipped iterations, binary interface with CSA conversion",
))

register(Core(
    name="scs_new",
    family="radix2",
    paper="000 Fig. 10/11, 001 Algorithm 4",
    top="mm_scs_new",
    rtl=SHELL + CSA_CELLS + ("radix2/mm_scs_new.sv",),
    model=radix2.scs_new,
    params={
        "SkipEnable": Param(1, 0, 1, "skip superfluous iterations"),
        "ConstTime": Param(0, 0, 1, "data-independent latency"),
    },
    model_args={"SkipEnable": "skip", "ConstTime": "const_time"},
    r_log2=walter,
    latency_bound=scs_new_bound,
    data_dependent=True,
    description="SCS-MM-New: one-level configurable CSA, skip detector, CSA format conversion",
    test_widths={"icarus": (8, 64), "verilator": (64, 256, 1024)},
))

register(Core(
    name="scs_new_ct",
    family="radix2",
    paper="000 Fig. 10/11, constant-time configuration (ours)",
    top="mm_scs_new",
    rtl=SHELL + CSA_CELLS + ("radix2/mm_scs_new.sv",),
    model=radix2.scs_new,
    params={
        "SkipEnable": Param(0, 0, 1, "skip superfluous iterations"),
        "ConstTime": Param(1, 0, 1, "data-independent latency"),
    },
    fixed={"ConstTime": 1, "SkipEnable": 0},
    model_args={"SkipEnable": "skip", "ConstTime": "const_time"},
    r_log2=walter,
    latency_bound=scs_new_bound,
    description="SCS-MM-New, constant time: no skips, worst-case-length precompute and conversion",
))

# The carry-save FCS cores (carry-save operand and result ports): what paper
# 000 measures as FCS-MM-1 / FCS-MM-2.  Their models take binary operands
# and return the binary value and latency of the carry-save result.
register(Core(
    name="fcs1",
    family="radix2",
    paper="000 Sec. II-C Fig. 5/6, 001 Algorithm 2",
    top="mm_fcs1",
    rtl=FCS1_CS_RTL,
    model=radix2.fcs1,
    r_log2=walter,
    latency_bound=lambda k, p: k + 2,
    description="FCS-MM-1: carry-save operands and result (not on the common interface)",
), unit=True)

register(Core(
    name="fcs2",
    family="radix2",
    paper="000 Sec. II-C (McIvor et al.'s FCS-MM-2)",
    top="mm_fcs2",
    rtl=FCS2_CS_RTL,
    model=radix2.fcs2,
    r_log2=walter,
    latency_bound=lambda k, p: 1 + k + 2,
    description="FCS-MM-2: carry-save operands and result (not on the common interface)",
), unit=True)


# ---------------------------------------------------------------------------
# Paper 004: word-level systolic and multiplexed systolic arrays,
# radix r = 2^w (WordWidth), m = ceil((k+2)/w) words, R = r^m > 4N, inputs
# and outputs in [0, 2N), N' = -N^-1 mod r computed in the core.
# docs/systolic.md.
# ---------------------------------------------------------------------------
SYSTOLIC_CTRL = SHELL + ("systolic/mm_sys_quot.sv", "systolic/mm_sys_ctrl.sv")
WORD_WIDTH = Param(16, systolic.WORD_WIDTH_MIN, systolic.WORD_WIDTH_MAX, "word width w: radix 2^w")
#: w = 16 on Icarus at 8 (one word) and 32 bits (3), on Verilator at 64 (5);
#: WordWidth 8 and 32 at each simulator's smallest width (Icarus k = 8: 2 and
#: 1 words; Verilator k = 64: 9 words in three arithmetic cores, and 3).
SYSTOLIC_TEST_WIDTHS = {"icarus": (8, 32), "verilator": (64,)}
SYSTOLIC_TEST_PARAMS = ({"WordWidth": 8}, {"WordWidth": 32})
#: one top, mm_systolic, for both arrays: each core pins Multiplexed; both
#: read every array module (a tool that elaborates mm_systolic with its
#: default parameters, as the formal flow's read_verilog does, needs them)
SYSTOLIC_RTL = SYSTOLIC_CTRL + ("systolic/mm_sys_pe.sv", "systolic/mm_sys_mulblk.sv", "systolic/mm_sys_mpe.sv",
                                "systolic/mm_sys_mpe_last.sv", "systolic/mm_sys_acore.sv", "systolic/mm_systolic.sv")
SYSTOLIC_PARAMS = {"WordWidth": WORD_WIDTH,
                   "Multiplexed": Param(0, 0, 1, "0: systolic array, 1: multiplexed systolic array")}


def systolic_r(k: int, p: Params, n: int) -> int:
    """R = 2^(w * ceil((k+2)/w)): whole words, 4N < R."""
    return systolic.r_log2(k, p["WordWidth"])


register(Core(
    name="systolic",
    family="systolic",
    paper="004 Sec. 4.1, Fig. 1-5 (reconstructed: docs/systolic.md)",
    top="mm_systolic",
    rtl=SYSTOLIC_RTL,
    model=systolic.systolic,
    params=SYSTOLIC_PARAMS,
    fixed={"Multiplexed": 0},
    model_args={"WordWidth": "word_width"},
    r_log2=systolic_r,
    # Exact (data independent): I Newton steps + 1 + 3(m-1) + m.
    latency_bound=lambda k, p: systolic.systolic_latency(k, p["WordWidth"]),
    description="Word-level systolic array: m PEs with two w x w multipliers each, quotient block, N' in the core",
    test_widths=SYSTOLIC_TEST_WIDTHS,
    test_params=SYSTOLIC_TEST_PARAMS,
))

register(Core(
    name="systolic_mux",
    family="systolic",
    paper="004 Sec. 4.2, Fig. 6-10 (reconstructed: docs/systolic.md)",
    top="mm_systolic",
    rtl=SYSTOLIC_RTL,
    model=systolic.systolic_mux,
    params=SYSTOLIC_PARAMS,
    fixed={"Multiplexed": 1},
    model_args={"WordWidth": "word_width"},
    r_log2=systolic_r,
    # Exact (data independent): I Newton steps + 1 + 4(m-1) + m + 1.
    latency_bound=lambda k, p: systolic.systolic_mux_latency(k, p["WordWidth"]),
    description="Multiplexed systolic array: ceil(m/4) arithmetic cores, one multiplier block per four one-adder PEs",
    test_widths=SYSTOLIC_TEST_WIDTHS,
    test_params=SYSTOLIC_TEST_PARAMS,
))


# ---------------------------------------------------------------------------
# Paper 003: redundant high-radix multiplier on DSP blocks.  mm_dsp_redundant
# keeps Interleave products in flight (responses in request order) on the
# shell mm_req_pipe; with Interleave = 1 on mm_req_ctrl.  docs/dsp.md.
# ---------------------------------------------------------------------------
DSP_RTL = SHELL + ("common/mm_req_pipe.sv", "dsp/mm_dsp_redundant.sv")
DSP_INTERLEAVE = Param(1, 1, 3, "products in flight (register stages per step)")
DSP_TEST_WIDTHS = {"icarus": (8, 64), "verilator": (64, 256)}


def dsp_r_log2(k: int, p: Params, n: int) -> int:
    # R = 2^(r1*(m+2)), m = ceil((k+1)/r1)
    return p["R1"] * (ceil_div(k + 1, p["R1"]) + 2)


def dsp_bound(k: int, p: Params) -> int:
    # constant latency (exact): Interleave * (P + m + 5)
    return p["Interleave"] * dsp.latency(k, p["R1"], p["R2"])


def dsp_check(k: int, p: Params) -> None:
    if not p["R2"] <= p["R1"] <= min(2 * p["R2"] - 4, 40):
        raise ValueError(f"mm_dsp_redundant: need R2 <= R1 <= min(2*R2-4, 40), got R1={p['R1']}, R2={p['R2']}")


register(Core(
    name="dsp_redundant",
    family="dsp",
    paper="003 Algorithm 1, Sec. III-A/IV (redundant radix-2^r, 24x17 DSPs); last iteration with N (docs/dsp.md)",
    top="mm_dsp_redundant",
    rtl=DSP_RTL,
    model=dsp.dsp_redundant,
    params={
        "R1": Param(22, 6, 40, "radix-2^R1 digits of A and the quotient: R2 .. min(2*R2-4, 40)"),
        "R2": Param(15, 6, 24, "radix-2^R2 redundant digits of B, M~, S"),
        "Interleave": DSP_INTERLEAVE,
    },
    model_args={"R1": "r1", "R2": "r2", "Interleave": "interleave"},
    check=dsp_check,
    r_log2=dsp_r_log2,
    latency_bound=dsp_bound,
    in_flight=lambda p: p["Interleave"],
    description="Paper 003: redundant radix-2^15 digits, 24x17 digit multipliers, Interleave products in flight",
    test_widths=DSP_TEST_WIDTHS,
))

register(Core(
    name="dsp_redundant_ecp5",
    family="dsp",
    paper="003, 18x18 configuration for ECP5 (ours): r1 = r2 = 16",
    top="mm_dsp_redundant",
    rtl=DSP_RTL,
    model=dsp.dsp_redundant,
    params={
        "R1": Param(16, 6, 40, "radix-2^R1 digits of A and the quotient"),
        "R2": Param(16, 6, 24, "radix-2^R2 redundant digits of B, M~, S"),
        "Interleave": DSP_INTERLEAVE,
    },
    fixed={"R1": 16, "R2": 16},
    model_args={"R1": "r1", "R2": "r2", "Interleave": "interleave"},
    check=dsp_check,
    r_log2=dsp_r_log2,
    latency_bound=dsp_bound,
    in_flight=lambda p: p["Interleave"],
    description="Paper 003 on 18x18 multipliers (ECP5): r1 = r2 = 16",
    test_widths={"icarus": (16,), "verilator": (64,)},
))


# ---------------------------------------------------------------------------
# Paper 002: scalable radix-4 Booth cores (docs/scalable.md).
# One build of Width serves every modulus up to it: the operand length is
# the modulus's bit length n, taken at run time, and so is the radix,
# R = 2^(2pk - 2) with k = ceil((n + 4) / 2p).
R4BOOTH_PARAMS = {
    "WordWidth": Param(16, 4, 64, "word width w: a power of two"),
    "NumPes": Param(2, 1, 256, "processing elements p"),
    "FifoLatency": Param(1, 1, 8, "FIFO latency b"),
    "ShiftLeft": Param(0, 0, 1, "0: right-shifting PEs, 1: left-shifting PEs (each core pins it)"),
}
R4BOOTH_RTL = SHELL + ("scalable/mm_r4booth_pe.sv", "scalable/mm_r4booth_mem.sv", "scalable/mm_r4booth_fifo.sv",
                       "scalable/mm_r4booth.sv")
R4BOOTH_ARGS = {"WordWidth": "word_width", "NumPes": "num_pes", "FifoLatency": "fifo_latency"}


def r4booth_check(kind: str) -> Callable[[int, Params], None]:
    def check(k: int, p: Params) -> None:
        w = p["WordWidth"]
        if w & (w - 1):
            raise ValueError(f"WordWidth={w} is not a power of two")
        if kind == "left" and (2 * p["NumPes"]) % w:
            raise ValueError(f"the left-shifting kernel needs 2*NumPes a multiple of WordWidth "
                             f"(NumPes={p['NumPes']}, WordWidth={w})")
    return check


def r4booth_r_log2(k: int, p: Params, n: int) -> int:
    return scalable.r_log2(k, n, p["WordWidth"], p["NumPes"])


def r4booth_bound(kind: str) -> Callable[[int, Params], int]:
    def bound(k: int, p: Params) -> int:
        # the latency grows with the modulus length: the worst case is n = k
        s = scalable.schedule(kind, k, p["WordWidth"], p["NumPes"], p["FifoLatency"])
        return 1 + s.finish
    return bound


register(Core(
    name="r4booth_right",
    family="scalable",
    paper="002 Figs. 2-5, Sec. IV-A, IV-C (right-shifting PE)",
    top="mm_r4booth",
    rtl=R4BOOTH_RTL,
    model=scalable.r4booth_right,
    params=R4BOOTH_PARAMS,
    fixed={"ShiftLeft": 0},
    model_args=R4BOOTH_ARGS,
    check=r4booth_check("right"),
    r_log2=r4booth_r_log2,
    latency_bound=r4booth_bound("right"),
    description="Scalable radix-4 Booth (paper 002), right-shifting PEs: run-time operand length n = len(N), "
    "(k-1)*max(e, 2p+b) + 2p + e cycles; the latency follows len(N), not A or B",
    test_widths={"icarus": (16, 64), "verilator": (64,)},
    # Case I (e >= 2p+b) from 6 bits on; both cases with FIFO latency 2 and 3
    test_params=({"WordWidth": 4, "NumPes": 1}, {"WordWidth": 8, "NumPes": 3, "FifoLatency": 2},
                 {"WordWidth": 4, "NumPes": 4, "FifoLatency": 3}),
))

register(Core(
    name="r4booth_left",
    family="scalable",
    paper="002 Figs. 2-3, 6, Sec. IV-B, IV-C (left-shifting PE)",
    top="mm_r4booth",
    rtl=R4BOOTH_RTL,
    model=scalable.r4booth_left,
    params={**R4BOOTH_PARAMS, "NumPes": Param(8, 1, 256, "processing elements p: 2p a multiple of w")},
    fixed={"ShiftLeft": 1},
    model_args=R4BOOTH_ARGS,
    check=r4booth_check("left"),
    r_log2=r4booth_r_log2,
    latency_bound=r4booth_bound("left"),
    description="Scalable radix-4 Booth (paper 002), left-shifting PEs (w | 2p): run-time operand length, "
    "(k-1)*max(e+1, p+2p/w+b) + p + 2p/w + e + 1 cycles; the latency follows len(N), not A or B",
    test_widths={"icarus": (16, 64), "verilator": (64,)},
    # a discarding PE in every pass (Case I from 9 bits); 1 or 3 discards per
    # pass with FIFO latency 2 and 3 (Case II for short moduli, I for long)
    test_params=({"WordWidth": 4, "NumPes": 2}, {"WordWidth": 8, "NumPes": 4, "FifoLatency": 2},
                 {"WordWidth": 4, "NumPes": 6, "FifoLatency": 3}),
))
# --- end paper 002 ---


# ---------------------------------------------------------------------------
# montmul's own: the ws word-serial systolic array (docs/ws.md) behind the
# wide-port adapter mm_ws (docs/ws_core.md): prep makes M from N, the array
# one product with the scaled modulus, redc E = w(d+1) + 1 radix-2 steps;
# R' = 2^(wm + E), m = ceil((k + w(d+1) + 2)/w), inputs and outputs in
# [0, 2N), the latency data independent.  NumPe = 0 and Chunks = 0 (the
# defaults) size the ring from the width (ws_core.build), so that the
# defaults are legal at every width, as the engines need (they fix a core's
# parameters for every Width they are built at).
# ---------------------------------------------------------------------------
WS_RTL = SHELL + ("common/mm_csa_row.sv", "common/mm_cs_halve.sv", "common/mm_cpa_fc.sv", "ws/mm_ws_mul.sv",
                  "ws/mm_ws_pe.sv", "ws/mm_ws_ring.sv", "ws/mm_ws_array.sv", "ws/mm_ws_prep.sv", "ws/mm_ws_redc.sv", "ws/mm_ws.sv")


WS_PARAMS = {
    "NumPe": Param(0, 0, ws_core.PES_MAX, "processing elements P: 3 .. 512; 0: the fewest for the laps "
                   "(one lap: m + 1)"),
    "WordWidth": Param(16, 2, ws_core.WORD_MAX, "word width w (the DSP multipliers' operands)"),
    "DspRegs": Param(3, 2, 3, "MULT18X18D registers: 2 or 3"),
    "LoopRegs": Param(0, 0, ws_core.LOOP_REGS_MAX, "transport registers; L = DspRegs + 3 + LoopRegs"),
    "Chunks": Param(0, 0, ws_core.CHUNKS_MAX, "laps c of the ring: 1 .. 4, c > 1 with P even and "
                    "gcd(P/2, c) = 1; 0: ceil((m+1)/P), or the fewest with 2cd >= L"),
    "QuotDelay": Param(4, ws_core.DELAY_MIN, ws_core.DELAY_MAX, "quotient delay d: 2cd >= L "
                       "(2cd = L: the quotient bypass)"),
}
WS_MODEL_ARGS = {"NumPe": "num_pe", "WordWidth": "word_width", "DspRegs": "dsp_regs", "LoopRegs": "loop_regs",
                 "Chunks": "chunks", "QuotDelay": "quot_delay"}


def ws_check(k: int, p: Params) -> None:
    """The build's ring exists and meets the array's rules (ws_core.build)."""
    ws_core.build_of(k, p)


register(Core(
    name="ws",
    family="ws",
    paper="none: montmul's own design (docs/ws.md, docs/ws_core.md)",
    top="mm_ws",
    rtl=WS_RTL,
    model=ws_core.core_model,
    params=WS_PARAMS,
    model_args=WS_MODEL_ARGS,
    check=ws_check,
    r_log2=ws_core.r_log2,
    # exact (data independent): prep + the array's loaded product + redc + glue
    latency_bound=ws_core.core_latency,
    description="Word-serial systolic ring of P DSP PEs (scaled modulus, delayed quotient) behind a "
    "wide-port adapter: M from N, one product, E radix-2 steps to [0, 2N)",
    test_widths={"icarus": (8, 64), "verilator": (64,)},
    # w = 8 with the quotient bypass (2cd = L = 6); two laps of a 6-PE ring
    # (k = 8: m = 6) with DspRegs = 2, LoopRegs = 2 (L = 7, 2cd = 8)
    test_params=({"WordWidth": 8, "QuotDelay": 3},
                 {"WordWidth": 4, "QuotDelay": 2, "Chunks": 2, "DspRegs": 2, "LoopRegs": 2}),
    # a product takes 100-250 cycles at the test widths (Icarus: about 0.1 s
    # at k = 8): 64 random products at k = 8, 8 at k = 64, beside the
    # suite's directed ones
    test_random=512,
))

# ws_ecp5: the same RTL with the ring's word multipliers as the ECP5's
# MULT18X18D primitive (rtl/ws/mm_ws_mul.sv under MM_ECP5_DSP, as the
# array's place-and-route proxy reads it, scripts/ws_proxy.py), not inferred
# DSPs: its ECP5 synthesis defines MM_ECP5_DSP; every simulation and the other
# targets read ws's RTL unchanged (the behavioural twin), so its benches are
# ws's.
register(Core(
    name="ws_ecp5",
    family="ws",
    paper="none: montmul's own design (docs/ws.md, docs/ws_core.md)",
    top="mm_ws",
    rtl=WS_RTL,
    model=ws_core.core_model,
    params=WS_PARAMS,
    model_args=WS_MODEL_ARGS,
    check=ws_check,
    r_log2=ws_core.r_log2,
    # exact (data independent): prep + the array's loaded product + redc + glue
    latency_bound=ws_core.core_latency,
    description="ws on the ECP5's MULT18X18D primitive (synthesized with MM_ECP5_DSP; simulates as ws)",
    test_widths={"icarus": (8,), "verilator": (64,)},
    # a product takes 100-250 cycles at the test widths (Icarus: about 0.1 s
    # at k = 8): 64 random products at k = 8, 8 at k = 64, beside the
    # suite's directed ones
    test_random=512,
    synth_defines={"ecp5": ("MM_ECP5_DSP",)},
))
