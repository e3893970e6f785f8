// SPDX-License-Identifier: Apache-2.0
//
// mm_req_pipe: the request/response shell for a core that keeps up to Depth
// products in flight (docs/interface.md, "several products in flight").  It
// is mm_req_ctrl's counterpart for pipelined or interleaved datapaths:
//   - requests are checked by mm_in_check on the request path, exactly as in
//     mm_req_ctrl (even or small modulus, operands >= InBound*N);
//   - every accepted request, legal or not, takes the next entry of a
//     reorder buffer of Depth entries, so responses leave in request order;
//   - in_ready_o is high while the buffer has a free entry and the datapath
//     can take a product at this edge (slot_free_i); it does not depend on
//     in_valid_i;
//   - a legal request raises start_o with its buffer index tag_o: the
//     datapath loads it at this edge and later returns its result with
//     done_i / done_tag_i / res_i at the edge that completes it;
//   - a rejected request fills its entry at the accepting edge (err_o = 1,
//     s_o = 0): with nothing older outstanding it is answered at once
//     (latency 0), otherwise right after the older responses;
//   - the oldest entry is presented (out_valid_o, s_o, err_o) once filled and
//     held until out_ready_i.
// With Depth = 1 it behaves exactly as mm_req_ctrl.
`include "mm_macros.svh"

module mm_req_pipe #(
  parameter int Width      = 8,  // modulus width k: >= 2
  parameter int OpWidth    = 9,  // operand and result width: >= Width
  parameter int InBound    = 2,  // operands must be below InBound*N: 1 or 2
  parameter bit CheckRange = 1,  // 1: reject operands >= InBound*N
  parameter bit CheckMod   = 1,  // 1: reject an even N or N < 3
  parameter int Depth      = 2,  // responses outstanding at most: 1 .. 16
  parameter int TagW       = 1   // buffer index width: >= 1 and 2^TagW >= Depth
) (
  input  logic               clk_i,
  input  logic               rst_ni,
  // request (ports of the core)
  input  logic               in_valid_i,
  output logic               in_ready_o,
  input  logic [OpWidth-1:0] a_i,
  input  logic [OpWidth-1:0] b_i,
  input  logic [Width-1:0]   n_i,
  // response (ports of the core)
  output logic               out_valid_o,
  input  logic               out_ready_i,
  output logic [OpWidth-1:0] s_o,
  output logic               err_o,
  // to and from the datapath
  input  logic               slot_free_i,  // the datapath can load a product at this edge
  output logic               accept_o,     // a request (legal or not) is taken at this edge
  output logic               start_o,      // a legal request is taken at this edge: load it
  output logic [TagW-1:0]    tag_o,        // its buffer index, to be returned with its result
  input  logic               done_i,       // a product completes at this edge ...
  input  logic [TagW-1:0]    done_tag_i,   // ... the one loaded with this tag ...
  input  logic [OpWidth-1:0] res_i         // ... with this result
`ifdef MM_FORMAL
  ,
  // for the formal flow only (docs/formal.md): the responses outstanding,
  // and the entries outstanding but not yet filled (the products the
  // datapath owes), so that the core can tie its datapath to the buffer
  output logic [$clog2(Depth + 1)-1:0] f_count_o,
  output logic [Depth-1:0]   f_pending_o
`endif
);

  if (OpWidth < Width) begin : gen_bad_width
    `MM_FATAL("mm_req_pipe: OpWidth must be >= Width")
  end
  if (Depth < 1 || Depth > 16 || TagW < 1 || (1 << TagW) < Depth) begin : gen_bad_depth
    `MM_FATAL("mm_req_pipe: need 1 <= Depth <= 16 and 2^TagW >= Depth")
  end

  localparam int CntW = $clog2(Depth + 1);

  logic [Depth-1:0]         filled_q, filled_d;  // entry holds its response
  logic [Depth-1:0]         err_q, err_d;
  logic [Depth*OpWidth-1:0] res_q, res_d;
  logic [TagW-1:0]          head_q, head_d, tail_q, tail_d;
  logic [CntW-1:0]          count_q, count_d;
  logic                     req_err, take;

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

  // buffer indices advance modulo Depth
  logic [TagW-1:0] head_inc, tail_inc;
  assign head_inc = (head_q == TagW'(Depth - 1)) ? '0 : head_q + 1'b1;
  assign tail_inc = (tail_q == TagW'(Depth - 1)) ? '0 : tail_q + 1'b1;

  assign in_ready_o  = (count_q < CntW'(Depth)) && slot_free_i;
  assign accept_o    = in_valid_i && in_ready_o;
  assign start_o     = accept_o && !req_err;
  assign tag_o       = tail_q;
  assign out_valid_o = filled_q[head_q];
  assign err_o       = err_q[head_q];
  assign s_o         = err_q[head_q] ? '0 : res_q[head_q*OpWidth +: OpWidth];
  assign take        = out_valid_o && out_ready_i;

  always_comb begin
    filled_d = filled_q;
    err_d    = err_q;
    res_d    = res_q;
    head_d   = head_q;
    tail_d   = tail_q;
    count_d  = count_q;
    if (take) begin
      filled_d[head_q] = 1'b0;
      head_d           = head_inc;
    end
    if (accept_o) begin
      filled_d[tail_q]                    = req_err;
      err_d[tail_q]                       = req_err;
      res_d[tail_q*OpWidth +: OpWidth]    = '0;
      tail_d                              = tail_inc;
    end
    if (done_i) begin
      filled_d[done_tag_i]                 = 1'b1;
      res_d[done_tag_i*OpWidth +: OpWidth] = res_i;
    end
    count_d = count_q + CntW'(accept_o) - CntW'(take);
  end

  `MM_FF(filled_q, filled_d, '0)
  `MM_FF(err_q, err_d, '0)
  `MM_FF(res_q, res_d, (Depth * OpWidth)'(0))
  `MM_FF(head_q, head_d, '0)
  `MM_FF(tail_q, tail_d, '0)
  `MM_FF(count_q, count_d, '0)

`ifdef MM_FORMAL
  assign f_count_o = count_q;
  always_comb begin
    for (int i = 0; i < Depth; i++) begin
      f_pending_o[i] = ((i + Depth - 32'(head_q)) % Depth < 32'(count_q)) && !filled_q[i];
    end
  end

  // Invariants for the formal flow (docs/formal.md): the indices stay in
  // the buffer, the tail is count entries after the head, and only entries
  // in that window (the outstanding requests) may hold a response; an
  // outstanding rejected request holds its response from the start (err_q
  // of an entry outside the window is stale and never read).
  always_comb begin
    if (rst_ni) begin
      assert (count_q <= CntW'(Depth));
      assert (32'(head_q) < Depth);
      assert (32'(tail_q) < Depth);
      assert ((32'(head_q) + 32'(count_q)) % Depth == 32'(tail_q));
      for (int i = 0; i < Depth; i++) begin
        if ((i + Depth - 32'(head_q)) % Depth >= 32'(count_q)) begin
          assert (!filled_q[i]);
        end else if (err_q[i]) begin
          assert (filled_q[i]);
        end
      end
    end
  end
`endif  // MM_FORMAL

endmodule
