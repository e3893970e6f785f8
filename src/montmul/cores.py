# SPDX-License-Identifier: Apache-2.0
"""The registry of montmul cores.

One :class:`Core` entry per RTL core.  Tests, the CLI, synthesis, benchmarks
and reports iterate over :data:`CORES`; adding a core means writing its RTL,
its model and one entry here.
"""

from __future__ import annotations

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
    latency_bound: Callable[[int], int] | None = None  #: worst-case cycles for width k
    description: str = ""
    hdl_overrides: dict[str, int] = field(default_factory=dict)  #: fixed HDL params
    model_kwargs: dict[str, object] = field(default_factory=dict)  #: fixed model kwargs
    #: HDL parameter -> model keyword argument, for parameters that change
    #: what the model computes (e.g. SkipEnable -> skip)
    model_params: dict[str, str] = field(default_factory=dict)
    widths: tuple[int, ...] = (8, 16, 64, 256)  #: widths the test suite runs

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
# --- end SCS-MM-1 / SCS-MM-2 ---

# --- issue 3 entries: FCS-MM-1 / FCS-MM-2 (owner: fcs helper) ---
# --- end FCS-MM-1 / FCS-MM-2 ---

# --- issue 3 entries: MSCS-MM / FCS-MMM42 (owner: mscs helper) ---
# --- end MSCS-MM / FCS-MMM42 ---


def get(name: str) -> Core:
    try:
        return CORES[name]
    except KeyError:
        raise KeyError(f"unknown core {name!r}; known cores: {', '.join(sorted(CORES))}") from None
