// SPDX-License-Identifier: Apache-2.0
//
// mm_modexp_axil: the exponentiation engine mm_modexp (and so any registered
// core, through its generated mm_modexp_core wrapper) behind an AXI4-Lite
// slave port (docs/integration.md).  The register map is written once in
// SystemRDL (rdl/mm_modexp_regs.rdl); the register block mm_modexp_regs is
// generated from it by PeakRDL-regblock.  This module adds what a register
// block cannot hold: the operand and result storage behind the word-wide
// DATA window, the job control and the cycle counter.
//
// Operands (BASE, EXP, N, R2) and the RESULT are Width-bit registers reached
// one 32-bit word at a time: WSEL selects operand and word index, each DATA
// access moves one word and advances the index.  The engine copies the
// operands when it accepts a job, so software may load the next job's
// operands while one runs.  A START while a job runs is ignored and flags
// STATUS.OVERRUN; the running job is not disturbed.
//
// Bad accesses: unmapped addresses, writes to read-only registers (ID, INFO,
// CYCLES) and reads of write-only ones answer SLVERR (the register block's
// --err-if-bad-addr/--err-if-bad-rw); a DATA access outside the window
// (index >= INFO.WORDS, operand code > 4, a write to RESULT) answers OKAY,
// drops the write or reads 0, and sets STATUS.ACCERR.
module mm_modexp_axil #(
  parameter int Width = 32  // modulus width k: 3 .. 8192
) (
  input  logic        clk_i,
  input  logic        rst_ni,          // asynchronous, active low: aborts a running job
  // AXI4-Lite slave (32-bit data, 8-bit byte address: a 256-byte window)
  input  logic        s_axil_awvalid,
  output logic        s_axil_awready,
  input  logic [7:0]  s_axil_awaddr,
  input  logic [2:0]  s_axil_awprot,
  input  logic        s_axil_wvalid,
  output logic        s_axil_wready,
  input  logic [31:0] s_axil_wdata,
  input  logic [3:0]  s_axil_wstrb,
  output logic        s_axil_bvalid,
  input  logic        s_axil_bready,
  output logic [1:0]  s_axil_bresp,
  input  logic        s_axil_arvalid,
  output logic        s_axil_arready,
  input  logic [7:0]  s_axil_araddr,
  input  logic [2:0]  s_axil_arprot,
  output logic        s_axil_rvalid,
  input  logic        s_axil_rready,
  output logic [31:0] s_axil_rdata,
  output logic [1:0]  s_axil_rresp,
  // interrupt: STATUS.DONE while CTRL.IRQ_EN
  output logic        irq_o
);

  localparam int Words = (Width + 31) / 32;  // 32-bit words per operand
  localparam int LenW = $clog2(Width + 1);   // engine's exp_len_i width
  localparam int IdxW = 14;                  // WSEL.INDEX width

  // Operand codes of WSEL.OPERAND.
  localparam logic [2:0] OpBase = 3'd0;
  localparam logic [2:0] OpExp = 3'd1;
  localparam logic [2:0] OpN = 3'd2;
  localparam logic [2:0] OpR2 = 3'd3;
  localparam logic [2:0] OpResult = 3'd4;

  mm_modexp_regs_pkg::mm_modexp_regs__in_t  hwif_in;
  mm_modexp_regs_pkg::mm_modexp_regs__out_t hwif_out;

  mm_modexp_regs u_regs (
    .clk            (clk_i),
    .arst_n         (rst_ni),
    .s_axil_awready (s_axil_awready),
    .s_axil_awvalid (s_axil_awvalid),
    .s_axil_awaddr  (s_axil_awaddr),
    .s_axil_awprot  (s_axil_awprot),
    .s_axil_wready  (s_axil_wready),
    .s_axil_wvalid  (s_axil_wvalid),
    .s_axil_wdata   (s_axil_wdata),
    .s_axil_wstrb   (s_axil_wstrb),
    .s_axil_bready  (s_axil_bready),
    .s_axil_bvalid  (s_axil_bvalid),
    .s_axil_bresp   (s_axil_bresp),
    .s_axil_arready (s_axil_arready),
    .s_axil_arvalid (s_axil_arvalid),
    .s_axil_araddr  (s_axil_araddr),
    .s_axil_arprot  (s_axil_arprot),
    .s_axil_rready  (s_axil_rready),
    .s_axil_rvalid  (s_axil_rvalid),
    .s_axil_rdata   (s_axil_rdata),
    .s_axil_rresp   (s_axil_rresp),
    .hwif_in        (hwif_in),
    .hwif_out       (hwif_out)
  );

  // ---------------------------------------------------------------------
  // Operand and result storage behind the DATA window
  logic [Words*32-1:0] base_q, base_d, exp_q, exp_d, n_q, n_d, r2_q, r2_d;
  logic [Words*32-1:0] result_q, result_d;
  logic [2:0]          op_sel;
  logic [IdxW-1:0]     idx;
  logic                win_req, win_wr, win_ok;
  logic [31:0]         win_rdata, wmask, wdata;

  assign op_sel  = hwif_out.WSEL.OPERAND.value;
  assign idx     = hwif_out.WSEL.INDEX.value;
  assign win_req = hwif_out.DATA.req;
  assign win_wr  = hwif_out.DATA.req_is_wr;
  assign wmask   = hwif_out.DATA.wr_biten.VALUE;
  assign wdata   = hwif_out.DATA.wr_data.VALUE;

  // A written word: the strobed bytes from the bus, the others kept.
  function automatic logic [31:0] merge(logic [31:0] old, logic [31:0] data, logic [31:0] mask);
    return (old & ~mask) | (data & mask);
  endfunction

  // In the window: a word of an operand, and no write to RESULT.
  assign win_ok = (32'(idx) < 32'(Words)) && (op_sel <= OpResult)
                  && !(win_wr && op_sel == OpResult);

  always_comb begin
    win_rdata = '0;
    if (32'(idx) < 32'(Words)) begin
      unique case (op_sel)
        OpBase:   win_rdata = base_q[32*idx +: 32];
        OpExp:    win_rdata = exp_q[32*idx +: 32];
        OpN:      win_rdata = n_q[32*idx +: 32];
        OpR2:     win_rdata = r2_q[32*idx +: 32];
        OpResult: win_rdata = result_q[32*idx +: 32];
        default:  win_rdata = '0;
      endcase
    end
  end


  // ---------------------------------------------------------------------
  // Job control
  logic             busy_q, busy_d;
  logic [31:0]      cnt_q, cnt_d, cycles_q, cycles_d;
  logic             start, accept, finish;
  logic             eng_in_ready, eng_out_valid, eng_err;
  logic [Width-1:0] eng_result;
  logic [LenW-1:0]  exp_len;
  logic [15:0]      len_reg;

  assign start  = hwif_out.CTRL.START.value;
  // The engine is idle exactly when busy_q is low (both leave a job at the
  // edge that takes the response), so a START while idle is accepted at once.
  assign accept = start && !busy_q;
  assign finish = busy_q && eng_out_valid;

  // An EXP_LEN above Width must not wrap in the narrower engine port: pass 0,
  // which the engine rejects.
  assign len_reg = hwif_out.EXP_LEN.LEN.value;
  assign exp_len = (32'(len_reg) > Width) ? '0 : len_reg[LenW-1:0];

  always_comb begin
    base_d   = base_q;
    exp_d    = exp_q;
    n_d      = n_q;
    r2_d     = r2_q;
    result_d = result_q;
    busy_d   = busy_q;
    cnt_d    = cnt_q;
    cycles_d = cycles_q;
    if (win_req && win_wr && win_ok) begin
      unique case (op_sel)
        OpBase:  base_d[32*idx +: 32] = merge(base_q[32*idx +: 32], wdata, wmask);
        OpExp:   exp_d[32*idx +: 32] = merge(exp_q[32*idx +: 32], wdata, wmask);
        OpN:     n_d[32*idx +: 32] = merge(n_q[32*idx +: 32], wdata, wmask);
        OpR2:    r2_d[32*idx +: 32] = merge(r2_q[32*idx +: 32], wdata, wmask);
        default: ;
      endcase
    end
    if (accept) begin
      busy_d = 1'b1;
      cnt_d  = '0;
    end else if (finish) begin
      busy_d   = 1'b0;
      cycles_d = cnt_q;
      result_d = '0;
      result_d[Width-1:0] = eng_result;
    end else if (busy_q) begin
      // Counts the edges after the accepting edge up to the one after which
      // the engine's response is valid: the engine's latency.
      cnt_d = cnt_q + 1'b1;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      base_q   <= '0;
      exp_q    <= '0;
      n_q      <= '0;
      r2_q     <= '0;
      result_q <= '0;
      busy_q   <= 1'b0;
      cnt_q    <= '0;
      cycles_q <= '0;
    end else begin
      base_q   <= base_d;
      exp_q    <= exp_d;
      n_q      <= n_d;
      r2_q     <= r2_d;
      result_q <= result_d;
      busy_q   <= busy_d;
      cnt_q    <= cnt_d;
      cycles_q <= cycles_d;
    end
  end

  mm_modexp #(
    .Width (Width)
  ) u_modexp (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .in_valid_i  (accept),
    .in_ready_o  (eng_in_ready),
    .base_i      (base_q[Width-1:0]),
    .exp_i       (exp_q[Width-1:0]),
    .exp_len_i   (exp_len),
    .n_i         (n_q[Width-1:0]),
    .r2_i        (r2_q[Width-1:0]),
    .ladder_i    (hwif_out.CTRL.LADDER.value),
    .out_valid_o (eng_out_valid),
    .out_ready_i (1'b1),
    .result_o    (eng_result),
    .err_o       (eng_err)
  );

  // ---------------------------------------------------------------------
  // Inputs of the register block (one process: hwif_in is one variable)
  always_comb begin
    // The window answers in the request's cycle and advances the index.
    hwif_in.DATA.rd_ack         = win_req && !win_wr;
    hwif_in.DATA.wr_ack         = win_req && win_wr;
    hwif_in.DATA.rd_data.VALUE  = win_ok ? win_rdata : '0;
    hwif_in.WSEL.INDEX.we       = win_req;
    hwif_in.WSEL.INDEX.next     = idx + 1'b1;
    hwif_in.STATUS.ACCERR.hwset = win_req && !win_ok;
    // Information and status
    hwif_in.INFO.WIDTH.next     = 16'(Width);
    hwif_in.INFO.WORDS.next     = 16'(Words);
    hwif_in.CYCLES.COUNT.next   = cycles_q;
    hwif_in.STATUS.BUSY.next    = busy_q;
    hwif_in.STATUS.DONE.hwset   = finish;
    hwif_in.STATUS.DONE.hwclr   = accept;
    hwif_in.STATUS.ERR.hwset    = finish && eng_err;
    hwif_in.STATUS.ERR.hwclr    = accept;
    hwif_in.STATUS.OVERRUN.hwset = start && busy_q;
  end

  assign irq_o = hwif_out.CTRL.IRQ_EN.value && hwif_out.STATUS.DONE.value;

  // eng_in_ready is high whenever busy_q is low (see accept); it is not
  // needed otherwise.
  logic unused;
  assign unused = eng_in_ready;

endmodule
