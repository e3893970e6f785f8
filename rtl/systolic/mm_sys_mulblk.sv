// SPDX-License-Identifier: Apache-2.0
//
// mm_sys_mulblk: the multiplier block of paper 004's multiplexed systolic
// architecture (Fig. 9).  It serves the four PEs of one arithmetic core, one
// word per cycle: when en_i is high it computes, for word j of iteration i,
// two multiply-accumulates (the DSP form P = A*B + C)
//   X_j = a_i * B_j + hx_(j-1)          Y_j = q_i * N_j + S_j + hy_(j-1)
// and registers lo(X_j), lo(Y_j) (added by PE j in the next cycle) and the
// carries hx_j = X_j >> w, hy_j = Y_j >> w that run to the next word's
// multiplier block.  X_j <= (r-1)^2 + (r-1) < r^2 and
// Y_j <= (r-1)^2 + 2(r-1) = r^2 - 1, so both fit 2w bits and both carries
// stay below r (docs/systolic.md, decision 6).
`include "mm_macros.svh"

module mm_sys_mulblk #(
  parameter int WordWidth = 16  // word width w: 4 .. 32
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             en_i,   // a word is handled in this cycle
  input  logic [WordWidth-1:0] a_i,    // a_i
  input  logic [WordWidth-1:0] q_i,    // q_i
  input  logic [WordWidth-1:0] b_i,    // B_j (from the core's RAM)
  input  logic [WordWidth-1:0] n_i,    // N_j (from the core's RAM)
  input  logic [WordWidth-1:0] s_i,    // S_j (previous result)
  input  logic [WordWidth-1:0] hx_i,   // hx_(j-1)
  input  logic [WordWidth-1:0] hy_i,   // hy_(j-1)
  output logic [WordWidth-1:0] xl_o,   // lo(X_j), registered
  output logic [WordWidth-1:0] yl_o,   // lo(Y_j), registered
  output logic [WordWidth-1:0] hx_o,   // hx_j, registered
  output logic [WordWidth-1:0] hy_o    // hy_j, registered
);

  if (WordWidth < 4 || WordWidth > 32) begin : gen_bad_width
    `MM_FATAL("mm_sys_mulblk: WordWidth must be in [4, 32]")
  end

  logic [2*WordWidth-1:0] x, y;
  logic [WordWidth-1:0]   xl_d, xl_q, yl_d, yl_q, hx_d, hx_q, hy_d, hy_q;

  always_comb begin
    x    = a_i * b_i + {{WordWidth{1'b0}}, hx_i};
    y    = q_i * n_i + {{WordWidth{1'b0}}, s_i} + {{WordWidth{1'b0}}, hy_i};
    xl_d = xl_q;
    yl_d = yl_q;
    hx_d = hx_q;
    hy_d = hy_q;
    if (en_i) begin
      xl_d = x[WordWidth-1:0];
      yl_d = y[WordWidth-1:0];
      hx_d = x[2*WordWidth-1:WordWidth];
      hy_d = y[2*WordWidth-1:WordWidth];
    end
  end

  `MM_FF(xl_q, xl_d, '0)
  `MM_FF(yl_q, yl_d, '0)
  `MM_FF(hx_q, hx_d, '0)
  `MM_FF(hy_q, hy_d, '0)

  assign xl_o = xl_q;
  assign yl_o = yl_q;
  assign hx_o = hx_q;
  assign hy_o = hy_q;

endmodule
