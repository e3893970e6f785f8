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
// How (a carry-select adder over segments): the operands are cut into
// NumSegs = ceil(Width / SegWidth) segments of at most SegWidth bits.  Each
// segment j has two SegWidth-bit adders side by side: sum0_j = a_j + b_j and
// sum1_j = a_j + b_j + 1, with carry outs g_j (the segment generates a carry)
// and t_j (it generates or propagates one; g_j implies t_j).  The carry into
// segment j+1 is c_{j+1} = g_j | (t_j & c_j); these NumSegs carries come
// from a parallel prefix (Kogge-Stone) over the (g, t) pairs, log2(NumSegs)
// levels of two-input AND-OR, and segment j's sum is c_j ? sum1_j : sum0_j.
// The longest path is one SegWidth-bit chain, the prefix, the carry-in
// merge and one multiplexer, whatever the Width.  Segment adders write `+`
// so every tool maps them to its own carry logic.
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
    logic [NumSegs-1:0] carry;     // carry into segment j
    logic [NumSegs-1:0] gen, tra;  // carry out of segment j with carry in 0 / 1

    // Segment carries: carry[j+1] = gen[j] | (tra[j] & carry[j]), by a
    // parallel prefix (Kogge-Stone) over (gen, tra): level l combines node j
    // with node j - 2^l.  After the last level, g[j] / t[j] say whether
    // segments 0..j together generate / transmit a carry.  A function with
    // loops (unrolled by synthesis into log2(NumSegs) levels): as generate
    // blocks Icarus took minutes to elaborate 257 segments, and as an
    // always_comb with local variables Icarus 11 re-triggers the block on its
    // own locals forever.
    localparam int Levels = $clog2(NumSegs);

    function automatic logic [NumSegs:0] seg_carries(input logic [NumSegs-1:0] gen_in,
                                                     input logic [NumSegs-1:0] tra_in,
                                                     input logic             ci);
      logic [NumSegs-1:0] g, t, g_nxt, t_nxt;
      logic [NumSegs:0]   c;
      g = gen_in;
      t = tra_in;
      for (int l = 0; l < Levels; l++) begin
        g_nxt = g;
        t_nxt = t;
        for (int j = 0; j < NumSegs; j++) begin
          if (j >= (1 << l)) begin
            g_nxt[j] = g[j] | (t[j] & g[j-(1<<l)]);
            t_nxt[j] = t[j] & t[j-(1<<l)];
          end
        end
        g = g_nxt;
        t = t_nxt;
      end
      c[0] = ci;
      for (int j = 1; j <= NumSegs; j++) begin
        c[j] = g[j-1] | (t[j-1] & ci);
      end
      seg_carries = c;
    endfunction

    assign {co_o, carry} = seg_carries(gen, tra, ci_i);

    for (genvar j = 0; j < NumSegs; j++) begin : gen_seg
      localparam int Lo = j * SegWidth;
      localparam int W  = (Width - Lo < SegWidth) ? Width - Lo : SegWidth;
      logic [W-1:0] a_seg, b_seg, sum0, sum1;

      assign a_seg = a_i[Lo+:W];
      assign b_seg = b_i[Lo+:W];
      assign {gen[j], sum0} = {1'b0, a_seg} + {1'b0, b_seg};
      assign {tra[j], sum1} = {1'b0, a_seg} + {1'b0, b_seg} + {{W{1'b0}}, 1'b1};
      assign s_o[Lo+:W] = carry[j] ? sum1 : sum0;
    end
  end

endmodule
