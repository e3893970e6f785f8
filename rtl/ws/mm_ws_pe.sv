// SPDX-License-Identifier: Apache-2.0
//
// mm_ws_pe: a processing element of the ws array, the word-serial systolic
// Montgomery multiplier with a scaled modulus and a delayed quotient
// (docs/ws_proxy.md).  Physical PE v holds, for each product in flight (a
// slot: the two interleaved products, times the chunks of a long operand),
// the words a_v and M_(v-1) and two flags, and computes for wave i
//
//   sum_v = h_v + b_i * a_v + q_(i-d) * M_(v-1) + c_(v-1)
//
// keeping sum_v mod 2^w as h for its left neighbour (h_o) and passing the
// carry c_v = sum_v >> w right (c_o).  With w-bit words and c_(v-1) < 2^(w+1),
// sum_v <= (2^w - 1) + 2 (2^w - 1)^2 + c_(v-1) < 2^(2w+1), so sum_v fits 2w+1
// bits and c_v again w+1 bits.
//
// Timing: the token (b_i, q_(i-d), slot, load fields) moves right one PE per
// cycle, Latency = DspRegs + 3 + LoopRegs cycles ahead of the add.  From the
// token register: one fabric register per DSP operand (it drives only the
// DSP), the MULT18X18D with DspRegs registers (mm_ws_mul), one fabric
// register per product (it takes only the DSP), the pre-add P1 + P2 into
// s_q and LoopRegs transport registers (they let the adders of neighbouring
// PEs sit together, away from the fixed DSP sites), all off the loop.  The
// loop is one 3-input add, s + h_i + c_i, between registered neighbours.
// A slot's flags travel Latency cycles beside the products to clear h
// (first: this PE is virtual PE 0, whose low word is the quotient, lo_o) or
// the carry (last: the top virtual PE).  ClearMode chooses how a clear acts,
// never by logic after the add:
//   0: as the synchronous reset of the h or c register (the ECP5
//      flip-flop's LSR input; every register group has its own LSR net);
//   1: the loop registers are plain (no reset, no clear) and each sends a
//      one-bit zero flag beside it (h_zero_o, c_zero_o: this add's clears);
//      the consumer registers the flags it receives and reads a flagged h_i
//      or c_i as zero in the first LUT level of its add (the compressor's).
//      The adder's outputs then drive only plain registers, which can share
//      the carry chain's slices; lo_o is h's register.
// Both give the same sums, cycle by cycle.  The default is 0: on the
// P = 68 ring mode 1 packs the loop registers but costs a fifth more LUT
// sites and has not yet measured faster (docs/ws_proxy.md).
//
// A load token (tok_load_i) addressed to this PE (tok_dest_i == Index)
// writes b into slot a_v, q into slot M_(v-1) and its flags into the slot
// tok_slot_i; the products computed meanwhile are don't-cares.  A clearing
// wave (tok_clr_i) clears h and c as it passes, so that the next wave of
// its slot starts from H = 0 (a product's first wave needs it).
`include "mm_macros.svh"

module mm_ws_pe #(
  parameter int WordWidth  = 16,  // word width w: 2 .. 18 (MULT18X18D unsigned)
  parameter int DspRegs    = 3,   // MULT18X18D registers: 2 or 3
  parameter int LoopRegs   = 0,   // transport registers between the pre-add and the loop: 0 .. 2
  parameter int Slots      = 2,   // operand slots (products x chunks in flight): 2 .. 16
  parameter int IndexWidth = 7,   // width of a load token's PE address: 1 .. 10
  parameter int Index      = 0,   // this PE's address: 0 .. 2^IndexWidth - 1
  parameter int ClearMode  = 0,   // loop clears: 0 (synchronous resets) or 1 (zero flags)
  // derived, not to be set
  localparam int SlotWidth  = (Slots > 1) ? $clog2(Slots) : 1
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  // token from the left neighbour, registered here and passed on right
  input  logic [WordWidth-1:0]  tok_b_i,      // b_i (a_v to load)
  input  logic [WordWidth-1:0]  tok_q_i,      // q_(i-d) (M_(v-1) to load)
  input  logic [SlotWidth-1:0]  tok_slot_i,   // the slot this wave reads (or a load writes)
  input  logic                  tok_load_i,   // a load token
  input  logic [IndexWidth-1:0] tok_dest_i,   // the PE a load token writes
  input  logic [1:0]            tok_flags_i,  // flags to load: {last, first}
  input  logic                  tok_clr_i,    // a clearing wave: leaves h = 0 and c = 0 behind
  output logic [WordWidth-1:0]  tok_b_o,
  output logic [WordWidth-1:0]  tok_q_o,
  output logic [SlotWidth-1:0]  tok_slot_o,
  output logic                  tok_load_o,
  output logic [IndexWidth-1:0] tok_dest_o,
  output logic [1:0]            tok_flags_o,
  output logic                  tok_clr_o,
  // the carry, moving right with the add wavefront
  input  logic [WordWidth:0]    c_i,          // c_(v-1), from the left neighbour
  input  logic                  c_zero_i,     // c_i of the next cycle reads as zero (ClearMode 1)
  output logic [WordWidth:0]    c_o,          // c_v
  output logic                  c_zero_o,     // this add clears c_o (ClearMode 1; else 0)
  // the result word, moving left
  input  logic [WordWidth-1:0]  h_i,          // h_v, from the right neighbour
  input  logic                  h_zero_i,     // h_i of the next cycle reads as zero (ClearMode 1)
  output logic [WordWidth-1:0]  h_o,          // sum_v mod 2^w: h_(v-1) of the next wave
  output logic                  h_zero_o,     // this add clears h_o (ClearMode 1; else 0)
  output logic [WordWidth-1:0]  lo_o          // sum_v mod 2^w, never cleared (the quotient in PE 0)
);

  localparam int Latency = DspRegs + 3 + LoopRegs;  // token register to the add
  localparam int TLen    = (LoopRegs > 0) ? LoopRegs : 1;
  localparam int W = WordWidth;

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
  if (Slots < 2 || Slots > 16) begin : gen_bad_slots
    `MM_FATAL("mm_ws_pe: Slots must be in [2, 16]")
  end
  if (IndexWidth < 1 || IndexWidth > 10 || Index < 0 || Index >= (1 << IndexWidth))
  begin : gen_bad_index
    `MM_FATAL("mm_ws_pe: IndexWidth must be in [1, 10] and Index in [0, 2^IndexWidth - 1]")
  end

  // token register
  logic [W-1:0]          tok_b_q, tok_q_q;
  logic [SlotWidth-1:0]  tok_slot_q;
  logic                  tok_load_q;
  logic [IndexWidth-1:0] tok_dest_q;
  logic [1:0]            tok_flags_q;
  logic                  tok_clr_q;
  // operand slots
  logic [Slots-1:0][W-1:0] slot_a_d, slot_a_q;
  logic [Slots-1:0][W-1:0] slot_m_d, slot_m_q;
  logic [Slots-1:0][1:0]   slot_f_d, slot_f_q;
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
  logic [1:0]            fl_d;
  logic [Latency-1:0][1:0] fl_q;
  // the loop
  logic [2*W:0]          sum;
  logic                  clr_h, clr_c;
  logic [W-1:0]          h_add, h_d, h_q, lo_q;
  logic [W:0]            c_add, c_d, c_q;

  // ---- token: registered, passed on; a load addressed here writes a slot
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      tok_load_q <= 1'b0;
      tok_clr_q  <= 1'b0;
    end else begin
      tok_load_q <= tok_load_i;
      tok_clr_q  <= tok_clr_i;
    end
  end

  always_ff @(posedge clk_i) begin
    tok_b_q     <= tok_b_i;
    tok_q_q     <= tok_q_i;
    tok_slot_q  <= tok_slot_i;
    tok_dest_q  <= tok_dest_i;
    tok_flags_q <= tok_flags_i;
  end

  assign wr_en = tok_load_q && (tok_dest_q == IndexWidth'(Index));

  always_comb begin
    for (int k = 0; k < Slots; k++) begin
      slot_a_d[k] = slot_a_q[k];
      slot_m_d[k] = slot_m_q[k];
      slot_f_d[k] = slot_f_q[k];
      if (wr_en && tok_slot_q == SlotWidth'(k)) begin
        slot_a_d[k] = tok_b_q;
        slot_m_d[k] = tok_q_q;
        slot_f_d[k] = tok_flags_q;
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
    fl_d  = slot_f_q[0];
    for (int k = 1; k < Slots; k++) begin
      if (tok_slot_q == SlotWidth'(k)) begin
        opa_d = slot_a_q[k];
        opm_d = slot_m_q[k];
        fl_d  = slot_f_q[k];
      end
    end
    fl_d = fl_d | {2{tok_clr_q}};
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

  // the slot's flags, Latency cycles beside the products
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      fl_q <= '0;
    end else begin
      fl_q <= {fl_q[Latency-2:0], fl_d};
    end
  end

  // ---- the loop: one 3-input add between registered neighbours
  assign sum   = s_loop + {{(W + 1){1'b0}}, h_add} + {{W{1'b0}}, c_add};
  assign clr_h = fl_q[Latency-1][0];
  assign clr_c = fl_q[Latency-1][1];

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
  assign tok_load_o  = tok_load_q;
  assign tok_dest_o  = tok_dest_q;
  assign tok_flags_o = tok_flags_q;
  assign tok_clr_o   = tok_clr_q;
  assign c_o         = c_q;
  assign h_o         = h_q;
  assign lo_o        = lo_q;

endmodule
