// SPDX-License-Identifier: Apache-2.0
//
// mm_sys_pe: a processing element of paper 004's systolic array (Fig. 2-4).
// PE j holds word j of B and N (in the array) and, when activated by the
// previous PE (fire_i), computes for iteration i of Algorithm 1
//   t = S_j + a_i * B_j + q_i * N_j + c_(j-1)
// and registers its low word (S_(j-1) of the next iteration), its carry
// c_j = t >> w and the forwarded (fire, a_i, q_i) that activate PE j+1.
// The paper passes three carries (the high words of both products and the
// carry of the additions); their sum c_j is passed as one (w+1)-bit word
// instead (docs/systolic.md, decision 2).  With c_(j-1) <= 2r - 2,
// t <= 2(r-1)^2 + 3(r-1) < 2r^2: t fits 2w+1 bits and c_j <= 2r - 2 again.
// The same cell is PE1 (c_(-1) = 0; its low word is zero and dropped) and
// the last PE (IsLast: its carry is the top word S_(m-1)).
//
// The carry register of a PE that is not the last loads t >> w in every
// cycle, not only when it fires: PE j+1 reads c_j only in the cycle after
// PE j fired, so the values in between are never used.  This keeps every
// product always observed, so Yosys' SAT-based resource sharing (`share`)
// finds no multiplier it could time-multiplex; with enabled carry registers
// it tried every pair of the 2m products (132 at k = 1024, w = 16) and
// synth_ecp5 did not finish in 17 minutes (docs/systolic.md).
`include "mm_macros.svh"

module mm_sys_pe #(
  parameter int WordWidth = 16,  // word width w: 4 .. 32
  parameter bit IsLast    = 0    // 1: the last PE, whose carry register is S_(m-1)
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             clr_i,    // a new product starts: S = 0, no iteration in flight
  // from the previous PE (or the quotient block)
  input  logic             fire_i,   // compute iteration i in this cycle
  input  logic [WordWidth-1:0] a_i,      // a_i
  input  logic [WordWidth-1:0] q_i,      // q_i
  input  logic [WordWidth:0]   c_i,      // c_(j-1)
  // operand words and the previous result
  input  logic [WordWidth-1:0] b_i,      // B_j
  input  logic [WordWidth-1:0] n_i,      // N_j
  input  logic [WordWidth-1:0] s_i,      // S_j
  // to the next PE (registered)
  output logic             fire_o,
  output logic [WordWidth-1:0] a_o,
  output logic [WordWidth-1:0] q_o,
  output logic [WordWidth:0]   c_o,      // c_j
  output logic [WordWidth-1:0] r_o       // low word of t: S_(j-1) of the next iteration
);

  if (WordWidth < 4 || WordWidth > 32) begin : gen_bad_width
    `MM_FATAL("mm_sys_pe: WordWidth must be in [4, 32]")
  end

  logic [2*WordWidth-1:0] ab, qn;
  logic [2*WordWidth:0]   t;
  logic               fire_d, fire_q;
  logic [WordWidth-1:0]   a_d, a_q, q_d, q_q, r_d, r_q;
  logic [WordWidth:0]     c_d, c_q;

  always_comb begin
    ab     = a_i * b_i;
    qn     = q_i * n_i;
    t      = {1'b0, ab} + {1'b0, qn} + {{(WordWidth + 1){1'b0}}, s_i} + {{WordWidth{1'b0}}, c_i};
    fire_d = 1'b0;
    a_d    = a_q;
    q_d    = q_q;
    r_d    = r_q;
    c_d    = IsLast ? c_q : t[2*WordWidth:WordWidth];
    if (clr_i) begin
      r_d = '0;
      if (IsLast) begin
        c_d = '0;
      end
    end else if (fire_i) begin
      fire_d = 1'b1;
      a_d    = a_i;
      q_d    = q_i;
      r_d    = t[WordWidth-1:0];
      c_d    = t[2*WordWidth:WordWidth];
    end
  end

  `MM_FF(fire_q, fire_d, 1'b0)
  `MM_FF(a_q, a_d, '0)
  `MM_FF(q_q, q_d, '0)
  `MM_FF(r_q, r_d, '0)
  `MM_FF(c_q, c_d, '0)

  assign fire_o = fire_q;
  assign a_o    = a_q;
  assign q_o    = q_q;
  assign c_o    = c_q;
  assign r_o    = r_q;

endmodule
