// SPDX-License-Identifier: Apache-2.0
//
// mm_ws_redc: the final reduction of the ws array's wide-port adapter
// (docs/ws_core.md, "Wide-port adapter: prep and reduction").  The array's
// product U = (A B + Q Ñ) / 2^(wm) lies in [0, 2Ñ), Ñ = n'N up to 2^E' times
// N (E' = w(d+1)); this unit brings it into [0, 2N) by E = E' + 1 radix-2
// Montgomery reduction steps with the plain modulus N:
//
//   Y_0 = U;  Y_(j+1) = (Y_j + y_j N) / 2, y_j = Y_j mod 2;  S = Y_E
//
// so S = (U + qN) / 2^E with q < 2^E.  For U < 2^E N (the array's U < 2Ñ =
// 2n'N meets it: n' < 2^E'), every Y_j < 2^E N < 2^(Width + E) and
// S < (2^E N + 2^E N) / 2^E = 2N, and S = U 2^-E (mod N): the adapter's
// radix is R' = 2^(wm + E).
//
// U arrives as a word stream, low word first, exactly m = ceil((Width + E' +
// 2) / w) words (the array's U has m words), one per cycle while in_valid_i
// is high (gaps are allowed).  The words shift into the top of a w m-bit
// register; N is taken with the first word (n_i must be valid then, and
// need not stay).  Then E steps, one per cycle, on a carry-save pair
// (S, C), each one mm_cs_halve (a 3:2 row) over Width + E bits (no carry
// chain); then S + C is resolved word by word, low word first, by a w-bit
// adder with a carry register (mm_cpa_fc), ceil((Width + 1) / w) words
// (S + C < 2N < 2^(Width+1)): the sum words enter the top of the same
// register as S and C shift right, so the result ends up in its top words.
//
// Timing (the model montmul.models.ws_core.redc counts the same): out_valid_o
// is high E + ceil((Width + 1) / w) cycles after the edge that takes U's last
// word; the result is held until out_ready_i, and in_ready_o is high again
// after the edge that takes it.  N and U are not checked (the adapter's
// request check and the array's bound guarantee them); an illegal input
// gives a wrong S with the same timing.
//
// Wide logic: the registers and the 3:2 row; the only carry chain is the
// adder's w + 1 bits.
`include "mm_macros.svh"

module mm_ws_redc #(
  parameter int Width     = 32,  // modulus width k: 3 .. 8192
  parameter int WordWidth = 16,  // word width w of the U stream: 2 .. 64
  parameter int QuotDelay = 4,   // quotient delay d of the array: 1 .. 8
  // derived, not to be set
  localparam int E1       = WordWidth * (QuotDelay + 1),                  // E' = w(d+1)
  localparam int Steps    = E1 + 1,                                       // E
  localparam int MWords   = (Width + E1 + 2 + WordWidth - 1) / WordWidth,  // m: U's words
  localparam int OutWords = (Width + WordWidth) / WordWidth,              // ceil((k+1)/w)
  localparam int CntMax   = (MWords > Steps) ? MWords : Steps,
  localparam int CntW     = $clog2(CntMax + 1)
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  // U stream, low word first, m words
  input  logic                 in_valid_i,
  output logic                 in_ready_o,
  input  logic [WordWidth-1:0] in_word_i,    // U_j
  input  logic [Width-1:0]     n_i,          // odd N, 3 <= N < 2^Width: taken with U_0
  // response
  output logic                 out_valid_o,
  input  logic                 out_ready_i,
  output logic [Width:0]       s_o           // S = U 2^-E mod N, in [0, 2N)
`ifdef MM_FORMAL
  ,
  // for the formal flow only (docs/ws_core.md, "Formal"): the unit's state
  // for the adapter's invariants, which tie it to the adapter's schedule
  output logic [1:0]           f_state_o,    // 0 words in, 1 steps, 2 resolution, 3 done
  output logic [15:0]          f_cnt_o       // the state's counter
