// SPDX-License-Identifier: Apache-2.0
//
// mm_ws_pe: a processing element of the ws array, the word-serial systolic
// Montgomery multiplier with a scaled modulus and a delayed quotient
// (docs/ws.md).  Physical PE v holds, for each product in flight (a slot: the
// two interleaved products, times the chunks of a long operand), the words
// a_v and M_(v-1) and three flags, and computes for wave i
//
//   sum_v = h_v + b_i * a_v + q_(i-d) * M_(v-1) + c_(v-1)
//
// keeping sum_v mod 2^w as h for its left neighbour (h_o) and passing the
// carry c_v = sum_v >> w right (c_o).  With w-bit words and c_(v-1) < 2^(w+1),
// sum_v <= (2^w - 1) + 2 (2^w - 1)^2 + c_(v-1) < 2^(2w+1), so sum_v fits 2w+1
// bits and c_v again w+1 bits.
//
// Timing: the token (b_i, q_(i-d), slot, control bits, load fields) moves
// right one PE per cycle, Latency = DspRegs + 3 + LoopRegs cycles ahead of
// the add.  From the token register: one fabric register per DSP operand
// (it drives only the DSP), the MULT18X18D with DspRegs registers
// (mm_ws_mul), one fabric register per product (it takes only the DSP), the
// pre-add P1 + P2 into s_q and LoopRegs transport registers, all off the
// loop.  The loop is one 3-input add, s + h_i + c_i, between registered
// neighbours.
// ClearMode chooses how the add's clears (clr_h, clr_c below) act, never by
// logic after the add:
//   0: as the synchronous reset of the h or c register (the ECP5
//      flip-flop's LSR input; every register group has its own LSR net);
//   1: the loop registers are plain (no reset, no clear) and each sends a
//      one-bit zero flag beside it (h_zero_o, c_zero_o: this add's clears);
//      the consumer registers the flags it receives and reads a flagged h_i
//      or c_i as zero in the first LUT level of its add (the compressor's).
//      The adder's outputs then drive only plain registers, which can share
//      the carry chain's slices; lo_q is h's register.
// Both give the same sums, cycle by cycle.  The default is 0: on the
// P = 68 ring mode 1 packs the loop registers but costs a fifth more LUT
// sites and has not yet measured faster (docs/ws_proxy.md).
//
// Control travels in the token and, Latency cycles beside the products, in
// fl_q; the add's two clears come from there, not from logic in the loop:
//   clr_h (send h = 0 left): an idle add (no valid wave), the product's last
//     wave (its h words are the result, docs/ws.md), or virtual PE 0 (its low
//     word is the quotient);
//   clr_c (send carry 0 right): an idle add, or the top virtual PE (its carry
//     is 0 by the bound X < 2^(w(m+1)); the clear keeps it so for idle PEs
//     beyond it).
// A wave's token stops (its valid bit drops) as it leaves the top virtual PE,
// so the PEs beyond it add nothing.
//
// Result words: the last wave's low word of virtual PE v >= 1 is U_(v+d-1),
// and PE 0's quotients of the last d waves are U_0 .. U_(d-1).  They leave
// on two paths (docs/ws.md, "Results"):
//   * the result chain (chain_i/chain_o, QuotDelay-1 words, moving right one
//     PE per cycle with the last wave's wavefront): r[0] is this PE's low word
//     (lo_q), r[k] its left neighbour's r[k-1] of the cycle before; the
//     last-wave add writes its left neighbour's r[d-2] into this slot's a
//     word, so the result is in place as the next product's A;
//   * the out path (out_i/out_o, one word with its valid and half bits, moving
//     left one PE per cycle to PE 0): a result add puts its low word on the
//     path the cycle after (a word of chunk k >= 1 waits kP cycles more in
//     its half's hold register), otherwise the word from the right passes.
//
// A load token (tok_load_i) addressed to this PE and chunk (tok_dest_i ==
// Index, tok_dchunk_i the chunk of its slot) writes b into slot a_v, q into
// slot M_(v-1) and its flags into the slot tok_slot_i, and stops there; its
// add is idle.
`include "mm_macros.svh"

module mm_ws_pe #(
  parameter int WordWidth  = 16,  // word width w: 2 .. 18 (MULT18X18D unsigned)
  parameter int DspRegs    = 3,   // MULT18X18D registers: 2 or 3
  parameter int LoopRegs   = 0,   // transport registers between the pre-add and the loop: 0 .. 2
  parameter int QuotDelay  = 4,   // quotient delay d: 2 .. 8 (result chain of d - 1 words)
  parameter int Slots      = 2,   // operand slots, 2k + h (chunk k, half h): 2, 4, 6, 8
  parameter int RingPes    = 8,   // ring size P (a chunk-k result waits kP cycles): 2 .. 512
  parameter int IndexWidth = 7,   // width of a load token's PE address: 1 .. 10
  parameter int Index      = 0,   // this PE's address: 0 .. 2^IndexWidth - 1
  parameter int ClearMode  = 0,   // loop clears: 0 (synchronous resets) or 1 (zero flags)
  // derived, not to be set
  localparam int SlotWidth  = (Slots > 1) ? $clog2(Slots) : 1,
  localparam int ChunkWidth = (SlotWidth > 1) ? SlotWidth - 1 : 1,
  localparam int ChainLen   = (QuotDelay > 1) ? QuotDelay - 1 : 1
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  // token from the left neighbour, registered here and passed on right
  input  logic [WordWidth-1:0]  tok_b_i,      // b_i (a_v to load)
  input  logic [WordWidth-1:0]  tok_q_i,      // q_(i-d) (M_(v-1) to load)
  input  logic [SlotWidth-1:0]  tok_slot_i,   // the slot this wave reads (or a load writes)
  input  logic                  tok_valid_i,  // a wave (else idle, or a load)
  input  logic                  tok_last_i,   // the product's last wave (i = s - 1)
  input  logic                  tok_tail_i,   // one of its last d waves (i >= m)
  input  logic                  tok_load_i,   // a load token
  input  logic [IndexWidth-1:0] tok_dest_i,   // the PE a load token writes
  input  logic [ChunkWidth-1:0] tok_dchunk_i, // ... in this chunk (its slot then: 2 chunk + half)
  input  logic [2:0]            tok_flags_i,  // flags to load: {result, top, first}
  output logic [WordWidth-1:0]  tok_b_o,
  output logic [WordWidth-1:0]  tok_q_o,
  output logic [SlotWidth-1:0]  tok_slot_o,
  output logic                  tok_valid_o,
  output logic                  tok_last_o,
  output logic                  tok_tail_o,
  output logic                  tok_load_o,
  output logic [IndexWidth-1:0] tok_dest_o,
  output logic [ChunkWidth-1:0] tok_dchunk_o,
  output logic [2:0]            tok_flags_o,
  // the carry, moving right with the add wavefront
  input  logic [WordWidth:0]    c_i,          // c_(v-1), from the left neighbour
  input  logic                  c_zero_i,     // c_i of the next cycle reads as zero (ClearMode 1)
  output logic [WordWidth:0]    c_o,          // c_v
  output logic                  c_zero_o,     // this add clears c_o (ClearMode 1; else 0)
  // the h word, moving left
  input  logic [WordWidth-1:0]  h_i,          // h_v, from the right neighbour
  input  logic                  h_zero_i,     // h_i of the next cycle reads as zero (ClearMode 1)
  output logic [WordWidth-1:0]  h_o,          // sum_v mod 2^w: h_(v-1) of the next wave
  output logic                  h_zero_o,     // this add clears h_o (ClearMode 1; else 0)
  output logic [WordWidth-1:0]  lo_o,         // sum_v mod 2^w, never cleared (the quotient in PE 0)
  output logic [WordWidth-1:0]  sum_lo_o,     // the same word in the add's cycle (quotient bypass)
  // the result chain, moving right
  input  logic [ChainLen-1:0][WordWidth-1:0] chain_i,  // the left neighbour's r
  output logic [ChainLen-1:0][WordWidth-1:0] chain_o,  // r: this PE's low word, chain_i delayed
  // the out path, moving left: {valid, half, word}
  input  logic [WordWidth+1:0]  out_i,        // from the right neighbour
  output logic [WordWidth+1:0]  out_o,        // to the left neighbour
  // the slot of this cycle's add (PE 0: which chunk its result chain input is from)
  output logic [SlotWidth-1:0]  add_slot_o
`ifdef MM_FORMAL
  ,
  // for the formal flow only (docs/ws_core.md, "Formal"): control state the
  // adapter's invariants relate to its schedule
  output logic                  f_active_o,   // a token, an add's flags or a result word is here
  output logic [Slots-1:0][2:0] f_flags_o     // the slots' flags {result, top, first}
