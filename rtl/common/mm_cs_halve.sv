// SPDX-License-Identifier: Apache-2.0
//
// mm_cs_halve: one radix-2 Montgomery reduction step on a carry-save pair,
// no carry chain (the steps of mm_ws_prep and mm_ws_redc):
//
//   Y' = (Y + y N) / 2,  y = Y mod 2,  Y = S + C
//
// y = s_0 ^ c_0; one 3:2 row (mm_csa_row) gives row_s + 2 row_c = S + C + yN;
// row_s is even (y makes the sum even, and 2 row_c has no bit 0), so the
// halving drops a zero: S' = row_s >> 1, C' = row_c, Y' = S' + C'.  The
// caller sizes Width so that Y' fits (row_c keeps its top carry).
`include "mm_macros.svh"

module mm_cs_halve #(
  parameter int Width  = 8,  // width of the pair S, C: >= 2
  parameter int NWidth = 8   // modulus width: 1 .. Width
) (
  input  logic [Width-1:0]  s_i,  // S
  input  logic [Width-1:0]  c_i,  // C
  input  logic [NWidth-1:0] n_i,  // N (odd for a Montgomery step)
  output logic [Width-1:0]  s_o,  // S' = row_s / 2
  output logic [Width-1:0]  c_o   // C' = row_c
);

  if (Width < 2) begin : gen_bad_width
    `MM_FATAL("mm_cs_halve: Width must be >= 2")
  end
  if (NWidth < 1 || NWidth > Width) begin : gen_bad_nwidth
    `MM_FATAL("mm_cs_halve: NWidth must be in [1, Width]")
  end

  logic             y;             // y = Y mod 2
  logic [Width-1:0] row_s, row_c;  // row_s + 2 row_c = S + C + yN
  logic             unused_row;

  assign y = s_i[0] ^ c_i[0];

  mm_csa_row #(.Width(Width)) u_row (
    .x_i   (s_i),
    .y_i   (c_i),
    .z_i   (Width'(n_i & {NWidth{y}})),
    .s_o   (row_s),
    .cout_o(row_c)
  );

  assign s_o = {1'b0, row_s[Width-1:1]};
  assign c_o = row_c;

  // row_s[0] is zero (see above).
  assign unused_row = row_s[0];

endmodule
