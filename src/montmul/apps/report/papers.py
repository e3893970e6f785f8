# SPDX-License-Identifier: Apache-2.0
"""The source papers' published figures, as data, with where each comes from.

Only numbers that survived the text extraction in ``../shared/papers`` are
here; a value derived from a published ratio says so in its ``source``.
Technology: paper 000 synthesized with Synopsys Design Compiler on TSMC
90 nm and placed and routed with Cadence SoC Encounter (post-layout delay);
paper 002 used Synplify Pro on a Xilinx XC2V2000-6 Virtex-II, paper 003 a
Virtex-7, paper 004 Virtex-4/-5.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...models import scalable as _scalable

TECH_000 = "TSMC 90 nm standard cells, Synopsys DC + Cadence SoC Encounter, post-layout delay"
TECH_002 = "Xilinx XC2V2000-6 Virtex-II (4-input LUTs), Synplify Pro"
TECH_003 = "Xilinx Virtex-7 (6-input LUTs, DSP48E1 24x17 use)"
TECH_004 = "Xilinx Virtex-4 / Virtex-5 (DSP48, Block RAM)"


@dataclass(frozen=True)
class AsicPoint:
    """One design of paper 000's Table III at one width."""

    label: str  #: the report's row label (report.table3.ROWS)
    cycles: float
    delay_ns: float
    area_um2: float
    source: str

    @property
    def time_us(self) -> float:
        return self.cycles * self.delay_ns / 1e3

    def throughput_mbps(self, width: int) -> float:
        return width * 1e3 / (self.cycles * self.delay_ns)

    @property
    def atp(self) -> float:
        return self.area_um2 * self.time_us


_T001 = "paper 001 Table I, reprinting paper 000's 1024-bit Table III column"

# SCS-MM-New relative to FCS-MMM42 and FCS-MM-1 (paper 000, Sec. IV-B and IV-A).
RATIO_NEW_VS_MMM42 = {
    1024: {"delay": -28.1, "area": -33.5, "throughput": +29.8, "atp": -48.8},
    2048: {"delay": -22.4, "area": -34.4, "throughput": +21.5, "atp": -46.0},
}
CYCLES_NEW_VS_FCS1 = {1024: -14.5, 2048: -15.5}

_MMM42_1024 = AsicPoint("FCS-MMM42", 822, 5.56, 749076, _T001)

#: Paper 000's Table III at 1024 bits (2048-bit absolute values did not
#: survive; only the ratios above).
ASIC_000: dict[int, list[AsicPoint]] = {
    1024: [
        AsicPoint("SCS-MM-1(32)", 1072, 4.93, 487171, _T001 + " (printed as SCS-MM-1; taken as the 32-bit CPA variant)"),
        AsicPoint("SCS-MM-2", 1049, 5.60, 406127, _T001),
        AsicPoint("FCS-MM-1", 1029, 5.80, 518214, _T001),
        AsicPoint("FCS-MM-2", 1029, 6.01, 677121, _T001),
        _MMM42_1024,
        AsicPoint(
            "SCS-MM-New",
            1029 * (1 + CYCLES_NEW_VS_FCS1[1024] / 100),
            _MMM42_1024.delay_ns * (1 + RATIO_NEW_VS_MMM42[1024]["delay"] / 100),
            _MMM42_1024.area_um2 * (1 + RATIO_NEW_VS_MMM42[1024]["area"] / 100),
            "derived from paper 000's ratios: cycles -14.5 % vs FCS-MM-1, delay -28.1 % and area "
            "-33.5 % vs FCS-MMM42",
        ),
    ],
}

#: Paper 000's normalized critical paths (Sec. IV-A, in full-adder delays of
#: its TSMC 90 nm library).
DELAY_FA_000 = {"SCS-MM-New": 2.17, "FCS-MMM42": 2.71}

#: Paper 001's own FPGA figures for SCS-MM-New (Xilinx, device not named).
FPGA_001 = {"delay_ns": 2.5, "slices": 245, "cycles": 10, "throughput_mbps": 387.78,
            "note": "paper 001 abstract and Table I; the width is not stated (its example is 32-bit) "
                    "and its printed time (8.2519 us) does not follow from 10 cycles x 2.5 ns"}


