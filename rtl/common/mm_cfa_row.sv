// SPDX-License-Identifier: Apache-2.0
//
// mm_cfa_row: a row of configurable full adders (paper 000, Fig. 8(b)/(c)).
//
// alpha_i = 1 (1F_CSA): every cell is a full adder, a three-input carry-save
//   addition  s + 2*cout = ss + sc + x.
// alpha_i = 0 (2H_CSA): the row performs two serial two-input carry-save
//   additions of (ss, sc): HA1 per cell gives h = ss ^ sc and g = ss & sc;
//   HA2 of cell j adds h_j and g_(j-1), the neighbour's HA1 carry, so
//   s + 2*cout = ss + sc and x is ignored.
// In both modes cout_j carries weight 2^(j+1); the caller chooses whether to
// shift it (the Montgomery loop divides by two, the conversion does not).
`include "mm_macros.svh"

module mm_cfa_row #(
  parameter int Width = 8  // number of cells, >= 2
) (
  input  logic             alpha_i,  // 1: 1F_CSA, 0: 2H_CSA
  input  logic [Width-1:0] ss_i,
  input  logic [Width-1:0] sc_i,
  input  logic [Width-1:0] x_i,
  output logic [Width-1:0] s_o,
  output logic [Width-1:0] cout_o
);

  if (Width < 2) begin : gen_bad_width
    `MM_FATAL("mm_cfa_row: Width must be >= 2")
  end

  logic [Width-1:0] g;  // HA1 carries (G2 of the paper's CFA)
  logic [Width-1:0] h;  // HA1 sums
  logic [Width-1:0] t;  // third input of each cell

  always_comb begin
    g = ss_i & sc_i;
    h = ss_i ^ sc_i;
    t = alpha_i ? x_i : {g[Width-2:0], 1'b0};
    s_o = h ^ t;
    // In 2H mode g_j already travels to cell j+1 as its third input, so it
    // must not also leave cell j as a carry.
    cout_o = ({Width{alpha_i}} & g) | (h & t);
  end

endmodule
