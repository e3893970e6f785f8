// SPDX-License-Identifier: Apache-2.0
//
// mm_brfa: the barrel-register full adder (BRFA) of the full-carry-save
// Montgomery multipliers FCS-MM-1 and FCS-MM-2 (paper 000, Sec. II-C, Fig. 6;
// McIvor et al.).  It turns the carry-save multiplier A = AS + AC into its
// binary bits A_0, A_1, ..., one per cycle, least significant first: two shift
// registers hold the bits of AS and AC not yet added, one full adder adds
// their low bits and the carry flip-flop, and the carry goes back to the
// flip-flop.
//
// a_o is registered: the full adder works one bit ahead, so in iteration i
// the CSA tree reads A_i straight from a flip-flop and the full adder is not
// in series with it.  For that the full adder also adds bit 0 of the request
// (carry-in 0) in the loading cycle, so A_0 is ready right after load_i.
//   load_i:  a_o <= AS_0 ^ AC_0,  carry <= AS_0 & AC_0,  registers <= AS, AC >> 1
//   shift_i: a_o <= next bit of AS + AC (A_(i+1)), registers >> 1
// After Width shifts the registers are empty and a_o is the carry out of the
// top bit, bit Width of AS + AC; then 0.
`include "mm_macros.svh"

module mm_brfa #(
  parameter int Width = 8  // width of AS and AC: 1 .. 8193
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             load_i,   // take AS, AC; a_o <= A_0 (priority over shift_i)
  input  logic             shift_i,  // a_o <= the next bit of AS + AC
  input  logic [Width-1:0] as_i,
  input  logic [Width-1:0] ac_i,
  output logic             a_o       // A_i, the bit of the current iteration
);

  if (Width < 1 || Width > 8193) begin : gen_bad_width
    `MM_FATAL("mm_brfa: Width must be in [1, 8193]")
  end

  logic [Width-1:0] as_q, as_d;  // AS >> (bits already added)
  logic [Width-1:0] ac_q, ac_d;  // AC >> (bits already added)
  logic             cy_q, cy_d;  // carry into the next bit
  logic             a_q, a_d;
  logic             fa_x, fa_y, fa_ci;

  always_comb begin
    as_d = as_q;
    ac_d = ac_q;
    cy_d = cy_q;
    a_d  = a_q;
    // The full adder: bit 0 of the request while loading, else the low bits
    // of the shift registers and the carry flip-flop.
    fa_x  = load_i ? as_i[0] : as_q[0];
    fa_y  = load_i ? ac_i[0] : ac_q[0];
    fa_ci = load_i ? 1'b0    : cy_q;
    if (load_i) begin
      as_d = as_i >> 1;
      ac_d = ac_i >> 1;
    end else if (shift_i) begin
      as_d = as_q >> 1;
      ac_d = ac_q >> 1;
    end
    if (load_i || shift_i) begin
      a_d  = fa_x ^ fa_y ^ fa_ci;
      cy_d = (fa_x & fa_y) | (fa_x & fa_ci) | (fa_y & fa_ci);
    end
  end

  `MM_FF(as_q, as_d, '0)
  `MM_FF(ac_q, ac_d, '0)
  `MM_FF(cy_q, cy_d, 1'b0)
  `MM_FF(a_q, a_d, 1'b0)

  assign a_o = a_q;

endmodule
