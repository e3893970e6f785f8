// SPDX-License-Identifier: Apache-2.0
//
// mm_r4booth_right_pe: one right-shifting radix-4 Booth processing element of
// paper 002 (Sec. IV-A, Fig. 4), on w-bit binary words.  For its digit d it
// computes, word-serially, Z' = floor(Z/4) + dq*M^ + dx*Y (docs/scalable.md):
//   - the first word of a pass brings q = Z mod 4 and the previous digit's
//     top quotient bit t; the PE Booth-encodes Q (q1, q0, t) and X (the three
//     bits xbits_i of its digit) and holds the controls for the whole pass;
//   - each word is buffered for one cycle: shifted word j of Z needs the two
//     LSBs of word j+1 (the paper's two-cycle latency, l = 2); the last word
//     takes two copies of the hidden sign bit instead;
//   - a word adds the shifted Z word, the two Booth-selected multiples
//     (inverted when negative) and a 2-bit carry; the first word's carry-in is
//     S_X + S_Q, the +1s that complete the negative multiples;
//   - the last word is also summed sign-extended to w+1 bits: bit w is the
//     true sign of Z (the hidden sign bit, decision 4 of docs/scalable.md).
// Output word j (with Y_j, M^_j, flags) is registered: it reaches the next PE
// two cycles after word j reached this one.
module mm_r4booth_right_pe #(
  parameter int WordWidth = 16  // w: >= 4
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  input  logic                 mneg_i,   // N = 1 mod 4: M^ is negative, negate the Q digit
  input  logic [2:0]           xbits_i,  // x[2d+1], x[2d], x[2d-1]: sampled with the first word
  // word stream in
  input  logic                 valid_i,
  input  logic                 first_i,  // word 0 of a pass
  input  logic                 last_i,   // word e-1 of a pass
  input  logic [WordWidth-1:0] z_i,
  input  logic                 zsign_i,  // with the last word: sign of Z
  input  logic                 t_i,      // with the first word: top bit of the previous Q digit
  input  logic [WordWidth-1:0] y_i,
  input  logic [WordWidth-1:0] m_i,      // |M^|
  // word stream out (registered)
  output logic                 valid_o,
  output logic                 first_o,
  output logic                 last_o,
  output logic [WordWidth-1:0] z_o,
  output logic                 zsign_o,
  output logic                 t_o,
  output logic [WordWidth-1:0] y_o,
  output logic [WordWidth-1:0] m_o
);

  localparam int W = WordWidth;

  // input buffer (one word)
  logic         bvalid_q, bfirst_q, blast_q, bzsign_q;
  logic [W-1:0] bz_q, by_q, bm_q;
  // Booth controls of this pass: negative, zero, double
  logic         qneg_q, qzero_q, qdbl_q, xneg_q, xzero_q, xdbl_q, t_q;
  logic         qneg_d, qzero_d, qdbl_d, xneg_d, xzero_d, xdbl_d, t_d;
  // word carry and the previous Y / M^ MSBs (for 2Y, 2M^)
  logic [1:0]   carry_q, carry_d;
  logic         yprev_q, mprev_q, yprev_d, mprev_d;
  // output registers
  logic         valid_q, first_q, last_q, zsign_q, tout_q;
  logic [W-1:0] z_q, y_q, m_q;
  logic         valid_d, first_d, last_d, zsign_d, tout_d;
  logic [W-1:0] z_d, y_d, m_d;

  logic [1:0]   q;
  logic         qb_neg, qb_zero, qb_dbl;
  logic [W-1:0] zsh, ymag, mmag, ysel, msel;
  logic [1:0]   cin;
  logic [W+1:0] sum;   // unsigned word sum: word and carry
  logic [W:0]   sumx;  // sign-extended sum of the last word: bit W is the sign
  logic         yp, mp;

  // Booth encoder (Table I): zero for 000/111, negative for 1xx except 111,
  // double for 100 and 011.
  function automatic logic [2:0] booth_enc(input logic [2:0] bits);
    booth_enc[2] = bits[2] & ~(bits[1] & bits[0]);                 // negative
    booth_enc[1] = (bits == 3'b000) || (bits == 3'b111);           // zero
    booth_enc[0] = (bits == 3'b100) || (bits == 3'b011);           // double
  endfunction

  always_comb begin
    // digit controls, taken with the first word of a pass
    q = z_i[1:0];
    {qb_neg, qb_zero, qb_dbl} = booth_enc({q[1], q[0], t_i});
    qneg_d  = qneg_q;
    qzero_d = qzero_q;
    qdbl_d  = qdbl_q;
    xneg_d  = xneg_q;
    xzero_d = xzero_q;
    xdbl_d  = xdbl_q;
    t_d     = t_q;
    if (valid_i && first_i) begin
      qneg_d  = (qb_neg ^ mneg_i) & ~qb_zero;
      qzero_d = qb_zero;
      qdbl_d  = qb_dbl;
      {xneg_d, xzero_d, xdbl_d} = booth_enc(xbits_i);
      t_d     = q[1];
    end

    // the buffered word j: shift in two LSBs of word j+1 (or the sign)
    zsh  = {blast_q ? {2{bzsign_q}} : z_i[1:0], bz_q[W-1:2]};
    yp   = bfirst_q ? 1'b0 : yprev_q;
    mp   = bfirst_q ? 1'b0 : mprev_q;
    ymag = xdbl_q ? {by_q[W-2:0], yp} : by_q;
    mmag = qdbl_q ? {bm_q[W-2:0], mp} : bm_q;
    ysel = xzero_q ? '0 : (xneg_q ? ~ymag : ymag);
    msel = qzero_q ? '0 : (qneg_q ? ~mmag : mmag);
    cin  = bfirst_q ? ({1'b0, xneg_q} + {1'b0, qneg_q}) : carry_q;
    sum  = {2'b0, zsh} + {2'b0, ysel} + {2'b0, msel} + {{W{1'b0}}, cin};
    // The multiples and the shifted Z are below 2^(ew-1) in magnitude, so the
    // MSB of their last word is their sign.
    sumx = {zsh[W-1], zsh} + {ysel[W-1], ysel} + {msel[W-1], msel} + {{(W-1){1'b0}}, cin};

    carry_d = carry_q;
    yprev_d = yprev_q;
    mprev_d = mprev_q;
    valid_d = bvalid_q;
    first_d = first_q;
    last_d  = last_q;
    z_d     = z_q;
    zsign_d = zsign_q;
    tout_d  = tout_q;
    y_d     = y_q;
    m_d     = m_q;
    if (bvalid_q) begin
      carry_d = sum[W+1:W];
      yprev_d = by_q[W-1];
      mprev_d = bm_q[W-1];
      first_d = bfirst_q;
      last_d  = blast_q;
      z_d     = sum[W-1:0];
      zsign_d = sumx[W];
      tout_d  = t_q;
      y_d     = by_q;
      m_d     = bm_q;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      bvalid_q <= 1'b0;
      bfirst_q <= 1'b0;
      blast_q  <= 1'b0;
      bzsign_q <= 1'b0;
      bz_q     <= '0;
      by_q     <= '0;
      bm_q     <= '0;
      qneg_q   <= 1'b0;
      qzero_q  <= 1'b1;
      qdbl_q   <= 1'b0;
      xneg_q   <= 1'b0;
      xzero_q  <= 1'b1;
      xdbl_q   <= 1'b0;
      t_q      <= 1'b0;
      carry_q  <= '0;
      yprev_q  <= 1'b0;
      mprev_q  <= 1'b0;
      valid_q  <= 1'b0;
      first_q  <= 1'b0;
      last_q   <= 1'b0;
      z_q      <= '0;
      zsign_q  <= 1'b0;
      tout_q   <= 1'b0;
      y_q      <= '0;
      m_q      <= '0;
    end else begin
      bvalid_q <= valid_i;
      bfirst_q <= first_i;
      blast_q  <= last_i;
      bzsign_q <= zsign_i;
      bz_q     <= z_i;
      by_q     <= y_i;
      bm_q     <= m_i;
      qneg_q   <= qneg_d;
      qzero_q  <= qzero_d;
      qdbl_q   <= qdbl_d;
      xneg_q   <= xneg_d;
      xzero_q  <= xzero_d;
      xdbl_q   <= xdbl_d;
      t_q      <= t_d;
      carry_q  <= carry_d;
      yprev_q  <= yprev_d;
      mprev_q  <= mprev_d;
      valid_q  <= valid_d;
      first_q  <= first_d;
      last_q   <= last_d;
      z_q      <= z_d;
      zsign_q  <= zsign_d;
      tout_q   <= tout_d;
      y_q      <= y_d;
      m_q      <= m_d;
    end
  end

  // The two LSBs of a buffered word leave by the shift: q was taken from them
  // on the way in.
  logic [1:0] unused_bz;
  assign unused_bz = bz_q[1:0];

  assign valid_o = valid_q;
  assign first_o = first_q;
  assign last_o  = last_q;
  assign z_o     = z_q;
  assign zsign_o = zsign_q;
  assign t_o     = tout_q;
  assign y_o     = y_q;
  assign m_o     = m_q;

endmodule
