// SPDX-License-Identifier: Apache-2.0
//
// mm_fcs_mmm42: FCS-MMM42, the full-carry-save radix-2 Montgomery
// multiplier with a four-to-two CSA whose superfluous iterations are
// skipped (Kuang et al., paper 000's [10]), as reconstructed in
// docs/radix2.md ("FCS-MMM42 (reconstructed)") from paper 000's outline
// and its skip mechanism (Sec. III-B/C).
//
// Datapath: a four-to-two CSA (two stacked mm_csa_row rows: SS, SC, XS,
// then XC), the pair multiplexers (XS, XC) in {0, N, (BS, BC), (DS, DC)}
// by the registered (A^, q^) (two mm_sm3), the view multiplexers M1/M2,
// a two-bit barrel-register full adder (BRFA) reading A = AS + AC, and a
// skip detector on the low output bits.  On the common binary interface the
// carry-save operands are (AS, AC) = (A, 0) and (BS, BC) = (B, 0): the AC
// and BC registers are tie-offs that synthesis removes.
//   precompute  one cycle: (DS, DC) = BS + BC + N + 0, and "iteration -1"
//               of the detector on the zero state: A^ = A_0, q^ = A_0 B_0,
//               iteration 0 skipped when A_0 = 0.
//   loop        i = 0 .. k+1: (SS, SC) = (SS + SC + XS + XC) / 2; the
//               detector reads SS[i+1]_(1:0), SC[i+1]_(1:0) and decides
//                 q_(i+1)    = SS[i+1]_0 ^ SC[i+1]_0 ^ (A_(i+1) & B_0)
//                 skip_(i+1) = ~(A_(i+1) | SS[i+1]_0 | SC[i+1]_0)
//                 q_(i+2)    = SS[i+1]_1 ^ SC[i+1]_1 ^ (A_(i+2) & B_0);
//               on a skip iteration i+1 (x = 0, even S[i+1], both low bits
//               zero) is replaced by a second right shift, never out of the
//               last iteration.
//   convert     the 4:2 CSA with x = 0 is two serial half adders: until
//               SC = 0 (Zero_D), then SS is the result.
// The registers hold the unshifted CSA outputs and M1/M2 shift them by the
// amount the previous cycle decided (as in mm_scs_new), so the skip never
// drives a wide multiplexer in the same cycle and the wide path is
// T_MUX4 + 2 T_FA.
//
// Result A*B*2^-(k+2) mod N in [0, 2N) for A, B in [0, 2N), odd N < 2^k.
// Latency (the model montmul.models.radix2.fcs_mmm42 counts the same):
// 1 + (k + 2 - skips) + (conv + 1), conv = double half-adder steps until
// SC = 0.
//
// Not on the shared request/response shell (rtl/common/mm_req_ctrl.sv): it
// keeps its own FSM because on the shell its register-to-register path got
// longer.  ASIC flow at k = 256 (OSU 0.18 um, ABC target 2000 ps): own FSM
// 2274.5 ps, 705 812 um^2; on the shell 2340.8 ps (+2.9 %), 711 462 um^2
// (+0.8 %), the path sh_q -> view -> skip detector -> BRFA shift (as_q),
// where the shell's busy/phase gating comes after the late skip select.
`include "mm_macros.svh"

module mm_fcs_mmm42 #(
  parameter int Width      = 32,  // modulus width k: 3 .. 8192
  parameter bit CheckRange = 1,   // 1: reject operands >= 2N
  parameter bit CheckMod   = 1    // 1: reject an even N or N < 3
) (
  // the common core interface (docs/interface.md); s_o = A*B*2^-(Width+2) mod N, in [0, 2N)
  `MM_CORE_PORTS
);

  if (Width < mm_pkg::WidthMin || Width > mm_pkg::WidthMax) begin : gen_bad_width
    `MM_FATAL("mm_fcs_mmm42: Width must be in [3, 8192]")
  end

  // D = BS + BC + N < 3N, every loop value S = SS + SC < 3N (S' = (S + x)/2,
  // x <= D), so the four CSA inputs sum to below 6N < 2^(k+3): k+3 bits hold
  // every CSA output, including the first row's carries shifted into place.
  localparam int W      = Width + 3;
  localparam int LastIt = Width + 2;  // pos = i + 1 of the last iteration
  localparam int PosW   = $clog2(LastIt + 3);

  typedef enum logic [2:0] {
    StIdle,
    StPre,
    StLoop,
    StConv,
    StDone
  } state_e;

  // View shift of the stored CSA outputs (M1/M2 select).
  typedef enum logic [1:0] {
    ShNone,  // conversion / D: SS = s,      SC = cout << 1
    ShOne,   // loop, no skip:  SS = s >> 1, SC = cout
    ShTwo    // loop, skip:     SS = s >> 2, SC = cout >> 1
  } shift_e;

  state_e          state_q, state_d;
  shift_e          sh_q, sh_d;
  logic [W-1:0]    s_q, s_d;      // CSA sum output (unshifted)
  logic [W-1:0]    c_q, c_d;      // CSA carry output (weight 2^(j+1))
  logic [Width:0]  bs_q, bs_d;    // BS = B
  logic [Width:0]  bc_q, bc_d;    // BC = 0 (tie-off of the carry-save operand)
  logic [Width-1:0] n_q, n_d;     // N
  logic [W-1:0]    ds_q, ds_d;    // (DS, DC) = BS + BC + N
  logic [W-1:0]    dc_q, dc_d;
  logic [Width:0]  as_q, as_d;    // BRFA: AS >> (i + 1)
  logic [Width:0]  ac_q, ac_d;    // BRFA: AC >> (i + 1), AC = 0 (tie-off)
  logic            cy_q, cy_d;    // BRFA carry into bit i + 1
  logic [PosW-1:0] pos_q, pos_d;  // i + 1
  logic            qh_q, qh_d;    // q^
  logic            ah_q, ah_d;    // A^
  logic            err_q, err_d;

  logic [W-1:0]    ss_v, sc_v;    // SS[i], SC[i]: outputs of M1/M2
  logic [W-1:0]    xs, xc;        // the selected operand pair
  logic [W-1:0]    s1, c1;        // first CSA row
  logic [W-1:0]    row_s, row_c;  // second CSA row
  logic            unused_c1_top;
  logic            sc_zero;       // Zero_D
  logic            last, pre, skip, q1, q2, b0;
  logic            a1, a2, cy1, cy2;  // BRFA: A_(i+1), A_(i+2) and carries
  logic [1:0]      lo_s, lo_c;    // SS[i+1]_(1:0), SC[i+1]_(1:0)
  logic            adv_a, adv_q, adv_cy;
  logic [Width:0]  adv_as, adv_ac;
  logic [PosW-1:0] adv_pos;
  // pos_q + 1, pos_q + 2 from the register (log-depth, see mm_scs_new), so
  // the late skip bit only selects between them.
  (* keep *) logic [PosW-1:0] pos_p1;
  (* keep *) logic [PosW-1:0] pos_p2;
  logic            req_err;

  `MM_IN_CHECK(req_err)

  // M1 / M2: delayed right shift of the stored carry-save pair.
  always_comb begin
    unique case (sh_q)
      ShOne:   begin ss_v = s_q >> 1; sc_v = c_q;      end
      ShTwo:   begin ss_v = s_q >> 2; sc_v = c_q >> 1; end
      default: begin ss_v = s_q;      sc_v = c_q << 1; end
    endcase
  end

  // (XS, XC) = (0, 0), (N, 0), (BS, BC), (DS, DC) by (A^, q^).
  mm_sm3 #(.Width(W)) u_mux_xs (
    .a_sel_i(ah_q),
    .q_sel_i(qh_q),
    .n_i    ({{(W - Width){1'b0}}, n_q}),
    .b_i    ({{(W - Width - 1){1'b0}}, bs_q}),
    .d_i    (ds_q),
    .x_o    (xs)
  );

  mm_sm3 #(.Width(W)) u_mux_xc (
    .a_sel_i(ah_q),
    .q_sel_i(qh_q),
    .n_i    ({W{1'b0}}),
    .b_i    ({{(W - Width - 1){1'b0}}, bc_q}),
    .d_i    (dc_q),
    .x_o    (xc)
  );

  // Four-to-two CSA: SS + SC + XS, then + XC.
  mm_csa_row #(.Width(W)) u_csa1 (
    .x_i   (ss_v),
    .y_i   (sc_v),
    .z_i   (xs),
    .s_o   (s1),
    .cout_o(c1)
  );

  // The first row's top carry is zero: 2 c1 <= SS + SC + XS < 2^W.
  mm_csa_row #(.Width(W)) u_csa2 (
    .x_i   (s1),
    .y_i   ({c1[W-2:0], 1'b0}),
    .z_i   (xc),
    .s_o   (row_s),
    .cout_o(row_c)
  );
  assign unused_c1_top = c1[W-1];

  // Zero_D on the carry register.  ShNone: SC = cout << 1 and the top bit of
  // cout is zero (2 cout <= SS + SC < 2^W); ShOne: SC = cout; ShTwo:
  // SC = cout >> 1, and a skip happens only with cout_0 = SC[i+1]_0 = 0.
  assign sc_zero = ~|c_q;
  assign pre     = (state_q == StPre);
  assign last    = (pos_q == PosW'(LastIt));

  // BRFA, two bits ahead: A_(i+1) and A_(i+2) of AS + AC.
  always_comb begin
    a1  = as_q[0] ^ ac_q[0] ^ cy_q;
    cy1 = (as_q[0] & ac_q[0]) | (as_q[0] & cy_q) | (ac_q[0] & cy_q);
    a2  = as_q[1] ^ ac_q[1] ^ cy1;
    cy2 = (as_q[1] & ac_q[1]) | (as_q[1] & cy1) | (ac_q[1] & cy1);
  end

  // Skip detector.  In the precompute cycle it runs iteration -1 on the zero
  // state (S[0] = 0) while the CSA computes D.
  always_comb begin
    lo_s = pre ? 2'b00 : row_s[2:1];  // (s >> 1)_(1:0)
    lo_c = pre ? 2'b00 : row_c[1:0];
    b0   = bs_q[0] ^ bc_q[0];
    skip = ~last & ~(a1 | lo_s[0] | lo_c[0]);
    q1   = lo_s[0] ^ lo_c[0] ^ (a1 & b0);
    q2   = lo_s[1] ^ lo_c[1] ^ (a2 & b0);
  end

  always_comb begin
    for (int j = 0; j < PosW; j++) begin
      // ~(PosW'(...)) in parentheses: Yosys 0.70 drops a unary ~ written before a size cast (docs/formal.md).
      pos_p1[j] = pos_q[j] ^ (&(pos_q | ~(PosW'((1 << j) - 1))));
      pos_p2[j] = (j == 0) ? pos_q[0] : pos_q[j] ^ (&(pos_q | ~(PosW'(((1 << j) - 1) & ~1))));
    end
  end

  // What the detector's decision advances: (A^, q^) for the next executed
  // iteration, the BRFA by one or two bits, and i.
  always_comb begin
    if (skip) begin
      adv_a   = a2;
      adv_q   = q2;
      adv_as  = as_q >> 2;
      adv_ac  = ac_q >> 2;
      adv_cy  = cy2;
      adv_pos = pos_p2;
    end else begin
      adv_a   = a1;
      adv_q   = q1;
      adv_as  = as_q >> 1;
      adv_ac  = ac_q >> 1;
      adv_cy  = cy1;
      adv_pos = pos_p1;
    end
  end

  always_comb begin
    state_d = state_q;
    sh_d    = sh_q;
    s_d     = s_q;
    c_d     = c_q;
    bs_d    = bs_q;
    bc_d    = bc_q;
    n_d     = n_q;
    ds_d    = ds_q;
    dc_d    = dc_q;
    as_d    = as_q;
    ac_d    = ac_q;
    cy_d    = cy_q;
    pos_d   = pos_q;
    qh_d    = qh_q;
    ah_d    = ah_q;
    err_d   = err_q;
    unique case (state_q)
      StIdle: begin
        if (in_valid_i) begin
          // (SS, SC) = (BS, BC) through the ShOne view, x = (N, 0): the
          // precompute cycle adds BS + BC + N.  2B < 2^(k+2) fits.
          s_d   = {{(W - Width - 2){1'b0}}, b_i, 1'b0};
          c_d   = '0;
          sh_d  = ShOne;
          bs_d  = b_i;
          bc_d  = '0;
          n_d   = n_i;
          as_d  = a_i;
          ac_d  = '0;
          cy_d  = 1'b0;
          pos_d = '0;
          ah_d  = 1'b0;
          qh_d  = 1'b1;
          err_d = req_err;
          if (req_err) begin
            state_d = StDone;
          end else begin
            state_d = StPre;
          end
        end
      end
      StPre: begin
        // D in carry-save form: the second row's carries shifted into
        // place.  Their top bit is zero (2 cout <= D < 2^W), and so is
        // cout_0 = s1_0 & XC_0, since XC = 0 in this cycle: DC_(1:0) = 0.
        ds_d    = row_s;
        dc_d    = {row_c[W-2:1], 2'b00};
        s_d     = '0;
        c_d     = '0;
        sh_d    = ShNone;
        ah_d    = adv_a;
        qh_d    = adv_q;
        as_d    = adv_as;
        ac_d    = adv_ac;
        cy_d    = adv_cy;
        pos_d   = adv_pos;
        state_d = StLoop;
      end
      StLoop: begin
        s_d   = row_s;
        c_d   = row_c;
        ah_d  = adv_a;
        qh_d  = adv_q;
        as_d  = adv_as;
        ac_d  = adv_ac;
        cy_d  = adv_cy;
        pos_d = adv_pos;
        if (skip) begin
          sh_d = ShTwo;
        end else begin
          sh_d = ShOne;
        end
        if (last || (skip && pos_q == PosW'(LastIt - 1))) begin
          ah_d    = 1'b0;
          qh_d    = 1'b0;
          state_d = StConv;
        end
      end
      StConv: begin
        s_d  = row_s;
        c_d  = row_c;
        sh_d = ShNone;
        if (sc_zero) begin
          state_d = StDone;
        end
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
  `MM_FF(sh_q, sh_d, ShNone)
  `MM_FF(s_q, s_d, '0)
  `MM_FF(c_q, c_d, '0)
  `MM_FF(bs_q, bs_d, '0)
  `MM_FF(bc_q, bc_d, '0)
  `MM_FF(n_q, n_d, '0)
  `MM_FF(ds_q, ds_d, '0)
  `MM_FF(dc_q, dc_d, '0)
  `MM_FF(as_q, as_d, '0)
  `MM_FF(ac_q, ac_d, '0)
  `MM_FF(cy_q, cy_d, 1'b0)
  `MM_FF(pos_q, pos_d, '0)
  `MM_FF(qh_q, qh_d, 1'b0)
  `MM_FF(ah_q, ah_d, 1'b0)
  `MM_FF(err_q, err_d, 1'b0)

  assign in_ready_o  = (state_q == StIdle);
  assign out_valid_o = (state_q == StDone);
  // In StDone the register holds the converted result (< 2N < 2^(k+1)).
  assign s_o         = err_q ? '0 : s_q[Width:0];
  assign err_o       = err_q;

`ifdef MM_FORMAL
  // Invariants for the formal flow (docs/formal.md): the state is one of
  // the five encodings and the shift one of the three; the carry-save
  // operands' tie-offs (AC, BC and the BRFA carry) stay zero; a rejected
  // request never runs; the position i + 1 stays in [1, k+2] in the loop;
  // the quotient and A-bit selects are zero in the conversion; a presented
  // result has a zero carry word and is below 2N.
  always_comb begin
    if (rst_ni) begin
      assert (state_q == StIdle || state_q == StPre || state_q == StLoop || state_q == StConv
              || state_q == StDone);
      assert (sh_q == ShNone || sh_q == ShOne || sh_q == ShTwo);
      assert (ac_q == '0 && bc_q == '0 && !cy_q);
      if (state_q == StPre || state_q == StLoop || state_q == StConv) assert (!err_q);
      if (state_q == StLoop) assert (pos_q != '0 && pos_q <= PosW'(LastIt));
      if (state_q == StConv) assert (!ah_q && !qh_q);
      if (state_q == StDone && !err_q) begin
        assert (c_q == '0);
        assert ((W + 1)'(s_q) < 2 * (W + 1)'(n_q));
      end
    end
  end
`endif  // MM_FORMAL

endmodule
