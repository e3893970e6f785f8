// SPDX-License-Identifier: Apache-2.0
//
// mm_dsp_redundant: high-radix constant-time Montgomery multiplier in a
// redundant number system on DSP multipliers (paper 003, Algorithm 1,
// Sec. III-A, IV-A..IV-D; model montmul.models.dsp, derivation docs/dsp.md).
//
//   M' = -N^-1 mod 2^R1 (Newton), M~ = M'*N, S_0 = 0
//   for i = 0 .. m+1:  q_i = S_i mod 2^R1;  S_{i+1} = (S_i + q_i*M~)/2^R1 + a_i*B
//   i = m+2:           q'  = (S mod 2^R1)*M' mod 2^R1;  S = (S + q'*N)/2^R1
//   result = S (binary), A*B*2^-(R1*(m+2)) mod N in [0, 2N)
//
// A is consumed one radix-2^R1 digit per iteration; B, N, M~ and S are
// radix-2^R2 redundant digits of R2+2 bits.  One (R1+2)x(R2+2) product per
// digit of B (a_i*B) and per digit of M~ (q*M~), written as plain products so
// that synthesis maps each onto one DSP multiplier (24x17 for R1=22, R2=15;
// 18x18 for R1=R2=16).
//
// Datapath: three combinational stages, A (multipliers), B (MAC, shift by
// R1 bits, Newton), C (redundant addition, next quotient digit, conversion
// to binary), closed into a ring through the context register.  A context
// holds everything one product needs (A, B, N, M', q', q, M~, S, step
// counter).  Interleave = 1: no
// register between the stages, one product in flight, one step per cycle,
// on the shell mm_req_ctrl.  Interleave = 2 (3): a register layer after
// stage A (and after stage B); the ring then holds 2 (3) contexts that take
// turns, each advancing one step per Interleave cycles, on the shell
// mm_req_pipe (responses in request order).
//
// Steps of one product (docs/dsp.md): P Newton steps, M~ = M'*N beside
// S_1 = a_0*B, iterations 1 .. m+1, q', iteration m+2 with N, conversion:
// latency Interleave*(P + m + 5) cycles, constant time by construction.
`include "mm_macros.svh"

module mm_dsp_redundant #(
  parameter int Width      = 256,  // modulus width k: 3 .. 8192
  parameter int R1         = 22,   // radix-2^R1 digits of A and the quotient: R2 .. min(2*R2-4, 40)
  parameter int R2         = 15,   // radix-2^R2 redundant digits of B, M~, S: 6 .. 24
  parameter int Interleave = 1,    // products in flight (register stages per step): 1 .. 3
  parameter bit CheckRange = 1,     // 1: reject operands >= 2N
  parameter bit CheckMod   = 1     // 1: reject an even N or N < 3
) (
  // the common core interface (docs/interface.md); s_o = A*B*2^-(R1*(m+2)) mod N, in [0, 2N)
  `MM_CORE_PORTS
