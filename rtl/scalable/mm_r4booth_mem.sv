// SPDX-License-Identifier: Apache-2.0
//
// mm_r4booth_mem: a word memory of the scalable kernel (paper 002, Fig. 3):
// Depth words of DataWidth bits at one address: a synchronous write and an
// asynchronous read (the kernel reads word j of a pass where pass 0 wrote
// it), no reset: the template Yosys maps to single-port distributed (LUT)
// RAM, RAM16X1S/RAM32X1S/RAM64X1S on Xilinx, TRELLIS_DPR16X4 on ECP5.  A word
// read in the cycle it is written returns its old value.
`include "mm_macros.svh"

module mm_r4booth_mem #(
  parameter int DataWidth = 16,  // bits per word: >= 1
  parameter int Depth     = 4,   // words: >= 1
  parameter int AddrWidth = (Depth > 1) ? $clog2(Depth) : 1
) (
  input  logic                 clk_i,
  input  logic                 we_i,
  input  logic [AddrWidth-1:0] addr_i,
  input  logic [DataWidth-1:0] wdata_i,
  output logic [DataWidth-1:0] rdata_o
);

  localparam int NeedAW = (Depth > 1) ? $clog2(Depth) : 1;

  if (DataWidth < 1 || Depth < 1 || AddrWidth != NeedAW) begin : gen_bad_param
    `MM_FATAL("mm_r4booth_mem: needs DataWidth >= 1, Depth >= 1, AddrWidth = max(1, clog2(Depth))")
  end

  // The storage has no reset: a word is only read after it has been written.
  if (Depth == 1) begin : gen_word
    logic [DataWidth-1:0] word_q;
    always_ff @(posedge clk_i) begin
      if (we_i) begin
        word_q <= wdata_i;
      end
    end
    assign rdata_o = word_q;
    logic unused_addr;
    assign unused_addr = ^addr_i;
  end else begin : gen_ram
    logic [DataWidth-1:0] mem_q [Depth];
    always_ff @(posedge clk_i) begin
      if (we_i) begin
        mem_q[addr_i] <= wdata_i;
      end
    end
    assign rdata_o = mem_q[addr_i];
  end

endmodule
