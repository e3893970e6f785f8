// SPDX-License-Identifier: Apache-2.0
//
// mm_pke_alu: the word ALU of one CRT half of the public-key engine mm_pke
// (docs/pke.md, "Instruction set" and "Cycles"): the word-serial operations
// MOV, CLR, ADD, SUB, SEL and the row multiply-accumulate MACR over one
// half's bank (mm_pke_bank: two EBR groups, read latency 2), on one
// MULT18X18D (mm_ws_mul, 3 registers).  No adder wider than 2w + 1 bits:
// every operand streams through word by word.
//
//   ADD/SUB  dst = a +/- b over n words, flag F = carry / borrow out
//   SEL      dst[i] = F ? a[i] : b[i]   (every word written: constant time)
//   MACR     rows r = cmd_rows_i, columns n; Y at dst:
//            for j < r: q = Y[j]*ninv mod 2^w (REDC, ninv = word b-1) or a[j] (MUL);
//                       Y[j..j+n-1] += q*B[0..n-1] with a carry chain;
//                       Y[j+n] += carry + ov, ov its carry;
//            Y[r+n] = ov
//
// Timing (the model montmul.models.pke.Timing, mem = 2, mac = 3): the
// command taken at the edge that ends cycle T starts in cycle I = T + 1;
// done_o is high in the op's last cycle I + X - 1 (its last write), and
// cmd_ready_o again from cycle I + X, with X = n + 3 (MOV, ADD, SUB, SEL:
// word i read in cycle I + i, written in I + i + 3), n (CLR: word i written
// in I + i) and r(n + 13) + 1 (MACR: per row the quotient read in phase 0,
// multiplied, registered by phase 6; words i = 0 .. n read in phases 6 + i,
// their products added in 11 + i and written in 12 + i; the next row in
// phase n + 13, when the quotient's word is long written; then Y[r+n]).
// A command with n = 0, r = 0 (MACR) or another opcode takes one cycle and
// writes nothing.  The two operands read together must be in different
// groups (the program's rule, checked by the model); the bank's ports are
// otherwise free while an op runs.
//
// ModAlu = 1 (pke.Build.mod_alu): the ALU keeps a copy of a modulus N_A in
// MaxWords words of LUT RAM.  MOV with the LDN flag (the flag bit REDC has
// on MACR) also writes word i into N_A[i]; ADD/SUB with DUAL (the same bit)
// also compute t2 = (a +/- b) -/+ N_A in a second carry chain behind the
// first, written at the c field's address (the group other than dst's) in
// the same cycle as dst's word, and F becomes t2's borrow/carry: a modular
// add or subtract is DUAL then SEL, two passes instead of three.  Timing
// unchanged.  ModAlu = 0: the flag bit is ignored on MOV/ADD/SUB (as before).
`include "mm_macros.svh"

module mm_pke_alu #(
  parameter int WordWidth = 17,  // w: 2 .. 18 (MULT18X18D)
  parameter int AddrBits  = 13,  // bank address bits, the top one the group: 2 .. 16
  parameter int LenBits   = 10,  // word-count field n: 1 .. 16
  parameter int ModAlu    = 0,   // the modulus copy N_A (MOV.LDN, ADD/SUB.DUAL): 0 or 1
  parameter int MaxWords  = 66,  // words of N_A (ModAlu): 1 .. 2^LenBits - 1
  // derived, not to be set
  localparam int GroupBits = AddrBits - 1,
  localparam int PhBits    = LenBits + 5
) (
  input  logic                      clk_i,
  input  logic                      rst_ni,
  // command: one ALU instruction
  input  logic                      cmd_valid_i,
  output logic                      cmd_ready_o,
  input  logic [4:0]                cmd_op_i,    // MOV 6, CLR 7, ADD 8, SUB 9, SEL 10, MACR 11
  input  logic                      cmd_redc_i,  // MACR: REDC (1) or MUL (0)
  input  logic [AddrBits-1:0]       cmd_dst_i,
  input  logic [AddrBits-1:0]       cmd_a_i,
  input  logic [AddrBits-1:0]       cmd_b_i,
  input  logic [AddrBits-1:0]       cmd_rows_i,  // MACR rows (the instruction's c field)
  input  logic [LenBits-1:0]        cmd_n_i,     // words (MACR: columns)
  output logic                      done_o,
  output logic                      flag_o,      // F
  // the bank's ports (mm_pke_bank), index: group
  output logic [1:0]                rd_en_o,
  output logic [1:0][GroupBits-1:0] rd_addr_o,
  input  logic [1:0][WordWidth-1:0] rd_data_i,
  output logic [1:0]                wr_en_o,
  output logic [1:0][GroupBits-1:0] wr_addr_o,
  output logic [1:0][WordWidth-1:0] wr_data_o
);

  if (WordWidth < 2 || WordWidth > 18) begin : gen_bad_width
    `MM_FATAL("mm_pke_alu: WordWidth must be in [2, 18]")
  end
  if (AddrBits < 2 || AddrBits > 16) begin : gen_bad_addr
    `MM_FATAL("mm_pke_alu: AddrBits must be in [2, 16]")
  end
  if (LenBits < 1 || LenBits > 16) begin : gen_bad_len
    `MM_FATAL("mm_pke_alu: LenBits must be in [1, 16]")
  end

  if (ModAlu < 0 || ModAlu > 1) begin : gen_bad_mod
    `MM_FATAL("mm_pke_alu: ModAlu must be 0 or 1")
  end
  if (ModAlu == 1 && (MaxWords < 1 || MaxWords >= (1 << LenBits))) begin : gen_bad_words
    `MM_FATAL("mm_pke_alu: MaxWords must be in [1, 2^LenBits - 1]")
  end

  // cmd_redc_i carries the flag bit that is REDC on MACR, LDN on MOV, DUAL on
  // ADD/SUB: the model's F_LDN = F_DUAL = F_REDC (tests/test_models_pke.py;
  // not a generate check here: Yosys takes no package constant in a
  // generate condition)

  localparam int W = WordWidth;
  // The opcodes: mm_pke_pkg, generated from montmul.models.pke.
  localparam logic [4:0] OpMov = mm_pke_pkg::OpMov, OpClr = mm_pke_pkg::OpClr,
                         OpAdd = mm_pke_pkg::OpAdd, OpSub = mm_pke_pkg::OpSub,
                         OpSel = mm_pke_pkg::OpSel, OpMacr = mm_pke_pkg::OpMacr;
  localparam int Stages = 5;  // tag pipeline: data at stage 2 (mem), product at stage 5 (mem + mac)

  typedef enum logic [2:0] {
    StIdle,
    StStream,  // issue the reads of words 0 .. n-1
    StDrain,   // until the last word is written
    StClr,
    StMacr,    // rows, phase by phase
    StTop,     // MACR's last cycle: Y[r+n] = ov
    StNop
  } state_e;

  typedef struct packed {
    logic                valid;
    logic                quot;   // MACR: the quotient's read (else a word's)
    logic                last;   // the op's last word (stream) / the row's top word (MACR)
    logic [AddrBits-1:0] addr;   // where the word goes
  } tag_t;

  state_e                state_q, state_d;
  logic [4:0]            op_q, op_d;
  logic                  redc_q, redc_d;
  logic [AddrBits-1:0]   dst_q, dst_d, a_q, a_d, b_q, b_d, rows_q, rows_d, j_q, j_d;
  logic [LenBits-1:0]    n_q, n_d;
  logic [PhBits-1:0]     ph_q, ph_d;      // stream: word index; MACR: phase in the row
  logic                  ge6_q, ge6_d;    // MACR: ph >= 6 (the row's words) ...
  logic                  wrow_q, wrow_d;  // ... and ph <= n + 6 (a word read)
  logic [AddrBits-1:0]   rm1_q, rm1_d;    // rows - 1
  // the tag pipeline, stage s at bits (s-1)·TagBits: a flat vector (Yosys
  // 0.70 reads a packed array of a struct type as one element)
  localparam int TagBits = 3 + AddrBits;  // the bits of tag_t
  logic [Stages*TagBits-1:0] tag_q, tag_d;
  tag_t                  tag2, tag5;      // stages 2 and 5 (Yosys: no member of an array element)
  logic [W-1:0]          q_q, q_d;        // MACR: the row's quotient
  logic [W-1:0]          carry_q, carry_d;
  logic                  ov_q, ov_d, flag_q, flag_d;
  logic [W-1:0]          y3_q, y4_q, y5_q;  // Y word on its way to the add (stages 3 .. 5)
  logic                  wv_q, wv_d, wlast_q, wlast_d;
  logic [AddrBits-1:0]   waddr_q, waddr_d;
  logic [W-1:0]          wdata_q, wdata_d;
  // ModAlu: the second chain's write (t2 at c) and its carry/borrow
  logic                  dual, ldn;
  logic [W-1:0]          nword;           // N_A's word of the stage-2 word
  logic [W:0]            sum2_w;
  logic                  w2v_q, w2v_d;
  logic [AddrBits-1:0]   w2addr_q, w2addr_d;
  logic [W-1:0]          w2data_q, w2data_d;
  logic                  carry2_q, carry2_d;

  // Reads issued this cycle (full addresses; the top bit picks the group).
  logic                  rqa_en, rqb_en;
  logic [AddrBits-1:0]   rqa_addr, rqb_addr;
  tag_t                  tag_new;
  // Stage 2: the words read two cycles ago.
  logic [W-1:0]          da, db, dy, dq;
  logic [W-1:0]          mul_a, mul_b;
  logic [2*W-1:0]        mul_p;
  logic [W:0]            sum_w;          // stream: a + b + c or a - b - borrow
  logic [2*W:0]          acc;            // MACR: Y + q*B + carry (+ ov)
  // address pointers and bounds, registered so that no adder lies between
  // the ALU's registers and the bank's address inputs: stream a + i, b + i,
  // dst + i (CLR's too); MACR row j's quotient read (REDC ? dst : a) + j,
  // its words dst + j + i and b + i, b - 1, the top word dst + rows + n
  logic [AddrBits-1:0]   pa_q, pa_d, pb_q, pb_d, pd_q, pd_d, rq_q, rq_d, rb_q, rb_d;
  logic [AddrBits-1:0]   bm1_q, bm1_d, top_q, top_d;
  logic [PhBits-1:0]     nm1_q, nm1_d, n6_q, n6_d, last_q, last_d;  // n - 1, n + 6, n + 12
  logic                  is_stream, clr_wr, top_wr;
  logic                  wen;             // this cycle's write
  logic [AddrBits-1:0]   waddr;
  logic [W-1:0]          wdata;

  assign tag2 = tag_q[1*TagBits +: TagBits];
  assign tag5 = tag_q[4*TagBits +: TagBits];
  assign da = rd_data_i[a_q[AddrBits-1]];
  assign db = rd_data_i[b_q[AddrBits-1]];
  assign dy = rd_data_i[dst_q[AddrBits-1]];
  assign dq = rd_data_i[redc_q ? dst_q[AddrBits-1] : a_q[AddrBits-1]];
  assign is_stream = (op_q == OpMov) || (op_q == OpAdd) || (op_q == OpSub) || (op_q == OpSel);

  mm_ws_mul #(.WordWidth(W), .DspRegs(3)) u_mul (
    .clk_i(clk_i),
    .a_i  (mul_a),
    .b_i  (mul_b),
    .p_o  (mul_p)
  );

  // Stage 2 of the tag pipeline: the multiplier's operands (MACR).
  always_comb begin
    mul_a = q_q;
    mul_b = '0;
    if (tag2.valid && tag2.quot) begin
      mul_a = dq;
      mul_b = redc_q ? db : W'(1);
    end else if (tag2.valid && !tag2.last) begin
      mul_b = db;
    end
  end

  // Issue: the reads of this cycle and their tag.
  always_comb begin
    rqa_en   = 1'b0;
    rqb_en   = 1'b0;
    rqa_addr = pa_q;
    rqb_addr = pb_q;
    tag_new  = '0;
    if (state_q == StStream) begin
      rqa_en  = 1'b1;
      rqb_en  = (op_q != OpMov);
      tag_new.valid = 1'b1;
      tag_new.last  = (ph_q == nm1_q);
      tag_new.addr  = pd_q;
    end else if (state_q == StMacr) begin
      if (ph_q == '0) begin
        rqa_en   = 1'b1;
        rqa_addr = rq_q;
        rqb_en   = redc_q;
        rqb_addr = bm1_q;
        tag_new.valid = 1'b1;
        tag_new.quot  = 1'b1;
      end else if (wrow_q) begin  // word i = ph - 6 <= n
        rqa_en   = 1'b1;
        rqa_addr = pa_q;
        rqb_en   = (ph_q != n6_q);
        rqb_addr = pb_q;
        tag_new.valid = 1'b1;
        tag_new.last  = (ph_q == n6_q);
        tag_new.addr  = pa_q;
      end
    end
  end

  always_comb begin
    for (int g = 0; g < 2; g++) begin
      rd_en_o[g]   = (rqa_en && rqa_addr[AddrBits-1] == 1'(g))
                     || (rqb_en && rqb_addr[AddrBits-1] == 1'(g));
      rd_addr_o[g] = (rqa_en && rqa_addr[AddrBits-1] == 1'(g)) ? rqa_addr[GroupBits-1:0]
                                                               : rqb_addr[GroupBits-1:0];
    end
  end

  // ModAlu: N_A in LUT RAM, written at MOV.LDN's write stage, read at stage 2.
  assign dual = (ModAlu == 1) && redc_q && (op_q == OpAdd || op_q == OpSub);
  assign ldn  = (ModAlu == 1) && redc_q && (op_q == OpMov);
  if (ModAlu == 1) begin : gen_nram
    localparam int NIdx = (MaxWords > 1) ? $clog2(MaxWords) : 1;
    logic [W-1:0] nram_q [1 << NIdx];
    logic [AddrBits-1:0] ridx, widx;  // word index within the op (< n <= MaxWords)
    logic unused_idx;
    assign ridx  = tag2.addr - dst_q;
    assign widx  = waddr_q - dst_q;
    assign unused_idx = ^{ridx[AddrBits-1:NIdx], widx[AddrBits-1:NIdx]};
    assign nword = nram_q[ridx[NIdx-1:0]];
    always_ff @(posedge clk_i) begin
      if (ldn && wv_q) begin
        nram_q[widx[NIdx-1:0]] <= wdata_q;
      end
    end
  end else begin : gen_no_nram
    logic unused_ldn;
    assign unused_ldn = ldn;
    assign nword = '0;
  end
  assign sum2_w = (op_q == OpAdd) ? {1'b0, sum_w[W-1:0]} - {1'b0, nword} - (W + 1)'(carry2_q)
                                  : {1'b0, sum_w[W-1:0]} + {1'b0, nword} + (W + 1)'(carry2_q);

  // Writes: the write stage, CLR's direct writes, MACR's top word.
  assign clr_wr = (state_q == StClr);
  assign top_wr = (state_q == StTop);
  always_comb begin
    wen   = wv_q;
    waddr = waddr_q;
    wdata = wdata_q;
    if (clr_wr) begin
      wen   = 1'b1;
      waddr = pd_q;
      wdata = '0;
    end else if (top_wr) begin
      wen   = 1'b1;
      waddr = top_q;
      wdata = W'(ov_q);
    end
    for (int g = 0; g < 2; g++) begin
      wr_en_o[g]   = wen && (waddr[AddrBits-1] == 1'(g));
      wr_addr_o[g] = waddr[GroupBits-1:0];
      wr_data_o[g] = wdata;
      // DUAL's t2 (its group is the other one: the program's rule)
      if (w2v_q && !wr_en_o[g] && (w2addr_q[AddrBits-1] == 1'(g))) begin
        wr_en_o[g]   = 1'b1;
        wr_addr_o[g] = w2addr_q[GroupBits-1:0];
        wr_data_o[g] = w2data_q;
      end
    end
  end

  // Compute: stream words at stage 2 (ADD: carry in bit w; SUB: borrow, the
  // sign bit), MACR words at stage 5: Y + q*B + carry (+ ov on the row's top
  // word, whose product is 0) <= (2^w - 1) + (2^w - 1)^2 + (2^w - 1) + 1 < 2^(2w+1).
  // (Continuous assignments: Icarus 11 loops on this as an always_comb.)
  assign sum_w = (op_q == OpAdd) ? {1'b0, da} + {1'b0, db} + (W + 1)'(carry_q[0])
               : (op_q == OpSub) ? {1'b0, da} - {1'b0, db} - (W + 1)'(carry_q[0])
               : (op_q == OpSel) ? {1'b0, flag_q ? da : db}
               : {1'b0, da};
  assign acc = (2 * W + 1)'(y5_q) + (2 * W + 1)'(mul_p) + (2 * W + 1)'(carry_q)
               + (2 * W + 1)'(tag5.last & ov_q);

  always_comb begin
    state_d = state_q;
    op_d    = op_q;
    redc_d  = redc_q;
    dst_d   = dst_q;
    a_d     = a_q;
    b_d     = b_q;
    rows_d  = rows_q;
    n_d     = n_q;
    j_d     = j_q;
    ph_d    = ph_q;
    ge6_d   = ge6_q;
    wrow_d  = wrow_q;
    rm1_d   = rm1_q;
    pa_d    = pa_q;
    pb_d    = pb_q;
    pd_d    = pd_q;
    rq_d    = rq_q;
    rb_d    = rb_q;
    bm1_d   = bm1_q;
    top_d   = top_q;
    nm1_d   = nm1_q;
    n6_d    = n6_q;
    last_d  = last_q;
    q_d     = q_q;
    carry_d = carry_q;
    ov_d    = ov_q;
    flag_d  = flag_q;
    wv_d    = 1'b0;
    wlast_d = 1'b0;
    waddr_d = waddr_q;
    wdata_d = wdata_q;
    w2v_d    = 1'b0;
    w2addr_d = w2addr_q;
    w2data_d = w2data_q;
    carry2_d = carry2_q;
    tag_d   = {tag_q[(Stages-1)*TagBits-1:0], tag_new};
    done_o  = 1'b0;

    // Stage 2: stream words.
    if (tag2.valid && is_stream) begin
      wv_d    = 1'b1;
      wlast_d = tag2.last;
      waddr_d = tag2.addr;
      wdata_d = sum_w[W-1:0];
      carry_d = W'(sum_w[W]);  // ADD: carry; SUB: borrow (the sign bit)
      if (tag2.last && (op_q == OpAdd || op_q == OpSub)) begin
        flag_d = sum_w[W];
      end
      if (dual) begin
        w2v_d    = 1'b1;
        w2addr_d = tag2.addr - dst_q + rows_q;
        w2data_d = sum2_w[W-1:0];
        carry2_d = sum2_w[W];
        if (tag2.last) begin
          flag_d = sum2_w[W];
        end
      end
    end
    // Stage 5: MACR's quotient and words.
    if (tag5.valid && op_q == OpMacr) begin
      if (tag5.quot) begin
        q_d = mul_p[W-1:0];
      end else begin
        wv_d    = 1'b1;
        waddr_d = tag5.addr;
        wdata_d = acc[W-1:0];
        if (tag5.last) begin
          ov_d    = acc[W];  // the top word's add is < 2^(w+1)
          carry_d = '0;
        end else begin
          carry_d = acc[2*W-1:W];
        end
      end
    end

    unique case (state_q)
      StIdle: begin
        if (cmd_valid_i) begin
          op_d    = cmd_op_i;
          redc_d  = cmd_redc_i;
          dst_d   = cmd_dst_i;
          a_d     = cmd_a_i;
          b_d     = cmd_b_i;
          rows_d  = cmd_rows_i;
          n_d     = cmd_n_i;
          j_d     = '0;
          ph_d    = '0;
          ge6_d   = 1'b0;
          wrow_d  = 1'b0;
          rm1_d   = cmd_rows_i - 1'b1;
          pa_d    = cmd_a_i;
          pb_d    = cmd_b_i;
          pd_d    = cmd_dst_i;
          rq_d    = cmd_redc_i ? cmd_dst_i : cmd_a_i;
          rb_d    = cmd_dst_i;
          bm1_d   = cmd_b_i - 1'b1;
          top_d   = cmd_dst_i + cmd_rows_i + AddrBits'(cmd_n_i);
          nm1_d   = PhBits'(cmd_n_i) - 1'b1;
          n6_d    = PhBits'(cmd_n_i) + PhBits'(6);
          last_d  = PhBits'(cmd_n_i) + PhBits'(12);
          tag_d   = '0;  // a stream op's tags pass stages 3 .. 5 unused: drop them
          carry_d = '0;
          carry2_d = 1'b0;
          ov_d    = 1'b0;
          if (cmd_n_i == '0) begin
            state_d = StNop;
          end else if (cmd_op_i == OpClr) begin
            state_d = StClr;
          end else if (cmd_op_i == OpMacr) begin
            if (cmd_rows_i == '0) begin
              state_d = StNop;
            end else begin
              state_d = StMacr;
            end
          end else if (cmd_op_i == OpMov || cmd_op_i == OpAdd || cmd_op_i == OpSub
                       || cmd_op_i == OpSel) begin
            state_d = StStream;
          end else begin
            state_d = StNop;
          end
        end
      end
      StStream: begin
        ph_d = ph_q + 1'b1;
        pa_d = pa_q + 1'b1;
        pb_d = pb_q + 1'b1;
        pd_d = pd_q + 1'b1;
        if (ph_q == nm1_q) begin
          state_d = StDrain;
        end
      end
      StDrain: begin
        if (wv_q && wlast_q) begin
          done_o  = 1'b1;
          state_d = StIdle;
        end
      end
      StClr: begin
        ph_d = ph_q + 1'b1;
        pd_d = pd_q + 1'b1;
        if (ph_q == nm1_q) begin
          done_o  = 1'b1;
          state_d = StIdle;
        end
      end
      StMacr: begin
        ph_d = ph_q + 1'b1;
        if (ph_q == PhBits'(5)) begin  // the row's words from ph = 6 on
          pa_d   = rb_q;
          pb_d   = b_q;
          ge6_d  = 1'b1;
          wrow_d = 1'b1;
        end else if (ge6_q) begin
          pa_d = pa_q + 1'b1;
          pb_d = pb_q + 1'b1;
        end
        if (ph_q == n6_q) begin
          wrow_d = 1'b0;
        end
        if (ph_q == last_q) begin
          ph_d  = '0;
          ge6_d = 1'b0;
          j_d   = j_q + 1'b1;
          rq_d  = rq_q + 1'b1;
          rb_d  = rb_q + 1'b1;
          if (j_q == rm1_q) begin
            state_d = StTop;
          end
        end
      end
      StTop, StNop: begin
        done_o  = 1'b1;
        state_d = StIdle;
      end
      default: state_d = StIdle;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q <= StIdle;
      op_q    <= '0;
      redc_q  <= 1'b0;
      dst_q   <= '0;
      a_q     <= '0;
      b_q     <= '0;
      rows_q  <= '0;
      n_q     <= '0;
      j_q     <= '0;
      ph_q    <= '0;
      ge6_q   <= 1'b0;
      wrow_q  <= 1'b0;
      rm1_q   <= '0;
      pa_q    <= '0;
      pb_q    <= '0;
      pd_q    <= '0;
      rq_q    <= '0;
      rb_q    <= '0;
      bm1_q   <= '0;
      top_q   <= '0;
      nm1_q   <= '0;
      n6_q    <= '0;
      last_q  <= '0;
      tag_q   <= '0;
      q_q     <= '0;
      carry_q <= '0;
      ov_q    <= 1'b0;
      flag_q  <= 1'b0;
      y3_q    <= '0;
      y4_q    <= '0;
      y5_q    <= '0;
      wv_q    <= 1'b0;
      wlast_q <= 1'b0;
      waddr_q <= '0;
      wdata_q <= '0;
      w2v_q    <= 1'b0;
      w2addr_q <= '0;
      w2data_q <= '0;
      carry2_q <= 1'b0;
    end else begin
      state_q <= state_d;
      op_q    <= op_d;
      redc_q  <= redc_d;
      dst_q   <= dst_d;
      a_q     <= a_d;
      b_q     <= b_d;
      rows_q  <= rows_d;
      n_q     <= n_d;
      j_q     <= j_d;
      ph_q    <= ph_d;
      ge6_q   <= ge6_d;
      wrow_q  <= wrow_d;
      rm1_q   <= rm1_d;
      pa_q    <= pa_d;
      pb_q    <= pb_d;
      pd_q    <= pd_d;
      rq_q    <= rq_d;
      rb_q    <= rb_d;
      bm1_q   <= bm1_d;
      top_q   <= top_d;
      nm1_q   <= nm1_d;
      n6_q    <= n6_d;
      last_q  <= last_d;
      tag_q   <= tag_d;
      q_q     <= q_d;
      carry_q <= carry_d;
      ov_q    <= ov_d;
      flag_q  <= flag_d;
      y3_q    <= dy;
      y4_q    <= y3_q;
      y5_q    <= y4_q;
      wv_q    <= wv_d;
      wlast_q <= wlast_d;
      waddr_q <= waddr_d;
      wdata_q <= wdata_d;
      w2v_q    <= w2v_d;
      w2addr_q <= w2addr_d;
      w2data_q <= w2data_d;
      carry2_q <= carry2_d;
    end
  end

  assign cmd_ready_o = (state_q == StIdle);
  assign flag_o      = flag_q;

endmodule
