// SPDX-License-Identifier: Apache-2.0
//
// mm_systolic_mux: paper 004's multiplexed systolic word-level Montgomery
// multiplier (Sec. 4.2, Fig. 6-10), reconstructed in docs/systolic.md.  The
// same Algorithm 1 as mm_systolic (radix r = 2^w, m = ceil((k+2)/w) words,
// R = r^m, N' computed in the core, result in [0, 2N) with no final
// subtraction), computed by G = ceil(m/4) arithmetic cores (mm_sys_acore):
// each has one multiplier block (two w x w multipliers) that handles its
// four words one per cycle, and four PEs that do one addition each.
//
// Schedule: a new iteration every 4 cycles (the multiplier block's four
// words; the quotient recurrence MB0 -> MB1 -> PE1 -> S_0 -> quotient also
// takes 4).  Word j of iteration i is in its multiplier block in busy cycle
// I + 2 + 4i + j and in its PE one cycle later.
//
// Interface: the common montmul core interface (docs/interface.md), on the
// shared shell mm_req_ctrl.  Latency: I + 5m - 2 cycles for every request,
// I = Newton steps (2 at w = 16, 3 at w = 32); a rejected request is
// answered at the accepting edge.  Multipliers: 2 ceil(m/4) + 2 (w x w).
`include "mm_macros.svh"

module mm_systolic_mux #(
  parameter int Width      = 32,  // modulus width k: 3 .. 8192
  parameter bit CheckRange = 1,   // 1: reject operands >= 2N
  parameter bit CheckMod   = 1,   // 1: reject an even N or N < 3
  parameter int WordWidth  = 16   // word width w (radix 2^w): 4 .. 32
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  // request
  input  logic             in_valid_i,
  output logic             in_ready_o,
  input  logic [Width:0]   a_i,         // A in [0, 2N)
  input  logic [Width:0]   b_i,         // B in [0, 2N)
  input  logic [Width-1:0] n_i,         // odd N, 3 <= N < 2^Width
  // response
  output logic             out_valid_o,
  input  logic             out_ready_i,
  output logic [Width:0]   s_o,         // A*B*R^-1 mod N, in [0, 2N)
  output logic             err_o        // request rejected; s_o is 0
);

  if (Width < 3 || Width > 8192) begin : gen_bad_width
    `MM_FATAL("mm_systolic_mux: Width must be in [3, 8192]")
  end
  if (WordWidth < 4 || WordWidth > 32) begin : gen_bad_word_width
    `MM_FATAL("mm_systolic_mux: WordWidth must be in [4, 32]")
  end

  localparam int W        = WordWidth;
  localparam int M        = (Width + 2 + W - 1) / W;  // words: W*M >= k+2
  localparam int G        = (M + 3) / 4;              // arithmetic cores
  localparam int MW       = M * W;
  localparam int InvSteps = (W <= 5) ? 0 : (W <= 10) ? 1 : (W <= 20) ? 2 : 3;
  localparam int Latency  = InvSteps + 5 * M - 2;

  logic          accept, start, busy, done;
  logic [Width:0] res;
  logic [MW-1:0] a_ext, b_ext, n_ext;
  logic [W-1:0]  n0_req;
  logic          fire0;
  logic [W-1:0]  a0, q0, s0;
  logic [MW-1:0] pe_w;     // PE j's word (S_(j-1)) at [j*W +: W]
  logic [MW-1:0] s_words;  // S_0 .. S_(m-1)
  logic [W-1:0]  top;      // S_(m-1), from the last PE
  logic [W-1:0]  b0;
  // Per core g: what it passes to core g+1 (index g+1), and what core 0
  // receives (index 0).
  logic [G:0]       tok;
  logic [(G+1)*W-1:0] fa, fq, fhx, fhy;
  logic [G:0]       fc;
  logic [G*W-1:0]   tops, b0s;

  mm_req_ctrl #(
    .Width     (Width),
    .OpWidth   (Width + 1),
    .InBound   (2),
    .CheckRange(CheckRange),
    .CheckMod  (CheckMod)
  ) u_req (
    .clk_i,
    .rst_ni,
    .in_valid_i,
    .in_ready_o,
    .a_i,
    .b_i,
    .n_i,
    .out_valid_o,
    .out_ready_i,
    .s_o,
    .err_o,
    .accept_o(accept),
    .start_o (start),
    .busy_o  (busy),
    .done_i  (done),
    .res_i   (res)
  );

  // MW >= k+2 > k+1: the operands fit, zero-extended.
  always_comb begin
    a_ext  = MW'(a_i);
    b_ext  = MW'(b_i);
    n_ext  = MW'(n_i);
    n0_req = n_ext[W-1:0];
  end

  mm_sys_ctrl #(
    .Width   (W),
    .Words   (M),
    .Period  (4),
    .InvSteps(InvSteps),
    .Latency (Latency)
  ) u_ctrl (
    .clk_i,
    .rst_ni,
    .start_i(start),
    .busy_i (busy),
    .a_i    (a_ext),
    .n0_i   (n0_req),
    .b0_i   (b0),
    .s0_i   (s0),
    .fire_o (fire0),
    .a_o    (a0),
    .q_o    (q0),
    .done_o (done)
  );

  // Core 0 takes the quotient block's token and (a_i, q_i), zero carries.
  assign tok[0]      = fire0;
  assign fa[W-1:0]   = a0;
  assign fq[W-1:0]   = q0;
  assign fhx[W-1:0]  = '0;
  assign fhy[W-1:0]  = '0;
  assign fc[0]       = 1'b0;

  for (genvar g = 0; g < G; g++) begin : gen_core
    localparam int Lo = 4 * g;
    localparam int Nw = (M - Lo < 4) ? M - Lo : 4;
    mm_sys_acore #(
      .Width (W),
      .Words (Nw),
      .IsLast(g == G - 1)
    ) u_core (
      .clk_i,
      .rst_ni,
      .clr_i(start),
      .b_i  (b_ext[Lo*W +: Nw*W]),
      .n_i  (n_ext[Lo*W +: Nw*W]),
      .tok_i(tok[g]),
      .a_i  (fa[g*W +: W]),
      .q_i  (fq[g*W +: W]),
      .hx_i (fhx[g*W +: W]),
      .hy_i (fhy[g*W +: W]),
      .c_i  (fc[g]),
      .s_i  (s_words[Lo*W +: Nw*W]),
      .tok_o(tok[g+1]),
      .a_o  (fa[(g+1)*W +: W]),
      .q_o  (fq[(g+1)*W +: W]),
      .hx_o (fhx[(g+1)*W +: W]),
      .hy_o (fhy[(g+1)*W +: W]),
      .c_o  (fc[g+1]),
      .w_o  (pe_w[Lo*W +: Nw*W]),
      .top_o(tops[g*W +: W]),
      .b0_o (b0s[g*W +: W])
    );
  end

  // S_j is PE j+1's word; S_(m-1) comes from the last PE.
  assign top = tops[(G-1)*W +: W];
  if (M > 1) begin : gen_s_words
    assign s_words = {top, pe_w[MW-1:W]};
  end else begin : gen_s_word
    assign s_words = top;
  end
  assign s0  = s_words[W-1:0];
  assign b0  = b0s[W-1:0];
  assign res = s_words[Width:0];  // S < 2N < 2^(k+1)

  // Never used: PE0's word (zero: the division by r), what the last core
  // would pass on, the other cores' top and B_0 outputs, the bits of S above
  // k (S < 2N), and the accept strobe (the shell answers rejected requests).
  logic unused;
  assign unused = ^{pe_w[W-1:0], tok[G], fa[G*W +: W], fq[G*W +: W], fhx[G*W +: W],
                    fhy[G*W +: W], fc[G], tops, b0s, s_words[MW-1:Width+1],
                    accept};

endmodule
