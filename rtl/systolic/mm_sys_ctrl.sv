// SPDX-License-Identifier: Apache-2.0
//
// mm_sys_ctrl: the control block and quotient block of paper 004's systolic
// and multiplexed systolic multipliers (docs/systolic.md).  After the
// accepting edge (start_i) it
//   1. computes N' = -N^-1 mod r: the seed -(3N xor 2) mod r (right to five
//      bits for every odd N) is loaded at the accepting edge, then InvSteps
//      Newton steps N' <- N' (2 + N_0 N') mod r run through the quotient
//      block, one per cycle (5 -> 10 -> 20 -> 40 correct bits);
//   2. every Period cycles, for i = 0 .. Words-1, computes
//      q_i = ((S_0 + a_i B_0) mod r) N' mod r in the quotient block and
//      registers (fire, a_i, q_i) for the first word of the array; A shifts
//      right by one word;
//   3. raises done_o in busy cycle Latency (the last edge of the latency).
// Period is 3 for the systolic array (PE1 -> S_0 -> quotient -> PE0) and 4
// for the multiplexed one (four words per multiplier block).
`include "mm_macros.svh"

module mm_sys_ctrl #(
  parameter int WordWidth = 16,  // word width w: 4 .. 32
  parameter int Words     = 2,   // words per operand m: >= 1
  parameter int Period    = 3,   // cycles between iterations: 3 .. 4
  parameter int InvSteps  = 2,   // Newton steps: 0 .. 3, enough for WordWidth bits
  parameter int Latency   = 8    // busy cycles of a product: >= 2
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  input  logic                   start_i,  // accepting edge of a legal request
  input  logic                   busy_i,   // a product is in progress
  input  logic [Words*WordWidth-1:0] a_i,      // A (request port, zero-extended)
  input  logic [WordWidth-1:0]       n0_i,     // N_0 (request port)
  input  logic [WordWidth-1:0]       b0_i,     // B_0 (operand register)
  input  logic [WordWidth-1:0]       s0_i,     // S_0 (result register)
  output logic                   fire_o,   // (a_o, q_o) hold iteration i: first word computes it
  output logic [WordWidth-1:0]       a_o,      // a_i
  output logic [WordWidth-1:0]       q_o,      // q_i
  output logic                   done_o    // this busy cycle ends the product
);

  if (WordWidth < 4 || WordWidth > 32) begin : gen_bad_width
    `MM_FATAL("mm_sys_ctrl: WordWidth must be in [4, 32]")
  end
  if (Period < 3 || Period > 4 || InvSteps < 0 || InvSteps > 3 || Words < 1 || Latency < 2)
  begin : gen_bad_param
    `MM_FATAL("mm_sys_ctrl: illegal Period, InvSteps, Words or Latency")
  end
  // 5 << InvSteps correct bits must cover the word.
  if ((5 << InvSteps) < WordWidth) begin : gen_bad_inv
    `MM_FATAL("mm_sys_ctrl: InvSteps too small for WordWidth")
  end

  localparam int CntW = $clog2(Latency + 1);
  localparam int ItW  = $clog2(Words + 1);
  localparam int PhW  = 2;  // Period <= 4

  logic [Words*WordWidth-1:0] a_q, a_d;     // A >> (w * i)
  logic [WordWidth-1:0]       n0_q, n0_d;
  logic [WordWidth-1:0]       np_q, np_d;   // N' (during the Newton steps, N'_j)
  logic [1:0]             inv_q, inv_d; // Newton steps left
  logic [CntW-1:0]        cnt_q, cnt_d; // busy cycles so far
  logic [PhW-1:0]         ph_q, ph_d;   // cycle within the iteration period
  logic [ItW-1:0]         it_q, it_d;   // iterations issued
  logic                   fire_q, fire_d;
  logic [WordWidth-1:0]       aw_q, aw_d, q_q, q_d;
  logic [WordWidth-1:0]       seed, three_n;
  logic                   inv;
  logic [WordWidth-1:0]       qx, qy, qs, qout;

  mm_sys_quot #(.WordWidth(WordWidth)) u_quot (
    .x_i(qx),
    .y_i(qy),
    .s_i(qs),
    .z_i(np_q),
    .q_o(qout)
  );

  always_comb begin
    inv     = (inv_q != 2'd0);
    // Quotient block inputs: a Newton step, or the quotient of iteration i.
    qx      = inv ? n0_q : a_q[WordWidth-1:0];
    qy      = inv ? np_q : b0_i;
    qs      = inv ? WordWidth'(2) : s0_i;
    // Seed: N (3N xor 2) = 1 mod 2^5 for odd N.
    three_n = n0_i + {n0_i[WordWidth-2:0], 1'b0};
    seed    = -(three_n ^ WordWidth'(2));

    a_d     = a_q;
    n0_d    = n0_q;
    np_d    = np_q;
    inv_d   = inv_q;
    cnt_d   = cnt_q;
    ph_d    = ph_q;
    it_d    = it_q;
    fire_d  = 1'b0;
    aw_d    = aw_q;
    q_d     = q_q;
    if (start_i) begin
      a_d   = a_i;
      n0_d  = n0_i;
      np_d  = seed;
      inv_d = 2'(InvSteps);
      cnt_d = '0;
      ph_d  = '0;
      it_d  = '0;
    end else if (busy_i) begin
      cnt_d = cnt_q + 1'b1;
      if (inv) begin
        np_d  = qout;
        inv_d = inv_q - 1'b1;
      end else begin
        ph_d = (ph_q == PhW'(Period - 1)) ? '0 : ph_q + 1'b1;
        if (ph_q == '0 && it_q != ItW'(Words)) begin
          fire_d = 1'b1;
          aw_d   = a_q[WordWidth-1:0];
          q_d    = qout;
          a_d    = a_q >> WordWidth;
          it_d   = it_q + 1'b1;
        end
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      a_q    <= (Words * WordWidth)'(0);  // (not '0: may exceed 8192 bits)
      n0_q   <= '0;
      np_q   <= '0;
      inv_q  <= '0;
      cnt_q  <= '0;
      ph_q   <= '0;
      it_q   <= '0;
      fire_q <= 1'b0;
      aw_q   <= '0;
      q_q    <= '0;
    end else begin
      a_q    <= a_d;
      n0_q   <= n0_d;
      np_q   <= np_d;
      inv_q  <= inv_d;
      cnt_q  <= cnt_d;
      ph_q   <= ph_d;
      it_q   <= it_d;
      fire_q <= fire_d;
      aw_q   <= aw_d;
      q_q    <= q_d;
    end
  end

  assign fire_o = fire_q;
  assign a_o    = aw_q;
  assign q_o    = q_q;
  assign done_o = busy_i && (cnt_q == CntW'(Latency - 1));

endmodule