`endif
);

  if (Width < 3 || Width > 8192) begin : gen_bad_width
    `MM_FATAL("mm_ws_redc: Width must be in [3, 8192]")
  end
  if (WordWidth < 2 || WordWidth > 64) begin : gen_bad_word
    `MM_FATAL("mm_ws_redc: WordWidth must be in [2, 64]")
  end
  if (QuotDelay < 1 || QuotDelay > 8) begin : gen_bad_delay
    `MM_FATAL("mm_ws_redc: QuotDelay must be in [1, 8]")
  end

  localparam int W     = WordWidth;
  localparam int UW    = MWords * W;       // U's register: >= Width + E + 1 bits
  localparam int YW    = Width + Steps;    // Y < 2^E N < 2^(Width + E)
  localparam int WConv = OutWords * W;     // resolved bits: < Width + W < YW

  typedef enum logic [1:0] {
    StIn,
    StStep,
    StConv,
    StDone
  } state_e;

  state_e          state_q, state_d;
  logic [UW-1:0]   s_q, s_d;      // U as it arrives, then S of (S, C), then the result
  logic [YW-1:0]   c_q, c_d;      // C of the carry-save pair
  logic [Width-1:0] n_q, n_d;
  logic [CntW-1:0] cnt_q, cnt_d;  // word, step, then result word

  logic [YW-1:0]   half_s, half_c;  // the pair after a step: Y_(j+1)
  logic            conv;          // in StConv
  logic [W-1:0]    sum_word;      // result word: S_j + C_j + carry
  logic [W-1:0]    top_word;      // the word entering s_q from the top
  logic [UW-1:0]   s_shift;       // s_q shifted right a word, top_word above

  // Y_(j+1) = (Y_j + y_j N) / 2 < 2^E N < 2^YW.
  mm_cs_halve #(.Width(YW), .NWidth(Width)) u_halve (
    .s_i(s_q[YW-1:0]),
    .c_i(c_q),
    .n_i(n_q),
    .s_o(half_s),
    .c_o(half_c)
  );

  assign conv = (state_q == StConv);

  mm_cpa_fc #(.WordWidth(W)) u_cpa (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .clear_i(!conv),
    .en_i   (conv),
    .x_i    (s_q[W-1:0]),
    .y_i    (c_q[W-1:0]),
    .sum_o  (sum_word)
  );

  // One shift for both the input and the resolution: a w-bit choice of the
  // word entering at the top.
  assign top_word = conv ? sum_word : in_word_i;
  assign s_shift  = {top_word, s_q[UW-1:W]};

  always_comb begin
    state_d = state_q;
    s_d     = s_q;
    c_d     = c_q;
    n_d     = n_q;
    cnt_d   = cnt_q;
    unique case (state_q)
      StIn: begin
        c_d = YW'(0);
        if (in_valid_i) begin
          s_d   = s_shift;
          cnt_d = cnt_q + 1'b1;
          if (cnt_q == '0) begin
            n_d = n_i;
          end
          if (cnt_q == CntW'(MWords - 1)) begin
            cnt_d   = '0;
            state_d = StStep;
          end
        end
      end
      StStep: begin
        // The bits of s_q above YW are zero from here on (U < 2^YW).
        s_d   = UW'(half_s);
        c_d   = half_c;
        cnt_d = cnt_q + 1'b1;
        if (cnt_q == CntW'(Steps - 1)) begin
          cnt_d   = '0;
          state_d = StConv;
        end
      end
      StConv: begin
        // S + C < 2N < 2^(Width+1) <= 2^WConv: after OutWords words S and
        // C are spent and the result fills the top WConv bits of s_q (the
        // words read from the bottom are never the inserted ones: OutWords
        // < MWords).
        s_d   = s_shift;
        c_d   = c_q >> W;
        cnt_d = cnt_q + 1'b1;
        if (cnt_q == CntW'(OutWords - 1)) begin
          cnt_d   = '0;
          state_d = StDone;
        end
      end
      StDone: begin
        if (out_ready_i) begin
          state_d = StIn;
        end
      end
      default: state_d = StIn;
    endcase
  end

  `MM_FF(state_q, state_d, StIn)
  `MM_FF(s_q, s_d, UW'(0))
  `MM_FF(c_q, c_d, YW'(0))
  `MM_FF(n_q, n_d, '0)
  `MM_FF(cnt_q, cnt_d, '0)

  assign in_ready_o  = (state_q == StIn);
  assign out_valid_o = (state_q == StDone);
  assign s_o         = s_q[UW-WConv +: Width + 1];

`ifdef MM_FORMAL
  // Invariants (docs/ws_core.md), also checked by the Verilator bench: the
  // counter stays in its phase's range; for a legal N (odd, >= 3) the
  // bits of s_q above YW are zero while the pair is reduced, and the pair
  // is below 2N when it is resolved, provided U < 2^E N (the input's
  // condition, which a proof has to assume: f_u_ok records it).
  logic f_u_ok_q, f_u_ok_d;
  always_comb begin
    logic [YW:0] f_y, f_2n, f_top;
    f_y      = (YW + 1)'(s_q[YW-1:0]) + (YW + 1)'(c_q);
    f_2n     = (YW + 1)'(n_q) << 1;
    f_top    = (YW + 1)'(n_q) << Steps;
    f_u_ok_d = f_u_ok_q;
    if (state_q == StStep && cnt_q == '0) begin
      f_u_ok_d = (s_q >> YW) == UW'(0) && f_y < f_top;  // U < 2^E N
    end
    if (rst_ni) begin
      if (state_q == StIn) begin
        assert (cnt_q <= CntW'(MWords - 1));
      end
      if (state_q == StStep) begin
        assert (cnt_q <= CntW'(Steps - 1));
      end
      if (state_q == StConv) begin
        assert (cnt_q <= CntW'(OutWords - 1));
        if (cnt_q == '0 && f_u_ok_q && n_q[0]) begin
          assert ((s_q >> YW) == UW'(0) && f_y < f_2n);  // S < 2N
        end
      end
    end
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      f_u_ok_q <= 1'b0;
    end else begin
      f_u_ok_q <= f_u_ok_d;
    end
  end
  assign f_state_o = 2'(state_q);
  assign f_cnt_o   = 16'(cnt_q);
`endif  // MM_FORMAL

endmodule
