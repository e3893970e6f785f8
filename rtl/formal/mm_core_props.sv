// SPDX-License-Identifier: Apache-2.0
//
// mm_core_props: the handshake rules of docs/interface.md as formal
// properties over the ports of one montmul core (or of mm_modexp), for
// SymbiYosys (montmul.flows.formal) and the Verilator benches.  It sees only
// the ports: the formal top that montmul.flows.formal generates instantiates
// it beside the core, and a Verilator bench build binds it to the core
// (montmul.flows.sim.runner.props_bind, Verilator --assert: an assume is
// checked like an assert, and a failure stops the simulation).  Never read by
// synthesis.
//
// Assumed of the environment (the requester's side of the rules):
//   - reset is asserted in the first cycle (rst_ni may drop again at any
//     later cycle: a reset in the middle of an operation);
//   - a request, once valid, stays valid with its payload stable until taken.
// Asserted of the core:
//   A1 nothing valid after reset: the cycle after a reset cycle has
//      out_valid_o low;
//   A2 the response is held: valid, data and error flag stable until taken;
//   A3 no response without a request: out_valid_o only while a request is
//      outstanding (accepted and its response not yet taken);
//   A4 at most Depth responses outstanding; with Depth = 1, in_ready_o is low
//      exactly while a request is outstanding (busy or result pending) and
//      high otherwise (the core is idle);
//   A5 err_o implies a zero result (on a presented response);
//   A6 (LatBound > 0) latency: the oldest outstanding request is answered
//      within LatBound edges of its accepting edge (docs/interface.md,
//      "Latency": a rejected request counts 0).
// The oldest outstanding request's payload is given out (head_req_o) so that
// the formal top can check the response's value against it.
module mm_core_props #(
  parameter int ReqWidth = 1,  // request payload bits (operands): >= 1
  parameter int RspWidth = 1,  // response data bits: >= 1
  parameter int Depth    = 1,  // responses outstanding at most: 1 .. 8
  parameter int LatBound = 0,  // worst-case latency in cycles; 0: not checked
  parameter int CntW     = 4,  // outstanding counter width: 2^CntW > Depth
  parameter int AgeW     = 8   // latency counter width: 2^AgeW > LatBound
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  input  logic                in_valid_i,
  input  logic                in_ready_i,
  input  logic [ReqWidth-1:0] req_i,
  input  logic                out_valid_i,
  input  logic                out_ready_i,
  input  logic [RspWidth-1:0] rsp_i,
  input  logic                err_i,
  output logic [CntW-1:0]     outstanding_o,  // requests accepted, responses not yet taken
  output logic [ReqWidth-1:0] head_req_o      // payload of the oldest outstanding request
);

  logic f_past_valid_q;  // a cycle has passed
  initial f_past_valid_q = 1'b0;
  always_ff @(posedge clk_i) f_past_valid_q <= 1'b1;

  // --- environment -------------------------------------------------------
  always_comb begin
    if (!f_past_valid_q) assume (!rst_ni);
  end

  always_ff @(posedge clk_i) begin
    if (f_past_valid_q && $past(rst_ni) && $past(in_valid_i && !in_ready_i)) begin
      assume (in_valid_i);
      assume (req_i == $past(req_i));
    end
  end

  // --- outstanding requests: a FIFO of payloads and ages -----------------
  // Reset synchronously: the formal flow (async2sync) samples the core's
  // asynchronous reset at the clock too, and every check below waits for
  // rst_ni high.
  logic accept, take;
  assign accept = in_valid_i && in_ready_i;
  assign take   = out_valid_i && out_ready_i;

  logic [CntW-1:0]     count_q;
  logic [ReqWidth-1:0] req_q [Depth];
  logic [AgeW-1:0]     age_q [Depth];
  logic [ReqWidth-1:0] req_d [Depth];
  logic [AgeW-1:0]     age_d [Depth];

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      count_q <= '0;
    end else begin
      count_q <= count_q + CntW'(accept) - CntW'(take);
    end
  end

  // Entry 0 is the oldest.  A take shifts the FIFO down by one; an accept
  // writes behind the last outstanding entry (after the shift), age 0.  An
  // age counts the edges since its accepting edge, saturating.
  always_comb begin
    for (int i = 0; i < Depth; i++) begin
      req_d[i] = req_q[i];
      age_d[i] = age_q[i];
      if (take && i + 1 < Depth) begin
        req_d[i] = req_q[i+1];
        age_d[i] = age_q[i+1];
      end
      if (age_d[i] != {AgeW{1'b1}}) age_d[i] = age_d[i] + 1'b1;
      if (accept && CntW'(i) == count_q - CntW'(take)) begin
        req_d[i] = req_i;
        age_d[i] = '0;
      end
    end
  end

  always_ff @(posedge clk_i) begin
    req_q <= req_d;
    age_q <= age_d;
  end

  assign outstanding_o = count_q;
  assign head_req_o    = req_q[0];

  // --- the core's side ---------------------------------------------------
  always_comb begin
    // A1 (during reset)
    if (!rst_ni) assert (!out_valid_i);
    if (f_past_valid_q && rst_ni) begin
      // A3, A4
      assert (count_q <= CntW'(Depth));
      if (out_valid_i) assert (count_q != '0);
      if (Depth == 1) assert (in_ready_i == (count_q == '0));
      // A5
      if (out_valid_i && err_i) assert (rsp_i == '0);
    end
  end

  // A6
  if (LatBound > 0) begin : gen_latency
    always_comb begin
      if (f_past_valid_q && rst_ni && count_q != '0 && !out_valid_i) begin
        assert (age_q[0] < AgeW'(LatBound));
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (f_past_valid_q && rst_ni) begin
      // A1
      if ($past(!rst_ni)) assert (!out_valid_i);
      // A2
      if ($past(rst_ni) && $past(out_valid_i && !out_ready_i)) begin
        assert (out_valid_i);
        assert (rsp_i == $past(rsp_i));
        assert (err_i == $past(err_i));
      end
    end
  end

endmodule
