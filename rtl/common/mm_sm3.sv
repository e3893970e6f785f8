// SPDX-License-Identifier: Apache-2.0
//
// mm_sm3: the simplified 4-to-1 multiplexer SM3 of paper 000, Fig. 8(d).
// Selects the carry-save addend x of a Montgomery iteration from (A^, q^):
//   (0,0) -> 0,  (0,1) -> N^,  (1,0) -> B^,  (1,1) -> D^ = B^ + N^.
// One input is the constant zero, so the 4-to-1 multiplexer shrinks to a
// 2-to-1 multiplexer (N^ or D^ by A^) followed by an AND-gated choice.
`include "mm_macros.svh"

module mm_sm3 #(
  parameter int Width = 8  // operand width, >= 1
) (
  input  logic             a_sel_i,  // A^
  input  logic             q_sel_i,  // q^
  input  logic [Width-1:0] n_i,
  input  logic [Width-1:0] b_i,
  input  logic [Width-1:0] d_i,
  output logic [Width-1:0] x_o
);

  logic [Width-1:0] nd;

  always_comb begin
    nd  = a_sel_i ? d_i : n_i;
    x_o = q_sel_i ? nd : (b_i & {Width{a_sel_i}});
  end

endmodule
