// SPDX-License-Identifier: Apache-2.0
//
// mm_scs_new: SCS-MM-New, the semi-carry-save radix-2 Montgomery multiplier
// of paper 000 (Fig. 10/11), with the corrections of docs/radix2.md.
//
// One row of configurable full adders (mm_cfa_row) does everything:
//   precompute  (SS, SC) = (B^ + 2, N - 1), B^ = 8B: a carry-save form of
//               D^ = B^ + N^, N^ = N + 1, that needs no adder on the request
//               (B^'s low bits are zero, N is odd); 2H_CSA until SC = 0
//               (Zero_D); D^ = SS.  N^ itself is formed from the registered
//               N in the first two precompute cycles (it is first read in
//               the loop), so no input port sees an adder in the accepting
//               cycle, and no register-to-register path a long one.
//   loop        i = -1 .. k+4: (SS, SC) = 1F_CSA(SS, SC, x) / 2 with x from
//               SM3 by (A^, q^); the skip detector (mm_skip_d) computes
//               q_(i+1), q_(i+2), skip_(i+1) from three low bits, and a skip
//               divides by four instead of two (iteration i+1 is skipped).
//   convert     2H_CSA until SC = 0; SS is the result.
// The right shifts are delayed to the next cycle (paper 000, Sec. III-D):
// the registers hold the unshifted row outputs, and the view multiplexers
// M1/M2 (ss_v, sc_v) shift them by the amount the previous cycle decided, so
// the skip decision never sits in front of a wide multiplexer.
//
// Result A*B*2^-(k+2) mod N in [0, 2N) for A, B in [0, 2N), odd N < 2^k.
// Latency (cycles after the accepting edge; the model montmul.models.radix2.
// scs_new counts the same): (pre + 1) + (k + 6 - skips) + (conv + 1), where
// pre and conv are the numbers of 2H_CSA steps until SC = 0.
//
// ConstTime = 1 makes the latency independent of the operands: no skips, and
// both "until SC = 0" loops run exactly CtSteps = ceil((k+5)/2) 2H_CSA steps,
// the worst case (each half-adder step moves the lowest set carry bit up by
// at least one place, and SS + SC < 2^(k+5), so k+5 half-adder steps always
// clear SC; extra steps on SC = 0 change nothing).  Latency 2*(CtSteps + 1)
// + k + 6: see docs/security.md for what that costs.
// Handshake, input check and error flag: the shared shell mm_req_ctrl.
`include "mm_macros.svh"

module mm_scs_new #(
  parameter int Width      = 32,  // modulus width k: 3 .. 8192
  parameter bit CheckRange = 1,   // 1: reject operands >= 2N
  parameter bit CheckMod   = 1,   // 1: reject an even N or N < 3
  parameter bit SkipEnable = 1,   // 1: skip superfluous iterations
  parameter bit ConstTime  = 0    // 1: data-independent latency (no skips,
                                  //    fixed-length precompute and conversion)
) (
  // the common core interface (docs/interface.md); s_o = A*B*2^-(Width+2) mod N, in [0, 2N)
  `MM_CORE_PORTS
);

  if (Width < mm_pkg::WidthMin || Width > mm_pkg::WidthMax) begin : gen_bad_width
    `MM_FATAL("mm_scs_new: Width must be in [3, 8192]")
  end

  // D^ = 8B + N + 1 <= 17N < 2^(k+5), and every loop value stays below D^.
  localparam int W      = Width + 5;
  localparam int LastIt = Width + 5;  // pos = i + 1 of the last iteration
  localparam int PosW   = $clog2(LastIt + 3);
  localparam int CtSteps = (W + 1) / 2;        // worst-case 2H_CSA steps

  // The iteration counter is a PosW-bit XNOR LFSR (maximal length; taps of
  // Xilinx XAPP052) counting from state 0: its one- and two-step successors
  // have no carry chain, so the late skip bit only selects between them.  A
  // binary counter's "pos + 1" / "pos + 2" was folded by synthesis into
  // "pos + 1 + skip", a carry chain behind Skip_D (the critical path at
  // k = 2048).  tests/test_lfsr.py checks every width's period.
  // Feedback taps (bit indices) per counter width: fb = XNOR of the taps.
  // (argument names unlike any port a user's top may have: Verilator's
  // VARHIDDEN would flag a top-level port `n`)
  function automatic logic [15:0] lfsr_taps(input integer bits);
    case (bits)
      4:       lfsr_taps = 16'h000C;  // 3, 2
      5:       lfsr_taps = 16'h0014;  // 4, 2
      6:       lfsr_taps = 16'h0030;  // 5, 4
      7:       lfsr_taps = 16'h0060;  // 6, 5
      8:       lfsr_taps = 16'h00B8;  // 7, 5, 4, 3
      9:       lfsr_taps = 16'h0110;  // 8, 4
      10:      lfsr_taps = 16'h0240;  // 9, 6
      11:      lfsr_taps = 16'h0500;  // 10, 8
      12:      lfsr_taps = 16'h0829;  // 11, 5, 3, 0
      13:      lfsr_taps = 16'h100D;  // 12, 3, 2, 0
      default: lfsr_taps = 16'h2015;  // 14: 13, 4, 2, 0
    endcase
  endfunction

  localparam logic [15:0]     Taps = lfsr_taps(PosW);
  localparam logic [PosW-1:0] TapM = Taps[PosW-1:0];

  // The counter's state after `steps` steps from 0 (elaboration time).
  function automatic logic [PosW-1:0] lfsr_at(input integer steps);
    logic [PosW-1:0] x;
    integer j;
    x = '0;
    for (j = 0; j < steps; j = j + 1) begin
      x = {x[PosW-2:0], ~^(x & TapM)};
    end
    lfsr_at = x;
  endfunction

  localparam logic [PosW-1:0] PosLast   = lfsr_at(LastIt);
  localparam logic [PosW-1:0] PosLastM1 = lfsr_at(LastIt - 1);
  localparam logic [PosW-1:0] PosCt     = lfsr_at(CtSteps);

  // The datapath's phase while the shell (mm_req_ctrl) is busy.
  typedef enum logic [1:0] {
    PhPre,
    PhLoop,
    PhConv
  } phase_e;

  // View shift of the stored row outputs (M1/M2 select).
  typedef enum logic [1:0] {
    Sh2H,    // 2H_CSA output: SS = s, SC = cout << 1
    ShOne,   // loop, no skip: SS = s >> 1, SC = cout
    ShTwo,   // loop, skip:    SS = s >> 2, SC = cout >> 1
    ShZero   // first iteration: SS = SC = 0 (the registers still hold D^)
  } shift_e;

  phase_e          ph_q, ph_d;
  shift_e          sh_q, sh_d;
  logic [W-1:0]    s_q, s_d;      // row sum output (unshifted)
  logic [W-1:0]    c_q, c_d;      // row carry output (weight 2^(j+1))
  logic [W-1:0]    bh_q, bh_d;    // B^ = 8B
  logic [W-1:0]    dh_q, dh_d;    // D^ = B^ + N^
  logic [Width:0]  nh_q, nh_d;    // N at the accepting edge, N^ = N + 1 from
                                  // the second precompute cycle on (see nh_d)
  logic [Width:0]  a_q, a_d;      // A, shifted by all but the pending shift (sh_q)
  logic [PosW-1:0] pos_q, pos_d;  // i + 1, as the state of an LFSR (see below)
  logic            qh_q, qh_d;    // q^
  logic            ah_q, ah_d;    // A^

  logic [W-1:0]    ss_v, sc_v;    // SS[i], SC[i]: outputs of M1/M2
  logic [Width:0]  a_v;           // A >> (i + 1): a_q with the pending shift
  // The skip detector's inputs (three low bits of SS, SC and two of A) take
  // the same view through their own one-hot copy of the shift select, so
  // Skip_D does not wait for the decode and fan-out of sh_q.
  logic [3:0]      lo_q, lo_d;    // one-hot {ShZero, ShTwo, ShOne, Sh2H}
  logic [2:0]      ss_lo, sc_lo;
  logic [1:0]      a_lo;
  logic [W-1:0]    x;             // SM3 output
  logic [W-1:0]    row_s, row_c;
  logic            alpha;
  logic            sc_zero;       // Zero_D
  logic            conv_done;
  logic [PosW-1:0] pos_p1, pos_p2; // the counter advanced by one and by two
  logic            skip, q_next, a_next, last, near_end;
  logic            inc_go_q, inc_go_d;  // second cycle of N -> N^ (see below)
  logic            accept, busy, done, unused_start;
  logic            load;  // idle (the shell's in_ready_o): the wide registers load the request

  `MM_REQ_CTRL(u_ctrl, accept, unused_start, busy, done, s_q[Width:0])

  assign load = in_ready_o;

  // M1 / M2: delayed right shift of the stored carry-save pair.
  // A's shift is delayed the same way, so the skip bit selects only the
  // registered shift amount, never a (Width+1)-bit multiplexer.
  always_comb begin
    unique case (sh_q)
      ShOne:   begin ss_v = s_q >> 1; sc_v = c_q;        a_v = a_q >> 1; end
      ShTwo:   begin ss_v = s_q >> 2; sc_v = c_q >> 1;   a_v = a_q >> 2; end
      ShZero:  begin ss_v = '0;       sc_v = '0;         a_v = a_q;      end
      default: begin ss_v = s_q;      sc_v = c_q << 1;   a_v = a_q;      end
    endcase
  end

  always_comb begin
    ss_lo = ({3{lo_q[0]}} & s_q[2:0])         | ({3{lo_q[1]}} & s_q[3:1]) |
            ({3{lo_q[2]}} & s_q[4:2]);
    sc_lo = ({3{lo_q[0]}} & {c_q[1:0], 1'b0}) | ({3{lo_q[1]}} & c_q[2:0]) |
            ({3{lo_q[2]}} & c_q[3:1]);
    a_lo  = ({2{lo_q[0] | lo_q[3]}} & a_q[1:0]) | ({2{lo_q[1]}} & a_q[2:1]) |
            ({2{lo_q[2]}} & a_q[3:2]);
    lo_d  = 4'b0001 << sh_d;
  end

  mm_sm3 #(.Width(W)) u_sm3 (
    .a_sel_i(ah_q),
    .q_sel_i(qh_q),
    .n_i    ({{(W - Width - 1){1'b0}}, nh_q}),
    .b_i    (bh_q),
    .d_i    (dh_q),
    .x_o    (x)
  );

  mm_cfa_row #(.Width(W)) u_ccsa (
    .alpha_i(alpha),
    .ss_i   (ss_v),
    .sc_i   (sc_v),
    .x_i    (x),
    .s_o    (row_s),
    .cout_o (row_c)
  );

  mm_skip_d u_skip_d (
    .ss_i    (ss_lo),
    .sc_i    (sc_lo),
    .q_i     (qh_q),
    .nh_i    (nh_q[2:1]),
    .a1_i    (a_lo[0]),
    .a2_i    (a_lo[1]),
    .last_i  (last),
    .enable_i(1'(SkipEnable && !ConstTime)),  // Icarus 11 sizes a bit parameter as 32 bits
    .skip_o  (skip),
    .q_o     (q_next),
    .a_o     (a_next)
  );

  // Zero_D: SC = 0 exactly when the carry register is zero.  In 2H mode
  // SC = cout << 1 and the top bit of cout is provably zero (SS + SC < 2^W);
  // the first conversion cycle follows the last iteration, where a skip
  // (SC = cout >> 1) happens only with cout_0 = SC[i+1]_0 = 0.
  // The W-bit NOR is split at the register: zseg_q holds, for each ZSeg-bit
  // segment, whether that segment of c_q is zero (loaded with c_q: from the
  // request's N - 1 or from the row's carries, else held), so Zero_D itself
  // is one small AND in front of the phase and shift logic, not a NOR tree
  // spread over the whole datapath.  The NORs sit before the load
  // selection, as c_d's multiplexer does, so the widely fanned-out load
  // stays one level from these registers.
  localparam int ZSeg   = 32;
  localparam int NumZ   = (W + ZSeg - 1) / ZSeg;
  logic [NumZ-1:0] zseg_q, zseg_d, zseg_acc, zseg_row;
  logic [W-1:0]    c_acc;  // c_q's value at accept: N >> 1 (SC = N - 1)
  assign c_acc = {{(W - Width + 1){1'b0}}, n_i[Width-1:1]};
  for (genvar j = 0; j < NumZ; j++) begin : gen_zseg
    localparam int Lo = j * ZSeg;
    localparam int Zw = (W - Lo < ZSeg) ? W - Lo : ZSeg;
    assign zseg_acc[j] = ~|c_acc[Lo+:Zw];
    assign zseg_row[j] = ~|row_c[Lo+:Zw];
  end
  assign zseg_d  = load ? zseg_acc : zseg_row;  // as c_d
  assign sc_zero = &zseg_q;
  // End of a precompute/conversion loop: SC = 0, or in constant-time mode
  // after exactly CtSteps steps (pos_q counts them; SC is then zero too).
  assign conv_done = ConstTime ? (pos_q == PosCt) : sc_zero;
  assign done    = (ph_q == PhConv) && conv_done;
  assign alpha   = (ph_q == PhLoop);
  assign last    = (pos_q == PosLast);
  assign near_end = (pos_q == PosLastM1);  // a skip here ends the loop
  assign pos_p1 = {pos_q[PosW-2:0], ~^(pos_q & TapM)};
  assign pos_p2 = {pos_p1[PosW-2:0], ~^(pos_p1 & TapM)};
  // N^ = N + 1 from the registered N (nh_q) in two precompute cycles, in
  // IncSeg-bit segments: the first registers the carry into every segment
  // (segment j receives one when all lower bits of N are ones: an all-ones
  // flag per segment, then a Kogge-Stone prefix AND whose levels are kept
  // nets, so ABC cannot turn it into a ripple through the segments); the
  // second adds each segment's registered carry (short chains, nothing
  // between segments).
  localparam int IncSeg    = 32;
  localparam int IncW      = Width + 1;
  localparam int NumInc    = (IncW + IncSeg - 1) / IncSeg;
  localparam int IncLevels = (NumInc > 1) ? $clog2(NumInc) : 1;
  logic [NumInc-1:0] inc_c_q, inc_c_d;  // carry into segment j (valid with inc_go_q)
  logic [Width:0]    n_inc;             // N + 1, from nh_q and inc_c_q
  (* keep *) logic [IncLevels:0][NumInc-1:0] inc_t;  // prefix levels of the all-ones flags
  for (genvar j = 0; j < NumInc; j++) begin : gen_inc
    localparam int Lo = j * IncSeg;
    localparam int Iw = (IncW - Lo < IncSeg) ? IncW - Lo : IncSeg;
    assign inc_t[0][j] = &nh_q[Lo+:Iw];
    assign n_inc[Lo+:Iw] = nh_q[Lo+:Iw] + Iw'(inc_c_q[j]);
  end
  for (genvar l = 0; l < IncLevels; l++) begin : gen_inc_pre
    for (genvar j = 0; j < NumInc; j++) begin : gen_node
      if (j >= (1 << l)) begin : gen_and
        assign inc_t[l+1][j] = inc_t[l][j] & inc_t[l][j-(1<<l)];
      end else begin : gen_pass
        assign inc_t[l+1][j] = inc_t[l][j];
      end
    end
  end
  if (NumInc > 1) begin : gen_inc_c
    assign inc_c_d = {inc_t[IncLevels][NumInc-2:0], 1'b1};
  end else begin : gen_inc_c1
    logic unused_inc_t;  // one segment: its carry-in is the 1
    assign unused_inc_t = ^inc_t;
    assign inc_c_d = 1'b1;
  end

  always_comb begin
    ph_d  = ph_q;
    sh_d  = sh_q;
    s_d   = s_q;
    c_d   = c_q;
    bh_d  = bh_q;
    dh_d  = dh_q;
    nh_d  = nh_q;
    inc_go_d = 1'b0;
    a_d   = a_q;
    pos_d = pos_q;
    qh_d  = qh_q;
    ah_d  = ah_q;
    // The wide registers: only `load` (a flip-flop) and the registered
    // phase and shift are in front of their multiplexers, never the
    // request's valid or the shell's busy, which would put one more LUT
    // and the engine's control onto nets that fan out to every bit.
    if (load) begin
      // Every idle cycle: so the accepting edge loads the request.
      // (SS, SC) = (B^ + 2, N - 1) is a carry-save form of D^ = B^ + N + 1
      // without an adder: B^ + 2 sets bit 1 of 8B, N - 1 clears bit 0 of
      // the odd N (SC = c_q << 1 in the 2H view, so c_q = N >> 1).
      bh_d  = {{(W - Width - 4){1'b0}}, b_i, 3'b000};
      nh_d  = {1'b0, n_i};
      s_d   = {{(W - Width - 4){1'b0}}, b_i, 3'b010};
      c_d   = c_acc;
      a_d   = a_i;
    end else begin
      // Busy or holding a response: the stored pair takes the row's
      // outputs in every cycle.  Holding a result, it stands still: the
      // conversion ended with SC = 0 in the 2H view with x = 0 (alpha = 0,
      // A^ = q^ = 0), where the row returns (SS, 0).  After a rejected
      // request it keeps stepping, unseen: the shell answers 0.
      s_d = row_s;
      c_d = row_c;
      // A takes its pending shift (sh_q) in every cycle: a shift in the
      // loop, a hold elsewhere (Sh2H, ShZero), so the loop's A needs no
      // phase decode in front of its multiplexer.  The shift at the first
      // conversion cycle leaves A unused.
      a_d = a_v;
      // N -> N^ once, in the first two precompute cycles: the first
      // (N still odd) registers the segment carries (inc_c_q), the second
      // adds them (inc_go_q is only ever set there, see below).
      if (inc_go_q) begin
        nh_d = n_inc;
      end
    end
    // D^ = SS is captured in every precompute cycle (the last capture, with
    // SC = 0, is the one used); in an idle cycle or one holding a rejected
    // request the capture is unseen, and the precompute that follows every
    // accept (at least two cycles: SC = N - 1 > 0 in the first) captures
    // again.
    if (ph_q == PhPre) begin
      dh_d = ss_v;
    end
    if (accept) begin
      sh_d  = Sh2H;
      qh_d  = 1'b0;
      ah_d  = 1'b0;
      pos_d = '0;
      ph_d  = PhPre;
    end else if (busy) begin
      unique case (ph_q)
        PhPre: begin
          // The wide registers never wait for Zero_D: D^ = SS is captured
          // every cycle (the last capture, with SC = 0, is the one used), and
          // the loop's SS = SC = 0 start is a view (ShZero), not a clear.
          // Only the constant-time mode counts precompute steps (from the
          // register compare); otherwise pos stays 0, independent of Zero_D.
          pos_d = (ConstTime && !conv_done) ? pos_p1 : '0;
          // The first precompute cycle (N still odd) starts N -> N^; the
          // loop reads N^ first.
          if (!inc_go_q && nh_q[0]) begin
            inc_go_d = 1'b1;
          end
          if (conv_done) begin
            sh_d = ShZero;
            ph_d = PhLoop;
          end
        end
        PhLoop: begin
          if (skip) begin
            sh_d = ShTwo;
          end else begin
            sh_d = ShOne;
          end
          qh_d = q_next;
          ah_d = a_next;
          // Both outcomes (advance, or restart at 0 for the conversion) are
          // prepared from registers; the late skip bit selects last.
          pos_d = skip ? (near_end ? '0 : pos_p2) : (last ? '0 : pos_p1);
          if (last || (skip && near_end)) begin
            qh_d = 1'b0;
            ah_d = 1'b0;
            ph_d = PhConv;
          end
        end
        PhConv: begin
          // Until SC = 0 (done); then the held SS is the result.
          sh_d  = Sh2H;
          pos_d = pos_p1;
        end
        default: ph_d = PhPre;
      endcase
    end
  end

  `MM_FF(ph_q, ph_d, PhPre)
  `MM_FF(sh_q, sh_d, Sh2H)
  `MM_FF(lo_q, lo_d, 4'b0001)
  `MM_FF(s_q, s_d, '0)
  `MM_FF(c_q, c_d, '0)
  `MM_FF(bh_q, bh_d, '0)
  `MM_FF(dh_q, dh_d, '0)
  `MM_FF(nh_q, nh_d, '0)
  `MM_FF(a_q, a_d, '0)
  `MM_FF(pos_q, pos_d, '0)
  `MM_FF(qh_q, qh_d, 1'b0)
  `MM_FF(ah_q, ah_d, 1'b0)
  `MM_FF(zseg_q, zseg_d, '1)
  `MM_FF(inc_c_q, inc_c_d, '0)
  `MM_FF(inc_go_q, inc_go_d, 1'b0)

endmodule