`ifdef MM_FORMAL
  ,
  // for the formal flow only (docs/formal.md): requests accepted whose
  // response has not been taken, for the formal top to compare with its own
  // count (the datapath's state is not visible at the other ports)
  output logic [3:0]       f_outstanding_o
`endif
);

  if (Width < mm_pkg::WidthMin || Width > mm_pkg::WidthMax) begin : gen_bad_width
    `MM_FATAL("mm_dsp_redundant: Width must be in [3, 8192]")
  end
  if (R2 < 6 || R2 > 24 || R1 < R2 || R1 > 2 * R2 - 4 || R1 > 40) begin : gen_bad_digits
    `MM_FATAL("mm_dsp_redundant: need 6 <= R2 <= 24 and R2 <= R1 <= min(2*R2-4, 40)")
  end
  if (Interleave < 1 || Interleave > 3) begin : gen_bad_interleave
    `MM_FATAL("mm_dsp_redundant: Interleave must be 1, 2 or 3")
  end

  // ------------------------------------------------------------------------
  // Geometry (montmul.models.dsp.geometry; bounds in docs/dsp.md)
  // ------------------------------------------------------------------------
  localparam int DW   = R2 + 2;                        // redundant digit
  localparam int YW   = R1 + 2;                        // wide multiplier port
  localparam int PW   = R1 + R2 + 4;                   // digit product
  localparam int HW   = PW - 2 * R2;                   // top part of a digit product
  localparam int E    = R1 - R2;                       // shift within a digit
  localparam int M    = (Width + R1) / R1;             // ceil((k+1)/R1): digits of A
  localparam int DN   = (Width + R2 - 1) / R2;         // digits of N (binary)
  localparam int DB   = (Width + R2) / R2;             // digits of B (binary)
  localparam int DKV  = (Width + R1 + R2) / R2;        // a_i*B < 2^(k+R1+1)
  localparam int DK   = (DB + 2 < DKV) ? DB + 2 : DKV;
  localparam int DMV  = (Width + R1 + R2 - 1) / R2;    // M~ < 2^(k+R1)
  localparam int DM   = (DN + 2 < DMV) ? DN + 2 : DMV;
  localparam int DS   = (Width + R1 + R2 + 1) / R2;    // S < 3*2^R1*N < 2^(k+R1+2)
  localparam int DT   = (Width + 2 * R1 + R2) / R2;    // T = S + q*M~ < 2^(k+2R1+1)
  localparam int P    = (R1 <= 10) ? 1 : (R1 <= 20) ? 2 : 3;  // Newton steps from 5 bits
  localparam int AW   = M * R1;
  localparam int CW   = (DS + 1) * R2;                 // conversion adder
  // step counter values (steps completed since the request was loaded)
  localparam int StMt   = P;
  localparam int StQf   = P + M + 2;
  localparam int StFin  = P + M + 3;
  localparam int StConv = P + M + 4;
  localparam int CntW   = $clog2(StConv + 1);
  localparam int TagW   = (Interleave > 1) ? $clog2(Interleave) : 1;
  // context: {busy, tag, cnt, a, b, n, y, qf, q, mt, s}; q = S mod 2^R1
  localparam int CtxW = 1 + TagW + CntW + AW + (Width + 1) + Width + 3 * R1 + DM * DW + DS * DW;

  localparam logic [DW-1:0] EMask = DW'((1 << E) - 1);

  // ------------------------------------------------------------------------
  // Request shell
  // ------------------------------------------------------------------------
  logic            start, slot_free, done;
  logic [TagW-1:0] start_tag, done_tag;
  logic [Width:0]  res;
`ifdef MM_FORMAL
  logic [Interleave-1:0] f_pending;  // request entries owed a product by the ring
