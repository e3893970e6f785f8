// SPDX-License-Identifier: Apache-2.0
//
// mm_csa_row: one level of carry-save addition, a row of full adders
// (three-to-two compressor): s + 2*cout = x + y + z, bit for bit
//   s_j = x_j ^ y_j ^ z_j,  cout_j = maj(x_j, y_j, z_j)  (weight 2^(j+1)).
// With z = 0 it is a row of half adders.  Stacked rows make the two- and
// three-level CSA trees of the SCS and FCS multipliers.
`include "mm_macros.svh"

module mm_csa_row #(
  parameter int Width = 8  // number of cells, >= 1
) (
  input  logic [Width-1:0] x_i,
  input  logic [Width-1:0] y_i,
  input  logic [Width-1:0] z_i,
  output logic [Width-1:0] s_o,
  output logic [Width-1:0] cout_o  // carry out of cell j, weight 2^(j+1)
);

  if (Width < 1) begin : gen_bad_width
    `MM_FATAL("mm_csa_row: Width must be >= 1")
  end

  always_comb begin
    s_o    = x_i ^ y_i ^ z_i;
    cout_o = (x_i & y_i) | (x_i & z_i) | (y_i & z_i);
  end

endmodule