`endif
);

  localparam int Latency = DspRegs + 3 + LoopRegs;  // token register to the add
  localparam int TLen    = (LoopRegs > 0) ? LoopRegs : 1;
  localparam int W = WordWidth;
  // fl_q fields: {slot, res, top, first, tail, last, valid}
  localparam int FlWidth = SlotWidth + 6;
  localparam int RLen    = (ChainLen > 1) ? ChainLen - 1 : 1;
  // hold counter: up to (Slots / 2 - 1) * RingPes cycles
  localparam int HoldWidth = $clog2(Slots * RingPes / 2 + 1);

  if (W < 2 || W > 18) begin : gen_bad_width
    `MM_FATAL("mm_ws_pe: WordWidth must be in [2, 18]")
  end
  if (DspRegs < 2 || DspRegs > 3) begin : gen_bad_regs
    `MM_FATAL("mm_ws_pe: DspRegs must be 2 or 3")
  end
  if (LoopRegs < 0 || LoopRegs > 2) begin : gen_bad_loop_regs
    `MM_FATAL("mm_ws_pe: LoopRegs must be in [0, 2]")
  end
  if (ClearMode < 0 || ClearMode > 1) begin : gen_bad_clear_mode
    `MM_FATAL("mm_ws_pe: ClearMode must be 0 or 1")
  end
  if (QuotDelay < 2 || QuotDelay > 8) begin : gen_bad_delay
    `MM_FATAL("mm_ws_pe: QuotDelay must be in [2, 8]")
  end
  if (Slots < 2 || Slots > 8 || Slots % 2 != 0) begin : gen_bad_slots
    `MM_FATAL("mm_ws_pe: Slots must be 2, 4, 6 or 8")
  end
  if (RingPes < 2 || RingPes > 512) begin : gen_bad_ring
    `MM_FATAL("mm_ws_pe: RingPes must be in [2, 512]")
  end
  if (IndexWidth < 1 || IndexWidth > 10 || Index < 0 || Index >= (1 << IndexWidth))
  begin : gen_bad_index
    `MM_FATAL("mm_ws_pe: IndexWidth must be in [1, 10] and Index in [0, 2^IndexWidth - 1]")
  end

  // token register
  logic [W-1:0]          tok_b_q, tok_q_q;
  logic [SlotWidth-1:0]  tok_slot_q;
  logic                  tok_valid_q, tok_last_q, tok_tail_q;
  logic                  tok_load_q;
  logic [IndexWidth-1:0] tok_dest_q;
  logic [ChunkWidth-1:0] tok_dchunk_q, tok_chunk;
  logic [2:0]            tok_flags_q;
  // operand slots
  logic [Slots-1:0][W-1:0] slot_a_d, slot_a_q;
  logic [Slots-1:0][W-1:0] slot_m_d, slot_m_q;
  logic [Slots-1:0][2:0]   slot_f_d, slot_f_q;
  logic                  wr_en;
  // DSP operand and product registers, pre-add, flags beside them
  logic [W-1:0]          opa_d, opa_q, opb_q, opm_d, opm_q, opq_q;
  logic [2*W-1:0]        p1, p2, p1_q, p2_q;
  logic [2*W:0]          s_d, s_q, s_loop;
  // transport registers (TLen: at least one; with LoopRegs = 0 the one
  // placeholder is tied to zero and left unread)
  /* verilator lint_off UNUSEDSIGNAL */
  logic [TLen-1:0][2*W:0] t_q;
  logic [TLen:0][2*W:0]   t_all;
  /* verilator lint_on UNUSEDSIGNAL */
  logic [2:0]            sf;                  // the token's slot flags {res, top, first}
  logic [FlWidth-1:0]    fl_d, fl_at;
  logic [Latency-1:0][FlWidth-1:0] fl_q;
  // the add's control (fl_at's fields)
  logic                  at_valid, at_last, at_tail, at_first, at_top, at_res;
  logic [SlotWidth-1:0]  at_slot;
  logic                  res_wr, out_sel_d, out_sel_q, out_half_d, out_half_q;
  logic [ChunkWidth-1:0] at_chunk;
  /* verilator lint_off UNUSEDSIGNAL */
  logic [ChunkWidth-1:0] out_chunk_q;  // read by the hold registers (c > 1)
  /* verilator lint_on UNUSEDSIGNAL */
  logic [W+1:0]          out_q;
`ifdef MM_FORMAL
  logic                  f_hold;  // a hold register holds a word (c > 1)
