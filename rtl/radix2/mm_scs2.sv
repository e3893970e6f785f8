// SPDX-License-Identifier: Apache-2.0
//
// mm_scs2: SCS-MM-2, the semi-carry-save radix-2 Montgomery multiplier of
// paper 000 (Fig. 4): the SCS loop of Fig. 2 with Walter's k+2 iterations,
// and a format conversion that reuses the loop's two-level CSA instead of a
// carry-propagate adder.
//
//   loop     i = 0 .. k+1, one iteration per cycle through the two-level CSA
//            (mm_scs_csa2):  q_i = (SS_0 + SC_0 + A_i*B_0) mod 2,
//            (SS, SC) = (SS + SC + A_i*B + q_i*N) / 2        (steps 1-5)
//   convert  step 6 as (SS, SC) = SS + SC until SC = 0: with A_i*B and q_i*N
//            forced to zero the two CSA rows are two half-adder rows, two
//            carry-save additions per cycle.  The multiplexers M1/M2 of
//            Fig. 4 pick the halved row outputs in the loop and the unshifted
//            ones in the conversion.  The zero detector looks at the SC
//            register; the cycle in which it sees zero ends the operation.
//
// Result A*B*2^-(k+2) mod N in [0, 2N) for A, B in [0, 2N), odd N < 2^k.
// Latency (cycles after the accepting edge; the model montmul.models.radix2.
// scs2 counts the same): (k + 2) + (conv + 1), where conv is the number of
// double half-adder steps until SC = 0 (at most ceil((k+1)/2)).
// Handshake, input check and error flag: the shared shell mm_req_ctrl.
`include "mm_macros.svh"

module mm_scs2 #(
  parameter int Width      = 32,  // modulus width k: 3 .. 8192
  parameter bit CheckRange = 1,   // 1: reject operands >= 2N
  parameter bit CheckMod   = 1    // 1: reject an even N or N < 3
) (
  // the common core interface (docs/interface.md); s_o = A*B*2^-(Width+2) mod N, in [0, 2N)
  `MM_CORE_PORTS
);

  if (Width < mm_pkg::WidthMin || Width > mm_pkg::WidthMax) begin : gen_bad_width
    `MM_FATAL("mm_scs2: Width must be in [3, 8192]")
  end

  // SS + SC < 3N < 2^(k+2) after every iteration (B < 2N), so SS and SC fit
  // in k+2 bits; the conversion keeps the value SS + SC < 2N.
  localparam int W     = Width + 2;
  localparam int Iters = Width + 2;
  localparam int CntW  = $clog2(Iters + 1);

  // The datapath's phase while the shell (mm_req_ctrl) is busy.
  typedef enum logic {
    PhLoop,
    PhConv
  } phase_e;

  phase_e           ph_q, ph_d;
  logic [W-1:0]     ss_q, ss_d;    // SS; after the conversion S
  logic [W-1:0]     sc_q, sc_d;    // SC
  logic [Width:0]   a_q, a_d;      // A >> i; bit k+1 of A is 0 (A < 2N)
  logic [Width:0]   b_q, b_d;
  logic [Width-1:0] n_q, n_d;
  logic [CntW-1:0]  cnt_q, cnt_d;  // iteration i

  logic             accept, busy, done, unused_start;
  logic [W:0]       row_s, row_c;  // two-level CSA outputs
  logic             loop;
  logic             sc_zero;       // zero detector on the SC register
  logic             unused_row;

  `MM_REQ_CTRL(u_ctrl, accept, unused_start, busy, done, ss_q[Width:0])

  assign loop    = (ph_q == PhLoop);
  assign sc_zero = ~|sc_q;
  // The cycle in which the zero detector sees SC = 0 ends the operation.
  assign done    = (ph_q == PhConv) && sc_zero;

  mm_scs_csa2 #(.Width(Width)) u_csa2 (
    .loop_i(loop),
    .a_i   (a_q[0]),
    .ss_i  (ss_q),
    .sc_i  (sc_q),
    .b_i   (b_q),
    .n_i   (n_q),
    .s_o   (row_s),
    .c_o   (row_c)
  );

  always_comb begin
    ph_d  = ph_q;
    ss_d  = ss_q;
    sc_d  = sc_q;
    a_d   = a_q;
    b_d   = b_q;
    n_d   = n_q;
    cnt_d = cnt_q;
    if (accept) begin
      ss_d  = '0;
      sc_d  = '0;
      a_d   = a_i;
      b_d   = b_i;
      n_d   = n_i;
      cnt_d = '0;
      ph_d  = PhLoop;
    end else if (busy) begin
      if (ph_q == PhLoop) begin
        // M1/M2, halved: row_s is even (q_i was chosen so), and row_c bit
        // k+2 is zero because row_s + 2*row_c < 6N < 2^(k+3).
        ss_d  = row_s[W:1];
        sc_d  = row_c[W-1:0];
        a_d   = a_q >> 1;
        cnt_d = cnt_q + 1'b1;
        if (cnt_q == CntW'(Iters - 1)) begin
          ph_d = PhConv;
        end
      end else if (!sc_zero) begin
        // M1/M2, unshifted: row_s + 2*row_c = SS + SC < 2N < 2^(k+1), so
        // row_s fits in k+2 bits and 2*row_c keeps its bit k+1 zero.
        ss_d = row_s[W-1:0];
        sc_d = {row_c[W-2:0], 1'b0};
      end
    end
  end

  `MM_FF(ph_q, ph_d, PhLoop)
  `MM_FF(ss_q, ss_d, '0)
  `MM_FF(sc_q, sc_d, '0)
  `MM_FF(a_q, a_d, '0)
  `MM_FF(b_q, b_d, '0)
  `MM_FF(n_q, n_d, '0)
  `MM_FF(cnt_q, cnt_d, '0)

  // row_c[k+2] is zero in both modes (see the loop phase).
  assign unused_row = row_c[W];

endmodule
