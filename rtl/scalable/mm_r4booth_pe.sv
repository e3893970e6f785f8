// SPDX-License-Identifier: Apache-2.0
//
// mm_r4booth_pe: one radix-4 Booth processing element of paper 002 on w-bit
// binary words, right-shifting (Sec. IV-A, Fig. 4) or left-shifting
// (Sec. IV-B, Fig. 6) by ShiftLeft.  Both kinds Booth-encode, with the first
// word of a pass, their digit of X (xbits_i) and a digit of Q from the two
// bits q of Z at the PE's effective LSB Pos and the previous digit's top bit
// t, hold the controls for the pass, and add to each Z word the Booth
// multiples of Y and M^ (inverted when negative, the +1s S_X + S_Q as the
// carry-in of word 0) and a 2-bit word carry:
//   - right-shifting (Pos = 0): Z' = floor(Z/4) + dq*M^ + dx*Y.  Each word is
//     buffered for one cycle: shifted word j of Z needs the two LSBs of word
//     j+1 (l = 2); the last word takes two copies of the hidden sign bit
//     instead, and is also summed sign-extended to w+1 bits: bit w is the
//     true sign of Z' (zsign, decision 4 of docs/scalable.md).
//   - left-shifting: Z is not shifted; the stream holds Z*2^Pos in e+1 words
//     (the overflow word), Pos = 2i mod w (the kernel needs w | 2p, so Pos is
//     the same in every pass).  The PE clears q and adds the multiples shifted
//     left by Pos+2, with the +1s at bit Pos+2 of word 0; bits below Pos+2 of
//     a negative multiple's word 0 are zeroed (the paper's AND gates).
//     * Pos + 2 < w: word j out is computed in the cycle word j comes in, so
//       the next PE gets it one cycle later (l = 1); the Q digit of word 0 is
//       encoded in that same cycle (the paper's longer critical path).
//     * Pos + 2 = w: word 0 is all zero after q is cleared and is discarded;
//       word j out is input word j+1 (the sign extension of word e for the
//       last) plus the unshifted multiples of Y_j, M^_j, so it is buffered
//       like a right-shifting word (the paper's discard cycle, 2p/w of them
//       per pass).
//   Both buffered cases take word j out from {word j+1, word j} >> ZShift.
// Output word j (with Y_j, M^_j, flags) is registered.
`include "mm_macros.svh"

module mm_r4booth_pe #(
  parameter int WordWidth = 16,  // w: >= 4
  parameter bit ShiftLeft = 0,   // 0: right-shifting PE, 1: left-shifting PE
  parameter int Pos       = 0    // effective LSB: even, 0 .. w-2; 0 when right-shifting
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  input  logic                 mneg_i,   // N = 1 mod 4: M^ is negative, negate the Q digit
  input  logic [2:0]           xbits_i,  // x[2d+1], x[2d], x[2d-1]: sampled with the first word
  // word stream in
  input  logic                 valid_i,
  input  logic                 first_i,  // word 0 of a pass
  input  logic                 last_i,   // last word of a pass (e-1 right, e left)
  input  logic [WordWidth-1:0] z_i,
  input  logic                 zsign_i,  // right: with the last word, sign of Z (left: unused)
  input  logic                 t_i,      // with the first word: top bit of the previous Q digit
  input  logic [WordWidth-1:0] y_i,
  input  logic [WordWidth-1:0] m_i,      // |M^|
  // word stream out (registered)
  output logic                 valid_o,
  output logic                 first_o,
  output logic                 last_o,
  output logic [WordWidth-1:0] z_o,
  output logic                 zsign_o,  // right: sign of Z' (left: 0)
  output logic                 t_o,
  output logic [WordWidth-1:0] y_o,
  output logic [WordWidth-1:0] m_o
);

  localparam bit PosOk = Pos >= 0 && Pos <= WordWidth - 2 && Pos % 2 == 0 &&
                         (ShiftLeft || Pos == 0);
  if (!PosOk) begin : gen_bad_pos
    `MM_FATAL("mm_r4booth_pe: Pos must be even in [0, WordWidth-2], and 0 when right-shifting")
  end

  localparam int W        = WordWidth;
  // a word waits one cycle for the next: right-shifting, or the discarding left PE
  localparam bit Buffered = !ShiftLeft || (Pos + 2 == W);
  localparam int Sft      = Buffered ? 0 : Pos + 2;  // shift of the multiples within the stream
  localparam int ZShift   = ShiftLeft ? W : 2;       // buffered: word j out from {word j+1, word j}

  // Booth encoder (Table I): {negative, zero, double}
  function automatic logic [2:0] booth_enc(input logic [2:0] bits);
    booth_enc[2] = bits[2] & ~(bits[1] & bits[0]);
    booth_enc[1] = (bits == 3'b000) || (bits == 3'b111);
    booth_enc[0] = (bits == 3'b100) || (bits == 3'b011);
  endfunction

  // Booth selector on one word of V*2^Sft (prev: the previous word of V):
  // 0, +-V, +-2V; a negative multiple is inverted with its bits below Sft
  // cleared in word 0 (its +1 goes in at bit Sft).
  function automatic logic [W-1:0] bsel(input logic [W-1:0] v, input logic [W-1:0] prev,
                                        input logic neg, input logic zero, input logic dbl,
                                        input logic first);
    logic [W-1:0] mag;
    mag = W'(({v, prev} << (Sft + int'(dbl))) >> W);
    if (zero) begin
      bsel = '0;
    end else if (neg) begin
      // ~(W'(...)) in parentheses: Yosys 0.70 drops a unary ~ before a size cast (docs/formal.md).
      bsel = first ? (~mag & ~(W'((1 << Sft) - 1))) : ~mag;
    end else begin
      bsel = mag;
    end
  endfunction

  // state kept over a pass: Booth controls, t, carry, previous Y / M^ words
  logic         qneg_q, qzero_q, qdbl_q, xneg_q, xzero_q, xdbl_q, t_q;
  logic         qneg_d, qzero_d, qdbl_d, xneg_d, xzero_d, xdbl_d, t_d;
  logic [1:0]   carry_q, carry_d;
  logic [W-1:0] yprev_q, mprev_q, yprev_d, mprev_d;
  // output registers
  logic         valid_q, first_q, last_q, zsign_q, tout_q;
  logic [W-1:0] z_q, y_q, m_q;
  logic         valid_d, first_d, last_d, zsign_d, tout_d;
  logic [W-1:0] z_d, y_d, m_d;

  logic [1:0]   q;
  logic         qb_neg, qb_zero, qb_dbl, xb_neg, xb_zero, xb_dbl;

  assign q = z_i[Pos+1:Pos];
  assign {qb_neg, qb_zero, qb_dbl} = booth_enc({q[1], q[0], t_i});
  assign {xb_neg, xb_zero, xb_dbl} = booth_enc(xbits_i);

  // digit controls, taken with the first word of a pass
  always_comb begin
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
      xneg_d  = xb_neg;
      xzero_d = xb_zero;
      xdbl_d  = xb_dbl;
      t_d     = q[1];
    end
  end

  if (Buffered) begin : gen_buffered
    // word j out = {word j+1, word j} >> ZShift + multiples of the buffered Y_j, M^_j
    logic         bvalid_q, bfirst_q, blast_q, bsign_q;
    logic [W-1:0] bz_q, by_q, bm_q;
    logic [W-1:0] znext, zin, ysel, msel, yp, mp;
    logic [1:0]   cin;
    logic [W+1:0] sum;   // unsigned word sum: word and carry
    logic [W:0]   sumx;  // right: sign-extended sum of the last word, bit W is the sign

    always_comb begin
      // the last word takes the sign of Z in place of word j+1
      znext = blast_q ? {W{bsign_q}} : z_i;
      zin   = W'({znext, bz_q} >> ZShift);
      yp    = bfirst_q ? '0 : yprev_q;
      mp    = bfirst_q ? '0 : mprev_q;
      ysel  = bsel(by_q, yp, xneg_q, xzero_q, xdbl_q, bfirst_q);
      msel  = bsel(bm_q, mp, qneg_q, qzero_q, qdbl_q, bfirst_q);
      cin   = bfirst_q ? ({1'b0, xneg_q} + {1'b0, qneg_q}) : carry_q;
      sum   = {2'b0, zin} + {2'b0, ysel} + {2'b0, msel} + {{W{1'b0}}, cin};
      // The multiples and the shifted Z are below 2^(ew-1) in magnitude, so
      // the MSB of their last word is their sign.
      sumx  = {zin[W-1], zin} + {ysel[W-1], ysel} + {msel[W-1], msel} + {{(W-1){1'b0}}, cin};

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
        yprev_d = by_q;
        mprev_d = bm_q;
        first_d = bfirst_q;
        last_d  = blast_q;
        z_d     = sum[W-1:0];
        zsign_d = ShiftLeft ? 1'b0 : sumx[W];
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
        bsign_q  <= 1'b0;
        bz_q     <= '0;
        by_q     <= '0;
        bm_q     <= '0;
      end else begin
        bvalid_q <= valid_i;
        bfirst_q <= first_i;
        blast_q  <= last_i;
        // the sign of Z: right, the stream's hidden sign bit; left, the MSB of the last word
        bsign_q  <= ShiftLeft ? z_i[W-1] : zsign_i;
        bz_q     <= z_i;
        by_q     <= y_i;
        bm_q     <= m_i;
      end
    end
  end else begin : gen_direct
    // left, Pos + 2 < w: word j in, word j out in the same cycle
    logic         qn, qz, qdb, xn, xz, xdb;
    logic [W-1:0] zc, ysel, msel, cinw, yp, mp;
    logic [W+1:0] sum;

    always_comb begin
      // word 0 uses the controls it brings; later words the held ones
      qn   = first_i ? qneg_d  : qneg_q;
      qz   = first_i ? qzero_d : qzero_q;
      qdb  = first_i ? qdbl_d  : qdbl_q;
      xn   = first_i ? xneg_d  : xneg_q;
      xz   = first_i ? xzero_d : xzero_q;
      xdb  = first_i ? xdbl_d  : xdbl_q;
      yp   = first_i ? '0 : yprev_q;
      mp   = first_i ? '0 : mprev_q;
      // clear q: below Pos the word is already zero
      zc   = first_i ? (z_i & ~(W'(3) << Pos)) : z_i;
      ysel = bsel(y_i, yp, xn, xz, xdb, first_i);
      msel = bsel(m_i, mp, qn, qz, qdb, first_i);
      cinw = first_i ? (W'({1'b0, xn} + {1'b0, qn}) << Sft) : W'(carry_q);
      sum  = {2'b0, zc} + {2'b0, ysel} + {2'b0, msel} + {2'b0, cinw};

      carry_d = carry_q;
      yprev_d = yprev_q;
      mprev_d = mprev_q;
      valid_d = valid_i;
      first_d = first_q;
      last_d  = last_q;
      z_d     = z_q;
      zsign_d = 1'b0;
      tout_d  = tout_q;
      y_d     = y_q;
      m_d     = m_q;
      if (valid_i) begin
        carry_d = sum[W+1:W];
        yprev_d = y_i;
        mprev_d = m_i;
        first_d = first_i;
        last_d  = last_i;
        z_d     = sum[W-1:0];
        tout_d  = first_i ? q[1] : t_q;
        y_d     = y_i;
        m_d     = m_i;
      end
    end

    // The left-shifting stream carries no sign bit.
    logic unused_zsign;
    assign unused_zsign = zsign_i;
  end

  `MM_FF(qneg_q, qneg_d, 1'b0)
  `MM_FF(qzero_q, qzero_d, 1'b1)
  `MM_FF(qdbl_q, qdbl_d, 1'b0)
  `MM_FF(xneg_q, xneg_d, 1'b0)
  `MM_FF(xzero_q, xzero_d, 1'b1)
  `MM_FF(xdbl_q, xdbl_d, 1'b0)
  `MM_FF(t_q, t_d, 1'b0)
  `MM_FF(carry_q, carry_d, '0)
  `MM_FF(yprev_q, yprev_d, '0)
  `MM_FF(mprev_q, mprev_d, '0)
  `MM_FF(valid_q, valid_d, 1'b0)
  `MM_FF(first_q, first_d, 1'b0)
  `MM_FF(last_q, last_d, 1'b0)
  `MM_FF(z_q, z_d, '0)
  `MM_FF(zsign_q, zsign_d, 1'b0)
  `MM_FF(tout_q, tout_d, 1'b0)
  `MM_FF(y_q, y_d, '0)
  `MM_FF(m_q, m_d, '0)

  assign valid_o = valid_q;
  assign first_o = first_q;
  assign last_o  = last_q;
  assign z_o     = z_q;
  assign zsign_o = zsign_q;
  assign t_o     = tout_q;
  assign y_o     = y_q;
  assign m_o     = m_q;

endmodule
