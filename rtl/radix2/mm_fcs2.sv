// SPDX-License-Identifier: Apache-2.0
//
// mm_fcs2: FCS-MM-2, the full-carry-save radix-2 Montgomery multiplier of
// McIvor et al. with a four-to-two CSA (paper 000, Sec. II-C).  Operands and
// result are carry-save pairs (AS, AC), (BS, BC), (SS, SC), as in mm_fcs1.
//   precompute  (DS, DC) = BS + BC + N, one carry-save addition (one cycle)
//   SS = SC = 0
//   for i = 0 .. k+1:
//     q_i = (SS_0 + SC_0 + A_i*(BS_0 + BC_0)) mod 2
//     (XS, XC) = (0, 0), (N, 0), (BS, BC), (DS, DC) for (A_i, q_i) =
//                (0, 0), (0, 1), (1, 0),   (1, 1)      (two 4-to-1 muxes)
//     (SS, SC) = (SS + SC + XS + XC) / 2                (two CSA rows)
// With D precomputed the tree has two full-adder rows instead of FCS-MM-1's
// three; the price is the two multiplexers (mm_sm3, a 4-to-1 select with a
// zero input) and the DS, DC registers.  The precompute reuses the first
// row: SS, SC are loaded with BS, BC at the accepting edge and the muxes are
// forced to (N, 0), so row 1 computes exactly BS + BC + N in carry-save form,
// which DS, DC take; SS, SC are cleared in the same cycle.  A_i comes
// bit-serially from the registered barrel-register full adder (mm_brfa).
//
// Result SS + SC = A*B*2^-(k+2) mod N, in [0, 2N), for AS + AC and BS + BC in
// [0, 2N) and odd N < 2^k.  Not the common binary interface; mm_fcs_bin
// (Variant = 2) puts it behind it.  Handshake, reset and rejected requests as
// in mm_fcs1, by the same shell (mm_req_ctrl).
// Latency: 1 + (k+2) cycles after the accepting edge, for every input (the
// model montmul.models.radix2.fcs2_cs counts the same).
`include "mm_macros.svh"

module mm_fcs2 #(
  parameter int Width      = 32,  // modulus width k: 3 .. 8192
  parameter bit CheckRange = 1,   // 1: reject AS + AC >= 2N or BS + BC >= 2N
  parameter bit CheckMod   = 1    // 1: reject an even N or N < 3
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  // request: carry-save operands, each pair's value in [0, 2N)
  input  logic             in_valid_i,
  output logic             in_ready_o,
  input  logic [Width:0]   as_i,
  input  logic [Width:0]   ac_i,
  input  logic [Width:0]   bs_i,
  input  logic [Width:0]   bc_i,
  input  logic [Width-1:0] n_i,         // odd N, 3 <= N < 2^Width
  // response: SS + SC = A*B*2^-(Width+2) mod N, in [0, 2N)
  output logic             out_valid_o,
  input  logic             out_ready_i,
  output logic [Width:0]   ss_o,
  output logic [Width:0]   sc_o,
  output logic             err_o        // request rejected; ss_o = sc_o = 0
);

  if (Width < mm_pkg::WidthMin || Width > mm_pkg::WidthMax) begin : gen_bad_width
    `MM_FATAL("mm_fcs2: Width must be in [3, 8192]")
  end

  // S = SS + SC < 3N after every iteration (S + D < 3N + 3N, halved), so SS
  // and SC fit k+2 bits; a row's inputs sum to < 6N < 2^(k+3).
  // DS = BS ^ BC ^ N has k+1 bits, DC = 2*maj(BS, BC, N) k+2.
  localparam int SW    = Width + 2;
  localparam int W     = Width + 3;
  localparam int Iters = Width + 2;
  localparam int CntW  = $clog2(Iters + 1);

  // The datapath's phase while the shell (mm_req_ctrl) is busy.
  typedef enum logic {
    PhPre,
    PhRun
  } phase_e;

  phase_e           ph_q, ph_d;
  logic [SW-1:0]    ss_q, ss_d;
  logic [SW-1:0]    sc_q, sc_d;
  logic [Width:0]   bs_q, bs_d;
  logic [Width:0]   bc_q, bc_d;
  logic [Width:0]   ds_q, ds_d;
  logic [Width+1:0] dc_q, dc_d;
  logic [Width-1:0] n_q, n_d;
  logic [CntW-1:0]  cnt_q, cnt_d;

  logic [Width+1:0] a_sum, b_sum;  // AS + AC, BS + BC for the range check
  logic             accept, busy, done, unused_start;
  logic             pre, run;
  logic             ai;             // A_i from the BRFA
  logic             qi;
  logic             a_sel, q_sel;   // mux address (A_i, q_i), forced to (0, 1) in PhPre
  logic [W-1:0]     xs, xc;
  logic [W-1:0]     s1, c1, s2, c2;
  logic             unused_row;

  // Range check on the values of the carry-save pairs (request path).  The
  // shell masks the whole carry-save result {SS, SC}; the final SS + SC < 2N
  // < 2^(k+1), so bit k+1 of both words is zero.
  assign a_sum = {1'b0, as_i} + {1'b0, ac_i};
  assign b_sum = {1'b0, bs_i} + {1'b0, bc_i};

  mm_req_ctrl #(
    .Width     (Width),
    .OpWidth   (Width + 2),
    .InBound   (2),
    .CheckRange(CheckRange),
    .CheckMod  (CheckMod),
    .ResWidth  (2 * (Width + 1))
  ) u_ctrl (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .in_valid_i (in_valid_i),
    .in_ready_o (in_ready_o),
    .a_i        (a_sum),
    .b_i        (b_sum),
    .n_i        (n_i),
    .out_valid_o(out_valid_o),
    .out_ready_i(out_ready_i),
    .s_o        ({ss_o, sc_o}),
    .err_o      (err_o),
    .accept_o   (accept),
    .start_o    (unused_start),
    .busy_o     (busy),
    .done_i     (done),
    .res_i      ({ss_q[Width:0], sc_q[Width:0]})
  );

  assign pre  = (ph_q == PhPre);
  assign run  = busy && (ph_q == PhRun);
  assign done = (ph_q == PhRun) && (cnt_q == CntW'(Iters - 1));

  mm_brfa #(.Width(Width + 1)) u_brfa (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .load_i (accept),
    .shift_i(run),
    .as_i   (as_i),
    .ac_i   (ac_i),
    .a_o    (ai)
  );

  always_comb begin
    qi    = ss_q[0] ^ sc_q[0] ^ (ai & (bs_q[0] ^ bc_q[0]));
    a_sel = run & ai;
    q_sel = pre | qi;
  end

  // The two 4-to-1 multiplexers: XS from (0, N, BS, DS), XC from (0, 0, BC, DC).
  mm_sm3 #(.Width(W)) u_mux_s (
    .a_sel_i(a_sel),
    .q_sel_i(q_sel),
    .n_i    (W'(n_q)),
    .b_i    (W'(bs_q)),
    .d_i    (W'(ds_q)),
    .x_o    (xs)
  );

  mm_sm3 #(.Width(W)) u_mux_c (
    .a_sel_i(a_sel),
    .q_sel_i(q_sel),
    .n_i    ({W{1'b0}}),
    .b_i    (W'(bc_q)),
    .d_i    (W'(dc_q)),
    .x_o    (xc)
  );

  // Four-to-two CSA.  A carry word is at most half its row's total
  // (< 2^(k+2)), so shifting it into place drops only a zero bit.
  mm_csa_row #(.Width(W)) u_row1 (
    .x_i   (W'(ss_q)),
    .y_i   (W'(sc_q)),
    .z_i   (xs),
    .s_o   (s1),
    .cout_o(c1)
  );

  mm_csa_row #(.Width(W)) u_row2 (
    .x_i   (s1),
    .y_i   ({c1[W-2:0], 1'b0}),
    .z_i   (xc),
    .s_o   (s2),
    .cout_o(c2)
  );

  always_comb begin
    ph_d  = ph_q;
    ss_d  = ss_q;
    sc_d  = sc_q;
    bs_d  = bs_q;
    bc_d  = bc_q;
    ds_d  = ds_q;
    dc_d  = dc_q;
    n_d   = n_q;
    cnt_d = cnt_q;
    if (accept) begin
      // (SS, SC) = (BS, BC): row 1 adds N to them in the precompute.
      ss_d  = SW'(bs_i);
      sc_d  = SW'(bc_i);
      bs_d  = bs_i;
      bc_d  = bc_i;
      n_d   = n_i;
      cnt_d = '0;
      ph_d  = PhPre;
    end else if (busy) begin
      if (ph_q == PhPre) begin
        // Row 1 sees only k+1-bit inputs here: s1 fits k+1 bits, c1 too.
        ds_d = s1[Width:0];
        dc_d = {c1[Width:0], 1'b0};
        ss_d = '0;
        sc_d = '0;
        ph_d = PhRun;
      end else begin
        // Halving: s2 is even (q_i), the carry word's weight 2^(j+1) becomes 2^j.
        ss_d  = s2[W-1:1];
        sc_d  = c2[W-2:0];
        cnt_d = cnt_q + 1'b1;
      end
    end
  end

  `MM_FF(ph_q, ph_d, PhPre)
  `MM_FF(ss_q, ss_d, '0)
  `MM_FF(sc_q, sc_d, '0)
  `MM_FF(bs_q, bs_d, '0)
  `MM_FF(bc_q, bc_d, '0)
  `MM_FF(ds_q, ds_d, '0)
  `MM_FF(dc_q, dc_d, '0)
  `MM_FF(n_q, n_d, '0)
  `MM_FF(cnt_q, cnt_d, '0)

  // Provably zero: the low bit of the even row sum and the top bit of each
  // carry word.
  assign unused_row = ^{s2[0], c1[W-1], c2[W-1]};

endmodule
