// SPDX-License-Identifier: Apache-2.0
//
// mm_sys_mpe_last: the last simplified processing element of paper 004's
// multiplexed systolic architecture (Sec. 4.2.1, Fig. 10, "PEm").  Its input
// words are the low words of its multiplier block and that block's carries
// hx, hy, so it provides two words of the result with one 2w-bit addition:
//   (hx r + lo X) + (hy r + lo Y) + c_(m-2)  ->  S_(m-2) (low), S_(m-1) (high)
// The sum is the top of S + a_i B + q_i N < 3N r < r^(m+1): below r^2, so
// S_(m-1) fits a word.  With one word (m = 1) it is also the first PE: its
// low word is zero and unused.
`include "mm_macros.svh"

module mm_sys_mpe_last #(
  parameter int WordWidth = 16  // word width w: 4 .. 32
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             clr_i,   // a new product starts: S = 0
  input  logic             fire_i,  // add the last word in this cycle
  input  logic [WordWidth-1:0] x_i,     // lo(X_(m-1))
  input  logic [WordWidth-1:0] y_i,     // lo(Y_(m-1))
  input  logic [WordWidth-1:0] hx_i,    // hx_(m-1)
  input  logic [WordWidth-1:0] hy_i,    // hy_(m-1)
  input  logic             c_i,     // c_(m-2)
  output logic [WordWidth-1:0] w_o,     // S_(m-2), registered
  output logic [WordWidth-1:0] top_o    // S_(m-1), registered
);

  if (WordWidth < 4 || WordWidth > 32) begin : gen_bad_width
    `MM_FATAL("mm_sys_mpe_last: WordWidth must be in [4, 32]")
  end

  logic [2*WordWidth:0]  z;
  logic [WordWidth-1:0]  w_d, w_q, top_d, top_q;
  logic              unused_z;

  always_comb begin
    z     = {1'b0, hx_i, x_i} + {1'b0, hy_i, y_i} + {{(2 * WordWidth){1'b0}}, c_i};
    w_d   = w_q;
    top_d = top_q;
    if (clr_i) begin
      w_d   = '0;
      top_d = '0;
    end else if (fire_i) begin
      w_d   = z[WordWidth-1:0];
      top_d = z[2*WordWidth-1:WordWidth];
    end
  end

  `MM_FF(w_q, w_d, '0)
  `MM_FF(top_q, top_d, '0)

  assign w_o   = w_q;
  assign top_o = top_q;
  // The sum is below r^2 (see above): its top bit is always zero.
  assign unused_z = z[2*WordWidth];

endmodule