`endif
  // the result chain's registers (RLen: at least one; with QuotDelay = 2
  // the one placeholder is tied to zero and left unread)
  /* verilator lint_off UNUSEDSIGNAL */
  logic [RLen-1:0][W-1:0] r_q;
  /* verilator lint_on UNUSEDSIGNAL */
  // the loop
  logic [2*W:0]          sum;
  logic                  clr_h, clr_c;
  logic [W-1:0]          h_add, h_d, h_q, lo_q;
  logic [W:0]            c_add, c_d, c_q;

  // ---- token: registered, passed on; a load addressed here writes a slot
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      tok_valid_q <= 1'b0;
      tok_load_q  <= 1'b0;
    end else begin
      tok_valid_q <= tok_valid_i;
      tok_load_q  <= tok_load_i;
    end
  end

  always_ff @(posedge clk_i) begin
    tok_b_q     <= tok_b_i;
    tok_q_q     <= tok_q_i;
    tok_slot_q  <= tok_slot_i;
    tok_last_q  <= tok_last_i;
    tok_tail_q  <= tok_tail_i;
    tok_dest_q  <= tok_dest_i;
    tok_dchunk_q <= tok_dchunk_i;
    tok_flags_q <= tok_flags_i;
  end

  // the token's chunk: its slot is 2 chunk + half
  if (SlotWidth > 1) begin : gen_chunk
    assign tok_chunk = tok_slot_q[SlotWidth-1:1];
  end else begin : gen_one_chunk
    assign tok_chunk = '0;
  end

  assign wr_en = tok_load_q && (tok_dest_q == IndexWidth'(Index)) && (tok_dchunk_q == tok_chunk);

  // the add's control, Latency cycles after the token register
  assign fl_at    = fl_q[Latency-1];
  assign at_valid = fl_at[0];
  assign at_last  = fl_at[1];
  assign at_tail  = fl_at[2];
  assign at_first = fl_at[3];
  assign at_top   = fl_at[4];
  assign at_res   = fl_at[5];
  assign at_slot  = fl_at[FlWidth-1:6];
  if (SlotWidth > 1) begin : gen_at_chunk
    assign at_chunk = at_slot[SlotWidth-1:1];
  end else begin : gen_at_one_chunk
    assign at_chunk = '0;
  end
  // the last wave writes the result word that has come down the chain into
  // this slot's a word: the next product's A, in place
  assign res_wr   = at_valid && at_last;

  always_comb begin
    for (int k = 0; k < Slots; k++) begin
      slot_a_d[k] = slot_a_q[k];
      slot_m_d[k] = slot_m_q[k];
      slot_f_d[k] = slot_f_q[k];
      if (wr_en && tok_slot_q == SlotWidth'(k)) begin
        slot_a_d[k] = tok_b_q;
        slot_m_d[k] = tok_q_q;
        slot_f_d[k] = tok_flags_q;
      end else if (res_wr && at_slot == SlotWidth'(k)) begin
        slot_a_d[k] = chain_i[ChainLen-1];
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      slot_a_q <= '0;
      slot_m_q <= '0;
      slot_f_q <= '0;
    end else begin
      slot_a_q <= slot_a_d;
      slot_m_q <= slot_m_d;
      slot_f_q <= slot_f_d;
    end
  end

  // ---- the two word products, off the loop
  always_comb begin
    opa_d = slot_a_q[0];
    opm_d = slot_m_q[0];
    sf    = slot_f_q[0];
    for (int k = 1; k < Slots; k++) begin
      if (tok_slot_q == SlotWidth'(k)) begin
        opa_d = slot_a_q[k];
        opm_d = slot_m_q[k];
        sf    = slot_f_q[k];
      end
    end
    fl_d = {tok_slot_q, sf, tok_tail_q, tok_last_q, tok_valid_q};
  end

  // fabric registers on the DSPs' input side: each drives only its DSP
  always_ff @(posedge clk_i) begin
    opa_q <= opa_d;
    opb_q <= tok_b_q;
    opm_q <= opm_d;
    opq_q <= tok_q_q;
  end

  mm_ws_mul #(.WordWidth(W), .DspRegs(DspRegs)) u_mul_ab (
    .clk_i  (clk_i),
    .a_i (opa_q),
    .b_i (opb_q),
    .p_o (p1)
  );

  mm_ws_mul #(.WordWidth(W), .DspRegs(DspRegs)) u_mul_qm (
    .clk_i  (clk_i),
    .a_i (opm_q),
    .b_i (opq_q),
    .p_o (p2)
  );

  // fabric registers on the DSPs' output side, then the pre-add
  assign s_d = {1'b0, p1_q} + {1'b0, p2_q};

  always_ff @(posedge clk_i) begin
    p1_q <= p1;
    p2_q <= p2;
    s_q  <= s_d;
  end

  // transport registers: they let the loop's adders sit together, away
  // from the fixed DSP sites their products come from
  assign t_all = {t_q, s_q};

  if (LoopRegs == 0) begin : gen_no_transport
    assign t_q    = '0;
    assign s_loop = s_q;
  end else begin : gen_transport
    always_ff @(posedge clk_i) begin
      t_q <= t_all[TLen-1:0];
    end
    assign s_loop = t_all[TLen];
  end

  // the token's control, Latency cycles beside the products
  if (Latency == 1) begin : gen_fl_one
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        fl_q <= '0;
      end else begin
        fl_q <= fl_d;
      end
    end
  end else begin : gen_fl
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        fl_q <= '0;
      end else begin
        fl_q <= {fl_q[Latency-2:0], fl_d};
      end
    end
  end

  // ---- the out path: a result add (PE 0's last d quotients, another PE's
  // last-wave word when it is one of U's m words) puts its low word, held
  // in lo_q, on the path the cycle after the add if it is in chunk 0; a
  // word of chunk k >= 1 waits kP cycles first in its half's hold register,
  // so that all words reach PE 0 in order (docs/ws.md, "Results")
  assign out_sel_d  = at_valid && ((at_first && at_tail) || (at_res && at_last));
  assign out_half_d = at_slot[0];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      out_sel_q   <= 1'b0;
      out_half_q  <= 1'b0;
      out_chunk_q <= '0;
      out_q       <= '0;
    end else begin
      out_sel_q   <= out_sel_d;
      out_half_q  <= out_half_d;
      out_chunk_q <= at_chunk;
      out_q       <= out_i;
    end
  end

  if (Slots > 2) begin : gen_hold
    // per half h and chunk k >= 1 (index 2(k - 1) + h): the held word,
    // whether one is held, and the cycles left to wait (kP - 1 at capture)
    localparam int NHold = Slots - 2;
    // flat (Yosys reads no 2-D packed signal declared in a generate scope)
    logic [NHold*W-1:0]         hold_w_d, hold_w_q;
    logic [NHold-1:0]           hold_v_d, hold_v_q, fire;
    logic [NHold*HoldWidth-1:0] hold_n_d, hold_n_q;

    always_comb begin
      out_o = out_q;
      if (out_sel_q && out_chunk_q == '0) begin
        out_o = {1'b1, out_half_q, lo_q};
      end
      for (int k = 0; k < NHold; k++) begin
        fire[k]     = hold_v_q[k] && hold_n_q[k*HoldWidth +: HoldWidth] == '0;
        hold_w_d[k*W +: W] = hold_w_q[k*W +: W];
        hold_v_d[k] = hold_v_q[k] && !fire[k];
        hold_n_d[k*HoldWidth +: HoldWidth] =
            hold_n_q[k*HoldWidth +: HoldWidth] - HoldWidth'(hold_v_q[k] && !fire[k]);
        if (out_sel_q && {out_chunk_q, out_half_q} == SlotWidth'(k + 2)) begin
          hold_w_d[k*W +: W] = lo_q;
          hold_v_d[k] = 1'b1;
          hold_n_d[k*HoldWidth +: HoldWidth] = HoldWidth'((k / 2 + 1) * RingPes - 1);
        end
        // the schedule gives every out-path cycle at most one word
        if (fire[k]) begin
          out_o = {1'b1, 1'(k % 2), hold_w_q[k*W +: W]};
        end
      end
    end

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        hold_v_q <= '0;
      end else begin
        hold_v_q <= hold_v_d;
      end
    end

    always_ff @(posedge clk_i) begin
      hold_w_q <= hold_w_d;
      hold_n_q <= hold_n_d;
    end
`ifdef MM_FORMAL
    assign f_hold = |hold_v_q;
