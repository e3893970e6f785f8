// SPDX-License-Identifier: Apache-2.0
//
// mm_len_check: does e_i have a set bit at or above position len_i?  The
// exponent-length check of the engines' requests (mm_modexp, mm_modexp_crt:
// an exponent longer than the length it declares is rejected).
//
//   above_o = |(e_i & hi_mask),  hi_mask[i] = (i >= len_i)
//
// Why not that mask as written: it is Width comparators of a constant with
// len_i, and Yosys maps each to a short carry chain.  Measured with
// `synth_ecp5` at Width 1024 (docs/modexp.md, "Hardware notes"): 4,763 CCU2C
// and 711 LUT4, about 10,200 LUT sites for one exponent, more than a third of
// what mm_modexp adds to a 1024-bit core; this module: 1,366 LUT4, 80 CCU2C,
// 183 PFUMX/L6MUX21.
//
// How: len_i = 32*hi + lo.  In groups of 32 bits, a group above group hi
// counts whole (is any bit set), group hi counts its bits at or above lo
// (a multiplexer picks the group, a 32-bit mask from lo), groups below hi not
// at all.  For Width < 32 (LenW <= 5) the mask is built directly.
//
// Purely combinational.  len_i may exceed Width (then above_o = 0); callers
// reject such lengths themselves.
`include "mm_macros.svh"

module mm_len_check #(
  parameter int Width = 32,                 // bits of e_i, >= 1
  parameter int LenW  = $clog2(Width + 1)   // bits of len_i, >= $clog2(Width + 1)
) (
  input  logic [Width-1:0] e_i,
  input  logic [LenW-1:0]  len_i,
  output logic             above_o
);

  if (Width < 1 || LenW < $clog2(Width + 1) || LenW > 31) begin : gen_bad_width
    `MM_FATAL("mm_len_check: need Width >= 1 and $clog2(Width + 1) <= LenW <= 31")
  end

  localparam int LoW = 5;
  localparam int G   = 1 << LoW;  // group size

  if (LenW <= LoW) begin : gen_direct
    logic [Width-1:0] hi_mask;
    always_comb begin
      for (int i = 0; i < Width; i++) begin
        hi_mask[i] = (LenW'(i) >= len_i);
      end
    end
    assign above_o = |(e_i & hi_mask);
  end else begin : gen_groups
    localparam int NumG = (Width + G - 1) / G;
    localparam int HiW  = LenW - LoW;
    logic [NumG*G-1:0] e_pad;
    logic [HiW-1:0]    hi;
    logic [LoW-1:0]    lo;
    logic [NumG-1:0]   grp_any, grp_above;
    logic [G-1:0]      grp_at, lo_mask;

    assign e_pad = (NumG * G)'(e_i);
    assign hi    = len_i[LenW-1:LoW];
    assign lo    = len_i[LoW-1:0];

    always_comb begin
      for (int b = 0; b < G; b++) begin
        lo_mask[b] = (LoW'(b) >= lo);
      end
      for (int a = 0; a < NumG; a++) begin
        grp_any[a]   = |e_pad[a*G+:G];
        grp_above[a] = (HiW'(a) > hi);
      end
      grp_at = (32'(hi) < NumG) ? e_pad[32'(hi)*G+:G] : '0;
    end

    assign above_o = |(grp_any & grp_above) | |(grp_at & lo_mask);
  end

endmodule
