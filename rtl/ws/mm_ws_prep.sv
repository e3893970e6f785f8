// SPDX-License-Identifier: Apache-2.0
//
// mm_ws_prep: the scaled modulus of the ws array from N alone, no
// multiplier (docs/ws_core.md, "Wide-port adapter: prep and reduction").
//
// The ws array multiplies with Ñ = n'N, n' = -N^-1 mod 2^E' (E' = w(d+1)),
// and holds M = (Ñ + 1) / 2^E'.  M is the radix-2 Montgomery reduction of 1
// by 2^E':
//
//   Y_0 = 1;  Y_(j+1) = (Y_j + y_j N) / 2, y_j = Y_j mod 2;  M = Y_E'
//
// (the bits y_j are n', and Y_E' 2^E' = 1 + n'N).  Y_j < N for every j
// (Y_(j+1) < (N + N)/2), so Y fits Width bits.  The unit keeps Y as a
// carry-save pair (S, C), Y = S + C: one step (mm_cs_halve, a 3:2 row) per
// cycle, no carry chain.  The accepting edge loads Y_1 = (1 + N)/2 =
// (N >> 1) + 1 as the pair (N >> 1, 1) (N is odd), so E' - 1 steps remain.  Then M's
// MWords = ceil((Width + E' + 2) / w) words leave low first on the output
// stream, one per cycle while out_ready_i is high: a w-bit adder with a
// carry register (mm_cpa_fc) adds the lowest words of S and C while both
// shift right by a word.  The top words are zero (M < N); the stream has
// the m words the array's load tokens carry (M_0 .. M_(m-1)).
//
// Timing (the model montmul.models.ws_core.prep counts the same): the
// first word is valid E' - 1 cycles after the accepting edge; with
// out_ready_i high the last word is taken E' - 1 + m cycles after it, and
// in_ready_o is high again after that edge.  N is taken at the accepting
// edge (n_i need not stay).  N must be odd and at least 3: the unit does
// not check it (the adapter's request check does); with an even N the
// stream is garbage but its timing the same.
//
// Wide logic: the Width-bit registers and the 3:2 row; the only carry
// chain is the adder's w + 1 bits.
`include "mm_macros.svh"

module mm_ws_prep #(
  parameter int Width     = 32,  // modulus width k: 3 .. 8192
  parameter int WordWidth = 16,  // word width w of the M stream: 2 .. 64
  parameter int QuotDelay = 4,   // quotient delay d of the array: 1 .. 8
  // derived, not to be set
  localparam int E1        = WordWidth * (QuotDelay + 1),                  // E' = w(d+1)
  localparam int MWords    = (Width + E1 + 2 + WordWidth - 1) / WordWidth,  // m
  localparam int CntMax    = (MWords > E1) ? MWords : E1,
  localparam int CntW      = $clog2(CntMax + 1)
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  // request: the modulus
  input  logic                 in_valid_i,
  output logic                 in_ready_o,
  input  logic [Width-1:0]     n_i,          // odd N, 3 <= N < 2^Width
  // M stream, low word first, m words
  output logic                 out_valid_o,
  input  logic                 out_ready_i,
  output logic [WordWidth-1:0] out_word_o,   // M_j
  output logic                 out_last_o,   // the word is M_(m-1)
  output logic [CntW-1:0]      words_o       // m, the stream's word count (a constant)
`ifdef MM_FORMAL
  ,
  // for the formal flow only (docs/ws_core.md, "Formal"): the unit's state
  // for the adapter's invariants, which tie it to the adapter's schedule
  output logic [1:0]           f_state_o,    // 0 idle, 1 steps, 2 words out
  output logic [15:0]          f_cnt_o       // the state's counter
