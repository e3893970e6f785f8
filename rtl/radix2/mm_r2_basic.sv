// SPDX-License-Identifier: Apache-2.0
//
// mm_r2_basic: the reference radix-2 Montgomery multiplier (paper 000, Fig. 1)
// with Walter's k+2 iterations, so that no final subtraction is needed:
//   S = 0; for i = 0 .. k+1: q_i = (S + A_i*B) mod 2; S = (S + A_i*B + q_i*N)/2
// Result S = A*B*2^-(k+2) mod N, in [0, 2N) for A, B in [0, 2N), N < 2^k.
// One iteration per cycle through a (k+3)-bit carry-propagate adder: the
// slow, small reference the carry-save cores are measured against.
//
// Interface: the common montmul core interface (docs/interface.md).
// Latency: k+2 cycles from the accepting edge; a rejected request is answered
// with err_o = 1 right after the accepting edge.  Handshake, input check and
// error flag: the shared shell mm_req_ctrl.
`include "mm_macros.svh"

module mm_r2_basic #(
  parameter int Width      = 32,  // modulus width k: 3 .. 8192
  parameter bit CheckRange = 1,   // 1: reject operands >= 2N
  parameter bit CheckMod   = 1    // 1: reject an even N or N < 3
) (
  // the common core interface (docs/interface.md); s_o = A*B*2^-(Width+2) mod N, in [0, 2N)
  `MM_CORE_PORTS
);

  if (Width < mm_pkg::WidthMin || Width > mm_pkg::WidthMax) begin : gen_bad_width
    `MM_FATAL("mm_r2_basic: Width must be in [3, 8192]")
  end

  localparam int Iters = Width + 2;
  localparam int CntW  = $clog2(Iters + 1);

  logic [Width+1:0]  s_q, s_d;  // S < 3N < 2^(k+2)
  logic [Width+1:0]  a_q, a_d;  // A >> i
  logic [Width:0]    b_q, b_d;
  logic [Width-1:0]  n_q, n_d;
  logic [CntW-1:0]   cnt_q, cnt_d;
  logic              accept, busy, done, unused_start;
  logic              ai, qi;
  logic [Width+2:0]  sum;       // S + B + N < 6N < 2^(k+3)
  logic [Width+2:0]  add_b, add_n, csa_s, csa_c;
  logic              unused_sum_lsb, unused_sum_co, unused_csa_top;

  `MM_REQ_CTRL(u_ctrl, accept, unused_start, busy, done, s_q[Width:0])

  assign done = (cnt_q == CntW'(Iters - 1));

  // S + ai*B + qi*N: a carry-save row (one LUT level) and one segmented
  // adder (mm_seg_add), so no carry chain is longer than a segment.
  assign ai    = a_q[0];
  assign qi    = s_q[0] ^ (ai & b_q[0]);
  assign add_b = ai ? {2'b0, b_q} : '0;
  assign add_n = qi ? {3'b0, n_q} : '0;
  assign csa_s = {1'b0, s_q} ^ add_b ^ add_n;
  assign {unused_csa_top, csa_c} =
      {({1'b0, s_q} & add_b) | ({1'b0, s_q} & add_n) | (add_b & add_n), 1'b0};

  mm_seg_add #(
    .Width(Width + 3)
  ) u_sum (
    .a_i (csa_s),
    .b_i (csa_c),
    .ci_i(1'b0),
    .s_o (sum),
    .co_o(unused_sum_co)
  );

  always_comb begin
    s_d   = s_q;
    a_d   = a_q;
    b_d   = b_q;
    n_d   = n_q;
    cnt_d = cnt_q;
    if (busy) begin
      s_d   = sum[Width+2:1];
      a_d   = a_q >> 1;
      cnt_d = cnt_q + 1'b1;
    end else if (accept) begin
      s_d   = '0;
      a_d   = {1'b0, a_i};
      b_d   = b_i;
      n_d   = n_i;
      cnt_d = '0;
    end
  end

  `MM_FF(s_q, s_d, '0)
  `MM_FF(a_q, a_d, '0)
  `MM_FF(b_q, b_d, '0)
  `MM_FF(n_q, n_d, '0)
  `MM_FF(cnt_q, cnt_d, '0)

  // qi makes the sum even, so the division by two drops a bit that is always
  // zero.
  assign unused_sum_lsb = sum[0];

endmodule
