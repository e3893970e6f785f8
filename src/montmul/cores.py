# SPDX-License-Identifier: Apache-2.0
"""The registry of montmul cores.

One :class:`Core` entry per RTL core.  Tests, the CLI, synthesis, benchmarks
and reports iterate over :data:`CORES`; adding a core means writing its RTL,
its model and one entry here.
"""

from __future__ import annotations

import dataclasses

import inspect
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from .models import MMResult, radix2

#: Repository root (the RTL lives in ``rtl/`` beside ``src/``).
ROOT = Path(__file__).resolve().parents[2]
RTL = ROOT / "rtl"


@dataclass(frozen=True)
class Param:
    """An HDL parameter: its default and legal range (inclusive)."""

    default: int
    lo: int
    hi: int
    doc: str = ""

    def check(self, name: str, value: int) -> None:
        if not self.lo <= value <= self.hi:
            raise ValueError(f"parameter {name}={value} outside its legal range [{self.lo}, {self.hi}]")


@dataclass(frozen=True)
class Core:
    """Everything the tooling needs to know about one core."""

    name: str  #: RTL module name without its ``mm_`` prefix
    family: str
    paper: str  #: source paper file (in ../shared/papers) and figure
    rtl: tuple[str, ...]  #: RTL files relative to ``rtl/``, dependencies first
    model: Callable[..., MMResult]  #: model(a, b, n, width, **model_kwargs)
    params: dict[str, Param]  #: HDL parameters; ``Width`` is the modulus width k
    r_log2: Callable[[int], int]  #: log2 of the Montgomery radix R for width k
    in_bound: int = 2  #: operands accepted in [0, in_bound*N)
    out_bound: int = 2  #: results in [0, out_bound*N)
    data_dependent: bool = False  #: latency depends on the operand values
    #: worst-case cycles: f(k) or f(k, hdl_params) for bounds that depend on
    #: parameters; call :meth:`bound`
    latency_bound: Callable[..., int] | None = None
    description: str = ""
    hdl_overrides: dict[str, int] = field(default_factory=dict)  #: fixed HDL params
    model_kwargs: dict[str, object] = field(default_factory=dict)  #: fixed model kwargs
    #: HDL parameter -> model keyword argument, for parameters that change
    #: what the model computes (e.g. SkipEnable -> skip)
    model_params: dict[str, str] = field(default_factory=dict)
    widths: tuple[int, ...] = (8, 16, 64, 256)  #: widths the test suite runs
    #: R that depends on the modulus: f(width, n, hdl_params) -> log2 R
    #: (scalable cores); None: R = 2^r_log2(width)
    r_log2_n: Callable[[int, int, dict[str, int]], int] | None = None

    @property
    def top(self) -> str:
        """Top-level RTL module: the last RTL file's name."""
        return Path(self.rtl[-1]).stem

    @property
    def is_config(self) -> bool:
        """A configuration of another core's module (fixed HDL overrides),
        named ``<module without mm_>_<suffix>``."""
        return bool(self.hdl_overrides)

    def sources(self) -> list[Path]:
        return [RTL / f for f in self.rtl]

    def includes(self) -> list[Path]:
        """Include directories (shared headers live in rtl/common)."""
        return [RTL / "common"]

    def hdl_params(self, width: int, **extra: int) -> dict[str, int]:
        """HDL parameters for one build, checked against their legal ranges."""
        values = {k: p.default for k, p in self.params.items()}
        values["Width"] = width
        values.update(extra)
        values.update(self.hdl_overrides)
        for k, v in values.items():
            if k in self.params:
                self.params[k].check(k, v)
        return values

    def bound(self, width: int, params: dict[str, int] | None = None) -> int | None:
        """Worst-case latency at ``width`` for the HDL parameters ``params``."""
        if self.latency_bound is None:
            return None
        if len(inspect.signature(self.latency_bound).parameters) >= 2:
            return self.latency_bound(width, self.hdl_params(width, **(params or {})))
        return self.latency_bound(width)

    def rlog2(self, width: int, n: int, params: dict[str, int] | None = None) -> int:
        """log2 of R for modulus ``n`` on a build of ``width`` (scalable cores'
        R follows the modulus length; the others' depends on width alone)."""
        if self.r_log2_n is not None:
            return self.r_log2_n(width, n, self.hdl_params(width, **(params or {})))
        return self.r_log2(width)

    def run_model(self, a: int, b: int, n: int, width: int, params: dict[str, int] | None = None) -> MMResult:
        """The model's answer for one request, for the HDL parameters
        ``params`` (defaults and this entry's overrides where not given)."""
        hdl = self.hdl_params(width, **(params or {}))
        kwargs = dict(self.model_kwargs)
        for hdl_name, kw in self.model_params.items():
            kwargs[kw] = hdl[hdl_name]
        return self.model(a, b, n, width, **kwargs)


