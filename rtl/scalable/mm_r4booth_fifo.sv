// SPDX-License-Identifier: Apache-2.0
//
// mm_r4booth_fifo: the kernel FIFO of paper 002 (Fig. 3): it holds the last
// PE's words until the first PE is free.  Latency b = Latency: a word presented
// at wdata_i in cycle t (wvalid_i) can be read at rdata_o in cycle t + b at the
// earliest: b - 1 register stages, then a register-file queue whose head is
// read combinationally.  The caller never writes a full queue (the kernel
// reads one word per cycle once it has started a pass, Depth >= e).
`include "mm_macros.svh"

module mm_r4booth_fifo #(
  parameter int DataWidth = 8,  // bits per entry: >= 1
  parameter int Depth     = 4,  // queue entries: >= 2
  parameter int Latency   = 1   // b: >= 1
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  input  logic                 clear_i,   // empty the FIFO (new product)
  input  logic                 wvalid_i,
  input  logic [DataWidth-1:0] wdata_i,
  output logic                 rvalid_o,  // the queue is not empty
  output logic [DataWidth-1:0] rdata_o,   // head entry
  input  logic                 rpop_i     // take the head entry at this edge
);

  if (DataWidth < 1 || Depth < 2 || Latency < 1) begin : gen_bad_param
    `MM_FATAL("mm_r4booth_fifo: needs DataWidth >= 1, Depth >= 2, Latency >= 1")
  end

  localparam int PtrW = $clog2(Depth);
  localparam int CntW = $clog2(Depth + 1);

  // b - 1 delay stages before the queue
  logic                 push;
  logic [DataWidth-1:0] pdata;

  if (Latency == 1) begin : gen_direct
    assign push  = wvalid_i;
    assign pdata = wdata_i;
  end else begin : gen_delay
    logic [Latency-2:0]   v_q;
    logic [DataWidth-1:0] d_q [Latency-1];
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        v_q <= '0;
        for (int s = 0; s < Latency - 1; s++) begin
          d_q[s] <= '0;
        end
      end else begin
        v_q[0] <= wvalid_i & ~clear_i;
        d_q[0] <= wdata_i;
        for (int s = 1; s < Latency - 1; s++) begin
          v_q[s] <= v_q[s-1] & ~clear_i;
          d_q[s] <= d_q[s-1];
        end
      end
    end
    assign push  = v_q[Latency-2];
    assign pdata = d_q[Latency-2];
  end

  logic [DataWidth-1:0] mem_q [Depth];
  logic [PtrW-1:0]      wr_q, rd_q, wr_d, rd_d;
  logic [CntW-1:0]      cnt_q, cnt_d;
  logic                 pop;

  assign pop  = rpop_i && (cnt_q != '0);

  always_comb begin
    wr_d  = wr_q;
    rd_d  = rd_q;
    cnt_d = cnt_q;
    if (push) begin
      wr_d = (wr_q == PtrW'(Depth - 1)) ? '0 : wr_q + 1'b1;
    end
    if (pop) begin
      rd_d = (rd_q == PtrW'(Depth - 1)) ? '0 : rd_q + 1'b1;
    end
    cnt_d = cnt_q + CntW'(push) - CntW'(pop);
    if (clear_i) begin
      wr_d  = '0;
      rd_d  = '0;
      cnt_d = '0;
    end
  end

  `MM_FF(wr_q, wr_d, '0)
  `MM_FF(rd_q, rd_d, '0)
  `MM_FF(cnt_q, cnt_d, '0)

  // The storage has no reset: entries are only read after being written.
  always_ff @(posedge clk_i) begin
    if (push) begin
      mem_q[wr_q] <= pdata;
    end
  end

  assign rvalid_o = (cnt_q != '0);
  assign rdata_o  = mem_q[rd_q];

endmodule