@dataclass(frozen=True)
class FpgaPoint:
    paper: str
    design: str
    device: str
    width: int  #: operand width n the figures are for
    luts: int | None
    ffs: int | None
    dsps: int | None
    fmax_mhz: float
    cycles: int | None = None  #: per multiplication, when printed
    mult_ns: float | None = None  #: latency of one multiplication, when printed
    exp_ms: float | None = None  #: one n-bit modular exponentiation
    note: str = ""


_002 = "paper 002 Table III (kernel + controller; exponentiation = 2n+2 multiplications)"

#: paper 002 Table II as printed: (shift, w) -> (4-input LUTs/PE, registers/PE, clock MHz)
TABLE2_002: dict[tuple[str, int], tuple[int, int, int]] = {
    ("right", 4): (50, 49, 259),
    ("right", 8): (91, 87, 249),
    ("right", 16): (154, 149, 248),
    ("left", 4): (54, 41, 216),
    ("left", 8): (102, 60, 213),
    ("left", 16): (176, 89, 186),
}
#: paper 002 Table III's resources (w = 16): (shift, p) -> (LUTs, REGs); its
#: clocks and exponentiation times are montmul.models.scalable.TABLE3
TABLE3_002: dict[tuple[str, int], tuple[int, int]] = {
    ("right", 16): (3069, 2640),
    ("right", 32): (5959, 5079),
    ("right", 64): (11853, 10292),
    ("left", 16): (2469, 1458),
    ("left", 32): (4852, 2887),
    ("left", 64): (9637, 5690),
}
_003 = "paper 003 Table I"

FPGA_PAPERS: list[FpgaPoint] = [
    # paper 002: parallel radix-4 scalable Booth (w = 16, v = 2), p PEs
    *[FpgaPoint("002", f"radix-4 Booth {kind}-shift, p={p}", "Virtex-II", n, *TABLE3_002[(kind, p)], 0, mhz,
                exp_ms=float(t), note=_002)
      for kind, mhz, w, p, n, t in _scalable.TABLE3],
    *[FpgaPoint("002", design, "Virtex-II", n, luts, regs, 0, f, exp_ms=t, note=_002)
      for design, f, luts, regs, times in (
          ("radix-4 non-Booth [6], p=32", 248, 4997, 4051, (0.38, 9.4)),
          ("radix-2 scalable [12], p=64", 318, 6006, 4597, (0.66, 8.0)),
          ("improved radix-2 scalable [3], p=64", 285, 6317, 4844, (0.62, 8.4)))
      for n, t in zip((256, 1024), times)],
    # paper 003: DSP-based high radix, 1-3 interleaved multiplications
    *[FpgaPoint("003", f"DSP high-radix, {m} interleaved", "Virtex-7", n, luts, ffs, dsp, f, cyc, ns, note=_003)
      for n, m, dsp, luts, ffs, f, cyc, ns in (
          (256, 1, 40, 1635, 736, 93.23, 15, 160.89), (256, 2, 40, 2159, 2140, 153.4, 31, 101.0),
          (256, 3, 40, 2480, 3565, 207.10, 47, 76.6), (504, 1, 72, 2931, 1248, 85.47, 26, 304.2),
          (504, 2, 72, 3811, 3712, 149.4, 53, 177.36), (504, 3, 72, 4291, 6194, 209.2, 80, 127.47))],
]

#: Paper 004's RSA-1024 decryption times (its resource tables did not survive).
RSA_004 = {"systolic": 3.23, "multiplexed": 4.36, "device": "Virtex-4/-5",
           "note": "paper 004 Sec. 6: 1024-bit RSA decryption, left-to-right square-and-multiply"}
#: Paper 004's other surviving claims (abstract and Sec. 7).
P004_CLAIMS = {"saving_percent": 28,  # abstract: the multiplexed core "saves up to 28% of logical resources"
               "ladder_claim": "33% faster than square and multiply algorithm"}  # Sec. 7, Montgomery powering ladder
