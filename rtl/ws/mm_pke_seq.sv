// SPDX-License-Identifier: Apache-2.0
//
// mm_pke_seq: the sequencer of the public-key engine mm_pke (docs/pke.md,
// "Instruction set", "Cycles" and "The sequencer in RTL"), cycle-exact with
// montmul.models.pke.run:
//
//   * fetch and decode: the program memory (mm_pke_prog, read latency 2:
//     the EBR's address and output registers) is addressed with the next PC
//     every cycle, so the instruction at PC is on instr_i from the second
//     cycle after the PC changed (Timing.fetch = 2; iv_q marks it); an
//     instruction is dispatched in a cycle it is on instr_i and the state
//     allows (Timing.dispatch = 1).  Nothing decoded from instr_i reaches the
//     program memory's address in the same cycle through the memory itself:
//     the next PC is formed from registered fields only;
//   * REP/END: two loop counters (pke.MAX_LOOPS), a taken END costs no cycle;
//   * SETX and the exponent cursor: one cursor (base, window index, table
//     stride) for both halves, each half's next window read from its bank
//     into a register whenever the cursor moves, in a cycle the bank port is
//     free, and the table offset stride·window registered a cycle later
//     (toff_q), so no product is formed in a dispatch;
//   * ALU instructions: the command to each half's mm_pke_alu in the
//     dispatch cycle, the next dispatch the cycle after half 0's done_o;
//   * JOB: job_valid in the JOB's second cycle after dispatch (A's address
//     a + stride·window formed from the offset register), then the PROD
//     words fetched one every two cycles into a B queue (two products per half) and
//     a store-address FIFO (four per half); the array's load and B requests
//     answered from the banks two cycles later, its result stream written to
//     the store addresses; the next instruction dispatched in the cycle of
//     the job's last result word.
//
// Timing against the model (pke.Timing defaults): start_i taken at the edge
// ending cycle S; the instruction the model issues in cycle x is dispatched
// in cycle S + x (one cycle of fetch and decode before the model's issue
// cycle), so done_o (the HALT's dispatch) is high in cycle S + run().cycles.
// A JOB dispatched in D has job_valid in D + 2 (accepted at edge E = D + 3
// = model issue + job_start); the last result word is in E + 2 + chain.
//
// Errors (err_o, sticky until reset, with err_code_o; done_o pulses once):
// see the ErrX constants.  The engine stops; it never waits on a condition
// that cannot come.
`include "mm_macros.svh"

module mm_pke_seq #(
  parameter int WordWidth = 17,   // w: 16 .. 18 (four 4-bit windows per exponent word)
  parameter int PcBits    = 9,    // program address bits: 1 .. 12
  parameter int MaxWords  = 66,   // the array's largest word count m: 3 .. 1023
  // derived, not to be set
  localparam int AddrBits  = mm_pke_pkg::PkeAddrBits,  // bank address (the format's fields)
  localparam int GroupBits = AddrBits - 1,
  localparam int MWidth    = $clog2(MaxWords + 1),
  localparam int InstrBits = mm_pke_pkg::PkeInstrBits
) (
  input  logic                      clk_i,
  input  logic                      rst_ni,
  // control
  input  logic                      start_i,    // taken while idle (busy_o low, err_o low)
  output logic                      busy_o,
  output logic                      done_o,     // one cycle: HALT, or an error
  output logic                      err_o,      // sticky until reset
  output logic [3:0]                err_code_o,
  // program memory
  output logic [PcBits-1:0]         prog_raddr_o,
  input  logic [InstrBits-1:0]      instr_i,
  input  logic [InstrBits-1:0]      instr_next_i,  // the word on instr_i next cycle
  // ALU commands (both halves; index: half)
  output logic [1:0]                alu_valid_o,
  output logic [4:0]                alu_op_o,
  output logic                      alu_redc_o,
  output logic [AddrBits-1:0]       alu_dst_o,
  output logic [AddrBits-1:0]       alu_a_o,
  output logic [AddrBits-1:0]       alu_b_o,
  output logic [AddrBits-1:0]       alu_rows_o,
  output logic [9:0]                alu_n_o,
  input  logic                      alu_done_i,   // half 0's done_o
  output logic                      xa_o,         // operand a from the other bank ...
  output logic                      xg_o,         // ... on this group (held until the next ALU op)
  input  logic [3:0]                alu_rd_i,     // the ALUs' read requests per bank port (2h + g)
  // mm_ws_array native interface
  output logic                      job_valid_o,
  input  logic                      job_ready_i,
  output logic [MWidth-1:0]         job_words_o,
  output logic [15:0]               job_prods_o,
  output logic                      job_load_o,
  output logic                      job_two_o,
  input  logic                      job_err_i,
  input  logic                      ld_req_i,
  input  logic                      ld_half_i,
  output logic [WordWidth-1:0]      ld_a_o,
  output logic [WordWidth-1:0]      ld_m_o,
  input  logic                      b_req_i,
  input  logic                      b_half_i,
  output logic [WordWidth-1:0]      b_o,
  output logic                      b_sq_o,
  input  logic                      res_valid_i,
  input  logic                      res_half_i,
  input  logic [WordWidth-1:0]      res_word_i,
  // the banks' ports for the array streams and the window reads (index 2h + g)
  output logic [3:0]                mem_rd_en_o,
  output logic [3:0][GroupBits-1:0] mem_rd_addr_o,
  input  logic [3:0][WordWidth-1:0] mem_rd_data_i,
  output logic [3:0]                mem_wr_en_o,
  output logic [3:0][GroupBits-1:0] mem_wr_addr_o,
  output logic [1:0][WordWidth-1:0] mem_wr_data_o,  // per half
  // debug: main-timeline dispatches with their PC, products' first B request (half 0)
  output logic                      dbg_disp_o,
  output logic [PcBits-1:0]         dbg_pc_o,
  output logic                      dbg_prod_o
);

  if (WordWidth < 16 || WordWidth > 18) begin : gen_bad_width
    `MM_FATAL("mm_pke_seq: WordWidth must be in [16, 18] (four 4-bit windows per exponent word)")
  end
  if (PcBits < 1 || PcBits > 12) begin : gen_bad_pc
    `MM_FATAL("mm_pke_seq: PcBits must be in [1, 12]")
  end
  if (MaxWords < 3 || MaxWords > 1023) begin : gen_bad_words
    `MM_FATAL("mm_pke_seq: MaxWords must be in [3, 1023]")
  end

  // The instruction format: mm_pke_pkg, generated from montmul.models.pke.
  localparam logic [4:0] OpHalt = mm_pke_pkg::OpHalt, OpJob = mm_pke_pkg::OpJob,
                         OpProd = mm_pke_pkg::OpProd, OpRep = mm_pke_pkg::OpRep,
                         OpEnd = mm_pke_pkg::OpEnd, OpSetx = mm_pke_pkg::OpSetx,
                         OpMov = mm_pke_pkg::OpMov, OpAdd = mm_pke_pkg::OpAdd,
                         OpSub = mm_pke_pkg::OpSub, OpSel = mm_pke_pkg::OpSel,
                         OpMacr = mm_pke_pkg::OpMacr;
  // flags
  localparam int FH0 = mm_pke_pkg::FH0, FXA = mm_pke_pkg::FXA, FLoad = mm_pke_pkg::FLoad,
                 FAtab = mm_pke_pkg::FAtab, FBsq = mm_pke_pkg::FBsq, FBtab = mm_pke_pkg::FBtab,
                 FStore = mm_pke_pkg::FStore, FRedc = mm_pke_pkg::FRedc;
  // error codes (err_code_o)
  localparam logic [3:0] ErrOpcode = 4'd1,   // unknown opcode
                         ErrProd   = 4'd2,   // PROD outside a JOB, or another op inside one
                         ErrLoop   = 4'd3,   // REP 0 or deeper than two, END without REP,
                                             // a job's last PROD inside an unfinished REP
                         ErrJob    = 4'd4,   // JOB: no LOAD, no product, m above MaxWords,
                                             // A and M in one EBR group
                         ErrArray  = 4'd5,   // the array dropped the job (job_err)
                         ErrWindow = 4'd6,   // JOB.ATAB before the window was read
                         ErrStream = 4'd7,   // a B request or result without its PROD
                         ErrPort   = 4'd8,   // two array reads on one bank port
                         ErrPc     = 4'd9,   // the PC ran past the program memory
                         ErrXa     = 4'd10,  // XA on MACR, or ADD/SUB/SEL XA with a, b in one group
                         ErrLen    = 4'd11;  // ALU op with n = 0 (MACR: or no rows)

  typedef enum logic [3:0] {
    StIdle, StRun, StWait, StWait2, StAlu, StJob1, StJob2, StJobRun, StErr
  } state_e;

  // Queue entries {flag, address}: B queue (flag: SQ), store FIFO (flag: ST).
  // Flat vectors: Icarus 11 cannot select within a variably indexed element
  // of a multi-dimensional packed array.
  localparam int EntBits = AddrBits + 1;

  // instruction fields
  logic [4:0]          f_op, f_flags;
  logic [AddrBits-1:0] f_dst, f_a, f_b, f_c;
  logic [9:0]          f_n;
  assign f_op    = instr_i[mm_pke_pkg::FldOpLsb +: 5];
  assign f_flags = instr_i[mm_pke_pkg::FldFlagsLsb +: 5];
  assign f_dst   = instr_i[mm_pke_pkg::FldDstLsb +: AddrBits];
  assign f_a     = instr_i[mm_pke_pkg::FldALsb +: AddrBits];
  assign f_b     = instr_i[mm_pke_pkg::FldBLsb +: AddrBits];
  assign f_c     = instr_i[mm_pke_pkg::FldCLsb +: AddrBits];
  assign f_n     = instr_i[mm_pke_pkg::FldNLsb +: 10];

  // Pre-decode: the opcode's classes and the field checks of the errors,
  // formed from the program memory's block RAM output and registered beside
  // instr_i (dec_q describes the word on instr_i)
  localparam int DProd = 0, DRep = 1, DEnd = 2, DSetx = 3, DHalt = 4, DAlu = 5,
                 DBadOp = 6, DErrLen = 7, DErrXa = 8, DErrJob = 9, DRepZero = 10,
                 DecBits = 11;
  logic [DecBits-1:0] dec_q, dec_d;
  logic               unused_next;  // the fields not checked before dispatch
  assign unused_next = ^instr_next_i;
  always_comb begin
    logic [4:0]          n_op, n_flags;
    logic [AddrBits-1:0] n_a, n_b, n_c;
    logic [9:0]          n_n;
    logic                n_job, n_stream2, n_macr;
    n_op    = instr_next_i[mm_pke_pkg::FldOpLsb +: 5];
    n_flags = instr_next_i[mm_pke_pkg::FldFlagsLsb +: 5];
    n_a     = instr_next_i[mm_pke_pkg::FldALsb +: AddrBits];
    n_b     = instr_next_i[mm_pke_pkg::FldBLsb +: AddrBits];
    n_c     = instr_next_i[mm_pke_pkg::FldCLsb +: AddrBits];
    n_n     = instr_next_i[mm_pke_pkg::FldNLsb +: 10];
    dec_d           = '0;
    n_job           = (n_op == OpJob);
    n_stream2       = (n_op == OpAdd) || (n_op == OpSub) || (n_op == OpSel);
    n_macr          = (n_op == OpMacr);
    dec_d[DProd]    = (n_op == OpProd);
    dec_d[DRep]     = (n_op == OpRep);
    dec_d[DEnd]     = (n_op == OpEnd);
    dec_d[DSetx]    = (n_op == OpSetx);
    dec_d[DHalt]    = (n_op == OpHalt);
    dec_d[DAlu]     = (n_op >= OpMov) && (n_op <= OpMacr);
    dec_d[DBadOp]   = (n_op > OpMacr);
    dec_d[DErrLen]  = dec_d[DAlu] && (n_n == '0 || (n_macr && n_c == '0));
    dec_d[DErrXa]   = dec_d[DAlu] && n_flags[FXA]
                      && (n_macr || (n_stream2 && n_a[AddrBits-1] == n_b[AddrBits-1]));
    dec_d[DErrJob]  = n_job && (!n_flags[FLoad] || n_b == '0 || n_n > 10'(MaxWords)
                                      || n_a[AddrBits-1] == n_c[AddrBits-1]);
    dec_d[DRepZero] = (n_n == 10'd0);
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      dec_q <= '0;
    end else begin
      dec_q <= dec_d;
    end
  end

  state_e               st_q, st_d;
  logic [PcBits-1:0]    pc_q, pc_d;
  logic                 pc_new;          // the PC moves at this cycle's end
  logic                 iv_q, iv_d, ivp_q;  // instr_i is the word at pc_q
  logic                 err_q, err_d;
  logic [3:0]           ecode_q, ecode_d;
  // loops
  logic [1:0]           depth_q, depth_d;
  logic [1:0][9:0]      lcnt_q, lcnt_d;
  logic [1:0][PcBits-1:0] lstart_q, lstart_d;
  // exponent cursor and windows
  logic [9:0]           xidx_q, xidx_d;
  logic [AddrBits-1:0]  wa_q, wa_d;      // the window's word: SETX's a + xidx / 4 (kept, not added)
  logic [1:0][3:0]      win_q, win_d;
  logic [AddrBits-1:0]  xstride_q, xstride_d;  // the table stride (SETX's b)
  logic [1:0][AddrBits-1:0] toff_q, toff_d;    // stride·window, per half
  logic [1:0]           tok_q, tok_d;          // toff_q is of the current window
  logic [1:0]           wok_q, wok_d, wpend_q, wpend_d, wp1_q, wp1_d, wp2_q, wp2_d;
  logic [1:0][1:0]      wsel1_q, wsel1_d, wsel2_q, wsel2_d;
  logic [1:0]           wg1_q, wg1_d, wg2_q, wg2_d;
  // the running job
  logic [AddrBits-1:0]  ja_q, ja_d, jm_q, jm_d, jprods_q, jprods_d;
  logic [9:0]           jwords_q, jwords_d;
  logic [AddrBits-1:0]  jpm1_q, jpm1_d;    // jprods - 1 and jwords - 1, registered with them
  logic [9:0]           jwm1_q, jwm1_d;
  logic                 jtwo_q, jtwo_d, jatab_q, jatab_d;
  logic [1:0]           jdepth_q, jdepth_d;
  logic [AddrBits-1:0]  pushed_q, pushed_d;
  logic                 pdone_q, pdone_d;  // pushed == jprods: the job's PROD words are all taken
  logic [1:0][AddrBits-1:0] aaddr_q, aaddr_d;
  // load stream, per half
  logic [1:0][9:0]      lv_q, lv_d;
  // per half, the stream counters' tests kept as flags (set when the
  // counter moves, so no compare sits behind a request): lv = m, lv = 0,
  // bx = 0, bx = m - 1, rx = 0, rx = m - 1, rp = prods - 1
  logic [1:0]           az_q, az_d, mz_q, mz_d, bz_q, bz_d, bl_q, bl_d;
  logic [1:0]           rz_q, rz_d, rl_q, rl_d, rpl_q, rpl_d;
  logic [9:0]           jwm2_q, jwm2_d;
  logic [AddrBits-1:0]  jpm2_q, jpm2_d;
  logic [1:0][AddrBits-1:0] laptr_q, laptr_d, lmptr_q, lmptr_d;
  logic                 lh1_q, lh1_d, lh2_q, lh2_d;
  logic                 laz1_q, laz1_d, laz2_q, laz2_d, lmz1_q, lmz1_d, lmz2_q, lmz2_d;
  logic                 lga1_q, lga1_d, lga2_q, lga2_d, lgm1_q, lgm1_d, lgm2_q, lgm2_d;
  // B stream, per half
  logic [1:0][9:0]      bx_q, bx_d;
  logic [1:0][AddrBits-1:0] bptr_q, bptr_d;
  logic [1:0]           bsq_q, bsq_d, bfirst_q, bfirst_d;
  logic                 bh1_q, bh1_d, bh2_q, bh2_d;
  logic                 bs1_q, bs1_d, bs2_q, bs2_d, bg1_q, bg1_d, bg2_q, bg2_d;
  logic [4*EntBits-1:0] bq_q, bq_d;   // B queue, entry i of half h at 2h + i (bent_t)
  logic [1:0][1:0]      bqn_q, bqn_d;
  // result stream, per half
  logic [1:0][9:0]      rx_q, rx_d;
  logic [1:0][AddrBits-1:0] rptr_q, rptr_d, rp_q, rp_d;
  logic [1:0]           rst_q, rst_d;
  logic [8*EntBits-1:0] sq_q, sq_d;   // store FIFO, entry i of half h at 4h + i (sent_t)
  logic [1:0][2:0]      sqn_q, sqn_d;
  // ALU operand swap
  logic                 xa_q, xa_d, xg_q, xg_d;

  // ---- combinational helpers (continuous assignments: Icarus 11 re-runs an
  // always_comb that reads a variable it writes under a variable index)
  logic                 disp, job_last, fetch, h0, tab, is_alu;
  // the result stream, registered on entry (res_*_q); its write and the
  // job's end registered again: a result word is written, and the job
  // ends, two cycles after it is on the stream (Timing.res_regs)
  logic                 res_v_q, res_h_q;
  logic [WordWidth-1:0] res_w_q;
  logic                 last_q;
  logic [3:0]           rwen_q, rwen_d;
  logic [GroupBits-1:0] rwaddr_q;
  logic [WordWidth-1:0] rword_q;
  logic                 prod_room, prod_go, setx_now;
  logic [AddrBits-1:0]  wa;
  logic [1:0][AddrBits-1:0] tab_addr, atab_addr;
  logic [1:0]           act;
  // load requests
  logic [AddrBits-1:0]  lap, lmp;
  logic                 ld_az, ld_mz, lda_en, ldm_en;
  logic [1:0]           lda_p, ldm_p;
  // B requests
  logic [EntBits-1:0]   bhead, rhead;
  logic                 b_new, b_first, b_sqv, br_en, r_new, r_st;
  logic [1:0]           br_p, rw_p;
  logic [AddrBits-1:0]  b_addr, r_addr;
  logic [3:0]           arr_rd, w_rd;
  logic [3:0][GroupBits-1:0] arr_addr;
  logic                 port_clash;
  logic [1:0]           bpop, bpush, spop, w_issue;
  logic [1:0][EntBits-1:0] bent;
  logic [EntBits-1:0]   sent;
  logic [1:0][3:0]      wdig;
  logic [1:0][WordWidth-1:0] wword;
  // error conditions of this cycle
  logic                 err_now;
  logic [3:0]           ecode_now;
  // an error is acted on a cycle after it is seen (off the request paths)
  logic                 epend_q;
  logic [3:0]           epcode_q;

  assign h0 = f_flags[FH0];
  assign tab = f_flags[FBtab] && !f_flags[FBsq];
  assign is_alu = dec_q[DAlu];
  assign wa = wa_q;
  // a table entry: base + the registered offset stride·window
  assign tab_addr[0]  = f_b + toff_q[0];
  assign tab_addr[1]  = f_b + toff_q[1];
  assign atab_addr[0] = jatab_q ? ja_q + toff_q[0] : ja_q;
  assign atab_addr[1] = jatab_q ? ja_q + toff_q[1] : ja_q;
  assign act = {jtwo_q, 1'b1};

  // the job's last result word: half 1's (half 0's for an H0 job) of the last product
  assign job_last = res_v_q && (res_h_q == jtwo_q) && rl_q[res_h_q] && rpl_q[res_h_q];
  assign disp  = iv_q && ((st_q == StRun)
                         || (st_q == StJobRun && pdone_q && last_q));
  assign fetch = iv_q && (st_q == StJobRun) && !pdone_q;
  assign setx_now = disp && dec_q[DSetx];
  // a PROD word is taken when both halves' queues have room and its window is read
  assign prod_room = bqn_q[0] != 2'd2 && bqn_q[1] != 2'd2 && sqn_q[0] != 3'd4 && sqn_q[1] != 3'd4
                     && (!tab || (tok_q[0] && (!jtwo_q || tok_q[1])));
  assign prod_go = fetch && dec_q[DProd] && prod_room;

  // load request: (a_v, M_(v-1)); a_m = 0 and M_(-1) = 0 are not read
  assign lap    = laptr_q[ld_half_i];
  assign lmp    = lmptr_q[ld_half_i];
  assign ld_az  = az_q[ld_half_i];
  assign ld_mz  = mz_q[ld_half_i];
  assign lda_en = ld_req_i && !ld_az;
  assign ldm_en = ld_req_i && !ld_mz;
  assign lda_p  = {ld_half_i, lap[AddrBits-1]};
  assign ldm_p  = {ld_half_i, lmp[AddrBits-1]};
  // B request: a product's first word takes its B from the queue; the job's
  // first product with SQ streams A (from A's address)
  assign bhead   = b_half_i ? bq_q[2 * EntBits +: EntBits] : bq_q[0 +: EntBits];
  assign b_new   = bz_q[b_half_i];
  assign b_first = bfirst_q[b_half_i];
  assign b_sqv   = b_new ? (bhead[AddrBits] && !b_first) : bsq_q[b_half_i];
  assign b_addr  = !b_new ? bptr_q[b_half_i] : (bhead[AddrBits] && b_first) ? aaddr_q[b_half_i]
                                                                          : bhead[AddrBits-1:0];
  assign br_en   = b_req_i && !b_sqv;
  assign br_p    = {b_half_i, b_addr[AddrBits-1]};
  // result word: a product's first word takes its store address from the FIFO
  assign rhead   = res_h_q ? sq_q[4 * EntBits +: EntBits] : sq_q[0 +: EntBits];
  assign r_new   = rz_q[res_h_q];
  assign r_st    = r_new ? rhead[AddrBits] : rst_q[res_h_q];
  assign r_addr  = r_new ? rhead[AddrBits-1:0] : rptr_q[res_h_q];
  assign rw_p    = {res_h_q, r_addr[AddrBits-1]};
  assign port_clash = (lda_en && ldm_en && lda_p == ldm_p) || (lda_en && br_en && lda_p == br_p)
                      || (ldm_en && br_en && ldm_p == br_p);

  for (genvar p = 0; p < 4; p++) begin : gen_port
    assign arr_rd[p]   = (lda_en && lda_p == 2'(p)) || (ldm_en && ldm_p == 2'(p))
                         || (br_en && br_p == 2'(p));
    assign arr_addr[p] = (lda_en && lda_p == 2'(p)) ? lap[GroupBits-1:0]
                       : (ldm_en && ldm_p == 2'(p)) ? lmp[GroupBits-1:0] : b_addr[GroupBits-1:0];
    assign w_rd[p]     = w_issue[p / 2] && (wa[AddrBits-1] == 1'(p % 2));
    assign mem_rd_en_o[p]   = arr_rd[p] || w_rd[p];
    assign mem_rd_addr_o[p] = arr_rd[p] ? arr_addr[p] : wa[GroupBits-1:0];
    assign rwen_d[p]        = res_v_q && r_st && (rw_p == 2'(p));
    assign mem_wr_en_o[p]   = rwen_q[p];
    assign mem_wr_addr_o[p] = rwaddr_q;
  end
  assign mem_wr_data_o = {rword_q, rword_q};

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      epend_q  <= 1'b0;
      epcode_q <= '0;
      res_v_q  <= 1'b0;
      res_h_q  <= 1'b0;
      res_w_q  <= '0;
      last_q   <= 1'b0;
      rwen_q   <= '0;
      rwaddr_q <= '0;
      rword_q  <= '0;
    end else begin
      epend_q  <= err_now && !epend_q && !err_q;  // the first error only
      epcode_q <= ecode_now;
      res_v_q  <= res_valid_i;
      res_h_q  <= res_half_i;
      res_w_q  <= res_word_i;
      last_q   <= job_last;
      rwen_q   <= rwen_d;
      rwaddr_q <= r_addr[GroupBits-1:0];
      rword_q  <= res_w_q;
    end
  end

  for (genvar h = 0; h < 2; h++) begin : gen_h
    // the window read: the cursor moved in an earlier cycle, the port is free
    // (bank ports are indexed {half, group}: concatenations, not 2h + g, which
    // Yosys can map to a multiplier)
    assign w_issue[h] = wpend_q[h] && !setx_now && !arr_rd[{1'(h), wa[AddrBits-1]}]
                        && !alu_rd_i[{1'(h), wa[AddrBits-1]}];
    // window sel of the word (most significant first: bits 15..12 for sel 0)
    assign wword[h] = mem_rd_data_i[{1'(h), wg2_q[h]}];
    assign wdig[h]  = 4'(wword[h] >> {2'd3 - wsel2_q[h], 2'b00});
    assign bpop[h]  = b_req_i && (b_half_i == 1'(h)) && b_new;
    assign spop[h]  = res_v_q && (res_h_q == 1'(h)) && r_new;
    assign bpush[h] = prod_go && act[h];
    assign bent[h]  = {f_flags[FBsq], tab ? tab_addr[h] : f_b};
    // the table offset of the window in win_q, a cycle after it (shifts and adds)
    assign toff_d[h] = ({AddrBits{win_q[h][0]}} & xstride_q)
                     + ({AddrBits{win_q[h][1]}} & (xstride_q << 1))
                     + ({AddrBits{win_q[h][2]}} & (xstride_q << 2))
                     + ({AddrBits{win_q[h][3]}} & (xstride_q << 3));
    assign tok_d[h]  = wok_q[h] && wok_d[h];
  end
  // the word on instr_i is the one at pc_q unless the PC moved in the last
  // cycle (or the memory has not been read since reset)
  assign iv_d = ivp_q && !pc_new;
  assign sent = {f_flags[FStore], f_dst};

  assign ld_a_o = laz2_q ? '0 : mem_rd_data_i[{lh2_q, lga2_q}];
  assign ld_m_o = lmz2_q ? '0 : mem_rd_data_i[{lh2_q, lgm2_q}];
  assign b_o    = mem_rd_data_i[{bh2_q, bg2_q}];
  assign b_sq_o = bs2_q;
  assign dbg_prod_o = b_req_i && !b_half_i && (bx_q[0] == 10'd0);

  // A two-entry queue {count, entries} after a pop and a push.
  function automatic logic [2*EntBits+1:0] q2_next(input logic [2*EntBits-1:0] q,
      input logic [1:0] n, input logic pop, input logic push, input logic [EntBits-1:0] e);
    logic [2*EntBits-1:0] r;
    logic [1:0] c;
    r = q;
    c = n;
    if (pop) begin
      r[EntBits-1:0] = q[2*EntBits-1:EntBits];
      c = n - 2'd1;
    end
    if (push) begin
      if (c == 2'd0) begin
        r[EntBits-1:0] = e;
      end else begin
        r[2*EntBits-1:EntBits] = e;
      end
      c = c + 2'd1;
    end
    q2_next = {c, r};
  endfunction

  // A four-entry FIFO {count, entries} after a pop and a push.
  function automatic logic [4*EntBits+2:0] q4_next(input logic [4*EntBits-1:0] q,
      input logic [2:0] n, input logic pop, input logic push, input logic [EntBits-1:0] e);
    logic [4*EntBits-1:0] r;
    logic [2:0] c;
    r = q;
    c = n;
    if (pop) begin
      r = {e, q[4*EntBits-1:EntBits]};
      c = n - 3'd1;
    end
    if (push) begin
      case (c)
        3'd0:    r[EntBits-1:0] = e;
        3'd1:    r[2*EntBits-1:EntBits] = e;
        3'd2:    r[3*EntBits-1:2*EntBits] = e;
        default: r[4*EntBits-1:3*EntBits] = e;
      endcase
      c = c + 3'd1;
    end
    q4_next = {c, r};
  endfunction

  // ---- error conditions
  always_comb begin
    err_now = 1'b0;
    ecode_now = '0;
    if (job_err_i) begin
      err_now = 1'b1;
      ecode_now = ErrArray;
    end
    if (port_clash) begin
      err_now = 1'b1;
      ecode_now = ErrPort;
    end
    if ((bpop[0] && bqn_q[0] == 2'd0) || (bpop[1] && bqn_q[1] == 2'd0)
        || (spop[0] && sqn_q[0] == 3'd0) || (spop[1] && sqn_q[1] == 3'd0)
        || (last_q && !disp)) begin
      err_now = 1'b1;
      ecode_now = ErrStream;
    end
    if (st_q == StJob2 && jatab_q && (!tok_q[0] || (jtwo_q && !tok_q[1]))) begin
      err_now = 1'b1;
      ecode_now = ErrWindow;
    end
    if (fetch && !dec_q[DProd] && !dec_q[DRep] && !dec_q[DEnd]) begin
      err_now = 1'b1;
      ecode_now = ErrProd;
    end
    if (prod_go && pushed_q == jpm1_q && depth_q != jdepth_q) begin
      err_now = 1'b1;
      ecode_now = ErrLoop;
    end
    if ((disp || fetch) && dec_q[DRep] && (dec_q[DRepZero] || depth_q == 2'd2)) begin
      err_now = 1'b1;
      ecode_now = ErrLoop;
    end
    if ((disp || fetch) && dec_q[DEnd]
        && (depth_q == 2'd0 || (fetch && depth_q == jdepth_q))) begin
      err_now = 1'b1;
      ecode_now = ErrLoop;
    end
    if (disp) begin
      if (dec_q[DErrLen]) begin
        err_now = 1'b1;
        ecode_now = ErrLen;
      end
      if (dec_q[DErrXa]) begin
        err_now = 1'b1;
        ecode_now = ErrXa;
      end
      if (dec_q[DProd]) begin
        err_now = 1'b1;
        ecode_now = ErrProd;
      end
      if (dec_q[DErrJob]) begin
        err_now = 1'b1;
        ecode_now = ErrJob;
      end
      if (dec_q[DBadOp]) begin
        err_now = 1'b1;
        ecode_now = ErrOpcode;
      end
    end
    if (((disp && !dec_q[DHalt]) || prod_go || (fetch && (dec_q[DRep] || dec_q[DEnd])))
        && pc_q == '1 && !(dec_q[DEnd] && lcnt_q[depth_q[0] ^ 1'b1] != 10'd1)) begin
      err_now = 1'b1;
      ecode_now = ErrPc;
    end
  end

  // ---- next state
  always_comb begin
    st_d      = st_q;
    pc_d      = pc_q;
    pc_new    = 1'b0;
    err_d     = err_q || epend_q;
    ecode_d   = err_q ? ecode_q : epcode_q;
    depth_d   = depth_q;
    lcnt_d    = lcnt_q;
    lstart_d  = lstart_q;
    xidx_d    = xidx_q;
    wa_d      = wa_q;
    win_d     = win_q;
    xstride_d = xstride_q;
    wok_d     = wok_q;
    wpend_d   = wpend_q & ~w_issue;
    wp1_d     = w_issue;
    wp2_d     = wp1_q;
    wsel1_d   = {xidx_q[1:0], xidx_q[1:0]};
    wsel2_d   = wsel1_q;
    wg1_d     = {wa[AddrBits-1], wa[AddrBits-1]};
    wg2_d     = wg1_q;
    ja_d      = ja_q;
    jm_d      = jm_q;
    jprods_d  = jprods_q;
    jwords_d  = jwords_q;
    jpm1_d    = jpm1_q;
    jwm1_d    = jwm1_q;
    jtwo_d    = jtwo_q;
    jatab_d   = jatab_q;
    jdepth_d  = jdepth_q;
    pushed_d  = pushed_q;
    pdone_d   = pdone_q;
    aaddr_d   = aaddr_q;
    lv_d      = lv_q;
    az_d      = az_q;
    mz_d      = mz_q;
    bz_d      = bz_q;
    bl_d      = bl_q;
    rz_d      = rz_q;
    rl_d      = rl_q;
    rpl_d     = rpl_q;
    jwm2_d    = jwm2_q;
    jpm2_d    = jpm2_q;
    laptr_d   = laptr_q;
    lmptr_d   = lmptr_q;
    bx_d      = bx_q;
    bptr_d    = bptr_q;
    bsq_d     = bsq_q;
    bfirst_d  = bfirst_q;
    rx_d      = rx_q;
    rptr_d    = rptr_q;
    rp_d      = rp_q;
    rst_d     = rst_q;
    xa_d      = xa_q;
    xg_d      = xg_q;
    done_o    = 1'b0;
    alu_valid_o = 2'b00;
    job_valid_o = 1'b0;
    dbg_disp_o  = 1'b0;
    lh1_d  = ld_half_i;
    laz1_d = ld_az;
    lmz1_d = ld_mz;
    lga1_d = lap[AddrBits-1];
    lgm1_d = lmp[AddrBits-1];
    lh2_d  = lh1_q;
    laz2_d = laz1_q;
    lmz2_d = lmz1_q;
    lga2_d = lga1_q;
    lgm2_d = lgm1_q;
    bh1_d  = b_half_i;
    bs1_d  = b_sqv;
    bg1_d  = b_addr[AddrBits-1];
    bh2_d  = bh1_q;
    bs2_d  = bs1_q;
    bg2_d  = bg1_q;
    {bqn_d[0], bq_d[0 +: 2*EntBits]} = q2_next(bq_q[0 +: 2*EntBits], bqn_q[0], bpop[0],
                                               bpush[0], bent[0]);
    {bqn_d[1], bq_d[2*EntBits +: 2*EntBits]} = q2_next(bq_q[2*EntBits +: 2*EntBits], bqn_q[1],
                                                       bpop[1],
                                                       bpush[1], bent[1]);
    {sqn_d[0], sq_d[0 +: 4*EntBits]} = q4_next(sq_q[0 +: 4*EntBits], sqn_q[0], spop[0],
                                               bpush[0], sent);
    {sqn_d[1], sq_d[4*EntBits +: 4*EntBits]} = q4_next(sq_q[4*EntBits +: 4*EntBits], sqn_q[1],
                                                       spop[1],
                                                       bpush[1], sent);

    // the window words return two cycles after their address
    if (wp2_q[0]) begin
      win_d[0] = wdig[0];
      wok_d[0] = 1'b1;
    end
    if (wp2_q[1]) begin
      win_d[1] = wdig[1];
      wok_d[1] = 1'b1;
    end

    // load, B and result streams: the pointers
    if (ld_req_i) begin
      laptr_d[ld_half_i] = lap + AddrBits'(1);
      if (ldm_en) begin
        lmptr_d[ld_half_i] = lmp + AddrBits'(1);
      end
      lv_d[ld_half_i] = lv_q[ld_half_i] + 10'd1;
      mz_d[ld_half_i] = 1'b0;
      az_d[ld_half_i] = (lv_q[ld_half_i] == jwm1_q);
    end
    if (b_req_i) begin
      if (b_new) begin
        bsq_d[b_half_i]    = b_sqv;
        bfirst_d[b_half_i] = 1'b0;
      end
      bptr_d[b_half_i] = b_addr + AddrBits'(1);
      bx_d[b_half_i] = bl_q[b_half_i] ? 10'd0 : bx_q[b_half_i] + 10'd1;
      bz_d[b_half_i] = bl_q[b_half_i];
      bl_d[b_half_i] = !bl_q[b_half_i] && (bx_q[b_half_i] == jwm2_q);
    end
    if (res_v_q) begin
      if (r_new) begin
        rst_d[res_h_q] = r_st;
      end
      rptr_d[res_h_q] = r_addr + AddrBits'(1);
      rz_d[res_h_q] = rl_q[res_h_q];
      rl_d[res_h_q] = !rl_q[res_h_q] && (rx_q[res_h_q] == jwm2_q);
      if (rl_q[res_h_q]) begin
        rx_d[res_h_q] = 10'd0;
        rp_d[res_h_q] = rp_q[res_h_q] + AddrBits'(1);
        rpl_d[res_h_q] = (rp_q[res_h_q] == jpm2_q);
      end else begin
        rx_d[res_h_q] = rx_q[res_h_q] + 10'd1;
      end
    end

    // main timeline states
    case (st_q)
      StIdle: begin
        pc_d = '0;
        if (start_i && !err_q) begin
          st_d = StRun;
        end
      end
      StWait:  st_d = StWait2;
      StWait2: st_d = StRun;
      StAlu: begin
        if (alu_done_i) begin
          st_d = StRun;
        end
      end
      StJob1: st_d = StJob2;
      StJob2: begin
        job_valid_o = 1'b1;
        aaddr_d   = atab_addr;
        laptr_d   = atab_addr;
        lmptr_d   = {jm_q, jm_q};
        lv_d      = '0;
        bx_d      = '0;
        rx_d      = '0;
        rp_d      = '0;
        az_d      = '0;
        mz_d      = '1;
        bz_d      = '1;
        bl_d      = '0;
        rz_d      = '1;
        rl_d      = '0;
        rpl_d     = {2{jpm1_q == '0}};
        bfirst_d  = 2'b11;
        if (job_ready_i) begin
          st_d = StJobRun;
          pushed_d = '0;
          pdone_d  = 1'b0;
          if (jatab_q) begin
            xidx_d  = xidx_q + 10'd1;
            wa_d    = wa_q + AddrBits'(xidx_q[1:0] == 2'd3);
            wok_d   = 2'b00;
            wpend_d = 2'b11;
          end
        end
      end
      default: ;
    endcase

    // a JOB's PROD words, one a cycle
    if (prod_go) begin
      if (tab) begin
        xidx_d  = xidx_q + 10'd1;
        wa_d    = wa_q + AddrBits'(xidx_q[1:0] == 2'd3);
        wok_d   = 2'b00;
        wpend_d = 2'b11;
      end
      pushed_d = pushed_q + AddrBits'(1);
      pdone_d  = (pushed_q == jpm1_q);
      pc_d = pc_q + PcBits'(1);
      pc_new = 1'b1;
    end

    // REP and END (main timeline, or between a JOB's PRODs): no cycle of their own
    if ((disp || fetch) && dec_q[DRep]) begin
      pc_d = pc_q + PcBits'(1);
      pc_new = 1'b1;
      lcnt_d[depth_q[0]]   = f_n;
      lstart_d[depth_q[0]] = pc_q + PcBits'(1);
      depth_d = depth_q + 2'd1;
    end
    if ((disp || fetch) && dec_q[DEnd]) begin
      if (lcnt_q[depth_q[0] ^ 1'b1] == 10'd1) begin
        depth_d = depth_q - 2'd1;
        pc_d = pc_q + PcBits'(1);
        pc_new = 1'b1;
      end else begin
        lcnt_d[depth_q[0] ^ 1'b1] = lcnt_q[depth_q[0] ^ 1'b1] - 10'd1;
        pc_d = lstart_q[depth_q[0] ^ 1'b1];
        pc_new = 1'b1;
      end
    end

    // the other instructions, at their dispatch
    if (disp) begin
      dbg_disp_o = 1'b1;
      st_d = StRun;
      if (is_alu) begin
        pc_d = pc_q + PcBits'(1);
        pc_new = 1'b1;
        alu_valid_o = {!h0, 1'b1};
        xa_d = f_flags[FXA];
        xg_d = f_a[AddrBits-1];
        st_d = StAlu;
      end
      case (f_op)
        OpHalt: begin
          done_o = 1'b1;
          st_d = StIdle;
          pc_d = '0;
          pc_new = 1'b1;
        end
        OpSetx: begin
          pc_d    = pc_q + PcBits'(1);
          pc_new  = 1'b1;
          xidx_d  = f_n;
          wa_d    = f_a + AddrBits'(f_n[9:2]);
          xstride_d = f_b;
          wok_d   = 2'b00;
          wpend_d = 2'b11;
          wp1_d   = 2'b00;
          wp2_d   = 2'b00;  // drop a read in flight
          st_d    = StWait;
        end
        OpJob: begin
          pc_d      = pc_q + PcBits'(1);
          pc_new    = 1'b1;
          ja_d      = f_a;
          jm_d      = f_c;
          jprods_d  = f_b;
          jwords_d  = f_n;
          jpm1_d    = f_b - AddrBits'(1);
          jwm1_d    = f_n - 10'd1;
          jwm2_d    = f_n - 10'd2;
          jpm2_d    = f_b - AddrBits'(2);
          jtwo_d    = !h0;
          jatab_d   = f_flags[FAtab];
          jdepth_d  = depth_q;
          st_d      = StJob1;
        end
        default: ;
      endcase
    end

    if (epend_q && !err_q) begin
      st_d = StErr;
      done_o = 1'b1;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      st_q      <= StIdle;
      pc_q      <= '0;
      err_q     <= 1'b0;
      ecode_q   <= '0;
      depth_q   <= '0;
      lcnt_q    <= '0;
      lstart_q  <= '0;
      xidx_q    <= '0;
      wa_q      <= '0;
      win_q     <= '0;
      xstride_q <= '0;
      toff_q    <= '0;
      tok_q     <= '0;
      iv_q      <= 1'b0;
      ivp_q     <= 1'b0;
      wok_q     <= '0;
      wpend_q   <= '0;
      wp1_q     <= '0;
      wp2_q     <= '0;
      wsel1_q   <= '0;
      wsel2_q   <= '0;
      wg1_q     <= '0;
      wg2_q     <= '0;
      ja_q      <= '0;
      jm_q      <= '0;
      jprods_q  <= '0;
      jwords_q  <= '0;
      jpm1_q    <= '0;
      jwm1_q    <= '0;
      jtwo_q    <= 1'b0;
      jatab_q   <= 1'b0;
      jdepth_q  <= '0;
      pushed_q  <= '0;
      pdone_q   <= 1'b0;
      aaddr_q   <= '0;
      lv_q      <= '0;
      az_q      <= '0;
      mz_q      <= '0;
      bz_q      <= '0;
      bl_q      <= '0;
      rz_q      <= '0;
      rl_q      <= '0;
      rpl_q     <= '0;
      jwm2_q    <= '0;
      jpm2_q    <= '0;
      laptr_q   <= '0;
      lmptr_q   <= '0;
      lh1_q <= 1'b0;  lh2_q <= 1'b0;
      laz1_q <= 1'b0; laz2_q <= 1'b0; lmz1_q <= 1'b0; lmz2_q <= 1'b0;
      lga1_q <= 1'b0; lga2_q <= 1'b0; lgm1_q <= 1'b0; lgm2_q <= 1'b0;
      bx_q      <= '0;
      bptr_q    <= '0;
      bsq_q     <= '0;
      bfirst_q  <= '0;
      bh1_q <= 1'b0;  bh2_q <= 1'b0;
      bs1_q <= 1'b0;  bs2_q <= 1'b0;  bg1_q <= 1'b0;  bg2_q <= 1'b0;
      bq_q      <= '0;
      bqn_q     <= '0;
      rx_q      <= '0;
      rptr_q    <= '0;
      rp_q      <= '0;
      rst_q     <= '0;
      sq_q      <= '0;
      sqn_q     <= '0;
      xa_q      <= 1'b0;
      xg_q      <= 1'b0;
    end else begin
      st_q      <= st_d;
      pc_q      <= pc_d;
      err_q     <= err_d;
      ecode_q   <= ecode_d;
      depth_q   <= depth_d;
      lcnt_q    <= lcnt_d;
      lstart_q  <= lstart_d;
      xidx_q    <= xidx_d;
      wa_q      <= wa_d;
      win_q     <= win_d;
      xstride_q <= xstride_d;
      toff_q    <= toff_d;
      tok_q     <= tok_d;
      iv_q      <= iv_d;
      ivp_q     <= 1'b1;
      wok_q     <= wok_d;
      wpend_q   <= wpend_d;
      wp1_q     <= wp1_d;
      wp2_q     <= wp2_d;
      wsel1_q   <= wsel1_d;
      wsel2_q   <= wsel2_d;
      wg1_q     <= wg1_d;
      wg2_q     <= wg2_d;
      ja_q      <= ja_d;
      jm_q      <= jm_d;
      jprods_q  <= jprods_d;
      jwords_q  <= jwords_d;
      jpm1_q    <= jpm1_d;
      jwm1_q    <= jwm1_d;
      jtwo_q    <= jtwo_d;
      jatab_q   <= jatab_d;
      jdepth_q  <= jdepth_d;
      pushed_q  <= pushed_d;
      pdone_q   <= pdone_d;
      aaddr_q   <= aaddr_d;
      lv_q      <= lv_d;
      az_q      <= az_d;
      mz_q      <= mz_d;
      bz_q      <= bz_d;
      bl_q      <= bl_d;
      rz_q      <= rz_d;
      rl_q      <= rl_d;
      rpl_q     <= rpl_d;
      jwm2_q    <= jwm2_d;
      jpm2_q    <= jpm2_d;
      laptr_q   <= laptr_d;
      lmptr_q   <= lmptr_d;
      lh1_q <= lh1_d;  lh2_q <= lh2_d;
      laz1_q <= laz1_d; laz2_q <= laz2_d; lmz1_q <= lmz1_d; lmz2_q <= lmz2_d;
      lga1_q <= lga1_d; lga2_q <= lga2_d; lgm1_q <= lgm1_d; lgm2_q <= lgm2_d;
      bx_q      <= bx_d;
      bptr_q    <= bptr_d;
      bsq_q     <= bsq_d;
      bfirst_q  <= bfirst_d;
      bh1_q <= bh1_d;  bh2_q <= bh2_d;
      bs1_q <= bs1_d;  bs2_q <= bs2_d;  bg1_q <= bg1_d;  bg2_q <= bg2_d;
      bq_q      <= bq_d;
      bqn_q     <= bqn_d;
      rx_q      <= rx_d;
      rptr_q    <= rptr_d;
      rp_q      <= rp_d;
      rst_q     <= rst_d;
      sq_q      <= sq_d;
      sqn_q     <= sqn_d;
      xa_q      <= xa_d;
      xg_q      <= xg_d;
    end
  end

  assign busy_o       = (st_q != StIdle) && (st_q != StErr);
  assign err_o        = err_q;
  assign err_code_o   = ecode_q;
  assign prog_raddr_o = pc_d;
  assign alu_op_o     = f_op;
  assign alu_redc_o   = f_flags[FRedc];
  assign alu_dst_o    = f_dst;
  assign alu_a_o      = f_a;
  assign alu_b_o      = f_b;
  assign alu_rows_o   = f_c;
  assign alu_n_o      = f_n;
  assign xa_o         = xa_q;
  assign xg_o         = xg_q;
  assign job_words_o  = MWidth'(jwords_q);
  assign job_prods_o  = 16'(jprods_q);
  assign job_load_o   = 1'b1;
  assign job_two_o    = jtwo_q;
  assign dbg_pc_o     = pc_q;

endmodule
