// SPDX-License-Identifier: Apache-2.0
//
// mm_scs1: SCS-MM-1, the semi-carry-save radix-2 Montgomery multiplier of
// paper 000 (Fig. 2/3; paper 001, Algorithm 1), with Walter's k+2
// iterations so that no final subtraction is needed.
//
//   loop     i = 0 .. k+1, one iteration per cycle through the two-level CSA
//            (mm_scs_csa2):  q_i = (SS_0 + SC_0 + A_i*B_0) mod 2,
//            (SS, SC) = (SS + SC + A_i*B + q_i*N) / 2        (steps 1-5)
//   convert  S = SS + SC by the CPA format converter CPA_FC (step 6): one
//            CpaWidth-bit carry-propagate adder with a carry flip-flop
//            (mm_cpa_fc) adds one word of SS and SC per cycle, least
//            significant word first.  SS and SC shift right by one word per
//            cycle, so the adder always sees their lowest word, and each sum
//            word enters SS from the top: after the last word SS holds S.
//
// Result A*B*2^-(k+2) mod N in [0, 2N) for A, B in [0, 2N), odd N < 2^k.
// Latency (cycles after the accepting edge; the model montmul.models.radix2.
// scs1 counts the same): k + 2 + ceil((k+1) / CpaWidth), for every input.
//
// Not on the shared request/response shell (rtl/common/mm_req_ctrl.sv): it
// keeps its own FSM because on the shell its register-to-register path got
// longer.  ASIC flow at k = 256, CpaWidth = 32 (OSU 0.18 um, ABC target
// 2000 ps): own FSM 3962.1 ps, 533 111 um^2; on the shell 5347.8 ps
// (+35 %), 521 639 um^2 (-2.2 %).  The path is CPA_FC's w-bit carry chain
// into SS (sc_q/ss_q[0] -> ss_q[287]), the same logic either way: how long
// ABC maps that chain changes with the surrounding netlist (mm_r2_basic's
// 1026-bit chain moved by +-20 % between equivalent codings).
`include "mm_macros.svh"

module mm_scs1 #(
  parameter int Width      = 32,  // modulus width k: 3 .. 8192
  parameter bit CheckRange = 1,   // 1: reject operands >= 2N
  parameter bit CheckMod   = 1,   // 1: reject an even N or N < 3
  parameter int CpaWidth   = 32   // CPA_FC word width w: 4 .. 256
) (
  // the common core interface (docs/interface.md); s_o = A*B*2^-(Width+2) mod N, in [0, 2N)
  `MM_CORE_PORTS
);

  if (Width < mm_pkg::WidthMin || Width > mm_pkg::WidthMax) begin : gen_bad_width
    `MM_FATAL("mm_scs1: Width must be in [3, 8192]")
  end
  if (CpaWidth < 4 || CpaWidth > 256) begin : gen_bad_cpa_width
    `MM_FATAL("mm_scs1: CpaWidth must be in [4, 256]")
  end

  // SS + SC < 3N < 2^(k+2) after every iteration (B < 2N), so SS and SC fit
  // in k+2 bits.  The result S = SS + SC < 2N < 2^(k+1) has k+1 bits, so a
  // word wider than k+1 bits would only add zeros: the adder is
  // min(CpaWidth, k+1) bits wide, and the conversion takes
  // ceil((k+1) / CpaWidth) words either way.
  localparam int W     = Width + 2;
  localparam int Iters = Width + 2;
  localparam int WordW = (CpaWidth < Width + 1) ? CpaWidth : Width + 1;
  localparam int Words = (Width + WordW) / WordW;  // ceil((k+1) / WordW)
  localparam int WConv = Words * WordW;            // converted bits, >= k+1
  // SS also collects the sum words: Words*WordW bits, up to WordW-2 more than
  // the loop needs (those top bits stay zero in the loop).
  localparam int WSs   = (WConv > W) ? WConv : W;
  // (SS is cleared with WSs'(0), not '0: at Width 8192 it can reach 8448
  // bits, and Verilator counts a '0 that wide as a suspect replication.)
  localparam int CntW  = $clog2(Iters + 1);        // counts to k+1 (Words <= k+1)

  typedef enum logic [1:0] {
    StIdle,
    StLoop,
    StConv,
    StDone
  } state_e;

  state_e             state_q, state_d;
  logic [WSs-1:0]     ss_q, ss_d;   // SS; after the conversion S
  logic [W-1:0]       sc_q, sc_d;   // SC
  logic [Width:0]     a_q, a_d;     // A >> i; bit k+1 of A is 0 (A < 2N)
  logic [Width:0]     b_q, b_d;
  logic [Width-1:0]   n_q, n_d;
  logic [CntW-1:0]    cnt_q, cnt_d; // iteration i, then word j
  logic               err_q, err_d;
  logic               req_err;

  logic [W:0]         row_s, row_c; // two-level CSA outputs
  logic [WordW-1:0]   cpa_sum;
  logic [WConv-1:0]   ss_shift;  // {sum word, SS} shifted right by one word
  logic               conv;
  logic               unused_row;

  `MM_IN_CHECK(req_err)

  mm_scs_csa2 #(.Width(Width)) u_csa2 (
    .loop_i(1'b1),
    .a_i   (a_q[0]),
    .ss_i  (ss_q[W-1:0]),
    .sc_i  (sc_q),
    .b_i   (b_q),
    .n_i   (n_q),
    .s_o   (row_s),
    .c_o   (row_c)
  );

  assign conv = (state_q == StConv);

  // CPA_FC: the carry flip-flop is cleared outside the conversion.
  mm_cpa_fc #(.WordWidth(WordW)) u_cpa_fc (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .clear_i(~conv),
    .en_i   (conv),
    .x_i    (ss_q[WordW-1:0]),
    .y_i    (sc_q[WordW-1:0]),
    .sum_o  (cpa_sum)
  );

  // The converted bits of SS shift right by one word, and the new sum word
  // enters at the top (with one word, SS is just the sum word).
  if (Words == 1) begin : gen_one_word
    assign ss_shift = cpa_sum;
  end else begin : gen_words
    assign ss_shift = {cpa_sum, ss_q[WConv-1:WordW]};
  end

  always_comb begin
    state_d  = state_q;
    ss_d     = ss_q;
    sc_d     = sc_q;
    a_d      = a_q;
    b_d      = b_q;
    n_d      = n_q;
    cnt_d    = cnt_q;
    err_d    = err_q;
    unique case (state_q)
      StIdle: begin
        if (in_valid_i) begin
          ss_d  = WSs'(0);
          sc_d  = '0;
          a_d   = a_i;
          b_d   = b_i;
          n_d   = n_i;
          cnt_d = '0;
          err_d = req_err;
          if (req_err) begin
            state_d = StDone;
          end else begin
            state_d = StLoop;
          end
        end
      end
      StLoop: begin
        // Halving: row_s is even (q_i was chosen so), and row_c bit k+2 is
        // zero because row_s + 2*row_c < 6N < 2^(k+3).
        ss_d         = WSs'(0);
        ss_d[W-1:0]  = row_s[W:1];
        sc_d         = row_c[W-1:0];
        a_d          = a_q >> 1;
        cnt_d        = cnt_q + 1'b1;
        if (cnt_q == CntW'(Iters - 1)) begin
          cnt_d   = '0;
          state_d = StConv;
        end
      end
      StConv: begin
        // Shift SS and SC right by one word; the sum word enters SS at the
        // top of its WConv converted bits.  Bit k+1 of SS and SC is zero
        // here (SS + SC < 2^(k+1)), so clearing it when WConv = k+1 loses
        // nothing.
        ss_d              = WSs'(0);
        ss_d[WConv-1:0]   = ss_shift;
        sc_d              = sc_q >> WordW;
        cnt_d             = cnt_q + 1'b1;
        if (cnt_q == CntW'(Words - 1)) begin
          state_d = StDone;
        end
      end
      StDone: begin
        if (out_ready_i) begin
          state_d = StIdle;
        end
      end
      default: state_d = StIdle;
    endcase
  end

  `MM_FF(state_q, state_d, StIdle)
  `MM_FF(ss_q, ss_d, WSs'(0))
  `MM_FF(sc_q, sc_d, '0)
  `MM_FF(a_q, a_d, '0)
  `MM_FF(b_q, b_d, '0)
  `MM_FF(n_q, n_d, '0)
  `MM_FF(cnt_q, cnt_d, '0)
  `MM_FF(err_q, err_d, 1'b0)

  assign in_ready_o  = (state_q == StIdle);
  assign out_valid_o = (state_q == StDone);
  assign s_o         = err_q ? '0 : ss_q[Width:0];
  assign err_o       = err_q;

  // Bits the halving drops: row_s[0] is zero (q_i makes the sum even) and
  // row_c[k+2] is zero (see StLoop).
  assign unused_row = row_s[0] ^ row_c[W];

`ifdef MM_FORMAL
  // Invariants for the formal flow (docs/formal.md): the counter stays in
  // its phase's range (iterations in StLoop, words in StConv); a rejected
  // request never runs; the loop runs on a legal request (odd N >= 3,
  // B < 2N) with S = SS + SC < 3N (the bound that sizes SS and SC); the
  // loop ends with S < 2N (Walter's bound: no final subtraction), and a
  // presented result is below 2N.
  always_comb begin
    logic [W+1:0] f_s, f_n;  // 3N < 2^(k+2)
    f_s = (W + 2)'(ss_q[W-1:0]) + (W + 2)'(sc_q);
    f_n = (W + 2)'(n_q);
    if (rst_ni) begin
      if (state_q == StLoop || state_q == StConv) begin
        assert (!err_q);
        assert (n_q[0] && f_n >= (W + 2)'(3) && (W + 2)'(b_q) < 2 * f_n);
      end
      if (state_q == StLoop) begin
        assert (cnt_q <= CntW'(Iters - 1));
        assert (f_s < 3 * f_n);
      end
      if (state_q == StConv) begin
        assert (cnt_q <= CntW'(Words - 1));
        if (cnt_q == '0) assert (f_s < 2 * f_n);
      end
      if (state_q == StDone && !err_q) begin
        assert ((W + 2)'(ss_q[Width:0]) < 2 * f_n);
      end
    end
  end
`endif  // MM_FORMAL

endmodule
