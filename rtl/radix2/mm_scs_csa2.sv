// SPDX-License-Identifier: Apache-2.0
//
// mm_scs_csa2: the two-level CSA of the SCS-based Montgomery multipliers
// (paper 000, Fig. 2 step 4; the CSA of Fig. 3 and Fig. 4), shared by
// mm_scs1 and mm_scs2.
//
// Loop mode (loop_i = 1), one iteration of Fig. 2:
//   q_i = (SS_0 + SC_0 + A_i*B_0) mod 2                         (step 3)
//   row 1: (s1, c1) = SS + SC + A_i*B
//   row 2: (s,  c ) = s1 + 2*c1 + q_i*N                         (step 4)
// so s + 2*c = SS + SC + A_i*B + q_i*N, an even number whose half is the
// next carry-save pair; the caller applies the halving (s >> 1, c).
// Conversion mode (loop_i = 0): A_i*B and q_i*N are forced to zero, and both
// rows are half-adder rows: two serial two-input carry-save additions of
// (SS, SC), s + 2*c = SS + SC (SCS-MM-2's format conversion, Fig. 4).
// c_o bit j carries weight 2^(j+1), as in mm_csa_row.
`include "mm_macros.svh"

module mm_scs_csa2 #(
  parameter int Width = 8  // modulus width k, >= 2
) (
  input  logic             loop_i,  // 1: Montgomery iteration, 0: two half-adder steps
  input  logic             a_i,     // A_i, the current multiplier bit
  input  logic [Width+1:0] ss_i,    // SS (k+2 bits)
  input  logic [Width+1:0] sc_i,    // SC (k+2 bits)
  input  logic [Width:0]   b_i,     // B in [0, 2N)
  input  logic [Width-1:0] n_i,     // N, odd
  output logic [Width+2:0] s_o,     // second-row sums
  output logic [Width+2:0] c_o      // second-row carries, weight 2^(j+1)
);

  if (Width < 2) begin : gen_bad_width
    `MM_FATAL("mm_scs_csa2: Width must be >= 2")
  end

  logic             ai, qi;
  logic [Width+1:0] ab;      // A_i * B
  logic [Width+2:0] qn;      // q_i * N
  logic [Width+1:0] s1, c1;  // first-row outputs (c1 bit j: weight 2^(j+1))

  always_comb begin
    ai = loop_i & a_i;
    qi = loop_i & (ss_i[0] ^ sc_i[0] ^ (ai & b_i[0]));
    ab = ai ? {1'b0, b_i} : '0;
    qn = qi ? {3'b000, n_i} : '0;
  end

  // Row 1 is k+2 cells: SS, SC < 2^(k+2) and B < 2^(k+1).
  mm_csa_row #(.Width(Width + 2)) u_row1 (
    .x_i   (ss_i),
    .y_i   (sc_i),
    .z_i   (ab),
    .s_o   (s1),
    .cout_o(c1)
  );

  // Row 2 is k+3 cells: its inputs s1 and 2*c1 reach bit k+2.
  mm_csa_row #(.Width(Width + 3)) u_row2 (
    .x_i   ({1'b0, s1}),
    .y_i   ({c1, 1'b0}),
    .z_i   (qn),
    .s_o   (s_o),
    .cout_o(c_o)
  );

endmodule
