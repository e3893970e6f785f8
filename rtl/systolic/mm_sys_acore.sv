// SPDX-License-Identifier: Apache-2.0
//
// mm_sys_acore: an arithmetic core of paper 004's multiplexed systolic
// architecture (Fig. 7/8): one multiplier block (mm_sys_mulblk, two w x w
// multipliers), up to four simplified PEs (mm_sys_mpe, one addition each;
// the array's last PE is mm_sys_mpe_last) and a small RAM holding the core's
// four words of B and N.  Core g owns words j = 4g + p, slot p = 0 .. Words-1.
//
// Word j of iteration i enters the core's multiplier block when its token
// arrives (tok_i for slot 0, from the previous core or the quotient block;
// then one slot per cycle), and PE j adds it one cycle later.  The
// multiplier block of slot 0 takes the previous core's carries hx, hy (zero
// in core 0), the other slots its own from the cycle before.  When slot 3
// is handled the core forwards (a_i, q_i) and the token to the next core,
// which uses them for its four slots, and the next iteration's (a, q)
// arrive here for slot 0 at the same edge (docs/systolic.md, decision 6).
`include "mm_macros.svh"

module mm_sys_acore #(
  parameter int WordWidth = 16,   // word width w: 4 .. 32
  parameter int Words     = 4,    // words of this core: 1 .. 4 (4 unless IsLast)
  parameter bit IsLast    = 1'b0  // this core holds the array's last word
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  input  logic                   clr_i,    // a new product starts (S = 0)
  input  logic [Words*WordWidth-1:0] b_i,      // B_(4g) .. (request port)
  input  logic [Words*WordWidth-1:0] n_i,      // N_(4g) .. (request port)
  // from the previous core (or the quotient block / zero for core 0)
  input  logic                   tok_i,    // slot 0 is handled in this cycle
  input  logic [WordWidth-1:0]       a_i,      // a_i
  input  logic [WordWidth-1:0]       q_i,      // q_i
  input  logic [WordWidth-1:0]       hx_i,     // multiplier-block carries of word 4g-1
  input  logic [WordWidth-1:0]       hy_i,
  input  logic                   c_i,      // PE carry c_(4g-1)
  input  logic [Words*WordWidth-1:0] s_i,      // S_(4g) .. S_(4g+Words-1)
  // to the next core (registered)
  output logic                   tok_o,
  output logic [WordWidth-1:0]       a_o,
  output logic [WordWidth-1:0]       q_o,
  output logic [WordWidth-1:0]       hx_o,
  output logic [WordWidth-1:0]       hy_o,
  output logic                   c_o,
  // result words and operand word 0 (registered)
  output logic [Words*WordWidth-1:0] w_o,      // PE 4g+p's word: S_(4g+p-1)
  output logic [WordWidth-1:0]       top_o,    // S_(m-1) (IsLast), else 0
  output logic [WordWidth-1:0]       b0_o      // B_(4g)
);

  if (WordWidth < 4 || WordWidth > 32) begin : gen_bad_width
    `MM_FATAL("mm_sys_acore: WordWidth must be in [4, 32]")
  end
  if (Words < 1 || Words > 4 || (!IsLast && Words != 4)) begin : gen_bad_words
    `MM_FATAL("mm_sys_acore: Words must be 4, or 1 .. 4 in the last core")
  end

  localparam int WW = Words * WordWidth;

  logic [WW-1:0]    b_q, b_d, n_q, n_d;  // the core's RAM
  logic [Words-1:0] mbt;                 // token: the multiplier block handles slot p
  logic [Words-1:0] pet_q, pet_d;        // token: PE p adds
  logic             en;
  logic [WordWidth-1:0] sel_b, sel_n, sel_s, cx, cy;
  logic [WordWidth-1:0] xl, yl, hx, hy;
  logic [Words:0]   pc;                  // PE carries: pc[p] into PE p

  // Slot tokens: slot 0 from tok_i, slot p from slot p-1 one cycle earlier.
  assign mbt[0] = tok_i;
  if (Words > 1) begin : gen_tok_chain
    logic [Words-1:1] tok_q, tok_d;
    always_comb tok_d = mbt[Words-2:0];
    `MM_FF(tok_q, tok_d, '0)
    assign mbt[Words-1:1] = tok_q;
  end

  always_comb begin
    b_d   = clr_i ? b_i : b_q;
    n_d   = clr_i ? n_i : n_q;
    pet_d = clr_i ? '0 : mbt;
    en    = |mbt;
    // At most one slot token is high (they are four cycles apart): select
    // that slot's RAM words and S word.
    sel_b = '0;
    sel_n = '0;
    sel_s = '0;
    for (int p = 0; p < Words; p++) begin
      if (mbt[p]) begin
        sel_b = b_q[p*WordWidth +: WordWidth];
        sel_n = n_q[p*WordWidth +: WordWidth];
        sel_s = s_i[p*WordWidth +: WordWidth];
      end
    end
    // Slot 0 continues the previous core's word; the others this core's.
    cx = mbt[0] ? hx_i : hx;
    cy = mbt[0] ? hy_i : hy;
  end

  `MM_FF(b_q, b_d, '0)
  `MM_FF(n_q, n_d, '0)
  `MM_FF(pet_q, pet_d, '0)

  mm_sys_mulblk #(.WordWidth(WordWidth)) u_mulblk (
    .clk_i,
    .rst_ni,
    .en_i(en),
    .a_i,
    .q_i,
    .b_i (sel_b),
    .n_i (sel_n),
    .s_i (sel_s),
    .hx_i(cx),
    .hy_i(cy),
    .xl_o(xl),
    .yl_o(yl),
    .hx_o(hx),
    .hy_o(hy)
  );

  assign pc[0] = c_i;
  for (genvar p = 0; p < Words; p++) begin : gen_pe
    if (IsLast && p == Words - 1) begin : gen_last
      mm_sys_mpe_last #(.WordWidth(WordWidth)) u_pe (
        .clk_i,
        .rst_ni,
        .clr_i,
        .fire_i(pet_q[p]),
        .x_i   (xl),
        .y_i   (yl),
        .hx_i  (hx),
        .hy_i  (hy),
        .c_i   (pc[p]),
        .w_o   (w_o[p*WordWidth +: WordWidth]),
        .top_o (top_o)
      );
      assign pc[p+1] = 1'b0;
    end else begin : gen_mid
      mm_sys_mpe #(.WordWidth(WordWidth)) u_pe (
        .clk_i,
        .rst_ni,
        .clr_i,
        .fire_i(pet_q[p]),
        .x_i   (xl),
        .y_i   (yl),
        .c_i   (pc[p]),
        .w_o   (w_o[p*WordWidth +: WordWidth]),
        .c_o   (pc[p+1])
      );
    end
  end
  if (!IsLast) begin : gen_no_top
    assign top_o = '0;
  end

  // Forwarding to the next core: (a_i, q_i) and the token when slot 3 is
  // handled.  The last core forwards nothing.
  if (IsLast) begin : gen_no_fwd
    assign tok_o = 1'b0;
    assign a_o   = '0;
    assign q_o   = '0;
    assign c_o   = 1'b0;
    logic unused_fwd;
    assign unused_fwd = pc[Words];
  end else begin : gen_fwd
    logic             tok_q, tok_d;
    logic [WordWidth-1:0] a_q, a_d, q_q, q_d;
    always_comb begin
      tok_d = mbt[3];
      a_d   = mbt[3] ? a_i : a_q;
      q_d   = mbt[3] ? q_i : q_q;
    end
    `MM_FF(tok_q, tok_d, 1'b0)
    `MM_FF(a_q, a_d, '0)
    `MM_FF(q_q, q_d, '0)
    assign tok_o = tok_q;
    assign a_o   = a_q;
    assign q_o   = q_q;
    assign c_o   = pc[Words];
  end

  assign hx_o = hx;
  assign hy_o = hy;
  assign b0_o = b_q[WordWidth-1:0];

endmodule
