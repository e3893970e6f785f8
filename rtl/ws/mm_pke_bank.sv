// SPDX-License-Identifier: Apache-2.0
//
// mm_pke_bank: one CRT half's word memory of the public-key engine mm_pke
// (docs/pke.md, "Architecture" and "Memory map"): 2^AddrBits words of
// WordWidth bits in two EBR groups, the top address bit selecting the group.
// Each group reads on one port and writes on the other (an ECP5 DP16KD used
// as a simple dual-port RAM), so an operation reads two operands in one
// cycle when they sit in different groups.
//
// Read latency 2 (the model's Timing.mem): the address presented with
// rd_en_i in cycle t is registered at the edge ending t (the EBR's address
// register; a fabric copy keeps it while rd_en_i is low), the RAM's word is
// registered again in the fabric, and rd_data_o holds it in cycle t + 2.  A write
// presented in cycle t is done at the edge ending t; a read of the same word
// addressed in cycle t + 1 or later returns the new word.  The memory has no
// reset (block RAM).
`include "mm_macros.svh"

module mm_pke_bank #(
  parameter int WordWidth = 17,  // w: 2 .. 18 (one word of an 18-bit EBR port)
  parameter int AddrBits  = 13,  // bank address bits: 2 .. 16 (2^(AddrBits-1) words per group)
  // derived, not to be set
  localparam int GroupBits = AddrBits - 1
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  // read ports, one per group (index: group)
  input  logic [1:0]           rd_en_i,
  input  logic [1:0][GroupBits-1:0] rd_addr_i,
  output logic [1:0][WordWidth-1:0] rd_data_o,
  // write ports, one per group
  input  logic [1:0]           wr_en_i,
  input  logic [1:0][GroupBits-1:0] wr_addr_i,
  input  logic [1:0][WordWidth-1:0] wr_data_i
);

  if (WordWidth < 2 || WordWidth > 18) begin : gen_bad_width
    `MM_FATAL("mm_pke_bank: WordWidth must be in [2, 18]")
  end
  if (AddrBits < 2 || AddrBits > 16) begin : gen_bad_addr
    `MM_FATAL("mm_pke_bank: AddrBits must be in [2, 16]")
  end

  localparam int Words = 1 << GroupBits;

  for (genvar g = 0; g < 2; g++) begin : gen_group
    logic [WordWidth-1:0] mem_q [Words];
    logic [GroupBits-1:0] raddr_q, raddr_d;  // the address read (held while rd_en is low)
    logic [WordWidth-1:0] ebr_q;             // the block RAM's synchronous read
    logic                 we_q;              // the write of the read's cycle: enable, ...
    logic [GroupBits-1:0] wa_q;              // ... address ...
    logic [WordWidth-1:0] wd_q;              // ... and word
    logic                 byp;               // that write hit the word read
    logic [WordWidth-1:0] rdata_q, rdata_d;

    always_comb begin
      raddr_d = rd_en_i[g] ? rd_addr_i[g] : raddr_q;
      byp     = we_q && (wa_q == raddr_q);
      rdata_d = byp ? wd_q : ebr_q;
    end

    // The RAM: no reset, one write port, one read port addressed by raddr_d
    // (the EBR's own address register). A write to the same address in the
    // same cycle is forwarded a cycle later, compared against the registered
    // addresses (raddr_q, wa_q), so rdata_q holds the word as it is after
    // that cycle's write, as with a fabric address register, and no compare
    // sits behind the port's request logic. The block RAM's clock-to-out
    // (5.8 ns on the ECP5) ends at rdata_q, not in the consumers' logic.
    always_ff @(posedge clk_i) begin
      if (wr_en_i[g]) begin
        mem_q[wr_addr_i[g]] <= wr_data_i[g];
      end
      ebr_q <= mem_q[raddr_d];
      wa_q  <= wr_addr_i[g];
      wd_q  <= wr_data_i[g];
    end

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        raddr_q <= '0;
        we_q    <= 1'b0;
        rdata_q <= '0;
      end else begin
        raddr_q <= raddr_d;
        we_q    <= wr_en_i[g];
        rdata_q <= rdata_d;
      end
    end

    assign rd_data_o[g] = rdata_q;
  end

endmodule
