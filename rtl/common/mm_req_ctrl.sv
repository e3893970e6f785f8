// SPDX-License-Identifier: Apache-2.0
//
// mm_req_ctrl: the request/response shell shared by every one-product-at-a-
// time core (docs/interface.md).  It owns the handshake and the error path so
// that a core adds only its datapath:
//   - in_ready_o is high exactly while idle; a request is accepted at an edge
//     with in_valid_i && in_ready_o (accept_o, combinational, for that cycle);
//   - the request is checked by mm_in_check on the request path (even or small
//     modulus, operands outside [0, InBound*N) when CheckRange = 1);
//   - a legal request raises start_o in its accepting cycle and the shell
//     stays busy until the datapath raises done_i: the edge of a busy cycle
//     with done_i high is the last edge of the latency, after which
//     out_valid_o is high;
//   - the datapath loads its operand registers on accept_o (or start_o):
//     accept_o does not wait for the checker's comparators, so they stay off
//     the load enables of the wide registers; after a rejected request the
//     loaded values are never used (busy_o stays low and s_o is masked);
//   - a rejected request is answered at the accepting edge itself (latency 0)
//     with err_o = 1, and s_o = 0;
//   - the response (out_valid_o, s_o, err_o) is held until out_ready_i; only
//     then does the shell return to idle.
// The result register belongs to the datapath (res_i); the shell only masks it
// with the error flag, so every core answers s_o = 0 on a rejected request.
// ResWidth lets a core whose result is not one operand-wide word (the
// carry-save pair {SS, SC} of mm_fcs1/mm_fcs2) pass its whole result through
// the mask; it defaults to OpWidth.
`include "mm_macros.svh"

module mm_req_ctrl #(
  parameter int Width      = 8,        // modulus width k: >= 2
  parameter int OpWidth    = 9,        // operand width: >= Width
  parameter int InBound    = 2,        // operands must be below InBound*N: 1 or 2
  parameter bit CheckRange = 1,        // 1: reject operands >= InBound*N
  parameter bit CheckMod   = 1,        // 1: reject an even N or N < 3
  parameter int ResWidth   = OpWidth   // result width (s_o, res_i): >= 1
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  // request (ports of the core)
  input  logic                in_valid_i,
  output logic                in_ready_o,
  input  logic [OpWidth-1:0]  a_i,
  input  logic [OpWidth-1:0]  b_i,
  input  logic [Width-1:0]    n_i,
  // response (ports of the core)
  output logic                out_valid_o,
  input  logic                out_ready_i,
  output logic [ResWidth-1:0] s_o,
  output logic                err_o,
  // to and from the datapath
  output logic                accept_o,  // a request (legal or not) is taken at this edge
  output logic                start_o,   // a legal request is taken at this edge
  output logic                busy_o,    // between start and done
  input  logic                done_i,    // (while busy) the result is complete at this edge
  input  logic [ResWidth-1:0] res_i      // the datapath's result register
);

  if (OpWidth < Width) begin : gen_bad_width
    `MM_FATAL("mm_req_ctrl: OpWidth must be >= Width")
  end
  if (ResWidth < 1) begin : gen_bad_res_width
    `MM_FATAL("mm_req_ctrl: ResWidth must be >= 1")
  end

  // The three states are three flip-flops, one-hot by construction (idle_q,
  // busy_q, done_q), and the checker's verdict goes only into the D inputs
  // of busy_q, done_q and err_q, one multiplexer behind the checker: inside
  // mm_modexp the modulus comes from a register, and an encoded state with
  // the verdict in its next-state logic was that engine's critical path
  // (docs/synthesis.md).
  logic   idle_q, idle_d;
  logic   busy_q, busy_d;
  logic   done_q, done_d;
  logic   err_q, err_d;
  logic   req_err;

  mm_in_check #(
    .Width     (Width),
    .OpWidth   (OpWidth),
    .InBound   (InBound),
    .CheckRange(CheckRange),
    .CheckMod  (CheckMod)
  ) u_in_check (
    .a_i  (a_i),
    .b_i  (b_i),
    .n_i  (n_i),
    .err_o(req_err)
  );

  always_comb begin
    accept_o = in_valid_i & idle_q;
    start_o  = accept_o & ~req_err;
    if (accept_o) begin
      // a legal request runs; a rejected one is answered at once
      idle_d = 1'b0;
      busy_d = ~req_err;
      done_d = req_err;
      err_d  = req_err;
    end else begin
      idle_d = idle_q | (done_q & out_ready_i);
      busy_d = busy_q & ~done_i;
      done_d = (done_q & ~out_ready_i) | (busy_q & done_i);
      err_d  = err_q;
    end
  end

  `MM_FF(idle_q, idle_d, 1'b1)
  `MM_FF(busy_q, busy_d, 1'b0)
  `MM_FF(done_q, done_d, 1'b0)
  `MM_FF(err_q, err_d, 1'b0)

  assign in_ready_o  = idle_q;
  assign busy_o      = busy_q;
  assign out_valid_o = done_q;
  assign err_o       = err_q;
  // ResWidth'(0), not '0: a carry-save pair at Width 8192 is 16386 bits, a
  // '0 that wide counts as a suspect replication in the lint.
  assign s_o         = err_q ? ResWidth'(0) : res_i;

`ifdef MM_FORMAL
  // Invariants for the formal flow (docs/formal.md): the state flip-flops
  // are one-hot, and a request that was rejected never runs.
  always_comb begin
    if (rst_ni) begin
      assert ({idle_q, busy_q, done_q} == 3'b100 || {idle_q, busy_q, done_q} == 3'b010
              || {idle_q, busy_q, done_q} == 3'b001);
      if (busy_q) assert (!err_q);
    end
  end
`endif  // MM_FORMAL

endmodule
