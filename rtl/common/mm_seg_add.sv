// SPDX-License-Identifier: Apache-2.0
//
// mm_seg_add: s = a + b + ci with no carry chain longer than SegWidth bits.
// The shared building block for every wide addition, subtraction, increment
// and comparison in montmul's RTL (a - b = a + ~b + 1; a < b is the missing
// carry out of a + ~b + 1; N + 1 is n + 0 + 1).
//
// Why: a single Width-bit `+` maps to one FPGA carry chain of Width bits
// (ECP5: Width/2 CCU2C cells in a row).  Chains past about 900 bits crash the
// WebAssembly nextpnr-ecp5, and every bit of chain is delay on the clock.
//
// How (a conditional-sum adder over segments): the operands are cut into
// NumSegs = ceil(Width / SegWidth) segments of at most SegWidth bits.  Each
// segment j has two SegWidth-bit adders: g_j, the carry out of a_j + b_j
// (carry in 0), and the sum a_j + b_j + c_j.  A segment propagates when every
// bit of a_j ^ b_j is 1 (p_j, a reduction tree), and the segment carries
// c_{j+1} = g_j | (p_j & c_j) ripple through NumSegs two-input AND-OR steps
// in LUTs (a handful: 8 at 2048 bits with 256-bit segments).  The longest
// path is one SegWidth chain (g), the segment carries, and one SegWidth chain
// (the sum): about 2 * SegWidth bits of carry instead of Width.  Segment
// adders write `+` so every tool maps them to its own carry logic.
//
// Purely combinational; for Width <= SegWidth it is a plain adder.
`include "mm_macros.svh"

module mm_seg_add #(
  parameter int Width    = 8,    // operand width, >= 1
  parameter int SegWidth = 256   // longest carry chain, >= 1
) (
  input  logic [Width-1:0] a_i,
  input  logic [Width-1:0] b_i,
  input  logic             ci_i,
  output logic [Width-1:0] s_o,
  output logic             co_o
);

  if (Width < 1 || SegWidth < 1) begin : gen_bad_width
    `MM_FATAL("mm_seg_add: need Width >= 1 and SegWidth >= 1")
  end

  localparam int NumSegs = (Width + SegWidth - 1) / SegWidth;

  if (NumSegs <= 1) begin : gen_one
    assign {co_o, s_o} = {1'b0, a_i} + {1'b0, b_i} + {{Width{1'b0}}, ci_i};
  end else begin : gen_segs
    logic [NumSegs-1:0] carry;  // carry into segment j
    logic [NumSegs-1:0] gen, prop;

    // Segment carries: carry[j+1] = gen[j] | (prop[j] & carry[j]).
    always_comb begin
      logic c;
      c = ci_i;
      for (int j = 0; j < NumSegs; j++) begin
        carry[j] = c;
        c = gen[j] | (prop[j] & c);
      end
      co_o = c;
    end

    for (genvar j = 0; j < NumSegs; j++) begin : gen_seg
      localparam int Lo = j * SegWidth;
      localparam int W  = (Width - Lo < SegWidth) ? Width - Lo : SegWidth;
      logic [W-1:0] a_seg, b_seg;
      logic [W-1:0] sum0_unused;  // only the carry out of a_seg + b_seg is used
      logic         co_unused;    // the sum's carry out: carry[j+1] is built from gen/prop

      assign a_seg = a_i[Lo+:W];
      assign b_seg = b_i[Lo+:W];
      // Segment generate: the carry out of the segment with carry in 0.
      assign {gen[j], sum0_unused} = {1'b0, a_seg} + {1'b0, b_seg};
      assign prop[j] = &(a_seg ^ b_seg);
      assign {co_unused, s_o[Lo+:W]} = {1'b0, a_seg} + {1'b0, b_seg} + {{W{1'b0}}, carry[j]};
    end
  end

endmodule
