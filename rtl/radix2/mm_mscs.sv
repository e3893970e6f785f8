// SPDX-License-Identifier: Apache-2.0
//
// mm_mscs: MSCS-MM, the modified semi-carry-save radix-2 Montgomery
// multiplier of paper 000 (Fig. 7, Sec. III-A; paper 001 Algorithm 3).
//
// One row of full adders (mm_csa_row) does everything:
//   precompute  (SS, SC) = (B, N), already a carry-save form of D = B + N;
//               (SS, SC) = SS + SC + 0 until SC = 0 (Zero_D); D = SS.
//   loop        i = 0 .. k+1: (SS, SC) = (SS + SC + x) / 2, x in
//               {0, N, B, D} from the 4-to-1 multiplexer (mm_sm3) by the
//               registered (A_i, q_i), which iteration i-1 precomputed.
//   convert     (SS, SC) = SS + SC + 0 until SC = 0; SS is the result.
// The registers hold the unshifted row outputs; the view multiplexers
// (ss_v, sc_v) apply the loop's right shift or the half-adder step's carry
// shift, selected by a registered flag, so they sit in parallel with the
// x multiplexer: the wide path is T_MUX4 + T_FA.
//
// Quotient lookahead: SS + SC + x is even (that is how q_i is chosen), so
// the carry out of bit 0 is SS_0 | SC_0 whatever x_0 is, and
//   q_(i+1) = SS_1 ^ SC_1 ^ x_1 ^ (SS_0 | SC_0) ^ (A_(i+1) & B_0);
// only x_1 comes through the multiplexer, so this path is T_MUX4 + T_XOR2.
//
// Result A*B*2^-(k+2) mod N in [0, 2N) for A, B in [0, 2N), odd N < 2^k.
// Latency (the model montmul.models.radix2.mscs counts the same):
// (pre + 1) + (k + 2) + (conv + 1), where pre and conv are the numbers of
// half-adder steps until SC = 0.
//
// Not on the shared request/response shell (rtl/common/mm_req_ctrl.sv): it
// keeps its own FSM because on the shell its register-to-register path got
// longer.  ASIC flow at k = 256 (OSU 0.18 um, ABC target 2000 ps): own FSM
// 2146.7 ps, 583 041 um^2; on the shell 2347.6 ps (+9.4 %), and 2293.6 ps
// (+6.8 %) with the row outputs as the one select of SS/SC; area -1.2 %.
// Both paths run from the Zero_D tree (OR of SC) into the precompute's
// detecting-cycle updates; with the shell ABC maps the tree deeper and adds
// the busy/phase gating after it.
`include "mm_macros.svh"

module mm_mscs #(
  parameter int Width      = 32,  // modulus width k: 3 .. 8192
  parameter bit CheckRange = 1,   // 1: reject operands >= 2N
  parameter bit CheckMod   = 1    // 1: reject an even N or N < 3
) (
  // the common core interface (docs/interface.md); s_o = A*B*2^-(Width+2) mod N, in [0, 2N)
  `MM_CORE_PORTS
);

  if (Width < mm_pkg::WidthMin || Width > mm_pkg::WidthMax) begin : gen_bad_width
    `MM_FATAL("mm_mscs: Width must be in [3, 8192]")
  end

  // D = B + N < 3N < 2^(k+2); every loop value S = SS + SC stays below 3N
  // (S' = (S + x)/2 with x <= D) and the conversion starts below 2N, so
  // SS, SC, x and D fit in k+2 bits, and so do the raw row outputs (an
  // unshifted sum, or a carry word c with 2c <= S).
  localparam int W    = Width + 2;
  localparam int Last = Width + 1;  // index of the last iteration
  localparam int PosW = $clog2(Last + 1);

  typedef enum logic [2:0] {
    StIdle,
    StPre,
    StLoop,
    StConv,
    StDone
  } state_e;

  // View of the stored row outputs (M1/M2 select).
  typedef enum logic {
    ShNone,  // half-adder step: SS = s,      SC = cout << 1
    ShOne    // loop (divide by two): SS = s >> 1, SC = cout
  } shift_e;

  state_e          state_q, state_d;
  shift_e          sh_q, sh_d;
  logic [W-1:0]    s_q, s_d;      // row sum output (unshifted)
  logic [W-1:0]    c_q, c_d;      // row carry output (weight 2^(j+1))
  logic [Width:0]  b_q, b_d;      // B
  logic [Width-1:0] n_q, n_d;     // N
  logic [W-1:0]    d_q, d_d;      // D = B + N
  logic [Width:0]  a_q, a_d;      // A >> i in the precompute, A >> (i+1) in iteration i
  logic [PosW-1:0] pos_q, pos_d;  // i
  logic            qh_q, qh_d;    // q_i
  logic            ah_q, ah_d;    // A_i
  logic            err_q, err_d;

  logic [W-1:0]    ss_v, sc_v;    // SS[i], SC[i]: outputs of M1/M2
  logic [W-1:0]    x;             // M3 output
  logic [W-1:0]    row_s, row_c;
  logic            sc_zero;       // Zero_D
  logic            q_next;        // q_(i+1)
  logic            last;
  logic            req_err;

  `MM_IN_CHECK(req_err)

  // M1 / M2: the delayed shift of the stored pair.
  always_comb begin
    if (sh_q == ShOne) begin
      ss_v = s_q >> 1;
      sc_v = c_q;
    end else begin
      ss_v = s_q;
      sc_v = c_q << 1;
    end
  end

  // M3: x = 0, N, B or D; (A_i, q_i) = (0, 0) outside the loop, so the row
  // then adds SS + SC + 0.
  mm_sm3 #(.Width(W)) u_m3 (
    .a_sel_i(ah_q),
    .q_sel_i(qh_q),
    .n_i    ({{(W - Width){1'b0}}, n_q}),
    .b_i    ({{(W - Width - 1){1'b0}}, b_q}),
    .d_i    (d_q),
    .x_o    (x)
  );

  mm_csa_row #(.Width(W)) u_csa (
    .x_i   (ss_v),
    .y_i   (sc_v),
    .z_i   (x),
    .s_o   (row_s),
    .cout_o(row_c)
  );

  // Zero_D on the carry register.  With ShNone, SC = cout << 1 and the top
  // bit of cout is zero (2 cout <= SS + SC < 2^W), so SC = 0 exactly when
  // the register is zero; with ShOne, SC is the register itself.
  assign sc_zero = ~|c_q;
  assign last    = (pos_q == PosW'(Last));
  assign q_next  = ss_v[1] ^ sc_v[1] ^ x[1] ^ (ss_v[0] | sc_v[0]) ^ (a_q[0] & b_q[0]);

  always_comb begin
    state_d = state_q;
    sh_d    = sh_q;
    s_d     = s_q;
    c_d     = c_q;
    b_d     = b_q;
    n_d     = n_q;
    d_d     = d_q;
    a_d     = a_q;
    pos_d   = pos_q;
    qh_d    = qh_q;
    ah_d    = ah_q;
    err_d   = err_q;
    unique case (state_q)
      StIdle: begin
        if (in_valid_i) begin
          // (SS, SC) = (B, N) through the ShOne view: B < 2^(k+1), so
          // 2B fits the k+2-bit sum register.
          s_d   = {b_i, 1'b0};
          c_d   = {{(W - Width){1'b0}}, n_i};
          sh_d  = ShOne;
          b_d   = b_i;
          n_d   = n_i;
          a_d   = a_i;
          qh_d  = 1'b0;
          ah_d  = 1'b0;
          err_d = req_err;
          if (req_err) begin
            state_d = StDone;
          end else begin
            state_d = StPre;
          end
        end
      end
      StPre: begin
        if (sc_zero) begin
          // Detecting cycle: D = SS, clear the state (S[0] = 0) and
          // precompute (A_0, q_0): q_0 = A_0 B_0 because S[0] = 0.
          d_d     = ss_v;
          s_d     = '0;
          c_d     = '0;
          sh_d    = ShNone;
          ah_d    = a_q[0];
          qh_d    = a_q[0] & b_q[0];
          a_d     = a_q >> 1;
          pos_d   = '0;
          state_d = StLoop;
        end else begin
          s_d  = row_s;
          c_d  = row_c;
          sh_d = ShNone;
        end
      end
      StLoop: begin
        s_d   = row_s;
        c_d   = row_c;
        sh_d  = ShOne;
        ah_d  = a_q[0];
        qh_d  = q_next;
        a_d   = a_q >> 1;
        pos_d = pos_q + PosW'(1);
        if (last) begin
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
  `MM_FF(b_q, b_d, '0)
  `MM_FF(n_q, n_d, '0)
  `MM_FF(d_q, d_d, '0)
  `MM_FF(a_q, a_d, '0)
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
  // the five encodings; a rejected request never runs; the iteration index
  // stays at most k+1 in the loop; the quotient and A-bit selects are zero
  // in the conversion; a presented result has a zero carry word.  (Its
  // bound S < 2N is not inductive from these facts alone: the property
  // module's BMC checks it.)
  always_comb begin
    if (rst_ni) begin
      assert (state_q == StIdle || state_q == StPre || state_q == StLoop || state_q == StConv
              || state_q == StDone);
      if (state_q == StPre || state_q == StLoop || state_q == StConv) assert (!err_q);
      if (state_q == StLoop) assert (pos_q <= PosW'(Last));
      if (state_q == StConv) assert (!ah_q && !qh_q);
      if (state_q == StDone && !err_q) assert (c_q == '0);
    end
  end
`endif  // MM_FORMAL

endmodule
