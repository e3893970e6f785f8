// SPDX-License-Identifier: Apache-2.0
//
// mm_pke_axil: the public-key engine mm_pke (rtl/ws, docs/pke.md) behind an
// AXI4-Lite slave port (docs/pke_axil.md).  The register map
// is written once in SystemRDL (rdl/mm_pke_regs.rdl); the register block
// mm_pke_regs is generated from it by PeakRDL-regblock.  This module adds
// what a register block cannot hold: the windows onto the engine's program
// memory and banks, the run control and the cycle counter.
//
// Windows.  The program memory (72-bit words, write only for the host) is
// written through the staging registers PDATA0 and PDATA1 and the store
// register PDATA2 (bits 71..64): each write of PDATA2 stores
// {PDATA2, PDATA1, PDATA0} at PADDR and advances PADDR.  A bank word (w
// bits) is one bus word at BSEL.ADDR of bank BSEL.HALF through BDATA; every
// BDATA access advances BSEL.ADDR.  A BDATA read is answered two cycles
// after the request, the banks' read latency, by holding the register
// block's external acknowledge.
//
// Requests the engine cannot take never stall the bus: START while a
// program runs or while the engine holds an error, and any window access
// while a program runs, are dropped (a read returns 0) and set the sticky
// STATUS.IGNORED; a window access outside its memory (or a bank write with
// bits at or above w) is dropped and sets STATUS.ACCERR.  Unmapped
// addresses, writes of read-only and reads of write-only registers answer
// SLVERR (the register block's --err-if-bad-addr/--err-if-bad-rw).
//
// CTRL.ABORT resets the engine (not the register block) for one cycle from
// a register: a running program stops and the engine's sticky error clears;
// the program memory and the banks, block RAM without reset, keep their
// contents.
`include "mm_macros.svh"

module mm_pke_axil #(
  parameter int NumPe     = 70,   // array PEs P: 3 .. 512 (mm_pke)
  parameter int WordWidth = 17,   // w: 16 .. 18
  parameter int DspRegs   = 3,    // array MULT18X18D registers: 2 or 3
  parameter int LoopRegs  = 0,    // array transport registers: 0 .. 2
  parameter int Chunks    = 1,    // laps c of the ring: 1 .. 4
  parameter int QuotDelay = 4,    // quotient delay d: 2 .. 8 (mm_ws_array's rule)
  parameter int MaxWords  = 66,   // largest word count m: mm_ws_array's range
  parameter int ProgWords = 512,  // program words: 2 .. 4096, a power of two
  parameter int ModAlu    = 0     // the ALUs' modulus copy (MOV.LDN, ADD/SUB.DUAL): 0 or 1 (mm_pke)
) (
  input  logic        clk_i,
  input  logic        rst_ni,          // asynchronous, active low
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

  localparam int W         = WordWidth;
  localparam int AddrBits  = 13;             // mm_pke's bank address
  localparam int BankWords = 1 << AddrBits;  // words per bank
  localparam int PcBits    = $clog2(ProgWords);
  localparam int InstrBits = 72;
  localparam int Latency   = DspRegs + 3 + LoopRegs;  // the model's L

  if (W < 16 || W > 18) begin : gen_bad_width
    `MM_FATAL("mm_pke_axil: WordWidth must be in [16, 18]")
  end

  mm_pke_regs_pkg::mm_pke_regs__in_t  hwif_in;
  mm_pke_regs_pkg::mm_pke_regs__out_t hwif_out;

  mm_pke_regs u_regs (
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
  // Engine
  logic                 eng_rst_n, eng_busy, eng_done, eng_err;
  logic [3:0]           eng_code;
  logic                 prog_we;
  logic [PcBits-1:0]    prog_addr;
  logic [InstrBits-1:0] prog_wdata;
  logic                 host_we, host_re, host_half;
  logic [AddrBits-1:0]  host_addr;
  logic [W-1:0]         host_wdata, host_rdata;
  logic                 dbg_disp, dbg_prod;
  logic [PcBits-1:0]    dbg_pc;

  // ---------------------------------------------------------------------
  // Run control
  logic        run_q, run_d;        // a program runs (START taken, no stop yet)
  logic        abort_q, abort_d;    // CTRL.ABORT of the last cycle: engine in reset
  logic [31:0] cnt_q, cnt_d, cycles_q, cycles_d;
  logic        start, accept, stop, busy;

  assign start  = hwif_out.CTRL.START.value;
  // The engine takes start_i while idle without an error; run_q and the
  // engine's busy_o rise and fall at the same edges.
  assign busy   = run_q || eng_busy;
  assign accept = start && !busy && !eng_err && !abort_q;
  assign stop   = run_q && eng_done;
  assign abort_d = hwif_out.CTRL.ABORT.value;
  // The engine's reset: the block's, or one cycle after CTRL.ABORT (from a
  // register, so it neither glitches nor depends on the bus's logic).
  assign eng_rst_n = rst_ni && !abort_q;

  always_comb begin
    run_d    = run_q;
    cnt_d    = cnt_q;
    cycles_d = cycles_q;
    if (accept) begin
      // start_i high in cycle S: cnt_q is k in cycle S + k, so it reads the
      // model's cycles in the cycle of done_o (docs/pke.md, "Cycles").
      run_d = 1'b1;
      cnt_d = 32'd1;
    end else if (stop) begin
      run_d    = 1'b0;
      cycles_d = cnt_q;
    end else if (run_q) begin
      cnt_d = cnt_q + 32'd1;
    end
    if (abort_q) begin
      run_d = 1'b0;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      run_q    <= 1'b0;
      abort_q  <= 1'b0;
      cnt_q    <= '0;
      cycles_q <= '0;
    end else begin
      run_q    <= run_d;
      abort_q  <= abort_d;
      cnt_q    <= cnt_d;
      cycles_q <= cycles_d;
    end
  end

  // ---------------------------------------------------------------------
  // Program window: PDATA2's write stores {PDATA2, PDATA1, PDATA0} at PADDR
  logic        p_req, p_in;
  logic [12:0] paddr;

  assign p_req      = hwif_out.PDATA2.req && hwif_out.PDATA2.req_is_wr;
  assign paddr      = hwif_out.PADDR.ADDR.value;
  assign p_in       = 32'(paddr) < 32'(ProgWords);
  assign prog_we    = p_req && p_in && !busy;
  assign prog_addr  = paddr[PcBits-1:0];
  assign prog_wdata = {hwif_out.PDATA2.wr_data.BITS & hwif_out.PDATA2.wr_biten.BITS,
                       hwif_out.PDATA1.BITS.value, hwif_out.PDATA0.BITS.value};

  // ---------------------------------------------------------------------
  // Bank window: one bus word per bank word at BSEL.ADDR of bank BSEL.HALF
  logic        b_req, b_wr, b_in, b_fit, b_ok;
  logic [13:0] baddr;
  logic [31:0] b_wdata;
  logic        rd1_q, rd1_d, rd2_q, rd2_d;      // a BDATA read 1 and 2 cycles ago ...
  logic        rok1_q, rok1_d, rok2_q, rok2_d;  // ... that reached the bank

  assign b_req   = hwif_out.BDATA.req;
  assign b_wr    = hwif_out.BDATA.req_is_wr;
  assign baddr   = hwif_out.BSEL.ADDR.value;
  // A write stores the strobed bytes and zeros in the others (a bank word
  // has no byte enables).
  assign b_wdata = hwif_out.BDATA.wr_data.VALUE & hwif_out.BDATA.wr_biten.VALUE;
  assign b_in    = 32'(baddr) < 32'(BankWords);
  assign b_fit   = !b_wr || (b_wdata >> W) == '0;
  assign b_ok    = b_req && b_in && b_fit && !busy;

  assign host_we    = b_ok && b_wr;
  assign host_re    = b_ok && !b_wr;
  assign host_half  = hwif_out.BSEL.HALF.value;
  assign host_addr  = baddr[AddrBits-1:0];
  assign host_wdata = b_wdata[W-1:0];

  assign rd1_d  = b_req && !b_wr;
  assign rok1_d = host_re;
  assign rd2_d  = rd1_q;
  assign rok2_d = rok1_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rd1_q  <= 1'b0;
      rd2_q  <= 1'b0;
      rok1_q <= 1'b0;
      rok2_q <= 1'b0;
    end else begin
      rd1_q  <= rd1_d;
      rd2_q  <= rd2_d;
      rok1_q <= rok1_d;
      rok2_q <= rok2_d;
    end
  end

  mm_pke #(
    .NumPe    (NumPe),
    .WordWidth(W),
    .DspRegs  (DspRegs),
    .LoopRegs (LoopRegs),
    .Chunks   (Chunks),
    .QuotDelay(QuotDelay),
    .MaxWords (MaxWords),
    .ProgWords(ProgWords),
    .ModAlu   (ModAlu)
  ) u_pke (
    .clk_i       (clk_i),
    .rst_ni      (eng_rst_n),
    .start_i     (accept),
    .busy_o      (eng_busy),
    .done_o      (eng_done),
    .err_o       (eng_err),
    .err_code_o  (eng_code),
    .prog_we_i   (prog_we),
    .prog_addr_i (prog_addr),
    .prog_wdata_i(prog_wdata),
    .host_we_i   (host_we),
    .host_re_i   (host_re),
    .host_half_i (host_half),
    .host_addr_i (host_addr),
    .host_wdata_i(host_wdata),
    .host_rdata_o(host_rdata),
    .dbg_disp_o  (dbg_disp),
    .dbg_pc_o    (dbg_pc),
    .dbg_prod_o  (dbg_prod)
  );

  // ---------------------------------------------------------------------
  // Inputs of the register block (one process: hwif_in is one variable)
  always_comb begin
    // Build constants
    hwif_in.ARRAY.PES.next        = 16'(NumPe);
    hwif_in.ARRAY.W.next          = 5'(W);
    hwif_in.ARRAY.D.next          = 4'(QuotDelay);
    hwif_in.ARRAY.C.next          = 4'(Chunks);
    hwif_in.PIPE.DSP_REGS.next    = 4'(DspRegs);
    hwif_in.PIPE.LOOP_REGS.next   = 4'(LoopRegs);
    hwif_in.PIPE.LATENCY.next     = 8'(Latency);
    hwif_in.SIZES.MAX_WORDS.next  = 16'(MaxWords);
    hwif_in.SIZES.PROG_WORDS.next = 16'(ProgWords);
    hwif_in.MEMORY.BANK_WORDS.next = 16'(BankWords);
    hwif_in.MEMORY.INSTR_BITS.next = 8'(InstrBits);
    hwif_in.OPTIONS.MOD_ALU.next  = 1'(ModAlu);
    // Status
    hwif_in.STATUS.BUSY.next      = busy;
    hwif_in.STATUS.DONE.hwset     = stop;
    hwif_in.STATUS.DONE.hwclr     = accept;
    hwif_in.STATUS.ERR.next       = eng_err;
    hwif_in.STATUS.CODE.next      = eng_code;
    hwif_in.STATUS.IGNORED.hwset  = (start && !accept) || ((p_req || b_req) && busy);
    hwif_in.STATUS.ACCERR.hwset   = (p_req && !p_in) || (b_req && !(b_in && b_fit));
    hwif_in.CYCLES.COUNT.next     = cycles_q;
    // Program window: the store is acknowledged at once, PADDR advances.
    hwif_in.PDATA2.wr_ack         = p_req;
    hwif_in.PADDR.ADDR.we         = p_req;
    hwif_in.PADDR.ADDR.next       = paddr + 13'd1;
    // Bank window: a write is acknowledged at once, a read when the bank's
    // word is there; BSEL.ADDR advances with the request.
    hwif_in.BDATA.wr_ack          = b_req && b_wr;
    hwif_in.BDATA.rd_ack          = rd2_q;
    hwif_in.BDATA.rd_data.VALUE   = rok2_q ? 32'(host_rdata) : '0;
    hwif_in.BSEL.ADDR.we          = b_req;
    hwif_in.BSEL.ADDR.next        = baddr + 14'd1;
  end

  assign irq_o = hwif_out.CTRL.IRQ_EN.value && hwif_out.STATUS.DONE.value;

  // The debug ports of mm_pke serve its unit bench only.
  logic unused;
  assign unused = ^{dbg_disp, dbg_pc, dbg_prod};

endmodule
