// SPDX-License-Identifier: Apache-2.0
//
// mm_skip_d: the skip detector Skip_D of SCS-MM-New (paper 000, Fig. 12),
// generalised so that it is correct for every odd modulus (docs/radix2.md,
// correction 2).
//
// In iteration i it sees only the three low bits of the CSA inputs SS[i],
// SC[i], the registered quotient q^ = q_i and bits 1, 2 of N^ = N + 1, and
// produces q_(i+1), q_(i+2) and skip_(i+1) (eqs. (5), (7), (8)):
//   x_1 = q^ & N^_1, x_2 = q^ & N^_2          (B^ = 8B, so x_(2:0) = N^_(2:0) or 0)
//   d1  = SS_1 ^ SC_1 ^ x_1                   (= SS[i+1]_0)
//   d0  = SS_0 & SC_0                         (= SC[i+1]_0, since x_0 = 0)
//   q_(i+1) = d1 ^ d0
//   q_(i+2) = SS_2 ^ SC_2 ^ x_2 ^ maj(SS_1, SC_1, x_1)
//   skip_(i+1) = ~(A_(i+1) | d1 | d0) & ~last
// With N = 3 mod 4, N^_1 = 0 and these are exactly the printed equations.
// Then (q^, A^) for the next cycle is (q_(i+2), A_(i+2)) on a skip and
// (q_(i+1), A_(i+1)) otherwise.
`include "mm_macros.svh"

module mm_skip_d (
  input  logic [2:0] ss_i,      // SS[i]_(2:0)
  input  logic [2:0] sc_i,      // SC[i]_(2:0)
  input  logic       q_i,       // q^ used in iteration i
  input  logic [2:1] nh_i,      // N^_(2:1)
  input  logic       a1_i,      // A_(i+1)
  input  logic       a2_i,      // A_(i+2)
  input  logic       last_i,    // iteration i is the last one: never skip
  input  logic       enable_i,  // 0: skipping disabled (constant-time mode)
  output logic       skip_o,    // skip_(i+1)
  output logic       q_o,       // next q^
  output logic       a_o        // next A^
);

  logic x1, x2, d1, d0, q1, q2;

  always_comb begin
    x1 = q_i & nh_i[1];
    x2 = q_i & nh_i[2];
    d1 = ss_i[1] ^ sc_i[1] ^ x1;
    d0 = ss_i[0] & sc_i[0];
    q1 = d1 ^ d0;
    q2 = ss_i[2] ^ sc_i[2] ^ x2 ^ ((ss_i[1] & sc_i[1]) | (ss_i[1] & x1) | (sc_i[1] & x1));
    skip_o = enable_i & ~last_i & ~(a1_i | d1 | d0);
    q_o = skip_o ? q2 : q1;
    a_o = skip_o ? a2_i : a1_i;
  end

endmodule