`endif
);

  if (Width < 3 || Width > 8192) begin : gen_bad_width
    `MM_FATAL("mm_ws_prep: Width must be in [3, 8192]")
  end
  if (WordWidth < 2 || WordWidth > 64) begin : gen_bad_word
    `MM_FATAL("mm_ws_prep: WordWidth must be in [2, 64]")
  end
  if (QuotDelay < 1 || QuotDelay > 8) begin : gen_bad_delay
    `MM_FATAL("mm_ws_prep: QuotDelay must be in [1, 8]")
  end

  localparam int W = WordWidth;

  typedef enum logic [1:0] {
    StIdle,
    StStep,
    StOut
  } state_e;

  state_e             state_q, state_d;
  logic [Width-1:0]   s_q, s_d;      // S of the carry-save pair Y = S + C
  logic [Width-1:0]   c_q, c_d;      // C
  logic [Width-1:0]   n_q, n_d;
  logic [CntW-1:0]    cnt_q, cnt_d;  // step j - 1, then word j

  logic [Width-1:0]   half_s, half_c;  // the pair after a step: Y_(j+1)
  logic [Width+W-1:0] s_ext, c_ext;  // S and C with a zero word above
  logic [W-1:0]       word;          // M_j
  logic               streaming;     // in StOut
  logic               take;          // a word is taken at this edge

  // Y_(j+1) = (Y_j + y_j N) / 2 (Y < N < 2^Width after the step, so the
  // pair fits Width bits).
  mm_cs_halve #(.Width(Width), .NWidth(Width)) u_halve (
    .s_i(s_q),
    .c_i(c_q),
    .n_i(n_q),
    .s_o(half_s),
    .c_o(half_c)
  );

  assign s_ext = {{W{1'b0}}, s_q};
  assign c_ext = {{W{1'b0}}, c_q};
  assign streaming = (state_q == StOut);
  assign take      = streaming && out_ready_i;

  // The word adder: carry cleared outside the stream, one carry per word taken.
  mm_cpa_fc #(.WordWidth(W)) u_cpa (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .clear_i(!streaming),
    .en_i   (take),
    .x_i    (s_ext[W-1:0]),
    .y_i    (c_ext[W-1:0]),
    .sum_o  (word)
  );

  always_comb begin
    state_d = state_q;
    s_d     = s_q;
    c_d     = c_q;
    n_d     = n_q;
    cnt_d   = cnt_q;
    unique case (state_q)
      StIdle: begin
        if (in_valid_i) begin
          // Y_1 = (1 + N)/2 = (N >> 1) + 1 for odd N: y_0 = 1 since Y_0 = 1.
          n_d     = n_i;
          s_d     = {1'b0, n_i[Width-1:1]};
          c_d     = Width'(1);
          cnt_d   = '0;
          state_d = StStep;
        end
      end
      StStep: begin
        s_d   = half_s;
        c_d   = half_c;
        cnt_d = cnt_q + 1'b1;
        if (cnt_q == CntW'(E1 - 2)) begin
          cnt_d   = '0;
          state_d = StOut;
        end
      end
      StOut: begin
        if (out_ready_i) begin
          s_d   = s_ext[Width+W-1:W];
          c_d   = c_ext[Width+W-1:W];
          cnt_d = cnt_q + 1'b1;
          if (cnt_q == CntW'(MWords - 1)) begin
            state_d = StIdle;
          end
        end
      end
      default: state_d = StIdle;
    endcase
  end

  `MM_FF(state_q, state_d, StIdle)
  `MM_FF(s_q, s_d, '0)
  `MM_FF(c_q, c_d, '0)
  `MM_FF(n_q, n_d, '0)
  `MM_FF(cnt_q, cnt_d, '0)

  assign in_ready_o  = (state_q == StIdle);
  assign out_valid_o = streaming;
  assign out_word_o  = word;
  assign out_last_o  = streaming && (cnt_q == CntW'(MWords - 1));
  assign words_o     = CntW'(MWords);

`ifdef MM_FORMAL
  // Invariants (docs/ws_core.md), also checked by the Verilator bench: the
  // counter stays in its phase's range, and for a legal N (odd, >= 3) the
  // pair stays below N (Y_j < N, which sizes S and C; while the words
  // shift out, (S >> w) + (C >> w) <= (S + C) >> w keeps it).
  always_comb begin
    logic [Width:0] f_y, f_n;
    f_y = (Width + 1)'(s_q) + (Width + 1)'(c_q);
    f_n = (Width + 1)'(n_q);
    if (rst_ni) begin
      if (state_q == StStep) begin
        assert (cnt_q <= CntW'(E1 - 2));
      end
      if (state_q == StOut) begin
        assert (cnt_q <= CntW'(MWords - 1));
      end
      if (state_q != StIdle && n_q[0] && f_n >= (Width + 1)'(3)) begin
        assert (f_y < f_n);
      end
    end
  end
  assign f_state_o = 2'(state_q);
  assign f_cnt_o   = 16'(cnt_q);
`endif  // MM_FORMAL

endmodule
