// SPDX-License-Identifier: Apache-2.0
//
// mm_pke: montmul's public-key engine (docs/pke.md): the word-serial
// systolic array mm_ws_array on its native word-stream interface, two CRT
// halves each with a bank (mm_pke_bank, 2^13 words in two EBR groups) and a
// word ALU (mm_pke_alu), the program memory (mm_pke_prog, 72-bit words) and
// the sequencer (mm_pke_seq).  Cycle-exact with montmul.models.pke.run:
// start_i taken at the edge ending cycle S, done_o high in cycle
// S + run().cycles.
//
// Each bank group has one read and one write port, shared (in this order of
// priority) by the sequencer (the array's load, B and result streams and the
// exponent-window reads), the ALUs and the host.  XA: while an ALU
// instruction with XA runs, the read port of operand a's group of each bank
// serves the other half's ALU (half 0 reads a from bank 1 and half 1 from
// bank 0; the other operand's group stays with its own ALU).
//
// Host access while busy_o is low: the program memory through prog_we_i
// (one 72-bit word a cycle; a bus window assembles the words), and each
// bank through one word port (host_half_i selects the bank; a read
// addressed in cycle t returns its word on host_rdata_o in cycle t + 2).
// Host requests while busy_o is high are ignored.
`include "mm_macros.svh"

module mm_pke #(
  parameter int NumPe     = 70,   // array PEs P: 3 .. 512
  parameter int WordWidth = 17,   // w: 16 .. 18
  parameter int DspRegs   = 3,    // array MULT18X18D registers: 2 or 3
  parameter int LoopRegs  = 0,    // array transport registers: 0 .. 2
  parameter int Chunks    = 1,    // laps c of the ring: 1 .. 4
  parameter int QuotDelay = 4,    // quotient delay d: 2 .. 8 (mm_ws_array's rule)
  parameter int MaxWords  = 66,   // largest word count m: mm_ws_array's range
  parameter int ProgWords = 512,  // program words: 2 .. 4096, a power of two
  parameter int ModAlu    = 0,    // the ALUs' modulus copy (MOV.LDN, ADD/SUB.DUAL): 0 or 1
  // derived, not to be set
  localparam int AddrBits  = mm_pke_pkg::PkeAddrBits,
  localparam int PcBits    = $clog2(ProgWords),
  localparam int InstrBits = mm_pke_pkg::PkeInstrBits
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  // control
  input  logic                 start_i,
  output logic                 busy_o,
  output logic                 done_o,      // one cycle: HALT dispatched, or an error
  output logic                 err_o,       // sticky until reset
  output logic [3:0]           err_code_o,  // mm_pke_seq's ErrX codes
  // program memory write port
  input  logic                 prog_we_i,
  input  logic [PcBits-1:0]    prog_addr_i,
  input  logic [InstrBits-1:0] prog_wdata_i,
  // bank word port
  input  logic                 host_we_i,
  input  logic                 host_re_i,
  input  logic                 host_half_i,
  input  logic [AddrBits-1:0]  host_addr_i,
  input  logic [WordWidth-1:0] host_wdata_i,
  output logic [WordWidth-1:0] host_rdata_o,
  // debug (benches): main-timeline dispatch with its PC, a product's first B request
  output logic                 dbg_disp_o,
  output logic [PcBits-1:0]    dbg_pc_o,
  output logic                 dbg_prod_o
);

  localparam int W         = WordWidth;
  localparam int GroupBits = AddrBits - 1;
  localparam int MWidth    = $clog2(MaxWords + 1);

  // program memory
  logic [PcBits-1:0]    prog_raddr;
  logic [InstrBits-1:0] instr, instr_next;

  mm_pke_prog #(.Words(ProgWords), .InstrBits(InstrBits)) u_prog (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .we_i   (prog_we_i && !busy_o),
    .waddr_i(prog_addr_i),
    .wdata_i(prog_wdata_i),
    .raddr_i(prog_raddr),
    .rdata_o(instr),
    .rdata_next_o(instr_next)
  );

  // sequencer <-> ALUs, array, banks
  logic [1:0]                alu_valid, alu_done, alu_flag, alu_ready;
  logic [4:0]                alu_op;
  logic                      alu_redc, xa, xg;
  logic [AddrBits-1:0]       alu_dst, alu_a, alu_b, alu_rows;
  logic [9:0]                alu_n;
  logic [3:0]                alu_rd;
  logic                      job_valid, job_ready, job_load, job_two, job_err;
  logic [MWidth-1:0]         job_words;
  logic [15:0]               job_prods;
  logic                      ld_req, ld_half, b_req, b_half, b_sq, res_valid, res_half;
  logic [W-1:0]              ld_a, ld_m, b_word, res_word;
  logic [3:0]                seq_rd_en, seq_wr_en;
  logic [3:0][GroupBits-1:0] seq_rd_addr, seq_wr_addr;
  logic [1:0][W-1:0]         seq_wr_data;
  // the banks' ports (index 2h + g) and the ALUs' (per half, index g)
  // (flat vectors: Icarus cannot pass a part of a 2-D packed array to a port)
  logic [3:0]                rd_en, wr_en;
  logic [4*GroupBits-1:0]    rd_addr, wr_addr;
  logic [4*W-1:0]            rd_data, wr_data;
  logic [3:0][W-1:0]         rd_data_w;      // rd_data by port
  logic [3:0]                a_rd_en, a_wr_en;
  logic [4*GroupBits-1:0]    a_rd_addr, a_wr_addr;
  logic [4*W-1:0]            a_rd_data, a_wr_data;
  logic                      host_g, host_en;
  logic [1:0]                hsel_q, hsel_d;   // host read: bank port of 1 and 2 cycles ago ...
  logic [1:0]                hsel2_q, hsel2_d;
  logic                      unused;

  assign unused = ^{alu_flag, alu_ready, alu_done[1]};

  mm_pke_seq #(.WordWidth(W), .PcBits(PcBits), .MaxWords(MaxWords)) u_seq (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .start_i      (start_i),
    .busy_o       (busy_o),
    .done_o       (done_o),
    .err_o        (err_o),
    .err_code_o   (err_code_o),
    .prog_raddr_o (prog_raddr),
    .instr_i      (instr),
    .instr_next_i (instr_next),
    .alu_valid_o  (alu_valid),
    .alu_op_o     (alu_op),
    .alu_redc_o   (alu_redc),
    .alu_dst_o    (alu_dst),
    .alu_a_o      (alu_a),
    .alu_b_o      (alu_b),
    .alu_rows_o   (alu_rows),
    .alu_n_o      (alu_n),
    .alu_done_i   (alu_done[0]),
    .xa_o         (xa),
    .xg_o         (xg),
    .alu_rd_i     (alu_rd),
    .job_valid_o  (job_valid),
    .job_ready_i  (job_ready),
    .job_words_o  (job_words),
    .job_prods_o  (job_prods),
    .job_load_o   (job_load),
    .job_two_o    (job_two),
    .job_err_i    (job_err),
    .ld_req_i     (ld_req),
    .ld_half_i    (ld_half),
    .ld_a_o       (ld_a),
    .ld_m_o       (ld_m),
    .b_req_i      (b_req),
    .b_half_i     (b_half),
    .b_o          (b_word),
    .b_sq_o       (b_sq),
    .res_valid_i  (res_valid),
    .res_half_i   (res_half),
    .res_word_i   (res_word),
    .mem_rd_en_o  (seq_rd_en),
    .mem_rd_addr_o(seq_rd_addr),
    .mem_rd_data_i(rd_data_w),
    .mem_wr_en_o  (seq_wr_en),
    .mem_wr_addr_o(seq_wr_addr),
    .mem_wr_data_o(seq_wr_data),
    .dbg_disp_o   (dbg_disp_o),
    .dbg_pc_o     (dbg_pc_o),
    .dbg_prod_o   (dbg_prod_o)
  );

  mm_ws_array #(
    .NumPe    (NumPe),
    .WordWidth(W),
    .DspRegs  (DspRegs),
    .LoopRegs (LoopRegs),
    .Chunks   (Chunks),
    .QuotDelay(QuotDelay),
    .MaxWords (MaxWords),
    .ReqRegs  (1)
  ) u_array (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .job_valid_i(job_valid),
    .job_ready_o(job_ready),
    .job_words_i(job_words),
    .job_prods_i(job_prods),
    .job_load_i (job_load),
    .job_two_i  (job_two),
    .job_err_o  (job_err),
    .ld_req_o   (ld_req),
    .ld_half_o  (ld_half),
    .ld_a_i     (ld_a),
    .ld_m_i     (ld_m),
    .b_req_o    (b_req),
    .b_half_o   (b_half),
    .b_i        (b_word),
    .b_sq_i     (b_sq),
    .res_valid_o(res_valid),
    .res_half_o (res_half),
    .res_word_o (res_word)
  );

  for (genvar h = 0; h < 2; h++) begin : gen_half
    mm_pke_alu #(.WordWidth(W), .AddrBits(AddrBits), .LenBits(10), .ModAlu(ModAlu),
                 .MaxWords(MaxWords)) u_alu (
      .clk_i      (clk_i),
      .rst_ni     (rst_ni),
      .cmd_valid_i(alu_valid[h]),
      .cmd_ready_o(alu_ready[h]),
      .cmd_op_i   (alu_op),
      .cmd_redc_i (alu_redc),
      .cmd_dst_i  (alu_dst),
      .cmd_a_i    (alu_a),
      .cmd_b_i    (alu_b),
      .cmd_rows_i (alu_rows),
      .cmd_n_i    (alu_n),
      .done_o     (alu_done[h]),
      .flag_o     (alu_flag[h]),
      .rd_en_o    (a_rd_en[2 * h + 1 -: 2]),
      .rd_addr_o  (a_rd_addr[2 * h * GroupBits +: 2 * GroupBits]),
      .rd_data_i  (a_rd_data[2 * h * W +: 2 * W]),
      .wr_en_o    (a_wr_en[2 * h + 1 -: 2]),
      .wr_addr_o  (a_wr_addr[2 * h * GroupBits +: 2 * GroupBits]),
      .wr_data_o  (a_wr_data[2 * h * W +: 2 * W])
    );

    mm_pke_bank #(.WordWidth(W), .AddrBits(AddrBits)) u_bank (
      .clk_i    (clk_i),
      .rst_ni   (rst_ni),
      .rd_en_i  (rd_en[2 * h + 1 -: 2]),
      .rd_addr_i(rd_addr[2 * h * GroupBits +: 2 * GroupBits]),
      .rd_data_o(rd_data[2 * h * W +: 2 * W]),
      .wr_en_i  (wr_en[2 * h + 1 -: 2]),
      .wr_addr_i(wr_addr[2 * h * GroupBits +: 2 * GroupBits]),
      .wr_data_i(wr_data[2 * h * W +: 2 * W])
    );
  end

  assign host_g  = host_addr_i[AddrBits-1];
  assign host_en = !busy_o;

  // Port muxes: the sequencer, then the ALU (its own, or the other half's on
  // operand a's group under XA), then the host.
  for (genvar h = 0; h < 2; h++) begin : gen_mux
    for (genvar g = 0; g < 2; g++) begin : gen_group
      localparam int P = 2 * h + g;  // this bank port
      logic                 swap;      // the port serves the other half's ALU
      logic                 a_en;
      logic [GroupBits-1:0] a_addr;
      assign swap = xa && (xg == 1'(g));
      assign a_en   = swap ? a_rd_en[2 * (1 - h) + g] : a_rd_en[P];
      assign a_addr = swap ? a_rd_addr[(2 * (1 - h) + g) * GroupBits +: GroupBits]
                           : a_rd_addr[P * GroupBits +: GroupBits];
      assign alu_rd[P] = a_en;
      assign a_rd_data[P * W +: W] = swap ? rd_data[(2 * (1 - h) + g) * W +: W]
                                          : rd_data[P * W +: W];
      assign rd_en[P] = seq_rd_en[P] || a_en
                        || (host_en && host_re_i && host_half_i == 1'(h) && host_g == 1'(g));
      assign rd_addr[P * GroupBits +: GroupBits] = seq_rd_en[P] ? seq_rd_addr[P]
                                                 : a_en ? a_addr : host_addr_i[GroupBits-1:0];
      assign wr_en[P] = seq_wr_en[P] || a_wr_en[P]
                        || (host_en && host_we_i && host_half_i == 1'(h) && host_g == 1'(g));
      assign wr_addr[P * GroupBits +: GroupBits] =
          seq_wr_en[P] ? seq_wr_addr[P]
        : a_wr_en[P] ? a_wr_addr[P * GroupBits +: GroupBits] : host_addr_i[GroupBits-1:0];
      assign wr_data[P * W +: W] = seq_wr_en[P] ? seq_wr_data[h]
                                 : a_wr_en[P] ? a_wr_data[P * W +: W] : host_wdata_i;
    end
  end
  assign hsel_d  = {host_half_i, host_g};
  assign hsel2_d = hsel_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      hsel_q  <= '0;
      hsel2_q <= '0;
    end else begin
      hsel_q  <= hsel_d;
      hsel2_q <= hsel2_d;
    end
  end

  assign host_rdata_o = rd_data_w[hsel2_q];
  assign rd_data_w = rd_data;

endmodule
