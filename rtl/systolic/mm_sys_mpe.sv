// SPDX-License-Identifier: Apache-2.0
//
// mm_sys_mpe: a simplified processing element of paper 004's multiplexed
// systolic architecture (Sec. 4.2.1, Fig. 10), general case: one addition.
// When fire_i is high it adds the two low words its multiplier block
// registered for word j and the carry of the previous PE:
//   Z_j = lo(X_j) + lo(Y_j) + c_(j-1)  ->  S_(j-1) = Z_j mod r,  c_j = Z_j >> w
// Z_j <= 2(r-1) + 1 < 2r, so the carry is one bit.  As the first PE (word 0)
// its carry input is 0 and its word is zero and unused (the division by r).
`include "mm_macros.svh"

module mm_sys_mpe #(
  parameter int WordWidth = 16  // word width w: 4 .. 32
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             clr_i,   // a new product starts: S = 0
  input  logic             fire_i,  // add word j in this cycle
  input  logic [WordWidth-1:0] x_i,     // lo(X_j)
  input  logic [WordWidth-1:0] y_i,     // lo(Y_j)
  input  logic             c_i,     // c_(j-1)
  output logic [WordWidth-1:0] w_o,     // S_(j-1), registered
  output logic             c_o      // c_j, registered
);

  if (WordWidth < 4 || WordWidth > 32) begin : gen_bad_width
    `MM_FATAL("mm_sys_mpe: WordWidth must be in [4, 32]")
  end

  logic [WordWidth:0]   z;
  logic [WordWidth-1:0] w_d, w_q;
  logic             c_d, c_q;

  always_comb begin
    z   = {1'b0, x_i} + {1'b0, y_i} + {{WordWidth{1'b0}}, c_i};
    w_d = w_q;
    c_d = c_q;
    if (clr_i) begin
      w_d = '0;
      c_d = 1'b0;
    end else if (fire_i) begin
      w_d = z[WordWidth-1:0];
      c_d = z[WordWidth];
    end
  end

  `MM_FF(w_q, w_d, '0)
  `MM_FF(c_q, c_d, 1'b0)

  assign w_o = w_q;
  assign c_o = c_q;

endmodule
