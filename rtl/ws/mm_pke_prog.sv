// SPDX-License-Identifier: Apache-2.0
//
// mm_pke_prog: the program memory of the public-key engine mm_pke
// (docs/pke.md, "Instruction set"): Words instruction words of 72 bits (two
// 36-bit ports of an ECP5 DP16KD pair), one write port for the host and one
// read port for the sequencer.
//
// Read: the address presented in cycle t is registered at the edge ending t
// (the EBR's address register) and its word is on rdata_o in cycle t + 2
// (through a fabric register: the block RAM's own clock-to-out stays off
// the sequencer's paths); the sequencer presents its next PC every cycle.  Write: the word presented with we_i in cycle t is stored at the
// edge ending t and read from cycle t + 3 on (a read addressed in t + 1).  The host writes whole 72-bit words;
// a bus window assembles them from narrower writes in a staging register.
// No reset (block RAM).
`include "mm_macros.svh"

module mm_pke_prog #(
  parameter int Words     = 512,  // instruction words: 2 .. 4096, a power of two
  parameter int InstrBits = 72,   // instruction width (pke.INSTR_BITS)
  // derived, not to be set
  localparam int PcBits   = $clog2(Words)
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  // host write port
  input  logic                 we_i,
  input  logic [PcBits-1:0]    waddr_i,
  input  logic [InstrBits-1:0] wdata_i,
  // sequencer read port
  input  logic [PcBits-1:0]    raddr_i,
  output logic [InstrBits-1:0] rdata_o,
  output logic [InstrBits-1:0] rdata_next_o  // the block RAM's read: rdata_o's next word
);

  if (Words < 2 || Words > 4096 || (1 << PcBits) != Words) begin : gen_bad_words
    `MM_FATAL("mm_pke_prog: Words must be a power of two in [2, 4096]")
  end

  logic [InstrBits-1:0] mem_q [Words];
  logic [InstrBits-1:0] rd_q, rdata_q;

  always_ff @(posedge clk_i) begin
    if (we_i) begin
      mem_q[waddr_i] <= wdata_i;
    end
  end

  // the reset is not used: every register here is the block RAM's or its
  // output register's
  /* verilator lint_off UNUSEDSIGNAL */
  logic rst_unused;
  /* verilator lint_on UNUSEDSIGNAL */
  assign rst_unused = rst_ni;

  // the EBR's synchronous read (no reset: a reset keeps Yosys from merging
  // the register into the block RAM, which then becomes LUT RAM), then a
  // fabric register: the block RAM's clock-to-out (5.8 ns on the ECP5)
  // ends at a register, not in the sequencer's decode
  always_ff @(posedge clk_i) begin
    rd_q    <= mem_q[raddr_i];
    rdata_q <= rd_q;
  end

  assign rdata_o      = rdata_q;
  assign rdata_next_o = rd_q;

endmodule
