// SPDX-License-Identifier: Apache-2.0
//
// mm_fcs1: FCS-MM-1, the full-carry-save radix-2 Montgomery multiplier of
// McIvor et al. (paper 000, Sec. II-C, Figs. 5 and 6; paper 001, Algorithm 2).
// Operands and result are in carry-save form, (AS, AC), (BS, BC), (SS, SC), so
// results chain as operands without any format conversion:
//   SS = SC = 0
//   for i = 0 .. k+1:                                     (Walter: k+2 iterations)
//     q_i = (SS_0 + SC_0 + A_i*(BS_0 + BC_0)) mod 2        (step 3)
//     (SS, SC) = (SS + SC + A_i*BS + A_i*BC + q_i*N) / 2   (step 4)
// Step 4 is a five-to-two (three-level) CSA, three mm_csa_row rows adding
// A_i*BS, A_i*BC and q_i*N in that order.  A_i comes bit-serially from the
// barrel-register full adder (mm_brfa) on AS, AC; its output is registered, so
// the tree starts from flip-flops and its critical path is the three full-adder
// rows (q_i, an XOR/AND of register bits, is needed only by the third row).
//
// Result SS + SC = A*B*2^-(k+2) mod N, in [0, 2N), for AS + AC and BS + BC in
// [0, 2N) and odd N < 2^k.  This is not the common binary interface (the
// operand and result ports are carry-save pairs); mm_fcs_bin (Variant = 1)
// puts it behind the common interface.  Handshake, reset and rejected requests follow
// docs/interface.md: a request with an even N, N < 3 or (CheckRange = 1)
// AS + AC >= 2N or BS + BC >= 2N is answered with err_o = 1, ss_o = sc_o = 0
// at the accepting edge.
// Latency: k+2 cycles after the accepting edge, for every input (the model
// montmul.models.radix2.fcs1_cs counts the same).  Handshake, input check and
// error flag: the shared shell mm_req_ctrl, with the carry-save pair {SS, SC}
// as its result.
`include "mm_macros.svh"

module mm_fcs1 #(
  parameter int Width      = 32,  // modulus width k: 3 .. 8192
  parameter bit CheckRange = 1,   // 1: reject AS + AC >= 2N or BS + BC >= 2N
  parameter bit CheckMod   = 1    // 1: reject an even N or N < 3
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  // request: carry-save operands, each pair's value in [0, 2N)
  input  logic             in_valid_i,
  output logic             in_ready_o,
  input  logic [Width:0]   as_i,
  input  logic [Width:0]   ac_i,
  input  logic [Width:0]   bs_i,
  input  logic [Width:0]   bc_i,
  input  logic [Width-1:0] n_i,         // odd N, 3 <= N < 2^Width
  // response: SS + SC = A*B*2^-(Width+2) mod N, in [0, 2N)
  output logic             out_valid_o,
  input  logic             out_ready_i,
  output logic [Width:0]   ss_o,
  output logic [Width:0]   sc_o,
  output logic             err_o        // request rejected; ss_o = sc_o = 0
);

  if (Width < mm_pkg::WidthMin || Width > mm_pkg::WidthMax) begin : gen_bad_width
    `MM_FATAL("mm_fcs1: Width must be in [3, 8192]")
  end

  // S = SS + SC < 3N after every iteration (S + 2N + N < 6N, halved), so SS
  // and SC fit k+2 bits; the five addends of a row sum to < 6N < 2^(k+3).
  localparam int SW    = Width + 2;
  localparam int W     = Width + 3;
  localparam int Iters = Width + 2;
  localparam int CntW  = $clog2(Iters + 1);

  logic [SW-1:0]   ss_q, ss_d;
  logic [SW-1:0]   sc_q, sc_d;
  logic [Width:0]  bs_q, bs_d;
  logic [Width:0]  bc_q, bc_d;
  logic [Width-1:0] n_q, n_d;
  logic [CntW-1:0] cnt_q, cnt_d;

  logic [Width+1:0] a_sum, b_sum;  // AS + AC, BS + BC for the range check
  logic            accept, busy, done, unused_start;
  logic            ai;             // A_i from the BRFA
  logic            qi;
  logic [W-1:0]    x1, x2, x3;     // A_i*BS, A_i*BC, q_i*N
  logic [W-1:0]    s1, c1, s2, c2, s3, c3;
  logic            unused_row;

  // The range check sees the values of the carry-save pairs (one adder each
  // on the request path, beside the comparators; no register-to-register
  // delay).  The shell masks the whole carry-save result {SS, SC}; the final
  // SS + SC < 2N < 2^(k+1), so bit k+1 of both words is zero.
  assign a_sum = {1'b0, as_i} + {1'b0, ac_i};
  assign b_sum = {1'b0, bs_i} + {1'b0, bc_i};

  mm_req_ctrl #(
    .Width     (Width),
    .OpWidth   (Width + 2),
    .InBound   (2),
    .CheckRange(CheckRange),
    .CheckMod  (CheckMod),
    .ResWidth  (2 * (Width + 1))
  ) u_ctrl (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .in_valid_i (in_valid_i),
    .in_ready_o (in_ready_o),
    .a_i        (a_sum),
    .b_i        (b_sum),
    .n_i        (n_i),
    .out_valid_o(out_valid_o),
    .out_ready_i(out_ready_i),
    .s_o        ({ss_o, sc_o}),
    .err_o      (err_o),
    .accept_o   (accept),
    .start_o    (unused_start),
    .busy_o     (busy),
    .done_i     (done),
    .res_i      ({ss_q[Width:0], sc_q[Width:0]})
  );

  assign done = (cnt_q == CntW'(Iters - 1));

  mm_brfa #(.Width(Width + 1)) u_brfa (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .load_i (accept),
    .shift_i(busy),
    .as_i   (as_i),
    .ac_i   (ac_i),
    .a_o    (ai)
  );

  // Five-to-two CSA: SS + SC + A_i*BS, + A_i*BC, + q_i*N.  q_i makes the
  // total even; it depends only on bit 0 of SS, SC and A_i*B.
  always_comb begin
    qi = ss_q[0] ^ sc_q[0] ^ (ai & (bs_q[0] ^ bc_q[0]));
    x1 = ai ? W'(bs_q) : '0;
    x2 = ai ? W'(bc_q) : '0;
    x3 = qi ? W'(n_q)  : '0;
  end

  mm_csa_row #(.Width(W)) u_row1 (
    .x_i   (W'(ss_q)),
    .y_i   (W'(sc_q)),
    .z_i   (x1),
    .s_o   (s1),
    .cout_o(c1)
  );

  // A carry word is at most half the row's total (< 2^(k+2)), so shifting it
  // into place drops only a zero bit (c1, c2, c3 bit k+2).
  mm_csa_row #(.Width(W)) u_row2 (
    .x_i   (s1),
    .y_i   ({c1[W-2:0], 1'b0}),
    .z_i   (x2),
    .s_o   (s2),
    .cout_o(c2)
  );

  mm_csa_row #(.Width(W)) u_row3 (
    .x_i   (s2),
    .y_i   ({c2[W-2:0], 1'b0}),
    .z_i   (x3),
    .s_o   (s3),
    .cout_o(c3)
  );

  always_comb begin
    ss_d  = ss_q;
    sc_d  = sc_q;
    bs_d  = bs_q;
    bc_d  = bc_q;
    n_d   = n_q;
    cnt_d = cnt_q;
    if (accept) begin
      ss_d  = '0;
      sc_d  = '0;
      bs_d  = bs_i;
      bc_d  = bc_i;
      n_d   = n_i;
      cnt_d = '0;
    end else if (busy) begin
      // Halving: s3 is even (q_i), and the carry word's weight 2^(j+1)
      // becomes 2^j, so SC is cout itself.
      ss_d  = s3[W-1:1];
      sc_d  = c3[W-2:0];
      cnt_d = cnt_q + 1'b1;
    end
  end

  `MM_FF(ss_q, ss_d, '0)
  `MM_FF(sc_q, sc_d, '0)
  `MM_FF(bs_q, bs_d, '0)
  `MM_FF(bc_q, bc_d, '0)
  `MM_FF(n_q, n_d, '0)
  `MM_FF(cnt_q, cnt_d, '0)

  // Bits that are provably zero: the low bit of the even row sum, and the
  // top bit of each carry word (see above).
  assign unused_row = ^{s3[0], c1[W-1], c2[W-1], c3[W-1]};

endmodule
