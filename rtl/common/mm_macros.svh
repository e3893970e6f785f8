// SPDX-License-Identifier: Apache-2.0
//
// Shared macros.  MM_FATAL stops a build with an illegal parameter: an
// elaboration-time $fatal in a generate block where the tool supports it
// (Verilator, Yosys), and a time-zero $fatal under Icarus Verilog 11, which
// has no elaboration-time system tasks.
`ifndef MM_MACROS_SVH
`define MM_MACROS_SVH
`ifdef __ICARUS__
`define MM_FATAL(msg) initial $fatal(1, msg);
`else
`define MM_FATAL(msg) $fatal(1, msg);
`endif  // __ICARUS__
// MM_FF(q, d, rst): the flip-flop q with next value d, reset to rst by the
// module's asynchronous active-low rst_ni, clocked by its clk_i (OpenTitan's
// FF macros do the same): a register's always_ff holds only its reset value
// and `q <= d`, so a module lists its registers one line each.
`define MM_FF(q, d, rst) \
  always_ff @(posedge clk_i or negedge rst_ni) begin \
    if (!rst_ni) begin \
      q <= rst; \
    end else begin \
      q <= d; \
    end \
  end

// MM_CORE_PORTS: the ports of the common core interface (docs/interface.md),
// after `clk_i`/`rst_ni` the request (in_valid_i, in_ready_o, a_i, b_i in
// [0, 2N), odd n_i with 3 <= N < 2^Width) and the response (out_valid_o,
// out_ready_i, s_o in [0, 2N), err_o: request rejected, s_o is 0), on the
// module's parameter Width.  A core's port list is this macro alone.
`define MM_CORE_PORTS \
  input  logic             clk_i, \
  input  logic             rst_ni, \
  input  logic             in_valid_i, \
  output logic             in_ready_o, \
  input  logic [Width:0]   a_i, \
  input  logic [Width:0]   b_i, \
  input  logic [Width-1:0] n_i, \
  output logic             out_valid_o, \
  input  logic             out_ready_i, \
  output logic [Width:0]   s_o, \
  output logic             err_o

// MM_REQ_CTRL: the shared request/response shell mm_req_ctrl as instance
// `inst` on the core's own ports (MM_CORE_PORTS) and parameters (Width,
// CheckRange, CheckMod; operands Width+1 bits in [0, 2N)), with the
// datapath's side: accept_o, start_o, busy_o to the signals named, done_i
// and res_i from them.
`define MM_REQ_CTRL(inst, accept, start, busy, done, res) \
  mm_req_ctrl #( \
    .Width     (Width), \
    .OpWidth   (Width + 1), \
    .InBound   (2), \
    .CheckRange(CheckRange), \
    .CheckMod  (CheckMod) \
  ) inst ( \
    .clk_i      (clk_i), \
    .rst_ni     (rst_ni), \
    .in_valid_i (in_valid_i), \
    .in_ready_o (in_ready_o), \
    .a_i        (a_i), \
    .b_i        (b_i), \
    .n_i        (n_i), \
    .out_valid_o(out_valid_o), \
    .out_ready_i(out_ready_i), \
    .s_o        (s_o), \
    .err_o      (err_o), \
    .accept_o   (accept), \
    .start_o    (start), \
    .busy_o     (busy), \
    .done_i     (done), \
    .res_i      (res) \
  );

// MM_IN_CHECK: the request check mm_in_check (instance u_in_check) of a core
// that keeps its own handshake, on the core's ports and parameters as
// MM_REQ_CTRL; `err` is high for a request to reject.
`define MM_IN_CHECK(err) \
  mm_in_check #( \
    .Width     (Width), \
    .OpWidth   (Width + 1), \
    .InBound   (2), \
    .CheckRange(CheckRange), \
    .CheckMod  (CheckMod) \
  ) u_in_check ( \
    .a_i  (a_i), \
    .b_i  (b_i), \
    .n_i  (n_i), \
    .err_o(err) \
  );
`endif  // MM_MACROS_SVH
