// SPDX-License-Identifier: Apache-2.0
//
// mm_core_regs: a core between registers, for timing only (docs/synthesis.md,
// "A core's Fmax and its ports").  nextpnr out of context times no path from
// or to a top-level port, so a core synthesized alone is timed without the
// paths that start at its request inputs (in_valid_i into its accept logic,
// the operands into its registers) or end at its outputs.  Here every input
// but the clock and reset passes a register before the core and every output
// one after it, so those paths are timed as in any design that drives the
// core from registers (mm_modexp does).  Not a functional wrapper: each
// handshake signal is one cycle late, without flow control.
//
// The core is mm_modexp_core, the generated wrapper of the registered core
// (montmul.engine.core_wrapper), as in the engines.
`include "mm_macros.svh"

module mm_core_regs #(
  parameter int Width = 32  // modulus width k
) (
  // the common core interface (docs/interface.md), as the core's
  `MM_CORE_PORTS
);

  logic             in_valid_q, out_ready_q, in_ready_q, out_valid_q, err_q;
  logic             in_ready, out_valid, err;
  logic [Width:0]   a_q, b_q, s_q, s;
  logic [Width-1:0] n_q;

  mm_modexp_core #(
    .Width(Width)
  ) u_core (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .in_valid_i (in_valid_q),
    .in_ready_o (in_ready),
    .a_i        (a_q),
    .b_i        (b_q),
    .n_i        (n_q),
    .out_valid_o(out_valid),
    .out_ready_i(out_ready_q),
    .s_o        (s),
    .err_o      (err)
  );

  `MM_FF(in_valid_q, in_valid_i, 1'b0)
  `MM_FF(out_ready_q, out_ready_i, 1'b0)
  `MM_FF(in_ready_q, in_ready, 1'b0)
  `MM_FF(out_valid_q, out_valid, 1'b0)
  `MM_FF(err_q, err, 1'b0)

  always_ff @(posedge clk_i) begin
    a_q <= a_i;
    b_q <= b_i;
    n_q <= n_i;
    s_q <= s;
  end

  assign in_ready_o  = in_ready_q;
  assign out_valid_o = out_valid_q;
  assign s_o         = s_q;
  assign err_o       = err_q;

endmodule
