// SPDX-License-Identifier: Apache-2.0
//
// mm_ws_ring: NumPe processing elements of the ws array (mm_ws_pe) closed
// in a ring, with PE 0's quotient path: the timing proxy of the array
// (docs/ws_proxy.md, scripts/ws_proxy.py), not yet a core.
//
// Every wire runs between neighbours: the token and the carry move right
// (PE NumPe-1's right neighbour is PE 0), the result word h moves left (PE
// 0's left neighbour is PE NumPe-1).  PE 0 is virtual PE 0 of a product: its
// sum's low word is the quotient q_i (lo_o, a register), which waits in a
// shift register of 2 * QuotDelay - Latency - 1 stages and enters the token
// as it passes from PE 0 to PE 1, so that wave i + QuotDelay carries q_i
// (PE 0 multiplies nothing by q: its M_(-1) slot word is zero).  With the
// two products interleaved cycle by cycle, wave i of a product reaches PE v
// at t0 + 2i + v and its token Latency cycles earlier; q_i is in PE 0's lo
// register from t0 + 2i + 1 and must be at PE 1's token input at
// t0 + 2(i + QuotDelay) - Latency, hence 2 * QuotDelay >= Latency + 1.
//
// Control is the proxy's minimum, all of it in the tokens: a token injected
// at PE 0 (inj_valid_i) replaces the one coming round the ring from PE
// NumPe-1 (the path later chunks of a long operand take; the proxy injects
// every cycle).  Load tokens write a PE's slot (its a and M words and flags
// {last, first}); a clearing wave (inj_clr_i) leaves H = 0 behind it for the
// next wave of its slot; inj_qown_i lets PE 0's token keep its own q field
// as it moves to PE 1 (load tokens, and a product's first QuotDelay waves,
// which take q = 0).  The quotient stream q_o is the observable output.
// tb/mm_ws_ring checks two interleaved products' quotient streams against
// the word loop.
`include "mm_macros.svh"

module mm_ws_ring #(
  parameter int NumPe     = 8,   // processing elements P: 2 .. 512
  parameter int WordWidth = 16,  // word width w: 2 .. 18
  parameter int DspRegs   = 3,   // MULT18X18D registers: 2 or 3
  parameter int LoopRegs  = 0,   // transport registers: 0 .. 2 (Latency = DspRegs + 3 + LoopRegs)
  parameter int QuotDelay = 4,   // quotient delay d in waves: ceil((Latency + 1) / 2) .. 8
  parameter int Slots     = 2,   // operand slots per PE: 2 .. 16
  parameter int ClearMode = 0,   // PE loop clears (mm_ws_pe): 0 (sync resets) or 1 (zero flags)
  // derived, not to be set
  localparam int SlotWidth  = (Slots > 1) ? $clog2(Slots) : 1,
  localparam int IndexWidth = (NumPe > 1) ? $clog2(NumPe) : 1
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  // token injection at PE 0
  input  logic                  inj_valid_i,  // take this token (else the one from PE NumPe-1)
  input  logic [WordWidth-1:0]  inj_b_i,      // b_i, or the a word of a load
  input  logic [WordWidth-1:0]  inj_q_i,      // the M word of a load
  input  logic [SlotWidth-1:0]  inj_slot_i,
  input  logic                  inj_load_i,
  input  logic [IndexWidth-1:0] inj_dest_i,
  input  logic [1:0]            inj_flags_i,  // {last, first} of a load
  input  logic                  inj_clr_i,    // a clearing wave (before a product's first wave)
  input  logic                  inj_qown_i,   // PE 1 takes inj_q_i, not the quotient (loads,
                                              // and a product's first QuotDelay waves: q = 0)
  // the quotient stream
  output logic [WordWidth-1:0]  q_o
);

  localparam int Latency = DspRegs + 3 + LoopRegs;
  localparam int QDepth  = 2 * QuotDelay - Latency - 1;
  localparam int QdLen   = (QDepth > 0) ? QDepth : 1;
  localparam int W       = WordWidth;

  if (NumPe < 2 || NumPe > 512) begin : gen_bad_pe
    `MM_FATAL("mm_ws_ring: NumPe must be in [2, 512]")
  end
  if (QDepth < 0 || QuotDelay > 8) begin : gen_bad_delay
    `MM_FATAL("mm_ws_ring: QuotDelay must be in [ceil((Latency + 1) / 2), 8]")
  end

  // token, carry and result word of every PE (index: the PE driving it)
  logic [NumPe-1:0][W-1:0]          tok_b;
  logic [NumPe-1:0][W-1:0]          tok_q;
  logic [NumPe-1:0][SlotWidth-1:0]  tok_slot;
  logic [NumPe-1:0]                 tok_load;
  logic [NumPe-1:0][IndexWidth-1:0] tok_dest;
  logic [NumPe-1:0][1:0]            tok_flags;
  logic [NumPe-1:0]                 tok_clr;
  logic [NumPe-1:0][W:0]            carry;
  logic [NumPe-1:0][W-1:0]          hword;
  logic [NumPe-1:0]                 czero, hzero;  // the words' zero flags (ClearMode 1)
  // Only PE 0's never-cleared low word is used (the quotient); the other
  // PEs' lo registers drive nothing and synthesis removes them.
  /* verilator lint_off UNUSEDSIGNAL */
  logic [NumPe-1:0][W-1:0]          lo;
  /* verilator lint_on UNUSEDSIGNAL */
  // PE 0's inputs
  logic [W-1:0]          in_b, in_q;
  logic [SlotWidth-1:0]  in_slot;
  logic                  in_load;
  logic [IndexWidth-1:0] in_dest;
  logic [1:0]            in_flags;
  logic                  in_clr, qown_d, qown_q;
  // the quotient delay line and PE 1's token q
  // (QdLen: at least one stage; with QDepth = 0 the line is empty, its
  // placeholder stage tied to zero and left unread)
  /* verilator lint_off UNUSEDSIGNAL */
  logic [QdLen-1:0][W-1:0]          qd_q;
  logic [QdLen:0][W-1:0]            qd_all;
  /* verilator lint_on UNUSEDSIGNAL */
  logic [W-1:0]                     q_tail, q_to_pe1;

  always_comb begin
    if (inj_valid_i) begin
      in_b     = inj_b_i;
      in_q     = inj_q_i;
      in_slot  = inj_slot_i;
      in_load  = inj_load_i;
      in_dest  = inj_dest_i;
      in_flags = inj_flags_i;
      in_clr   = inj_clr_i;
      qown_d   = inj_qown_i;
    end else begin
      in_b     = tok_b[NumPe-1];
      in_q     = tok_q[NumPe-1];
      in_slot  = tok_slot[NumPe-1];
      in_load  = tok_load[NumPe-1];
      in_dest  = tok_dest[NumPe-1];
      in_flags = tok_flags[NumPe-1];
      in_clr   = tok_clr[NumPe-1];
      qown_d   = 1'b0;
    end
  end

  // PE 0's lo register is the first stage; the others are here
  assign qd_all = {qd_q, lo[0]};

  if (QDepth == 0) begin : gen_qd_none
    assign qd_q   = '0;
    assign q_tail = lo[0];
  end else begin : gen_qd
    always_ff @(posedge clk_i) begin
      qd_q <= qd_all[QdLen-1:0];
    end
    assign q_tail = qd_all[QdLen];
  end

  // whether PE 0's token keeps its own q field as it moves to PE 1 (beside
  // PE 0's token register); otherwise PE 1's token takes the quotient
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      qown_q <= 1'b0;
    end else begin
      qown_q <= qown_d;
    end
  end

  assign q_to_pe1 = qown_q ? tok_q[0] : q_tail;

  for (genvar v = 0; v < NumPe; v++) begin : gen_pe
    localparam int Left  = (v + NumPe - 1) % NumPe;
    localparam int Right = (v + 1) % NumPe;

    logic [W-1:0]          pe_b, pe_q;
    logic [SlotWidth-1:0]  pe_slot;
    logic                  pe_load;
    logic [IndexWidth-1:0] pe_dest;
    logic [1:0]            pe_flags;
    logic                  pe_clr;

    if (v == 0) begin : gen_first
      assign pe_b     = in_b;
      assign pe_q     = in_q;
      assign pe_slot  = in_slot;
      assign pe_load  = in_load;
      assign pe_dest  = in_dest;
      assign pe_flags = in_flags;
      assign pe_clr   = in_clr;
    end else begin : gen_next
      assign pe_b     = tok_b[Left];
      assign pe_q     = (v == 1) ? q_to_pe1 : tok_q[Left];
      assign pe_slot  = tok_slot[Left];
      assign pe_load  = tok_load[Left];
      assign pe_dest  = tok_dest[Left];
      assign pe_flags = tok_flags[Left];
      assign pe_clr   = tok_clr[Left];
    end

    mm_ws_pe #(
      .WordWidth  (W),
      .DspRegs    (DspRegs),
      .LoopRegs   (LoopRegs),
      .Slots      (Slots),
      .ClearMode  (ClearMode),
      .IndexWidth (IndexWidth),
      .Index      (v)
    ) u_pe (
      .clk_i  (clk_i),
      .rst_ni (rst_ni),
      .tok_b_i     (pe_b),
      .tok_q_i     (pe_q),
      .tok_slot_i  (pe_slot),
      .tok_load_i  (pe_load),
      .tok_dest_i  (pe_dest),
      .tok_flags_i (pe_flags),
      .tok_clr_i   (pe_clr),
      .tok_b_o     (tok_b[v]),
      .tok_q_o     (tok_q[v]),
      .tok_slot_o  (tok_slot[v]),
      .tok_load_o  (tok_load[v]),
      .tok_dest_o  (tok_dest[v]),
      .tok_flags_o (tok_flags[v]),
      .tok_clr_o   (tok_clr[v]),
      .c_i         (carry[Left]),
      .c_zero_i    (czero[Left]),
      .c_o         (carry[v]),
      .c_zero_o    (czero[v]),
      .h_i         (hword[Right]),
      .h_zero_i    (hzero[Right]),
      .h_o         (hword[v]),
      .h_zero_o    (hzero[v]),
      .lo_o        (lo[v])
    );
  end

  assign q_o = lo[0];

endmodule
