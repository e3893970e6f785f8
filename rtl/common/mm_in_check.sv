// SPDX-License-Identifier: Apache-2.0
//
// mm_in_check: the request checker shared by every core.  Flags a request
// that the core must reject with its error flag:
//   - (CheckMod = 1) an even modulus, or a modulus below 3;
//   - (CheckRange = 1) an operand outside [0, InBound * N).
// It sits on the request path (input ports to the error register), in the
// cycle that accepts the request: inside the core it adds no register-to-
// register path, but from a host's request registers it is a timed path,
// so its comparators are short (32-bit segments).  CheckRange = 0 removes the two
// comparators when the host already guarantees the range, CheckMod = 0 the
// modulus check (an OR over all of N's bits) when the host guarantees a legal
// N: mm_modexp checks both at its own request, and inside it the modulus
// comes from a register, so the check would be a timed path there.
`include "mm_macros.svh"

module mm_in_check #(
  parameter int Width      = 8,  // modulus width k, >= 2
  parameter int OpWidth    = 9,  // operand width, >= Width
  parameter int InBound    = 2,  // operands must be below InBound*N: 1 or 2
  parameter bit          CheckRange = 1,  // 1: compare the operands with InBound*N
  parameter bit          CheckMod   = 1   // 1: reject an even N or N < 3
) (
  input  logic [OpWidth-1:0] a_i,
  input  logic [OpWidth-1:0] b_i,
  input  logic [Width-1:0]   n_i,
  output logic               err_o
);

  if (Width < 2 || OpWidth < Width) begin : gen_bad_width
    `MM_FATAL("mm_in_check: need Width >= 2 and OpWidth >= Width")
  end
  if (InBound != 1 && InBound != 2) begin : gen_bad_bound
    `MM_FATAL("mm_in_check: InBound must be 1 or 2")
  end

  logic [OpWidth:0] bound;  // InBound * N, one bit wider than an operand
  logic             bad_n, a_lt, b_lt;

  assign bound = (InBound == 2) ? {{(OpWidth - Width){1'b0}}, n_i, 1'b0}
                                : {{(OpWidth - Width + 1){1'b0}}, n_i};

  // x < bound is the borrow of x - bound = x + ~bound + 1: a segmented adder
  // (mm_seg_add) in 32-bit segments, so the comparison is one 32-bit carry
  // chain and a parallel prefix over the segments at any width.  It is on a
  // timed path wherever the request comes from registers (docs/synthesis.md,
  // "A core's Fmax and its ports"): with 256-bit segments one segment's
  // chain alone was 129 CCU2C on ECP5.
  localparam int CmpSeg = 32;
  if (CheckRange) begin : gen_range
    logic a_co, b_co;
    logic [OpWidth:0] a_diff_unused, b_diff_unused;
    mm_seg_add #(.Width(OpWidth + 1), .SegWidth(CmpSeg)) u_cmp_a (
      .a_i({1'b0, a_i}), .b_i(~bound), .ci_i(1'b1), .s_o(a_diff_unused), .co_o(a_co)
    );
    mm_seg_add #(.Width(OpWidth + 1), .SegWidth(CmpSeg)) u_cmp_b (
      .a_i({1'b0, b_i}), .b_i(~bound), .ci_i(1'b1), .s_o(b_diff_unused), .co_o(b_co)
    );
    assign a_lt = ~a_co;
    assign b_lt = ~b_co;
  end else begin : gen_no_range
    logic unused_ops;  // the operands are not compared
    assign unused_ops = ^{a_i, b_i, bound};
    assign a_lt = 1'b1;
    assign b_lt = 1'b1;
  end

  if (CheckMod) begin : gen_mod
    assign bad_n = ~n_i[0] | ~|n_i[Width-1:1];  // even, or N = 1
  end else begin : gen_no_mod
    assign bad_n = 1'b0;  // the host guarantees an odd N >= 3
  end
  assign err_o = bad_n | ~a_lt | ~b_lt;

endmodule
