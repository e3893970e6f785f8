// SPDX-License-Identifier: Apache-2.0
//
// mm_cpa_fc: the adder of SCS-MM-1's carry-propagate format converter
// (CPA_FC, paper 000 Fig. 3 and Sec. II-B): one WordWidth-bit carry-propagate
// adder and a carry flip-flop.  Each cycle with en_i = 1 it adds one word of
// the sum and carry words, least significant word first:
//   sum_o = x_i + y_i + carry_q (mod 2^WordWidth),  carry_q <= carry out.
// clear_i empties the carry flip-flop before a conversion.  The core around
// it moves the words (mm_scs1 shifts its SS and SC registers by one word per
// cycle).  The adder is a plain `+`: paper 000 used a carry-lookahead adder;
// synthesis picks the adder architecture for the target clock.
`include "mm_macros.svh"

module mm_cpa_fc #(
  parameter int WordWidth = 32  // adder width w: 1 .. 8192
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  input  logic                 clear_i,  // carry_q <= 0 (takes priority over en_i)
  input  logic                 en_i,     // add one word: carry_q <= carry out
  input  logic [WordWidth-1:0] x_i,
  input  logic [WordWidth-1:0] y_i,
  output logic [WordWidth-1:0] sum_o
);

  if (WordWidth < 1 || WordWidth > 8192) begin : gen_bad_width
    `MM_FATAL("mm_cpa_fc: WordWidth must be in [1, 8192]")
  end

  logic               carry_q, carry_d;
  logic [WordWidth:0] sum;

  always_comb begin
    sum     = {1'b0, x_i} + {1'b0, y_i} + {{WordWidth{1'b0}}, carry_q};
    carry_d = carry_q;
    if (clear_i) begin
      carry_d = 1'b0;
    end else if (en_i) begin
      carry_d = sum[WordWidth];
    end
  end

  `MM_FF(carry_q, carry_d, 1'b0)

  assign sum_o = sum[WordWidth-1:0];

endmodule
