// SPDX-License-Identifier: Apache-2.0
//
// mm_modexp_crt: one RSA-CRT private-key operation on one montmul core
// (docs/modexp.md, "RSA-CRT in the engine"): the two half exponentiations
// m_p = c^dP mod p and m_q = c^dQ mod q side by side, then Garner's
// h = (m_p - m_q) * qInv mod p.  The host finishes with m = m_q + q*h (a
// k x k multiply-add the half-width core cannot do in one product).
//
// The core is mm_modexp_core, the same generated wrapper as mm_modexp's.
// Request checks and exponent alignment (StPre, before the first round):
// the wide comparisons run one after another on the two threads' adders,
// and each exponent is shifted left until its top bit (bit length - 1)
// sits at bit ExpWidth - 1, so that the loop reads every exponent bit from
// one fixed position; a one shifted out is a bit at or above the length.
// No comparator and no bit-select multiplexer of their own (docs/modexp.md,
// "Area").
// Two threads, P (mod p) and Q (mod q), run in rounds: a round is every
// product both threads can issue now (they are independent), presented back
// to back while the core accepts them (in_valid high while some are left),
// every response taken at once (out_ready high); the round ends at the edge
// that takes its last response.  A one-slot core takes them one after the
// other; a core that keeps several products in flight (dsp_redundant with
// Interleave > 1) overlaps them.  Per thread (modulus N, R2 = R^2 mod N,
// K = 2^Width, MM(a, b) = a*b*R^-1 mod N in [0, 2N)):
//   StPre:       max(3, ExpWidth - len_P, ExpWidth - len_Q) cycles: with
//                y = N, the adders test q < p, R2 < N, qInvR < p (N - v - 1
//                >= 0); each cycle shifts each exponent left once while
//                its shifts are not done
//   round Init:  x = MM(R2, 1), y = MM(R2, K)
//   round Chk:   z = MM(x, 1), y = MM(c_hi, y)
//   StChk:       z mod N must be 1 (else err: R2 != R^2 mod N); y = y mod N
//   StAdd:       y = y + c_lo                      (< N + 2^Width)
//   StAdd2:      y = y - N if y >= N               (congruent to c, < 2N)
//   round Base:  y = MM(y, R2)                     (c in the Montgomery domain)
//   rounds Loop: per exponent bit, square-and-multiply (x = MM(x, x); if
//                e_i: x = MM(x, y), the multiply in the next round) or the
//                ladder (both products of the step in one round)
//   round Exit:  y = MM(x, 1)
//   StRed:       y = y mod N                       (m_p, m_q)
//   StG1, StG2:  y_P = m_p + p - m_q               (in (0, 2p) as q < p)
//   round Gar:   y_P = MM(y_P, qInvR), z_P = MM(q, qInvR)   (mod p)
//   StFin:       z_P mod p must be 1 (else err: wrong qInvR); h = y_P mod p
// Product order within a round: thread P's, then Q's; within a thread the
// order above.  No product of a round reads a register that another product
// of the same round writes, so operands read at issue are those of the
// round's start, whatever the core's slots.
//
// Requests: checked in the accepting cycle (rejected: err at that edge):
// p, q odd with bit Width-1 set, 1 <= exp lengths <= ExpWidth; checked in
// StPre (rejected: err after it): q < p, no exponent bit at or above its
// length, R^2 mod p < p, R^2 mod q < q, qInvR < p.  c is any 2*Width-bit
// value (reduced on the core).
//
// Latency: StPre, the rounds (montmul.engine._round_edges: each product
// L_i + 2 on a one-slot core) plus seven one-cycle steps;
// montmul.engine.crt_engine_model gives it exactly.
`include "mm_macros.svh"

module mm_modexp_crt #(
  parameter int Width    = 32,    // prime width k: 3 .. 8192
  parameter int ExpWidth = Width  // exponent ports (wider for blinded exponents): Width .. 16384
) (
  input  logic                          clk_i,
  input  logic                          rst_ni,
  // request
  input  logic                          in_valid_i,
  output logic                          in_ready_o,
  input  logic [2*Width-1:0]            c_i,        // any value; m = c^d mod pq
  input  logic [Width-1:0]              p_i,        // the larger prime
  input  logic [Width-1:0]              q_i,        // the smaller prime
  input  logic [ExpWidth-1:0]           dp_i,
  input  logic [ExpWidth-1:0]           dq_i,
  input  logic [$clog2(ExpWidth+1)-1:0] dp_len_i,   // 1 .. ExpWidth
  input  logic [$clog2(ExpWidth+1)-1:0] dq_len_i,
  input  logic [Width-1:0]              r2p_i,      // R^2 mod p
  input  logic [Width-1:0]              r2q_i,      // R^2 mod q
  input  logic [Width-1:0]              qinvr_i,    // (q^-1 mod p) * R mod p
  input  logic                          ladder_i,   // 0: square-and-multiply, 1: ladder
  // response
  output logic                          out_valid_o,
  input  logic                          out_ready_i,
  output logic [Width-1:0]              mq_o,       // c^dQ mod q; 0 on err
  output logic [Width-1:0]              h_o,        // (m_p - m_q) * qInv mod p; 0 on err
  output logic                          err_o
);

  if (Width < mm_pkg::WidthMin || Width > mm_pkg::WidthMax) begin : gen_bad_width
    `MM_FATAL("mm_modexp_crt: Width must be in [3, 8192]")
  end
  if (ExpWidth < Width || ExpWidth > 16384) begin : gen_bad_exp_width
    `MM_FATAL("mm_modexp_crt: ExpWidth must be in [Width, 16384]")
  end

  localparam int LenW = $clog2(ExpWidth + 1);
  localparam int IdxW = $clog2(ExpWidth);

  typedef enum logic [3:0] {
    StIdle,  // ready for a request
    StPre,   // range checks on the adders, exponent alignment
    StRun,   // a round of products
    StChk,   // R^2 checks, y mod N
    StAdd,   // y + c_lo
    StAdd2,  // y - N if y >= N
    StRed,   // y mod N: m_p, m_q
    StG1,    // y_P + p
    StG2,    // y_P - m_q
    StFin,   // qInv check, h = y_P mod p
    StDone   // hold the response
  } state_e;

  // Thread phases (the products a thread issues in the current round).
  localparam logic [2:0] PhInit = 3'd0;
  localparam logic [2:0] PhChk  = 3'd1;
  localparam logic [2:0] PhBase = 3'd2;
  localparam logic [2:0] PhLoop = 3'd3;
  localparam logic [2:0] PhExit = 3'd4;
  localparam logic [2:0] PhFin  = 3'd5;
  localparam logic [2:0] PhGar  = 3'd6;

  // Destinations.
  localparam logic [1:0] DstX = 2'd0;
  localparam logic [1:0] DstY = 2'd1;
  localparam logic [1:0] DstZ = 2'd2;

  localparam logic [Width:0] One  = {{Width{1'b0}}, 1'b1};
  localparam logic [Width:0] KVal = {1'b1, {Width{1'b0}}};  // 2^Width

  state_e                      state_q, state_d;
  logic [1:0][2:0]             ph_q, ph_d;
  logic [1:0]                  sub_q, sub_d;
  logic [1:0]                  ebit_q, ebit_d;
  logic [1:0][IdxW-1:0]        idx_q, idx_d;
  logic [1:0][Width-1:0]       n_q, n_d;
  logic [1:0][ExpWidth-1:0]    e_q, e_d;
  logic [1:0][Width-1:0]       r2_q, r2_d;
  logic [1:0][LenW-1:0]        sh_q, sh_d;      // exponent shifts left to do (StPre)
  logic [1:0]                  pre_q, pre_d;    // StPre check step: 0, 1, 2, then 3 (done)
  logic [1:0][Width:0]         x_q, x_d, y_q, y_d, z_q, z_d;
  logic [Width-1:0]            chi_q, chi_d;    // c_hi
  logic [Width-1:0]            clo_q, clo_d;    // c_lo
  logic [Width-1:0]            qinvr_q, qinvr_d;
  logic                        ladder_q, ladder_d;
  logic                        err_q, err_d;
  logic [2:0]                  iss_q, iss_d;    // products of the round presented so far
  logic [2:0]                  rcv_q, rcv_d;    // responses of the round taken so far

  // ---------------------------------------------------------------------
  // Request checks in the accepting cycle (the rest in StPre).
  logic [Width-1:0] c_lo, c_hi;
  assign c_lo = c_i[Width-1:0];
  assign c_hi = c_i[2*Width-1:Width];

  logic bad_p, bad_q, bad_len, req_err;
  logic len_above_p, len_above_q;
  if ((1 << LenW) - 1 > ExpWidth) begin : gen_len_above
    assign len_above_p = dp_len_i > LenW'(ExpWidth);
    assign len_above_q = dq_len_i > LenW'(ExpWidth);
  end else begin : gen_len_fits
    assign len_above_p = 1'b0;
    assign len_above_q = 1'b0;
  end

  always_comb begin
    bad_p   = ~p_i[0] | ~p_i[Width-1];
    bad_q   = ~q_i[0] | ~q_i[Width-1];
    bad_len = (dp_len_i == '0) || (dq_len_i == '0) || len_above_p || len_above_q;
    req_err = bad_p | bad_q | bad_len;
  end

  // ---------------------------------------------------------------------
  // Per thread: the one-cycle steps' adder on y (Width + 1 bits, 32-bit
  // segments like mm_modexp's final reduction), and the "z mod N == 1" test.
  // In StPre y holds N and the adder computes N + ~v = N - v - 1 (mod
  // 2^(Width+1)): its carry says v < N, for v = q, R2 and qInvR (thread P:
  // one per check step) and v = R2 (thread Q).
  logic [1:0][Width:0] add_b, add_s, red;
  logic [1:0]          add_ci, add_co, chk_ok;

  // The exponents are left-aligned after StPre: bit idx of the exponent is
  // at ExpWidth - 1 and idx - 1 below it.
  logic [1:0] ebit_at, ebit_nx;
  logic [1:0][ExpWidth-1:0] e_shl;  // the exponents shifted left once
  logic [Width-1:0] pre_v;  // thread P's value under test in StPre

  always_comb begin
    unique case (pre_q)
      2'd0:    pre_v = n_q[1];
      2'd1:    pre_v = r2_q[0];
      default: pre_v = qinvr_q;
    endcase
  end

  for (genvar t = 0; t < 2; t++) begin : gen_thread
    logic [Width:0] chk_k, chk_maj;

    assign ebit_at[t] = e_q[t][ExpWidth-1];
    assign ebit_nx[t] = e_q[t][ExpWidth-2];
    assign e_shl[t]   = {e_q[t][ExpWidth-2:0], 1'b0};

    always_comb begin
      // default: y - N (the reduction y mod N for y < 2N)
      add_b[t]  = ~{1'b0, n_q[t]};
      add_ci[t] = 1'b1;
      if (state_q == StPre) begin
        add_b[t]  = ~{1'b0, (t == 0) ? pre_v : r2_q[1]};
        add_ci[t] = 1'b0;
      end else if (state_q == StAdd) begin
        add_b[t]  = {1'b0, clo_q};
        add_ci[t] = 1'b0;
      end else if (state_q == StG1) begin
        add_b[t]  = {1'b0, n_q[t]};
        add_ci[t] = 1'b0;
      end else if (state_q == StG2) begin
        add_b[t]  = ~y_q[1];
        add_ci[t] = 1'b1;
      end
    end

    mm_seg_add #(
      .Width   (Width + 1),
      .SegWidth(32)
    ) u_add (
      .a_i (y_q[t]),
      .b_i (add_b[t]),
      .ci_i(add_ci[t]),
      .s_o (add_s[t]),
      .co_o(add_co[t])
    );
    assign red[t] = add_co[t] ? add_s[t] : y_q[t];

    // z mod N == 1 (z < 2N) exactly when z = 1 or z = N + 1; N + 1 = z is
    // tested without a carry chain (as in mm_modexp).
    assign chk_k     = {1'b0, n_q[t]} ^ One ^ z_q[t];
    assign chk_maj   = ({1'b0, n_q[t]} & One) | ({1'b0, n_q[t]} & chk_k) | (One & chk_k);
    assign chk_ok[t] = (z_q[t] == One)
                     | (~chk_k[0] & (chk_k[Width:1] == chk_maj[Width-1:0]) & ~chk_maj[Width]);
  end

  // ---------------------------------------------------------------------
  // The round: products per thread, the product presented, the response's
  // destination.
  logic [1:0][1:0] cnt_t;
  logic [2:0]      cnt;
  logic            round_end;

  always_comb begin
    for (int t = 0; t < 2; t++) begin
      unique case (ph_q[t])
        PhInit, PhChk, PhGar: cnt_t[t] = 2'd2;
        PhBase, PhExit:       cnt_t[t] = 2'd1;
        PhLoop:               cnt_t[t] = ladder_q ? 2'd2 : 2'd1;
        default:              cnt_t[t] = 2'd0;
      endcase
    end
    cnt = 3'(cnt_t[0]) + 3'(cnt_t[1]);
  end

  // The core.
  logic           core_in_valid, core_in_ready;
  logic           core_out_valid, core_out_ready;
  logic [Width:0] op_a, op_b, core_s;
  logic           core_err;
  logic [Width-1:0] core_n;

  mm_modexp_core #(
    .Width(Width)
  ) u_core (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .in_valid_i (core_in_valid),
    .in_ready_o (core_in_ready),
    .a_i        (op_a),
    .b_i        (op_b),
    .n_i        (core_n),
    .out_valid_o(core_out_valid),
    .out_ready_i(core_out_ready),
    .s_o        (core_s),
    .err_o      (core_err)
  );

  assign core_in_valid  = (state_q == StRun) && (iss_q != cnt);
  assign core_out_ready = (state_q == StRun);
  assign round_end      = core_out_valid && (rcv_q == cnt - 3'd1);

  // The product on the core's request ports: the next one to issue while
  // the core can accept it or none is in flight; otherwise the one in
  // flight (so a core that reads its ports after accepting still sees its
  // own operands and modulus).
  logic [2:0] sel;
  logic       sel_th, rcv_th;
  logic       sel_k, rcv_k;
  logic [1:0] rcv_dst;

  always_comb begin
    sel    = (core_in_ready || (rcv_q == iss_q)) ? iss_q : rcv_q;
    sel_th = (sel >= 3'(cnt_t[0]));
    sel_k  = sel_th ? (sel != 3'(cnt_t[0])) : (sel != 3'd0);
    rcv_th = (rcv_q >= 3'(cnt_t[0]));
    rcv_k  = rcv_th ? (rcv_q != 3'(cnt_t[0])) : (rcv_q != 3'd0);
    core_n = n_q[sel_th];

    op_a = x_q[sel_th];
    op_b = One;
    unique case (ph_q[sel_th])
      PhInit: begin
        op_a = {1'b0, r2_q[sel_th]};
        op_b = sel_k ? KVal : One;
      end
      PhChk: begin
        op_a = sel_k ? {1'b0, chi_q} : x_q[sel_th];
        op_b = sel_k ? y_q[sel_th] : One;
      end
      PhBase: begin
        op_a = y_q[sel_th];
        op_b = {1'b0, r2_q[sel_th]};
      end
      PhLoop: begin
        if (ladder_q) begin
          if (!sel_k) begin
            op_a = x_q[sel_th];
            op_b = y_q[sel_th];
          end else if (ebit_q[sel_th]) begin
            op_a = y_q[sel_th];
            op_b = y_q[sel_th];
          end else begin
            op_a = x_q[sel_th];
            op_b = x_q[sel_th];
          end
        end else begin
          op_a = x_q[sel_th];
          op_b = sub_q[sel_th] ? y_q[sel_th] : x_q[sel_th];
        end
      end
      PhGar: begin
        op_a = sel_k ? {1'b0, n_q[1]} : y_q[sel_th];
        op_b = {1'b0, qinvr_q};
      end
      default: begin  // PhExit
        op_a = x_q[sel_th];
        op_b = One;
      end
    endcase

    unique case (ph_q[rcv_th])
      PhInit:  rcv_dst = rcv_k ? DstY : DstX;
      PhChk:   rcv_dst = rcv_k ? DstY : DstZ;
      PhGar:   rcv_dst = rcv_k ? DstZ : DstY;
      PhLoop: begin
        if (ladder_q) begin
          rcv_dst = (rcv_k ^ ebit_q[rcv_th]) ? DstX : DstY;
        end else begin
          rcv_dst = DstX;
        end
      end
      PhBase, PhExit: rcv_dst = DstY;
      default:        rcv_dst = DstX;
    endcase
  end

  // ---------------------------------------------------------------------
  // Next state.
  always_comb begin
    state_d  = state_q;
    ph_d     = ph_q;
    sub_d    = sub_q;
    ebit_d   = ebit_q;
    idx_d    = idx_q;
    n_d      = n_q;
    e_d      = e_q;
    r2_d     = r2_q;
    sh_d     = sh_q;
    pre_d    = pre_q;
    x_d      = x_q;
    y_d      = y_q;
    z_d      = z_q;
    chi_d    = chi_q;
    clo_d    = clo_q;
    qinvr_d  = qinvr_q;
    ladder_d = ladder_q;
    err_d    = err_q;
    iss_d    = iss_q;
    rcv_d    = rcv_q;
    unique case (state_q)
      StIdle: begin
        if (in_valid_i) begin
          n_d[0]   = p_i;
          n_d[1]   = q_i;
          e_d[0]   = dp_i;
          e_d[1]   = dq_i;
          r2_d[0]  = r2p_i;
          r2_d[1]  = r2q_i;
          chi_d    = c_hi;
          clo_d    = c_lo;
          qinvr_d  = qinvr_i;
          ladder_d = ladder_i;
          // lengths are in [1, ExpWidth] unless rejected: t-1 fits IdxW bits
          idx_d[0] = IdxW'(dp_len_i - 1'b1);
          idx_d[1] = IdxW'(dq_len_i - 1'b1);
          sh_d[0]  = LenW'(ExpWidth) - dp_len_i;
          sh_d[1]  = LenW'(ExpWidth) - dq_len_i;
          pre_d    = '0;
          ph_d[0]  = PhInit;
          ph_d[1]  = PhInit;
          sub_d    = '0;
          ebit_d   = '0;
          y_d[0]   = {1'b0, p_i};  // StPre: N - v - 1 on the adders
          y_d[1]   = {1'b0, q_i};
          iss_d    = '0;
          rcv_d    = '0;
          err_d    = req_err;
          if (req_err) begin
            state_d = StDone;
          end else begin
            state_d = StPre;
          end
        end
      end
      StPre: begin
        // thread P: q < p, R2 < p, qInvR < p (steps 0, 1, 2); thread Q:
        // R2 < q (every step, the same test)
        if ((pre_q != 2'd3 && !add_co[0]) || !add_co[1]) begin
          err_d = 1'b1;
        end
        if (pre_q != 2'd3) begin
          pre_d = pre_q + 2'd1;
        end
        for (int t = 0; t < 2; t++) begin
          if (sh_q[t] != '0) begin
            e_d[t]  = e_shl[t];
            sh_d[t] = sh_q[t] - 1'b1;
            if (ebit_at[t]) begin
              err_d = 1'b1;  // a bit at or above the exponent's length
            end
          end
        end
        if (pre_q >= 2'd2 && sh_q[0] <= LenW'(1) && sh_q[1] <= LenW'(1)) begin
          if (err_d) begin
            state_d = StDone;
          end else begin
            state_d = StRun;
          end
        end
      end
      StRun: begin
        if (core_in_valid && core_in_ready) begin
          iss_d = iss_q + 3'd1;
        end
        if (core_out_valid) begin
          rcv_d = rcv_q + 3'd1;
          unique case (rcv_dst)
            DstX:    x_d[rcv_th] = core_s;
            DstY:    y_d[rcv_th] = core_s;
            default: z_d[rcv_th] = core_s;
          endcase
          if (core_err) begin
            // Never expected (the requests were checked): answer err.
            err_d   = 1'b1;
            iss_d   = '0;
            rcv_d   = '0;
            state_d = StDone;
          end else if (round_end) begin
            iss_d = '0;
            rcv_d = '0;
            state_d = StRun;
            if (ph_q[0] == PhChk) begin
              state_d = StChk;
            end else if (ph_q[0] == PhGar) begin
              ph_d[0] = PhFin;
              state_d = StFin;
            end else begin
              for (int t = 0; t < 2; t++) begin
                unique case (ph_q[t])
                  PhInit: ph_d[t] = PhChk;
                  PhBase: begin
                    ph_d[t]   = PhLoop;
                    sub_d[t]  = 1'b0;
                    ebit_d[t] = ebit_at[t];
                  end
                  PhLoop: begin
                    if (!ladder_q && !sub_q[t] && ebit_q[t]) begin
                      sub_d[t] = 1'b1;
                    end else begin
                      sub_d[t] = 1'b0;
                      if (idx_q[t] == '0) begin
                        ph_d[t] = PhExit;
                      end else begin
                        idx_d[t]  = idx_q[t] - 1'b1;
                        e_d[t]    = e_shl[t];
                        ebit_d[t] = ebit_nx[t];
                      end
                    end
                  end
                  PhExit:  ph_d[t] = PhFin;
                  default: ph_d[t] = ph_q[t];
                endcase
              end
              if ((ph_d[0] == PhFin) && (ph_d[1] == PhFin)) begin
                state_d = StRed;
              end
            end
          end
        end
      end
      StChk: begin
        if (!(chk_ok[0] && chk_ok[1])) begin
          err_d   = 1'b1;
          state_d = StDone;
        end else begin
          y_d[0]  = red[0];
          y_d[1]  = red[1];
          state_d = StAdd;
        end
      end
      StAdd: begin
        y_d[0]  = add_s[0];
        y_d[1]  = add_s[1];
        state_d = StAdd2;
      end
      StAdd2: begin
        y_d[0]  = red[0];
        y_d[1]  = red[1];
        ph_d[0] = PhBase;
        ph_d[1] = PhBase;
        state_d = StRun;
      end
      StRed: begin
        y_d[0]  = red[0];
        y_d[1]  = red[1];
        state_d = StG1;
      end
      StG1: begin
        y_d[0]  = add_s[0];
        state_d = StG2;
      end
      StG2: begin
        y_d[0]  = add_s[0];
        ph_d[0] = PhGar;
        state_d = StRun;
      end
      StFin: begin
        if (!chk_ok[0]) begin
          err_d = 1'b1;
        end else begin
          y_d[0] = red[0];
        end
        state_d = StDone;
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
  `MM_FF(ph_q, ph_d, '0)
  `MM_FF(sub_q, sub_d, '0)
  `MM_FF(ebit_q, ebit_d, '0)
  `MM_FF(idx_q, idx_d, '0)
  `MM_FF(n_q, n_d, '0)
  `MM_FF(e_q, e_d, '0)
  `MM_FF(r2_q, r2_d, '0)
  `MM_FF(sh_q, sh_d, '0)
  `MM_FF(pre_q, pre_d, '0)
  `MM_FF(x_q, x_d, '0)
  `MM_FF(y_q, y_d, '0)
  `MM_FF(z_q, z_d, '0)
  `MM_FF(chi_q, chi_d, '0)
  `MM_FF(clo_q, clo_d, '0)
  `MM_FF(qinvr_q, qinvr_d, '0)
  `MM_FF(ladder_q, ladder_d, 1'b0)
  `MM_FF(err_q, err_d, 1'b0)
  `MM_FF(iss_q, iss_d, '0)
  `MM_FF(rcv_q, rcv_d, '0)

  assign in_ready_o  = (state_q == StIdle);
  assign out_valid_o = (state_q == StDone);
  assign mq_o        = err_q ? '0 : y_q[1][Width-1:0];
  assign h_o         = err_q ? '0 : y_q[0][Width-1:0];
  assign err_o       = err_q;

`ifdef MM_FORMAL
  // Invariants for the formal flow (docs/formal.md), for a core that takes
  // one product at a time: legal encodings; the round's counters in order
  // (taken <= presented <= its products); the core holds a product exactly
  // while one is presented and not yet taken, and is idle otherwise; the
  // error flag and the core handshake only in their states.
  always_comb begin
    if (rst_ni) begin
      assert (state_q <= StDone);
      assert (ph_q[0] <= PhGar && ph_q[1] <= PhFin);
      assert (rcv_q <= iss_q && iss_q <= 3'd4);
      if (state_q == StRun) begin
        assert (iss_q <= cnt && cnt != 3'd0);
      end else begin
        assert (iss_q == 3'd0 && rcv_q == 3'd0);
      end
      if (state_q == StRun && rcv_q != iss_q) begin
        assert (!core_in_ready && rcv_q + 3'd1 == iss_q);
      end else begin
        assert (core_in_ready && !core_out_valid);
      end
      if (err_q) assert (state_q == StIdle || state_q == StPre || state_q == StDone);
      if (state_q != StPre) assert (sh_q == '0 || state_q == StIdle || state_q == StDone);
      if (state_q != StRun) assert (!core_in_valid && !core_out_ready);
    end
  end
`endif  // MM_FORMAL

endmodule
