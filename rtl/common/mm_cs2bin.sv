// SPDX-License-Identifier: Apache-2.0
//
// mm_cs2bin: the output stage that puts a full-carry-save core (mm_fcs1,
// mm_fcs2) behind the common binary interface (docs/interface.md).  It takes
// the core's carry-save response (SS, SC) and presents S = SS + SC.
//
// Conversion: the word-serial carry-propagate adder of SCS-MM-1's format
// converter (mm_cpa_fc, paper 000 Fig. 3).  The core holds its response
// (out_ready low) while this stage reads it one WordWidth-bit word per cycle,
// least significant first, through two word multiplexers, and shifts the sum
// words into a result register; no copy of SS and SC is made.  With the last
// word the core's response is taken (the core is idle again) and S is
// presented.  Words = ceil(Width / WordWidth) cycles, independent of the
// values; the first word is added in the first cycle the core's response is
// valid.
//
// A rejected request (cs_err_i) passes straight through: out_valid_o and
// err_o follow the core's response in the same cycle, s_o is 0, and the
// consumer's out_ready_i takes the core's response.  So the error answer
// still comes at the accepting edge.
//
// idle_o is high while no binary response is being converted or presented;
// the host ANDs it into in_ready_o and in_valid_i, so a new request starts
// only after the previous response has been taken.
`include "mm_macros.svh"

module mm_cs2bin #(
  parameter int Width     = 9,   // width of SS, SC and S (k+1): 1 .. 8193
  parameter int WordWidth = 32   // CPA width w: 1 .. 8192 (min(w, Width) is used)
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  // carry-save response of the core; SS + SC < 2^Width
  input  logic             cs_valid_i,
  output logic             cs_ready_o,
  input  logic [Width-1:0] ss_i,
  input  logic [Width-1:0] sc_i,
  input  logic             cs_err_i,
  // binary response
  output logic             out_valid_o,
  input  logic             out_ready_i,
  output logic [Width-1:0] s_o,
  output logic             err_o,
  output logic             idle_o
);

  if (Width < 1 || Width > 8193) begin : gen_bad_width
    `MM_FATAL("mm_cs2bin: Width must be in [1, 8193]")
  end
  if (WordWidth < 1 || WordWidth > 8192) begin : gen_bad_word
    `MM_FATAL("mm_cs2bin: WordWidth must be in [1, 8192]")
  end

  // A word wider than the value would only add constant-zero bits.  The top
  // word holds the remaining LastW bits (1 .. Cw).
  localparam int Cw    = (WordWidth < Width) ? WordWidth : Width;
  localparam int Words = (Width + Cw - 1) / Cw;
  localparam int LastW = Width - (Words - 1) * Cw;
  localparam int IdxW  = (Words > 1) ? $clog2(Words) : 1;

  typedef enum logic {
    StWait,  // the core owns the request (idle, computing, or converting)
    StDone   // S presented; the core is idle
  } state_e;

  state_e           state_q, state_d;
  logic [IdxW-1:0]  idx_q, idx_d;   // word being added
  logic [Width-1:0] res_q, res_d;   // sum words, shifted in from the top

  logic [Cw-1:0]    ss_w, sc_w, sum_w;
  logic [Width-1:0] res_shift;      // res_q with sum_w shifted in
  logic             conv, last, pass_err;

  if (Words == 1) begin : gen_one_word
    assign ss_w      = ss_i;
    assign sc_w      = sc_i;
    assign res_shift = sum_w;
  end else begin : gen_words
    localparam int PadW = Words * Cw;
    localparam int SelW = $clog2(PadW);
    logic [PadW-1:0] ss_pad, sc_pad;
    logic [SelW-1:0] sel;  // bit offset of word idx_q, below PadW
    assign ss_pad = PadW'(ss_i);
    assign sc_pad = PadW'(sc_i);
    assign sel    = SelW'(idx_q) * SelW'(Cw);
    assign ss_w   = ss_pad[sel+:Cw];
    assign sc_w   = sc_pad[sel+:Cw];
    // Full words shift in Cw bits down; the last (top) word only LastW bits,
    // which puts word 0 at bit 0.  Its other bits are zero: SS + SC < 2^Width.
    assign res_shift = last ? {sum_w[LastW-1:0], res_q[Width-1:LastW]}
                            : {sum_w, res_q[Width-1:Cw]};
  end

  assign pass_err = (state_q == StWait) && cs_valid_i && cs_err_i;
  assign conv     = (state_q == StWait) && cs_valid_i && !cs_err_i;
  assign last     = (idx_q == IdxW'(Words - 1));

  // The last word's carry out is zero (SS + SC < 2^Width); clearing the
  // carry flip-flop with it anyway starts every conversion from carry 0
  // without relying on that bound.
  mm_cpa_fc #(.WordWidth(Cw)) u_cpa (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .clear_i(conv && last),
    .en_i   (conv),
    .x_i    (ss_w),
    .y_i    (sc_w),
    .sum_o  (sum_w)
  );

  always_comb begin
    state_d = state_q;
    idx_d   = idx_q;
    res_d   = res_q;
    unique case (state_q)
      StWait: begin
        if (conv) begin
          res_d = res_shift;
          if (last) begin
            idx_d   = '0;
            state_d = StDone;
          end else begin
            idx_d = idx_q + 1'b1;
          end
        end
      end
      StDone: begin
        if (out_ready_i) begin
          state_d = StWait;
        end
      end
      default: state_d = StWait;
    endcase
  end

  `MM_FF(state_q, state_d, StWait)
  `MM_FF(idx_q, idx_d, '0)
  `MM_FF(res_q, res_d, '0)

  // The core's response is taken with the last word, or by the consumer
  // when it is an error.
  assign cs_ready_o  = conv ? last : (pass_err && out_ready_i);
  assign out_valid_o = (state_q == StDone) || pass_err;
  assign err_o       = pass_err;
  assign s_o         = (state_q == StDone) ? res_q : '0;
  assign idle_o      = (state_q == StWait);

`ifdef MM_FORMAL
  // Invariants for the formal flow (docs/formal.md): the word index stays
  // below Words, and a conversion under way (a word index past 0) happens
  // only in StWait, on the core's held, legal response (the core holds it
  // until the last word takes it).
  always_comb begin
    if (rst_ni) begin
      assert (idx_q <= IdxW'(Words - 1));
      if (idx_q != '0) assert (state_q == StWait && cs_valid_i && !cs_err_i);
    end
  end
`endif  // MM_FORMAL

endmodule
