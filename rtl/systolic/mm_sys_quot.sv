// SPDX-License-Identifier: Apache-2.0
//
// mm_sys_quot: the quotient block of paper 004 (Fig. 5), combinational:
//   q = ((x * y mod r) + s mod r) * z mod r,      r = 2^WordWidth
// two single-precision multiplications (only their low words) and one
// single-precision addition.  In an iteration of Algorithm 1 (x, y, s, z) =
// (a_i, B_0, S_0, N') gives the quotient q_i; in the Newton steps that
// compute N' = -N^-1 mod r, (x, y, s, z) = (N_0, N'_j, 2, N'_j) gives
// N'_(j+1) = N'_j (2 + N_0 N'_j) mod r (docs/systolic.md, decision 3).
`include "mm_macros.svh"

module mm_sys_quot #(
  parameter int WordWidth = 16  // word width w: 4 .. 32
) (
  input  logic [WordWidth-1:0] x_i,
  input  logic [WordWidth-1:0] y_i,
  input  logic [WordWidth-1:0] s_i,
  input  logic [WordWidth-1:0] z_i,
  output logic [WordWidth-1:0] q_o
);

  if (WordWidth < 4 || WordWidth > 32) begin : gen_bad_width
    `MM_FATAL("mm_sys_quot: WordWidth must be in [4, 32]")
  end

  // Every operation keeps only the low word: W-bit results.
  logic [WordWidth-1:0] xy, u;

  always_comb begin
    xy  = x_i * y_i;
    u   = xy + s_i;
    q_o = u * z_i;
  end

endmodule
