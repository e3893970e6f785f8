// SPDX-License-Identifier: Apache-2.0
//
// mm_systolic: paper 004's word-level Montgomery multipliers, reconstructed
// in docs/systolic.md, in one shell: the systolic array (Sec. 4.1, Fig. 1-5,
// Multiplexed = 0) or the multiplexed systolic array (Sec. 4.2, Fig. 6-10,
// Multiplexed = 1).  Radix r = 2^w (WordWidth w), m = ceil((k+2)/w) words,
// R = r^m > 4N:
//   S = 0; for i = 0 .. m-1:
//     q_i = ((S_0 + a_i B_0) mod r) N' mod r      (quotient block, mm_sys_ctrl)
//     S   = (S + a_i B + q_i N) / r                (the array)
// Result A*B*R^-1 mod N in [0, 2N) for A, B in [0, 2N), odd N < 2^k: no final
// subtraction (Walter).  N' = -N^-1 mod r is computed from N by Newton steps
// through the quotient block before the first iteration.
//
// The shell (request control, operands, quotient block) is shared; the array:
//   - Multiplexed = 0: m PEs (mm_sys_pe), two w x w multipliers each.  A new
//     iteration enters PE0 every 3 cycles (the quotient recurrence PE1 -> S_0
//     -> quotient block -> PE0 is three registers long); PE j activates PE
//     j+1 one cycle later.  PE j (j >= 1) writes S_(j-1); the last PE's carry
//     is S_(m-1).  Latency: I + 4m - 2 cycles.  Multipliers: 2m + 2.
//   - Multiplexed = 1: G = ceil(m/4) arithmetic cores (mm_sys_acore), each
//     with one multiplier block (two w x w multipliers) that handles its four
//     words one per cycle, and four PEs that do one addition each.  A new
//     iteration every 4 cycles (the multiplier block's four words; the
//     quotient recurrence MB0 -> MB1 -> PE1 -> S_0 -> quotient also takes 4).
//     Word j of iteration i is in its multiplier block in busy cycle
//     I + 2 + 4i + j and in its PE one cycle later.  Latency: I + 5m - 2
//     cycles.  Multipliers: 2 ceil(m/4) + 2.
//
// Interface: the common montmul core interface (docs/interface.md), on the
// shared shell mm_req_ctrl.  I = Newton steps (2 at w = 16, 3 at w = 32),
// the same for every request; a rejected request is answered at the
// accepting edge.
`include "mm_macros.svh"

module mm_systolic #(
  parameter int Width       = 32,  // modulus width k: 3 .. 8192
  parameter bit CheckRange  = 1,   // 1: reject operands >= 2N
  parameter bit CheckMod    = 1,   // 1: reject an even N or N < 3
  parameter int WordWidth   = 16,  // word width w (radix 2^w): 4 .. 32
  parameter bit Multiplexed = 0    // 0: systolic array, 1: multiplexed systolic array
) (
  // the common core interface (docs/interface.md); s_o = A*B*R^-1 mod N, in [0, 2N)
  `MM_CORE_PORTS
);

  if (Width < mm_pkg::WidthMin || Width > mm_pkg::WidthMax) begin : gen_bad_width
    `MM_FATAL("mm_systolic: Width must be in [3, 8192]")
  end
  if (WordWidth < 4 || WordWidth > 32) begin : gen_bad_word_width
    `MM_FATAL("mm_systolic: WordWidth must be in [4, 32]")
  end

  localparam int W        = WordWidth;
  localparam int M        = (Width + 2 + W - 1) / W;  // words: W*M >= k+2
  localparam int MW       = M * W;
  localparam int G        = (M + 3) / 4;              // arithmetic cores (Multiplexed)
  localparam int InvSteps = (W <= 5) ? 0 : (W <= 10) ? 1 : (W <= 20) ? 2 : 3;
  localparam int Period   = Multiplexed ? 4 : 3;      // cycles between iterations
  localparam int Latency  = InvSteps + (Period + 1) * M - 2;

  logic           accept, start, busy, done;
  logic [Width:0] res;
  logic [MW-1:0]  a_ext, b_ext, n_ext;
  logic [W-1:0]   n0_req;
  logic           fire0;
  logic [W-1:0]   a0, q0, s0;
  logic [W-1:0]   b0;       // B_0, from the array's operand store
  logic [MW-1:0]  s_words;  // S_0 .. S_(m-1)

  `MM_REQ_CTRL(u_req, accept, start, busy, done, res)

  // MW >= k+2 > k+1: the operands fit, zero-extended.
  always_comb begin
    a_ext  = MW'(a_i);
    b_ext  = MW'(b_i);
    n_ext  = MW'(n_i);
    n0_req = W'(n_i);  // low word of N (Width may be below W)
  end

  mm_sys_ctrl #(
    .WordWidth(W),
    .Words    (M),
    .Period   (Period),
    .InvSteps (InvSteps),
    .Latency  (Latency)
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

  if (!Multiplexed) begin : gen_array
    // B and N in registers, loaded by a legal request
    logic [MW-1:0]      b_q, b_d, n_q, n_d;
    // PE outputs, word j at [j*W +: W]
    logic [M-1:0]       pe_fire;
    logic [MW-1:0]      pe_a, pe_q, pe_r, pe_s;
    logic [M*(W+1)-1:0] pe_c;

    always_comb begin
      b_d = start ? b_ext : b_q;
      n_d = start ? n_ext : n_q;
    end

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        b_q <= MW'(0);  // (not '0: Verilator counts a fill past 8192 bits as a suspect replication)
        n_q <= MW'(0);
      end else begin
        b_q <= b_d;
        n_q <= n_d;
      end
    end

    for (genvar j = 0; j < M; j++) begin : gen_pe
      logic         fire_in;
      logic [W-1:0] a_in, q_in;
      logic [W:0]   c_in;
      if (j == 0) begin : gen_first
        assign fire_in = fire0;
        assign a_in    = a0;
        assign q_in    = q0;
        assign c_in    = '0;
      end else begin : gen_next
        assign fire_in = pe_fire[j-1];
        assign a_in    = pe_a[(j-1)*W +: W];
        assign q_in    = pe_q[(j-1)*W +: W];
        assign c_in    = pe_c[(j-1)*(W+1) +: W+1];
      end
      // S_j is written by PE j+1; S_(m-1) is the last PE's carry, below r
      // because S < 3N < R.
      if (j < M - 1) begin : gen_s_mid
        assign s_words[j*W +: W] = pe_r[(j+1)*W +: W];
      end else begin : gen_s_top
        assign s_words[j*W +: W] = pe_c[j*(W+1) +: W];
      end
      assign pe_s[j*W +: W] = s_words[j*W +: W];

      mm_sys_pe #(.WordWidth(W), .IsLast(j == M - 1)) u_pe (
        .clk_i,
        .rst_ni,
        .clr_i (start),
        .fire_i(fire_in),
        .a_i   (a_in),
        .q_i   (q_in),
        .c_i   (c_in),
        .b_i   (b_q[j*W +: W]),
        .n_i   (n_q[j*W +: W]),
        .s_i   (pe_s[j*W +: W]),
        .fire_o(pe_fire[j]),
        .a_o   (pe_a[j*W +: W]),
        .q_o   (pe_q[j*W +: W]),
        .c_o   (pe_c[j*(W+1) +: W+1]),
        .r_o   (pe_r[j*W +: W])
      );
    end

    assign b0 = b_q[W-1:0];

    // Never used: PE0's low word (zero: the division by r), the outputs the
    // last PE forwards to no PE, the top bit of its carry (S_(m-1) < r).
    logic unused;
    assign unused = ^{pe_r[W-1:0], pe_fire[M-1], pe_a[(M-1)*W +: W], pe_q[(M-1)*W +: W],
                      pe_c[M*(W+1)-1]};
  end else begin : gen_mux
    logic [MW-1:0]      pe_w;  // PE j's word (S_(j-1)) at [j*W +: W]
    logic [W-1:0]       top;   // S_(m-1), from the last PE
    // Per core g: what it passes to core g+1 (index g+1), and what core 0
    // receives (index 0).
    logic [G:0]         tok;
    logic [(G+1)*W-1:0] fa, fq, fhx, fhy;
    logic [G:0]         fc;
    logic [G*W-1:0]     tops, b0s;

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
        .WordWidth(W),
        .Words    (Nw),
        .IsLast   (g == G - 1)
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
    assign b0 = b0s[W-1:0];

    // Never used: PE0's word (zero: the division by r), what the last core
    // would pass on, the other cores' top and B_0 outputs.
    logic unused;
    assign unused = ^{pe_w[W-1:0], tok[G], fa[G*W +: W], fq[G*W +: W], fhx[G*W +: W],
                      fhy[G*W +: W], fc[G], tops, b0s};
  end

  assign s0  = s_words[W-1:0];
  assign res = s_words[Width:0];  // S < 2N < 2^(k+1)

  // Never used: the bits of S above k (S < 2N), and the accept strobe (the
  // shell answers rejected requests itself).
  logic unused_shell;
  assign unused_shell = ^{s_words[MW-1:Width+1], accept};

endmodule