`endif

  if (Interleave == 1) begin : gen_shell_one
    logic           busy_unused, accept_unused;
    logic [Width:0] res_q, res_d;

    `MM_REQ_CTRL(u_ctrl, accept_unused, start, busy_unused, done, res_q)

    always_comb begin
      res_d = res_q;
      if (done) begin
        res_d = res;
      end
    end

    `MM_FF(res_q, res_d, '0)

    assign start_tag = '0;
    // slot_free: mm_req_ctrl takes a request only when idle, with the
    // context free.
    logic unused_shell;
    assign unused_shell = ^{busy_unused, accept_unused, slot_free, done_tag};
`ifdef MM_FORMAL
    // one request at a time: outstanding while the shell is not idle, owed
    // a product while it is busy
    assign f_outstanding_o = {3'b0, !in_ready_o};
    assign f_pending       = busy_unused;
`endif
  end else begin : gen_shell_pipe
    logic accept_unused;
`ifdef MM_FORMAL
    logic [$clog2(Interleave + 1)-1:0] f_count;
    assign f_outstanding_o = 4'(f_count);
`endif

    mm_req_pipe #(
      .Width     (Width),
      .OpWidth   (Width + 1),
      .InBound   (2),
      .CheckRange(CheckRange),
      .CheckMod  (CheckMod),
      .Depth     (Interleave),
      .TagW      (TagW)
    ) u_pipe (
      .clk_i       (clk_i),
      .rst_ni      (rst_ni),
      .in_valid_i  (in_valid_i),
      .in_ready_o  (in_ready_o),
      .a_i         (a_i),
      .b_i         (b_i),
      .n_i         (n_i),
      .out_valid_o (out_valid_o),
      .out_ready_i (out_ready_i),
      .s_o         (s_o),
      .err_o       (err_o),
      .slot_free_i (slot_free),
      .accept_o    (accept_unused),
      .start_o     (start),
      .tag_o       (start_tag),
      .done_i      (done),
      .done_tag_i  (done_tag),
      .res_i       (res)
`ifdef MM_FORMAL
      ,
      .f_count_o   (f_count),
      .f_pending_o (f_pending)
`endif
    );

    logic unused_shell;
    assign unused_shell = accept_unused;
  end

  // ------------------------------------------------------------------------
  // The context register (head of the ring) and the loaded request
  // ------------------------------------------------------------------------
  logic [CtxW-1:0] ctx_q, ctx_d, ctx_new, ctx_next;
  logic [R1-1:0]   seed;

  // Newton seed: N*((3N) xor 2) = 1 mod 2^5 for odd N, so y_0 = -((3N) xor 2)
  // is -N^-1 mod 2^5 (five bits of the request port, cheap on the request path).
  always_comb begin
    logic [4:0] n5, inv5;
    n5   = 5'(n_i);
    inv5 = (n5 + {n5[3:0], 1'b0}) ^ 5'd2;
    seed = R1'(5'(-inv5));
  end

  // Loaded context: step 0, S = 0 (so the M~ step's MAC adds nothing).
  assign ctx_new = {1'b1, start_tag, CntW'(0), AW'(a_i), b_i, n_i, seed, R1'(0), R1'(0),
                    (DM * DW)'(0), (DS * DW)'(0)};

  always_comb begin
    ctx_d = ctx_next;
    if (start) begin
      ctx_d = ctx_new;
    end
  end

  `MM_FF(ctx_q, ctx_d, CtxW'(0))

  // ------------------------------------------------------------------------
  // Stage A: the digit multipliers
  // ------------------------------------------------------------------------
  logic            busy_a;
  logic [TagW-1:0] tag_a;
  logic [CntW-1:0] cnt_a;
  logic [AW-1:0]   a_a;
  logic [Width:0]  b_a;
  logic [Width-1:0] n_a;
  logic [R1-1:0]   y_a, qf_a, q_a;
  logic [DM*DW-1:0] mt_a;
  logic [DS*DW-1:0] s_a;
  logic [DM*PW-1:0] pm_a;   // products X_j * Y of the q*M~ array
  logic [DB*PW-1:0] pb_a;   // products b_j * a_i of the a*B array
  logic [R1-1:0]    m1_a;   // N*y (Newton) or q*M' (final quotient), mod 2^R1

  assign {busy_a, tag_a, cnt_a, a_a, b_a, n_a, y_a, qf_a, q_a, mt_a, s_a} = ctx_q;

  always_comb begin
    logic [R1-1:0]    q, m1_op;
    logic [YW-1:0]    ymac;
    logic [DW-1:0]    xd;
    logic [DN*R2-1:0] n_ext;
    logic [DB*R2-1:0] b_ext;
    logic             use_n;
    q     = q_a;  // S mod 2^R1, formed when S was (stage C of the previous step)
    use_n = (cnt_a == CntW'(StMt)) || (cnt_a == CntW'(StFin));
    if (cnt_a == CntW'(StMt)) begin
      ymac = YW'(y_a);      // M~ = M' * N
    end else if (cnt_a == CntW'(StFin)) begin
      ymac = YW'(qf_a);     // iteration m+2: q' * N
    end else begin
      ymac = YW'(q);        // iterations 1 .. m+1: q * M~
    end
    n_ext = (DN * R2)'(n_a);
    b_ext = (DB * R2)'(b_a);
    for (int j = 0; j < DM; j++) begin
      if (use_n) begin
        xd = (j < DN) ? DW'(n_ext[(j < DN ? j : 0)*R2 +: R2]) : '0;
      end else begin
        xd = mt_a[j*DW +: DW];
      end
      pm_a[j*PW +: PW] = PW'(xd) * PW'(ymac);
    end
    for (int j = 0; j < DB; j++) begin
      pb_a[j*PW +: PW] = PW'(b_ext[j*R2 +: R2]) * PW'(a_a[R1-1:0]);
    end
    // One r1 x r1 low-half product for both: N*y in the Newton steps, q*M'
    // for the final quotient (the operand is multiplexed, not the product).
    m1_op = (cnt_a == CntW'(StQf)) ? q : R1'(n_a);
    m1_a  = R1'(m1_op * y_a);
  end

  // ------------------------------------------------------------------------
  // Register layer 1 (Interleave >= 2): after the multipliers
  // ------------------------------------------------------------------------
  logic [CtxW-1:0]  ctx_b;
  logic [DM*PW-1:0] pm_b;
  logic [DB*PW-1:0] pb_b;
  logic [R1-1:0]    m1_b;

  if (Interleave >= 2) begin : gen_cut1
    logic [CtxW-1:0]  ctx_b_q;
    logic [DM*PW-1:0] pm_b_q;
    logic [DB*PW-1:0] pb_b_q;
    logic [R1-1:0]    m1_b_q;
    `MM_FF(ctx_b_q, ctx_q, CtxW'(0))
    `MM_FF(pm_b_q, pm_a, (DM * PW)'(0))
    `MM_FF(pb_b_q, pb_a, (DB * PW)'(0))
    `MM_FF(m1_b_q, m1_a, '0)
    assign ctx_b = ctx_b_q;
    assign pm_b  = pm_b_q;
    assign pb_b  = pb_b_q;
    assign m1_b  = m1_b_q;
  end else begin : gen_nocut1
    assign ctx_b = ctx_q;
    assign pm_b  = pm_a;
    assign pb_b  = pb_a;
    assign m1_b  = m1_a;
  end

  // ------------------------------------------------------------------------
  // Stage B: MAC T = S + X*Y, K = a_i*B, shift T by R1 bits, Newton
  // ------------------------------------------------------------------------
  logic            busy_b;
  logic [TagW-1:0] tag_b;
  logic [CntW-1:0] cnt_b;
  logic [AW-1:0]   a_b;
  logic [Width:0]  b_b;
  logic [Width-1:0] n_b;
  logic [R1-1:0]   y_b, qf_b, q_b;
  logic [DM*DW-1:0] mt_b;
  logic [DS*DW-1:0] s_b;
  logic [DT*DW-1:0] t_b;    // T (redundant)
  logic [DK*DW-1:0] k_b;    // K = a_i*B (redundant)
  logic [DS*DW-1:0] u_b;    // T / 2^R1 re-aligned (redundant)
  logic [1:0]       c_b;    // carry out of the discarded low R1 bits of T
  logic [R1+2:0]    low_b;  // T_0 + T_1[E-1:0]*2^R2 < 2^(R1+2): low R1 bits are zero
  logic [CtxW-1:0]  ctx_b_out;

  assign {busy_b, tag_b, cnt_b, a_b, b_b, n_b, y_b, qf_b, q_b, mt_b, s_b} = ctx_b;

  always_comb begin
    logic [DW-1:0]    acc;
    int               i0, i1, i2, is0, is1;
    logic [R1-1:0]    y_new, qf_new;
    logic [DM*DW-1:0] mt_new;
    // Sec. IV-B: T_j = P_{j-2}[hi] + P_{j-1}[mid] + P_j[lo] + C_j[lo] + C_{j-1}[hi],
    // below 2^(R2+2) because R1 + 4 <= 2*R2 (docs/dsp.md).
    for (int j = 0; j < DT; j++) begin
      // clamped digit indices (the guards below drop out-of-range terms)
      i0  = (j < DM) ? j : 0;
      i1  = (j >= 1 && j - 1 < DM) ? j - 1 : 0;
      i2  = (j >= 2 && j - 2 < DM) ? j - 2 : 0;
      is0 = (j < DS) ? j : 0;
      is1 = (j >= 1 && j - 1 < DS) ? j - 1 : 0;
      acc = '0;
      if (j < DM) acc = acc + DW'(pm_b[i0*PW +: R2]);
      if (j >= 1 && j - 1 < DM) acc = acc + DW'(pm_b[i1*PW + R2 +: R2]);
      if (j >= 2 && j - 2 < DM) acc = acc + DW'(pm_b[i2*PW + 2*R2 +: HW]);
      if (j < DS) acc = acc + DW'(s_b[is0*DW +: R2]);
      if (j >= 1 && j - 1 < DS) acc = acc + DW'(s_b[is1*DW + R2 +: 2]);
      t_b[j*DW +: DW] = acc;
    end
    // Sec. IV-A: K = a_i*B, the same split without an addend.
    for (int j = 0; j < DK; j++) begin
      i0  = (j < DB) ? j : 0;
      i1  = (j >= 1 && j - 1 < DB) ? j - 1 : 0;
      i2  = (j >= 2 && j - 2 < DB) ? j - 2 : 0;
      acc = '0;
      if (j < DB) acc = acc + DW'(pb_b[i0*PW +: R2]);
      if (j >= 1 && j - 1 < DB) acc = acc + DW'(pb_b[i1*PW + R2 +: R2]);
      if (j >= 2 && j - 2 < DB) acc = acc + DW'(pb_b[i2*PW + 2*R2 +: HW]);
      k_b[j*DW +: DW] = acc;
    end
    // The low R1 bits of T are a multiple of 2^R1 (q was chosen so) but, being
    // redundant, not necessarily zero: their carry goes into the new digit 0.
    low_b = (R1 + 3)'(t_b[0 +: DW]) + ((R1 + 3)'(t_b[DW +: DW] & EMask) << R2);
    c_b   = low_b[R1 +: 2];
    // U_j = T_{j+1}[R2+1:E] + T_{j+2}[E-1:0] * 2^(R2-E)
    for (int j = 0; j < DS; j++) begin
      acc = '0;
      if (j + 1 < DT) acc = acc + (t_b[(j + 1 < DT ? j + 1 : 0)*DW +: DW] >> E);
      if (j + 2 < DT) acc = acc + ((t_b[(j + 2 < DT ? j + 2 : 0)*DW +: DW] & EMask) << (R2 - E));
      u_b[j*DW +: DW] = acc;
    end
    // Newton step y <- y*(2 + N*y), the final quotient q' = q*M', M~ = M'*N.
    y_new  = (cnt_b < CntW'(P)) ? R1'(y_b * R1'(m1_b + R1'(2))) : y_b;
    qf_new = (cnt_b == CntW'(StQf)) ? m1_b : qf_b;
    mt_new = (cnt_b == CntW'(StMt)) ? t_b[DM*DW-1:0] : mt_b;
    ctx_b_out = {busy_b, tag_b, cnt_b, a_b, b_b, n_b, y_new, qf_new, q_b, mt_new, s_b};
  end

  // ------------------------------------------------------------------------
  // Register layer 2 (Interleave = 3): between the MAC and the addition
  // ------------------------------------------------------------------------
  logic [CtxW-1:0]  ctx_c;
  logic [DS*DW-1:0] u_c;
  logic [DK*DW-1:0] k_c;
  logic [1:0]       c_c;

  if (Interleave >= 3) begin : gen_cut2
    logic [CtxW-1:0]  ctx_c_q;
    logic [DS*DW-1:0] u_c_q;
    logic [DK*DW-1:0] k_c_q;
    logic [1:0]       c_c_q;
    `MM_FF(ctx_c_q, ctx_b_out, CtxW'(0))
    `MM_FF(u_c_q, u_b, (DS * DW)'(0))
    `MM_FF(k_c_q, k_b, (DK * DW)'(0))
    `MM_FF(c_c_q, c_b, '0)
    assign ctx_c = ctx_c_q;
    assign u_c   = u_c_q;
    assign k_c   = k_c_q;
    assign c_c   = c_c_q;
  end else begin : gen_nocut2
    assign ctx_c = ctx_b_out;
    assign u_c   = u_b;
    assign k_c   = k_b;
    assign c_c   = c_b;
  end

  // ------------------------------------------------------------------------
  // Stage C: S <- U + K + c (Sec. III-A.2), the step counter, conversion
  // ------------------------------------------------------------------------
  logic            busy_c;
  logic [TagW-1:0] tag_c;
  logic [CntW-1:0] cnt_c;
  logic [AW-1:0]   a_c;
  logic [Width:0]  b_c;
  logic [Width-1:0] n_c;
  logic [R1-1:0]   y_c, qf_c, q_c;
  logic [DM*DW-1:0] mt_c;
  logic [DS*DW-1:0] s_c;

  logic [CW-1:0]    lo_vec, hi_vec;  // principal bits, redundant bits (one place up)
  logic [Width:0]   sum_c;           // the binary result S < 2N < 2^(Width+1)
  logic             sum_co_unused;   // the sum's bits above Width are zero (S < 2N)

  // Redundant to binary: principal bits + redundant bits on the segmented
  // adder (no carry chain longer than a segment at any width).  Only the low
  // Width+1 bits are added: the sum is below 2N, so its higher bits are zero.
  mm_seg_add #(.Width(Width + 1)) u_conv (
    .a_i (lo_vec[Width:0]),
    .b_i (hi_vec[Width:0]),
    .ci_i(1'b0),
    .s_o (sum_c),
    .co_o(sum_co_unused)
  );

  assign {busy_c, tag_c, cnt_c, a_c, b_c, n_c, y_c, qf_c, q_c, mt_c, s_c} = ctx_c;

  always_comb begin
    logic [DW-1:0]    acc;
    logic [DS*DW-1:0] z, uz;
    logic [1:0]       cz;
    logic             is_mt, is_iter, is_conv;
    logic [AW-1:0]    a_new;
    logic [DS*DW-1:0] s_new;
    logic [R1-1:0]    q_new;
    is_mt   = (cnt_c == CntW'(StMt));
    is_iter = (cnt_c >= CntW'(StMt)) && (cnt_c <= CntW'(StQf - 1));
    is_conv = (cnt_c == CntW'(StConv));
    // In the M~ step the MAC formed M'*N, not S + q*M~: S_1 = a_0*B alone.
    uz = is_mt ? (DS * DW)'(0) : u_c;
    cz = is_mt ? 2'b0 : c_c;
    for (int j = 0; j < DS; j++) begin
      acc = DW'(uz[j*DW +: R2]);
      if (j < DK) acc = acc + DW'(k_c[(j < DK ? j : 0)*DW +: R2]);
      if (j == 0) begin
        acc = acc + DW'(cz);
      end else begin
        acc = acc + DW'(uz[(j >= 1 ? j - 1 : 0)*DW + R2 +: 2]);
        if (j - 1 < DK) acc = acc + DW'(k_c[(j >= 1 && j - 1 < DK ? j - 1 : 0)*DW + R2 +: 2]);
      end
      z[j*DW +: DW] = acc;
    end
    // Redundant to binary: the two bit vectors for u_conv.
    lo_vec = CW'(0);
    hi_vec = CW'(0);
    for (int j = 0; j < DS; j++) begin
      lo_vec[j*R2 +: R2]       = s_c[j*DW +: R2];
      hi_vec[(j + 1)*R2 +: 2]  = s_c[j*DW + R2 +: 2];
    end
    res = sum_c;
    // Iterations 0 .. m+1 consume a_i and add a_i*B; iteration m+2 (the
    // final step with N) finds a_{m+2} = 0 in A's register, so K = 0.
    a_new = is_iter ? (a_c >> R1) : a_c;
    s_new = (is_iter || cnt_c == CntW'(StFin)) ? z : s_c;
    // The next step's quotient digit q = S mod 2^R1 from the new S_0 and
    // S_1[E-1:0] (higher digits are multiples of 2^(2*R2) >= 2^R1; the carry
    // out is dropped), formed here so that stage A starts at the multipliers.
    q_new = (is_iter || cnt_c == CntW'(StFin))
          ? R1'(R1'(z[0 +: DW]) + (R1'(z[DW +: DW] & EMask) << R2)) : q_c;
    done     = busy_c && is_conv;
    done_tag = tag_c;
    // slot_free: the context arriving at the head after this edge is free.
    slot_free = !busy_c || is_conv;
    if (busy_c) begin
      ctx_next = {!is_conv, tag_c, is_conv ? CntW'(0) : cnt_c + 1'b1, a_new, b_c, n_c, y_c, qf_c,
                  q_new, mt_c, s_new};
    end else begin
      ctx_next = ctx_c;
    end
  end

  // Bits the datapath never reads: busy and tag at the multipliers (a free
  // context's products are ignored downstream), A above its lowest digit and
  // S above its two lowest digits there, the low R1 bits of T (a multiple of
  // 2^R1 by the choice of q), the conversion's bits above Width (S < 2N).
  logic unused_bits;
  assign unused_bits = ^{busy_a, tag_a, a_a, s_a, low_b[R1-1:0],
                         low_b[R1+2], lo_vec[CW-1:Width+1], hi_vec[CW-1:Width+1],
                         sum_co_unused};

`ifdef MM_FORMAL
  // Invariants for the formal flow (docs/formal.md).  The ring holds
  // Interleave contexts: ctx_q (stage A) and, with Interleave >= 2, the
  // register after stage A (and with 3 the one after stage B).  A busy
  // context computes the product of one request the shell owes (f_pending:
  // mm_req_pipe's outstanding entries not yet filled, or mm_req_ctrl busy);
  // no two busy contexts share a tag, and every owed request has its busy
  // context (as many busy contexts as owed entries).  A busy context's step
  // counter is at most StConv, and its tag a buffer index.
  logic [Interleave-1:0]      f_busy;
  logic [Interleave*TagW-1:0] f_tag;
  logic [Interleave*CntW-1:0] f_cnt;
  if (Interleave == 1) begin : gen_f_ring1
    assign f_busy = busy_a;
    assign f_tag  = tag_a;
    assign f_cnt  = cnt_a;
  end else if (Interleave == 2) begin : gen_f_ring2
    assign f_busy = {busy_b, busy_a};
    assign f_tag  = {tag_b, tag_a};
    assign f_cnt  = {cnt_b, cnt_a};
  end else begin : gen_f_ring3
    assign f_busy = {busy_c, busy_b, busy_a};
    assign f_tag  = {tag_c, tag_b, tag_a};
    assign f_cnt  = {cnt_c, cnt_b, cnt_a};
  end

  always_comb begin
    logic [3:0] f_nbusy, f_npend;
    f_nbusy = '0;
    f_npend = '0;
    for (int i = 0; i < Interleave; i++) begin
      f_nbusy = f_nbusy + 4'(f_busy[i]);
      f_npend = f_npend + 4'(f_pending[i]);
    end
    if (rst_ni) begin
      assert (f_nbusy == f_npend);
      for (int i = 0; i < Interleave; i++) begin
        if (f_busy[i]) begin
          assert (32'(f_tag[i*TagW +: TagW]) < Interleave);
          assert (f_cnt[i*CntW +: CntW] <= CntW'(StConv));
          for (int j = 0; j < Interleave; j++) begin
            if (f_tag[i*TagW +: TagW] == TagW'(j)) assert (f_pending[j]);
            if (j > i && f_busy[j]) assert (f_tag[i*TagW +: TagW] != f_tag[j*TagW +: TagW]);
          end
        end
      end
    end
  end
`endif  // MM_FORMAL

endmodule
