// SPDX-License-Identifier: Apache-2.0
//
// mm_r4booth_mem: a word memory of the scalable kernel (paper 002, Fig. 3):
// Depth words of DataWidth bits, one synchronous write port and one
// asynchronous read port, no reset, the template Yosys maps to distributed
// (LUT) RAM: RAM16X1D/RAM32X1D/RAM64X1D on Xilinx, TRELLIS_DPR16X4 on ECP5.
// A word read in the cycle it is written returns its old value.
`include "mm_macros.svh"

module mm_r4booth_mem #(
  parameter int DataWidth = 16,  // bits per word: >= 1
  parameter int Depth     = 4,   // words: >= 2
  parameter int AddrWidth = $clog2(Depth)
) (
  input  logic                 clk_i,
  input  logic                 we_i,
  input  logic [AddrWidth-1:0] waddr_i,
  input  logic [DataWidth-1:0] wdata_i,
  input  logic [AddrWidth-1:0] raddr_i,
  output logic [DataWidth-1:0] rdata_o
);

  if (DataWidth < 1 || Depth < 2 || AddrWidth < $clog2(Depth)) begin : gen_bad_param
    `MM_FATAL("mm_r4booth_mem: needs DataWidth >= 1, Depth >= 2, AddrWidth >= clog2(Depth)")
  end

  logic [DataWidth-1:0] mem_q [Depth];

  // The storage has no reset: a word is only read after it has been written.
  always_ff @(posedge clk_i) begin
    if (we_i) begin
      mem_q[waddr_i] <= wdata_i;
    end
  end

  assign rdata_o = mem_q[raddr_i];

endmodule