`endif
  end else begin : gen_no_hold
    assign out_o = out_sel_q ? {1'b1, out_half_q, lo_q} : out_q;
`ifdef MM_FORMAL
    assign f_hold = 1'b0;
`endif
  end

  // ---- the result chain: r[0] is this PE's low word, r[k] the left
  // neighbour's r[k-1] one cycle later (r[k] = r_q[k-1]) (the words move with the last
  // wave's wavefront)
  assign chain_o[0] = lo_q;
  if (ChainLen > 1) begin : gen_chain
    always_ff @(posedge clk_i) begin
      r_q <= chain_i[ChainLen-2:0];
    end
    assign chain_o[ChainLen-1:1] = r_q;
  end else begin : gen_no_chain
    assign r_q = '0;
  end

  // ---- the loop: one 3-input add between registered neighbours
  assign sum   = s_loop + {{(W + 1){1'b0}}, h_add} + {{W{1'b0}}, c_add};
  // the add's clears (docs/ws.md, "Mapping"): an idle add sends h = 0 and
  // carry 0; the last wave and virtual PE 0 send h = 0; the top PE carry 0
  assign clr_h = !at_valid || at_last || at_first;
  assign clr_c = !at_valid || at_top;

  if (ClearMode == 0) begin : gen_clear_sreset
    // the clears become the registers' synchronous resets (the ECP5
    // flip-flop's LSR input), so they add no logic to the loop
    /* verilator lint_off UNUSEDSIGNAL */
    logic         zero_unused;
    /* verilator lint_on UNUSEDSIGNAL */

    assign zero_unused = h_zero_i ^ c_zero_i;
    assign h_add = h_i;
    assign c_add = c_i;
    assign h_d   = clr_h ? '0 : sum[W-1:0];
    assign c_d   = clr_c ? '0 : sum[2*W:W];

    // the loop's registers have no reset: every cycle overwrites them
    always_ff @(posedge clk_i) begin
      h_q  <= h_d;
      c_q  <= c_d;
      lo_q <= sum[W-1:0];
    end

    assign h_zero_o = 1'b0;
    assign c_zero_o = 1'b0;
  end else begin : gen_clear_flags
    // the neighbours' clears, registered here beside the words they flag:
    // a one-bit net between the PEs, its fan-out inside this PE
    logic hz_q, cz_q;

    always_ff @(posedge clk_i) begin
      hz_q <= h_zero_i;
      cz_q <= c_zero_i;
    end

    // read in the add's first LUT level (each bit's compressor LUT)
    assign h_add = hz_q ? '0 : h_i;
    assign c_add = cz_q ? '0 : c_i;
    assign h_d   = sum[W-1:0];
    assign c_d   = sum[2*W:W];

    // plain: no reset, no clear, every cycle overwrites them
    always_ff @(posedge clk_i) begin
      h_q <= h_d;
      c_q <= c_d;
    end

    assign h_zero_o = clr_h;
    assign c_zero_o = clr_c;
    assign lo_q     = h_q;  // h is never cleared here: its register is the low word's
  end

  assign tok_b_o     = tok_b_q;
  assign tok_q_o     = tok_q_q;
  assign tok_slot_o  = tok_slot_q;
  // a wave's token stops as it leaves the top virtual PE of its slot
  assign tok_valid_o = tok_valid_q && !sf[1];
  assign tok_last_o  = tok_last_q;
  assign tok_tail_o  = tok_tail_q;
  // a load token stops once it has written its slot
  assign tok_load_o  = tok_load_q && !wr_en;
  assign tok_dest_o  = tok_dest_q;
  assign tok_dchunk_o = tok_dchunk_q;
  assign add_slot_o  = at_slot;
  assign tok_flags_o = tok_flags_q;
  assign c_o         = c_q;
  assign h_o         = h_q;
  assign lo_o        = lo_q;
  assign sum_lo_o    = sum[W-1:0];

`ifdef MM_FORMAL
  // The PE's control state for the adapter's invariants (mm_ws): whether
  // anything is under way here (a wave or load token in the token register,
  // a valid add in the flags' line, a result word about to leave, on the
  // out path or held), and the slots' flags.  With none of it, and nothing
  // coming from the left, the PE stays idle and sends nothing.
  logic [Latency-1:0] f_fl_valid;  // the flags line's valid bits
  for (genvar i = 0; i < Latency; i++) begin : gen_f_fl
    assign f_fl_valid[i] = fl_q[i][0];
  end
  assign f_active_o = tok_valid_q || tok_load_q || out_sel_q || out_q[W+1] || f_hold || |f_fl_valid;
  assign f_flags_o  = slot_f_q;
`endif  // MM_FORMAL

endmodule
