// SPDX-License-Identifier: Apache-2.0
//
// mm_pke_half: one CRT half of the public-key engine mm_pke without the
// array and the sequencer (docs/pke.md, "Architecture"): the half's bank
// (mm_pke_bank) and word ALU (mm_pke_alu), and the host's port to the bank.
// The host writes and reads words while the ALU is idle (cmd_ready_o high);
// a host read addressed in cycle t returns its word on host_rdata_o in
// cycle t + 2.  The sequencer drives the ALU's command port.
`include "mm_macros.svh"

module mm_pke_half #(
  parameter int WordWidth = 17,  // w: 2 .. 18
  parameter int AddrBits  = 13,  // bank address bits: 2 .. 16
  parameter int LenBits   = 10   // ALU word-count field: 1 .. 16
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  // ALU command (mm_pke_alu)
  input  logic                 cmd_valid_i,
  output logic                 cmd_ready_o,
  input  logic [4:0]           cmd_op_i,
  input  logic                 cmd_redc_i,
  input  logic [AddrBits-1:0]  cmd_dst_i,
  input  logic [AddrBits-1:0]  cmd_a_i,
  input  logic [AddrBits-1:0]  cmd_b_i,
  input  logic [AddrBits-1:0]  cmd_rows_i,
  input  logic [LenBits-1:0]   cmd_n_i,
  output logic                 done_o,
  output logic                 flag_o,
  // host port (while the ALU is idle)
  input  logic                 host_we_i,
  input  logic                 host_re_i,
  input  logic [AddrBits-1:0]  host_addr_i,
  input  logic [WordWidth-1:0] host_wdata_i,
  output logic [WordWidth-1:0] host_rdata_o
);

  if (AddrBits < 2 || AddrBits > 16) begin : gen_bad_addr
    `MM_FATAL("mm_pke_half: AddrBits must be in [2, 16]")
  end

  localparam int GroupBits = AddrBits - 1;

  logic [1:0]                rd_en, wr_en, alu_rd_en, alu_wr_en;
  logic [1:0][GroupBits-1:0] rd_addr, wr_addr, alu_rd_addr, alu_wr_addr;
  logic [1:0][WordWidth-1:0] rd_data, wr_data, alu_wr_data;
  logic [1:0]                hgrp_q, hgrp_d;  // group of the host reads of 1 and 2 cycles ago
  logic                      hgrp;

  assign hgrp = host_addr_i[AddrBits-1];

  mm_pke_alu #(.WordWidth(WordWidth), .AddrBits(AddrBits), .LenBits(LenBits)) u_alu (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .cmd_valid_i(cmd_valid_i),
    .cmd_ready_o(cmd_ready_o),
    .cmd_op_i   (cmd_op_i),
    .cmd_redc_i (cmd_redc_i),
    .cmd_dst_i  (cmd_dst_i),
    .cmd_a_i    (cmd_a_i),
    .cmd_b_i    (cmd_b_i),
    .cmd_rows_i (cmd_rows_i),
    .cmd_n_i    (cmd_n_i),
    .done_o     (done_o),
    .flag_o     (flag_o),
    .rd_en_o    (alu_rd_en),
    .rd_addr_o  (alu_rd_addr),
    .rd_data_i  (rd_data),
    .wr_en_o    (alu_wr_en),
    .wr_addr_o  (alu_wr_addr),
    .wr_data_o  (alu_wr_data)
  );

  always_comb begin
    for (int g = 0; g < 2; g++) begin
      rd_en[g]   = alu_rd_en[g] || (host_re_i && hgrp == 1'(g));
      rd_addr[g] = alu_rd_en[g] ? alu_rd_addr[g] : host_addr_i[GroupBits-1:0];
      wr_en[g]   = alu_wr_en[g] || (host_we_i && hgrp == 1'(g));
      wr_addr[g] = alu_wr_en[g] ? alu_wr_addr[g] : host_addr_i[GroupBits-1:0];
      wr_data[g] = alu_wr_en[g] ? alu_wr_data[g] : host_wdata_i;
    end
    hgrp_d = {hgrp_q[0], hgrp};
  end

  mm_pke_bank #(.WordWidth(WordWidth), .AddrBits(AddrBits)) u_bank (
    .clk_i    (clk_i),
    .rst_ni   (rst_ni),
    .rd_en_i  (rd_en),
    .rd_addr_i(rd_addr),
    .rd_data_o(rd_data),
    .wr_en_i  (wr_en),
    .wr_addr_i(wr_addr),
    .wr_data_i(wr_data)
  );

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      hgrp_q <= '0;
    end else begin
      hgrp_q <= hgrp_d;
    end
  end

  assign host_rdata_o = rd_data[hgrp_q[1]];

endmodule