COMMON = ("common/mm_in_check.sv",)
CSA_CELLS = ("common/mm_cfa_row.sv", "common/mm_sm3.sv", "common/mm_skip_d.sv")


def _r_walter(k: int) -> int:
    return k + 2


def _scs_new_bound(k: int) -> int:
    # precompute: 2H steps until SC = 0 on a (k+5)-bit pair halve nothing
    # worst case, a carry chain of k+5 bits needs ceil((k+5)/2) steps, +1
    # detecting cycle; loop: k+6 iterations; conversion likewise.
    chain = -(-(k + 5) // 2) + 1
    return chain + (k + 6) + chain


CORES: dict[str, Core] = {}


def register(core: Core) -> Core:
    if core.name in CORES:
        raise ValueError(f"core {core.name!r} registered twice")
    CORES[core.name] = core
    return core


register(
    Core(
        name="r2_basic",
        family="radix2",
        paper="000 Fig. 1 (Walter's k+2 iterations)",
        rtl=COMMON + ("radix2/mm_r2_basic.sv",),
        model=radix2.basic,
        params={
            "Width": Param(32, 3, 8192, "modulus width k"),
            "CheckRange": Param(1, 0, 1, "reject operands >= 2N"),
        },
        r_log2=_r_walter,
        latency_bound=lambda k: k + 2,
        description="Reference radix-2 MM: binary, one carry-propagate adder, k+2 cycles",
        widths=(8, 16, 64, 256, 1024),
    )
)

register(
    Core(
        name="scs_new",
        family="radix2",
        paper="000 Fig. 10/11, 001 Algorithm 4",
        rtl=COMMON + CSA_CELLS + ("radix2/mm_scs_new.sv",),
        model=radix2.scs_new,
        params={
            "Width": Param(32, 3, 8192, "modulus width k"),
            "CheckRange": Param(1, 0, 1, "reject operands >= 2N"),
            "SkipEnable": Param(1, 0, 1, "skip superfluous iterations"),
            "ConstTime": Param(0, 0, 1, "data-independent latency"),
        },
        r_log2=_r_walter,
        data_dependent=True,
        latency_bound=_scs_new_bound,
        model_params={"SkipEnable": "skip", "ConstTime": "const_time"},
        description="SCS-MM-New: one-level configurable CSA, skip detector, CSA format conversion",
        widths=(8, 16, 64, 256, 1024),
    )
)


register(
    Core(
        name="scs_new_ct",
        family="radix2",
        paper="000 Fig. 10/11, constant-time configuration (ours)",
        rtl=COMMON + CSA_CELLS + ("radix2/mm_scs_new.sv",),
        model=radix2.scs_new,
        params={
            "Width": Param(32, 3, 8192, "modulus width k"),
            "CheckRange": Param(1, 0, 1, "reject operands >= 2N"),
        },
        hdl_overrides={"ConstTime": 1, "SkipEnable": 0},
        r_log2=_r_walter,
        data_dependent=False,
        latency_bound=_scs_new_bound,
        model_params={"ConstTime": "const_time", "SkipEnable": "skip"},
        description="SCS-MM-New, constant time: no skips, worst-case-length precompute and conversion",
        widths=(8, 16, 64, 256, 1024),
    )
)

# --- issue 3 entries: SCS-MM-1 / SCS-MM-2 (owner: scs helper) ---
SCS_LOOP = ("common/mm_csa_row.sv", "radix2/mm_scs_csa2.sv")


def _scs1_bound(k: int, params: dict[str, int]) -> int:
    # k+2 iterations, then one CPA_FC word per cycle: ceil((k+1)/w) words.
    return k + 2 + -(-(k + 1) // params["CpaWidth"])


def _scs2_bound(k: int) -> int:
    # k+2 iterations, then double half-adder steps until SC = 0 plus the
    # detecting cycle.  SS + SC < 2^(k+1) holds throughout, so SC < 2^(k+1),
    # and after m half-adder steps the low m bits of SC are zero: at most
    # k+1 half-adder steps, ceil((k+1)/2) cycles, + 1 detecting cycle.
    return k + 2 + -(-(k + 1) // 2) + 1


register(
    Core(
        name="scs1",
        family="radix2",
        paper="000 Fig. 2/3, 001 Algorithm 1",
        rtl=COMMON + SCS_LOOP + ("common/mm_cpa_fc.sv", "radix2/mm_scs1.sv"),
        model=radix2.scs1,
        params={
            "Width": Param(32, 3, 8192, "modulus width k"),
            "CheckRange": Param(1, 0, 1, "reject operands >= 2N"),
            "CpaWidth": Param(32, 4, 256, "CPA_FC word width w"),
        },
        r_log2=_r_walter,
        latency_bound=_scs1_bound,
        model_params={"CpaWidth": "cpa_width"},
        description="SCS-MM-1: two-level CSA loop, word-serial CPA format converter (CPA_FC)",
        widths=(8, 16, 64, 256, 1024),
    )
)

register(
    Core(
        name="scs2",
        family="radix2",
        paper="000 Fig. 4",
        rtl=COMMON + SCS_LOOP + ("radix2/mm_scs2.sv",),
        model=radix2.scs2,
        params={
            "Width": Param(32, 3, 8192, "modulus width k"),
            "CheckRange": Param(1, 0, 1, "reject operands >= 2N"),
        },
        r_log2=_r_walter,
        data_dependent=True,
        latency_bound=_scs2_bound,
        description="SCS-MM-2: two-level CSA loop, reused for the conversion until SC = 0",
        widths=(8, 16, 64, 256, 1024),
    )
)
# --- end SCS-MM-1 / SCS-MM-2 ---

# --- issue 3 entries: FCS-MM-1 / FCS-MM-2 (owner: fcs helper) ---
# The carry-save cores mm_fcs1 / mm_fcs2 (carry-save operand and result
# ports) are not on the common interface and are not registered; their own
# benches (tb/mm_fcs1, tb/mm_fcs2) build them from these file lists.  The
# registered cores are the binary wrappers: (A, 0), (B, 0) in, and the
# carry-save result converted by a word-serial CPA (mm_cs2bin with SCS-MM-1's
# mm_cpa_fc).
FCS1_CS_RTL = COMMON + ("common/mm_csa_row.sv", "common/mm_brfa.sv", "radix2/mm_fcs1.sv")
FCS2_CS_RTL = COMMON + (
    "common/mm_csa_row.sv", "common/mm_sm3.sv", "common/mm_brfa.sv", "radix2/mm_fcs2.sv",
)
FCS_CS2BIN = ("common/mm_cpa_fc.sv", "common/mm_cs2bin.sv")
FCS_CPA = Param(32, 4, 256, "word width w of the binary converter's CPA")


def _fcs_words(k: int, params: dict[str, int]) -> int:
    # The converter adds one w-bit word per cycle over the k+1 result bits.
    return -(-(k + 1) // params["CpaWidth"])


def _fcs1_bin_bound(k: int, params: dict[str, int]) -> int:
    # Constant latency (the bound is exact): k+2 iterations (A_0 is ready at
    # the accepting edge), then ceil((k+1)/w) converter words.
    return (k + 2) + _fcs_words(k, params)


def _fcs2_bin_bound(k: int, params: dict[str, int]) -> int:
    # Constant latency (exact): 1 precompute cycle (D = B + N), k+2
    # iterations, then ceil((k+1)/w) converter words.
    return 1 + (k + 2) + _fcs_words(k, params)


register(
    Core(
        name="fcs1_bin",
        family="radix2",
        paper="000 Sec. II-C Fig. 5/6, 001 Algorithm 2; binary wrapper ours",
        rtl=FCS1_CS_RTL + FCS_CS2BIN + ("radix2/mm_fcs1_bin.sv",),
        model=radix2.fcs1_bin,
        params={
            "Width": Param(32, 3, 8192, "modulus width k"),
            "CheckRange": Param(1, 0, 1, "reject operands >= 2N"),
            "CpaWidth": FCS_CPA,
        },
        r_log2=_r_walter,
        latency_bound=_fcs1_bin_bound,
        model_params={"CpaWidth": "cpa_width"},
        description="FCS-MM-1 (five-to-two CSA, BRFA, carry-save in/out) with a word-serial CPA to binary",
        widths=(8, 16, 64, 256, 1024),
    )
)

register(
    Core(
        name="fcs2_bin",
        family="radix2",
        paper="000 Sec. II-C (McIvor et al.'s FCS-MM-2); binary wrapper ours",
        rtl=FCS2_CS_RTL + FCS_CS2BIN + ("radix2/mm_fcs2_bin.sv",),
        model=radix2.fcs2_bin,
        params={
            "Width": Param(32, 3, 8192, "modulus width k"),
            "CheckRange": Param(1, 0, 1, "reject operands >= 2N"),
            "CpaWidth": FCS_CPA,
        },
        r_log2=_r_walter,
        latency_bound=_fcs2_bin_bound,
        model_params={"CpaWidth": "cpa_width"},
        description="FCS-MM-2 (D = B + N in carry-save, four-to-two CSA) with a word-serial CPA to binary",
        widths=(8, 16, 64, 256, 1024),
    )
)
# --- end FCS-MM-1 / FCS-MM-2 ---

# --- issue 3 entries: MSCS-MM / FCS-MMM42 (owner: mscs helper) ---
MSCS_CELLS = ("common/mm_csa_row.sv", "common/mm_sm3.sv")


def _mscs_bound(k: int) -> int:
    # Each half-adder step's carry word is (SS & SC) << 1, so after t steps
    # the low t bits of SC are zero, and SC <= SS + SC.  Precompute: SS + SC
    # = D < 3N < 2^(k+2), so SC is nonzero only for t <= k+1: at most k+2
    # steps, +1 detecting cycle.  Loop: k+2 cycles.  Conversion: S < 2N <
    # 2^(k+1): at most k+1 steps, +1 detecting cycle.
    return (k + 3) + (k + 2) + (k + 2)


def _fcs_mmm42_bound(k: int) -> int:
    # 1 precompute cycle; at most k+2 loop cycles (no skip).  Conversion:
    # two half-adder steps per cycle, so after t cycles the low 2t bits of
    # SC are zero; S < 2N < 2^(k+1) leaves SC nonzero only for 2t <= k: at
    # most k//2 + 1 cycles of steps, +1 detecting cycle.
    return 1 + (k + 2) + (k // 2 + 1) + 1


register(
    Core(
        name="mscs",
        family="radix2",
        paper="000 Fig. 7 (Sec. III-A), 001 Algorithm 3",
        rtl=COMMON + MSCS_CELLS + ("radix2/mm_mscs.sv",),
        model=radix2.mscs,
        params={
            "Width": Param(32, 3, 8192, "modulus width k"),
            "CheckRange": Param(1, 0, 1, "reject operands >= 2N"),
        },
        r_log2=_r_walter,
        data_dependent=True,
        latency_bound=_mscs_bound,
        description="MSCS-MM: one-level CSA for D = B + N, the k+2 iterations and the conversion",
        widths=(8, 16, 64, 256, 1024),
    )
)

register(
    Core(
        name="fcs_mmm42",
        family="radix2",
        paper="000 [10] (Kuang et al.), reconstructed: docs/radix2.md",
        rtl=COMMON + MSCS_CELLS + ("radix2/mm_fcs_mmm42.sv",),
        model=radix2.fcs_mmm42,
        params={
            "Width": Param(32, 3, 8192, "modulus width k"),
            "CheckRange": Param(1, 0, 1, "reject operands >= 2N"),
        },
        r_log2=_r_walter,
        data_dependent=True,
        latency_bound=_fcs_mmm42_bound,
        description="FCS-MMM42 (reconstructed): 4:2 CSA, skipped iterations, binary interface with CSA conversion",
        widths=(8, 16, 64, 256, 1024),
    )
)
# --- end MSCS-MM / FCS-MMM42 ---


def get(name: str) -> Core:
    if name in SCALABLE:  # see the scalable block at the end of this file
        return SCALABLE[name]
    try:
        return CORES[name]
    except KeyError:
        known = sorted(CORES) + sorted(SCALABLE)
        raise KeyError(f"unknown core {name!r}; known cores: {', '.join(known)}") from None


# --- Units: synthesizable cores that are not on the common interface ---
# The carry-save cores mm_fcs1 / mm_fcs2 are what paper 000 measures as
# FCS-MM-1 / FCS-MM-2 (no conversion to binary).  Their benches
# (tb/mm_fcs1, tb/mm_fcs2) and the synthesis report build them from these
# descriptors, derived from the wrapper's entry; they are not in CORES
# because they do not have the common ports.
_UNITS = {
    # name: (RTL files, binary-operand cycle model, latency bound)
    "fcs1": (FCS1_CS_RTL, radix2.fcs1, lambda k: k + 2),
    "fcs2": (FCS2_CS_RTL, radix2.fcs2, lambda k: 1 + k + 2),
}
UNITS = tuple(_UNITS)


def unit(name: str) -> Core:
    """Descriptor of the carry-save core ``name`` (``fcs1`` or ``fcs2``)."""
    if name not in _UNITS:
        raise KeyError(f"unknown unit {name!r}; known units: {', '.join(UNITS)}")
    rtl, model, bound = _UNITS[name]
    wrapper = get(f"{name}_bin")
    return dataclasses.replace(
        wrapper,
        name=name,
        rtl=rtl,
        model=model,
        params={k: wrapper.params[k] for k in ("Width", "CheckRange")},
        model_params={},
        latency_bound=bound,
        description=f"{name}: carry-save operands and result (not on the common interface)",
    )


def lookup(name: str) -> Core:
    """A registered core, or a unit (for synthesis and unit benches)."""
    if name in CORES or name not in _UNITS:
        return get(name)
    return unit(name)


# --- Paper 002: scalable radix-4 Booth cores (docs/scalable.md) -------------
# Their Montgomery radix follows the modulus length at run time
# (R = 2^(2pk-2), k = ceil((len(N)+4)/2p)), so they live in SCALABLE, not in
# CORES: the loops over CORES (modexp's R^2, the CLI listing, leak, RSA)
# still assume R = 2^r_log2(width).  get() finds them; Core.rlog2(width, n,
# params) gives their R.  r_log2(width) is R for a full-width modulus only.
from .models import scalable as _scalable  # noqa: E402

SCALABLE: dict[str, Core] = {}


def _r4booth_bound(kind: str):
    def bound(k: int, p: dict[str, int]) -> int:
        # latency grows with the modulus length: the worst case is len(N) = k
        s = _scalable.schedule(kind, k, p["WordWidth"], p["NumPes"], p["FifoLatency"])
        return 1 + s.finish
    return bound


def _r4booth_rlog2(k: int, n: int, p: dict[str, int]) -> int:
    return _scalable.r_log2(k, n, p["WordWidth"], p["NumPes"])


_R4BOOTH_PARAMS = {
    "Width": Param(64, 3, 4096, "largest modulus width"),
    "WordWidth": Param(16, 4, 64, "word width w (a power of two)"),
    "NumPes": Param(2, 1, 256, "processing elements p"),
    "FifoLatency": Param(1, 1, 8, "FIFO latency b"),
    "CheckRange": Param(1, 0, 1, "reject operands >= 2N"),
}
_R4BOOTH_MODEL_PARAMS = {"WordWidth": "word_width", "NumPes": "num_pes", "FifoLatency": "fifo_latency"}

SCALABLE["r4booth_right"] = Core(
    name="r4booth_right",
    family="scalable",
    paper="002 Figs. 2-5, Sec. IV-A (right-shifting PE)",
    rtl=("common/mm_in_check.sv", "common/mm_req_ctrl.sv", "scalable/mm_r4booth_right_pe.sv",
         "scalable/mm_r4booth_fifo.sv", "scalable/mm_r4booth_right.sv"),
    model=_scalable.r4booth_right,
    params=_R4BOOTH_PARAMS,
    r_log2=lambda k: _scalable.geometry(k, 16, 2).r_log2,
    r_log2_n=_r4booth_rlog2,
    latency_bound=_r4booth_bound("right"),
    model_params=_R4BOOTH_MODEL_PARAMS,
    description="Scalable radix-4 Booth (paper 002), right-shifting PEs: run-time operand length, "
    "(k-1)*max(e,2p+b) + 2p + e cycles; latency follows len(N), not A or B",
    widths=(16, 64),
)
SCALABLE["r4booth_left"] = Core(
    name="r4booth_left",
    family="scalable",
    paper="002 Figs. 2-3, 6, Sec. IV-B (left-shifting PE)",
    rtl=("common/mm_in_check.sv", "common/mm_req_ctrl.sv", "scalable/mm_r4booth_left_pe.sv",
         "scalable/mm_r4booth_fifo.sv", "scalable/mm_r4booth_left.sv"),
    model=_scalable.r4booth_left,
    params={**_R4BOOTH_PARAMS, "NumPes": Param(8, 1, 256, "processing elements p (2p a multiple of w)")},
    r_log2=lambda k: _scalable.geometry(k, 16, 8).r_log2,
    r_log2_n=_r4booth_rlog2,
    latency_bound=_r4booth_bound("left"),
    model_params=_R4BOOTH_MODEL_PARAMS,
    description="Scalable radix-4 Booth (paper 002), left-shifting PEs (w | 2p): run-time operand length, "
    "(k-1)*max(e+1,p+2p/w+b) + p + 2p/w + e + 1 cycles; latency follows len(N), not A or B",
    widths=(16, 64),
)
# --- end paper 002 ---
