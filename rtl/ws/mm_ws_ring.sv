// SPDX-License-Identifier: Apache-2.0
//
// mm_ws_ring: NumPe processing elements of the ws array (mm_ws_pe) closed
// in a ring, with PE 0's quotient path, the result chain's start and the
// out path's end (docs/ws.md).  The datapath of mm_ws_array, which adds the
// sequencer; also the timing proxy of the array (docs/ws_proxy.md,
// scripts/ws_proxy.py synthesizes this module as its top).
//
// Every wire runs between neighbours: the token, the carry and the result
// chain move right (PE NumPe-1's right neighbour is PE 0: a token's next
// lap, c = Slots / 2 laps per wave), the h word and the out path move left
// (the h word through 2c - 2 registers here; the out path ends at PE 0,
// whose out word is the result stream res_o).  PE 0 is virtual PE 0 of a
// product in its first lap: its sum's low word is the quotient q_i (its lo
// register), which goes down a history line of max(2c(QuotDelay - 1) - 1,
// the tap below) registers (a half's quotients are 2c cycles apart) and
// enters chunk 0's token as it passes from PE 0 to PE 1 from tap
// 2c QuotDelay - Latency - 1, so that wave i + QuotDelay carries q_i.  Wave
// i of a product reaches virtual PE v at t0 + 2ci + v and its token Latency
// cycles earlier; q_i is in PE 0's lo register from t0 + 2ci + 1 and must be
// at PE 1's token input at t0 + 2c(i + QuotDelay) - Latency - 1, hence
// 2c QuotDelay >= Latency + 1.  With 2c QuotDelay = Latency (the model's
// qlat = -1) the quotient bypasses the lo register: PE 0's sum low word goes
// straight to PE 1's token input in the add's own cycle (sum_lo_o), one
// fewer wave per product.  The taps 2c - 1, 4c - 1, .., 2c(QuotDelay - 1) - 1
// are PE 0's result chain input in chunk 0: at the last wave's add they hold
// q_(s-2) .. q_(s-d), so PE 0 writes U_0 = q_(s-d) into its a word and the
// chain carries U_1 .. U_(d-1) right; in a later chunk the input is PE
// NumPe-1's chain.
//
// Control is in the tokens.  A token injected at PE 0 (inj_valid_i)
// replaces the one coming round the ring from PE NumPe-1 (the path later
// chunks of a long operand take, its slot stepped by 2; mm_ws_array injects
// only its own tokens, the schedule keeps the two apart).
// Load tokens write a PE's slot (its a and M words and flags {result, top,
// first}); inj_qown_i lets PE 0's token keep its own q field as it moves to
// PE 1 (load tokens, and a product's first QuotDelay waves, which take
// q = 0).  Outputs: the quotient q_o (PE 0's lo register) and the result
// stream res_o = {valid, half, word}.
`include "mm_macros.svh"

module mm_ws_ring #(
  parameter int NumPe     = 8,   // processing elements P: 2 .. 512
  parameter int WordWidth = 16,  // word width w: 2 .. 18
  parameter int DspRegs   = 3,   // MULT18X18D registers: 2 or 3
  parameter int LoopRegs  = 0,   // transport registers: 0 .. 2 (Latency = DspRegs + 3 + LoopRegs)
  parameter int QuotDelay = 4,   // quotient delay d in waves: max(2, ceil(Latency / 2)) .. 8
  parameter int Slots     = 2,   // operand slots per PE, 2 per lap of the ring: 2, 4, 6, 8
  parameter int ClearMode = 0,   // PE loop clears (mm_ws_pe): 0 (sync resets) or 1 (zero flags)
  // derived, not to be set
  localparam int SlotWidth  = (Slots > 1) ? $clog2(Slots) : 1,
  localparam int ChunkWidth = (SlotWidth > 1) ? SlotWidth - 1 : 1,
  localparam int IndexWidth = (NumPe > 1) ? $clog2(NumPe) : 1
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  // token injection at PE 0
  input  logic                  inj_valid_i,  // take this token (else the one from PE NumPe-1)
  input  logic [WordWidth-1:0]  inj_b_i,      // b_i, or the a word of a load
  input  logic [WordWidth-1:0]  inj_q_i,      // the M word of a load (else 0)
  input  logic [SlotWidth-1:0]  inj_slot_i,
  input  logic                  inj_wave_i,   // a wave (else idle or a load)
  input  logic                  inj_last_i,   // the product's last wave
  input  logic                  inj_tail_i,   // one of its last QuotDelay waves
  input  logic                  inj_load_i,
  input  logic [IndexWidth-1:0] inj_dest_i,   // a load's PE
  input  logic [ChunkWidth-1:0] inj_dchunk_i, // ... and chunk
  input  logic [2:0]            inj_flags_i,  // {result, top, first} of a load
  input  logic                  inj_qown_i,   // PE 1 takes inj_q_i, not the quotient (loads,
                                              // and a product's first QuotDelay waves: q = 0)
  // outputs
  output logic [WordWidth-1:0]  q_o,          // the quotient (PE 0's lo register)
  output logic [WordWidth+1:0]  res_o         // the result stream {valid, half, word}
`ifdef MM_FORMAL
  ,
  // for the formal flow only (docs/ws_core.md, "Formal")
  output logic                  f_active_o,   // a token, add or result word in some PE
  output logic [NumPe-1:0][Slots-1:0][2:0] f_flags_o  // every PE's slot flags
`endif
);

  localparam int Latency = DspRegs + 3 + LoopRegs;
  localparam int C       = Slots / 2;                        // chunks (laps)
  localparam int QDepth  = 2 * C * QuotDelay - Latency - 1;  // quotient tap into PE 1's token
  // history registers after lo: up to the last chain tap and the quotient tap
  localparam int QhLen   = (QDepth > 2 * C * (QuotDelay - 1) - 1) ? QDepth
                                                                 : 2 * C * (QuotDelay - 1) - 1;
  localparam int HDelay  = 2 * C - 2;                        // h: read 2c - 1 cycles after written
  localparam int QhRegs  = (QhLen > 0) ? QhLen : 1;
  localparam int ChainLen = QuotDelay - 1;
  localparam int W       = WordWidth;

  if (NumPe < 2 || NumPe > 512) begin : gen_bad_pe
    `MM_FATAL("mm_ws_ring: NumPe must be in [2, 512]")
  end
  if (QDepth < -1 || QuotDelay < 2 || QuotDelay > 8) begin : gen_bad_delay
    `MM_FATAL("mm_ws_ring: QuotDelay must be in [max(2, ceil(Latency / 2)), 8]")
  end

  // token, carry, h word, chain and out path of every PE (index: the PE driving it)
  logic [NumPe-1:0][W-1:0]          tok_b;
  logic [NumPe-1:0][W-1:0]          tok_q;
  logic [NumPe-1:0][SlotWidth-1:0]  tok_slot;
  logic [NumPe-1:0]                 tok_valid, tok_last, tok_tail;
  logic [NumPe-1:0]                 tok_load;
  logic [NumPe-1:0][IndexWidth-1:0] tok_dest;
  logic [NumPe-1:0][ChunkWidth-1:0] tok_dchunk;
  logic [NumPe-1:0][W-1:0]          h_in;
  logic [NumPe-1:0][2:0]            tok_flags;
  logic [NumPe-1:0][W:0]            carry;
  logic [NumPe-1:0][W-1:0]          hword;
  logic [NumPe-1:0]                 czero, hzero;  // the words' zero flags (ClearMode 1)
  logic [NumPe-1:0]                 hz_in;         // hzero delayed as h_in
  logic [NumPe-1:0][W+1:0]          outp;
  // Only PE 0's lo and sum_lo words are used here (the quotient); the
  // other PEs' lo registers are read through their result chain, and PE
  // NumPe-1's chain output only for c > 1.
  /* verilator lint_off UNUSEDSIGNAL */
  logic [NumPe-1:0][ChainLen-1:0][W-1:0] chain;
  logic [NumPe-1:0][W-1:0]          lo;
  logic [NumPe-1:0][W-1:0]          sum_lo;
  logic [NumPe-1:0][SlotWidth-1:0]  add_slot;  // PE 0's, for c > 1
  /* verilator lint_on UNUSEDSIGNAL */
  // PE 0's inputs
  logic [W-1:0]          in_b, in_q;
  logic [SlotWidth-1:0]  in_slot;
  logic                  in_valid, in_last, in_tail, in_load;
  logic [IndexWidth-1:0] in_dest;
  logic [ChunkWidth-1:0] in_dchunk;
  logic [2:0]            in_flags;
  logic                  qown_d, qown_q;
  // the quotient history: qh_all[0] is PE 0's lo register, qh_all[j] the
  // quotient of j cycles before
  /* verilator lint_off UNUSEDSIGNAL */
  logic [QhRegs-1:0][W-1:0]         qh_q;
  logic [QhLen:0][W-1:0]            qh_all;
  /* verilator lint_on UNUSEDSIGNAL */
  logic [ChainLen-1:0][W-1:0]       chain0;
  logic [W-1:0]                     q_to_pe1, q_tap;
`ifdef MM_FORMAL
  logic [NumPe-1:0]                 f_pe_active;
`endif

  always_comb begin
    if (inj_valid_i) begin
      in_b     = inj_b_i;
      in_q     = inj_q_i;
      in_slot  = inj_slot_i;
      in_valid = inj_wave_i;
      in_last  = inj_last_i;
      in_tail  = inj_tail_i;
      in_load  = inj_load_i;
      in_dest  = inj_dest_i;
      in_dchunk = inj_dchunk_i;
      in_flags = inj_flags_i;
      qown_d   = inj_qown_i;
    end else if (C == 1) begin
      // one lap: no token comes round (every token stops at or before PE
      // NumPe-1, docs/ws.md), so the ring is a line with no wrap wires
      in_b     = '0;
      in_q     = '0;
      in_slot  = '0;
      in_valid = 1'b0;
      in_last  = 1'b0;
      in_tail  = 1'b0;
      in_load  = 1'b0;
      in_dest  = '0;
      in_dchunk = '0;
      in_flags = '0;
      qown_d   = 1'b1;
    end else begin
      in_b     = tok_b[NumPe-1];
      in_q     = tok_q[NumPe-1];
      // the wrap: the token's next lap is the next chunk (slot + 2)
      in_slot  = tok_slot[NumPe-1] + SlotWidth'(2);
      in_valid = tok_valid[NumPe-1];
      in_last  = tok_last[NumPe-1];
      in_tail  = tok_tail[NumPe-1];
      in_load  = tok_load[NumPe-1];
      in_dest  = tok_dest[NumPe-1];
      in_dchunk = tok_dchunk[NumPe-1];
      in_flags = tok_flags[NumPe-1];
      qown_d   = 1'b1;  // only chunk 0's token takes the quotient
    end
  end

  // PE 0's lo register is the history's first stage; the others are here
  if (QhLen == 0) begin : gen_qh_none
    assign qh_q   = '0;
    assign qh_all = lo[0];
  end else begin : gen_qh
    assign qh_all = {qh_q, lo[0]};
    always_ff @(posedge clk_i) begin
      qh_q <= qh_all[QhLen-1:0];
    end
  end

  // PE 0's result chain input: in chunk 0 the history taps 2c(k+1) - 1 (its
  // chain registers then hold q_(s-1) .. q_(s-d+1) the cycle after the last
  // wave); in a later chunk PE NumPe-1's chain (virtual PE kP - 1's)
  for (genvar k = 0; k < ChainLen; k++) begin : gen_chain0
    if (C == 1) begin : gen_one
      assign chain0[k] = qh_all[2 * C * (k + 1) - 1];
    end else begin : gen_laps
      assign chain0[k] = (add_slot[0][SlotWidth-1:1] == '0) ? qh_all[2 * C * (k + 1) - 1]
                                                           : chain[NumPe-1][k];
    end
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

  if (QDepth < 0) begin : gen_q_bypass
    assign q_tap = sum_lo[0];
  end else begin : gen_q_line
    assign q_tap = qh_all[QDepth];
  end

  assign q_to_pe1 = qown_q ? tok_q[0] : q_tap;

  for (genvar v = 0; v < NumPe; v++) begin : gen_pe
    localparam int Left  = (v + NumPe - 1) % NumPe;
    localparam int Right = (v + 1) % NumPe;

    logic [W-1:0]          pe_b, pe_q;
    logic [SlotWidth-1:0]  pe_slot;
    logic                  pe_valid, pe_last, pe_tail, pe_load;
    logic [IndexWidth-1:0] pe_dest;
    logic [ChunkWidth-1:0] pe_dchunk;
    logic [2:0]            pe_flags;
    // flat: Yosys cannot size a 2-D packed signal of a generate scope
    logic [ChainLen*W-1:0] pe_chain;
    logic [W+1:0]          pe_out;

    if (v == 0) begin : gen_first
      assign pe_b     = in_b;
      assign pe_q     = in_q;
      assign pe_slot  = in_slot;
      assign pe_valid = in_valid;
      assign pe_last  = in_last;
      assign pe_tail  = in_tail;
      assign pe_load  = in_load;
      assign pe_dest  = in_dest;
      assign pe_dchunk = in_dchunk;
      assign pe_flags = in_flags;
      assign pe_chain = chain0;
    end else begin : gen_next
      assign pe_b     = tok_b[Left];
      assign pe_q     = (v == 1) ? q_to_pe1 : tok_q[Left];
      assign pe_slot  = tok_slot[Left];
      assign pe_valid = tok_valid[Left];
      assign pe_last  = tok_last[Left];
      assign pe_tail  = tok_tail[Left];
      assign pe_load  = tok_load[Left];
      assign pe_dest  = tok_dest[Left];
      assign pe_dchunk = tok_dchunk[Left];
      assign pe_flags = tok_flags[Left];
      assign pe_chain = chain[Left];
    end

    // the carry into PE 0 from PE NumPe-1: with one lap PE 0 is virtual
    // PE 0 and PE NumPe-1 the top virtual PE or idle (carry 0), so a line
    // has no wire there
    logic [W:0] pe_c;
    logic       pe_cz;
    if (v == 0 && C == 1) begin : gen_c_none
      assign pe_c  = '0;
      assign pe_cz = 1'b1;
    end else begin : gen_c_left
      assign pe_c  = carry[Left];
      assign pe_cz = czero[Left];
    end

    // the out path ends at PE 0: PE NumPe-1 takes nothing from the right
    if (v == NumPe - 1) begin : gen_out_end
      assign pe_out = '0;
    end else begin : gen_out_next
      assign pe_out = outp[Right];
    end

    mm_ws_pe #(
      .WordWidth  (W),
      .DspRegs    (DspRegs),
      .LoopRegs   (LoopRegs),
      .QuotDelay  (QuotDelay),
      .Slots      (Slots),
      .RingPes    (NumPe),
      .ClearMode  (ClearMode),
      .IndexWidth (IndexWidth),
      .Index      (v)
    ) u_pe (
      .clk_i  (clk_i),
      .rst_ni (rst_ni),
      .tok_b_i     (pe_b),
      .tok_q_i     (pe_q),
      .tok_slot_i  (pe_slot),
      .tok_valid_i (pe_valid),
      .tok_last_i  (pe_last),
      .tok_tail_i  (pe_tail),
      .tok_load_i  (pe_load),
      .tok_dest_i  (pe_dest),
      .tok_dchunk_i (pe_dchunk),
      .tok_flags_i (pe_flags),
      .tok_b_o     (tok_b[v]),
      .tok_q_o     (tok_q[v]),
      .tok_slot_o  (tok_slot[v]),
      .tok_valid_o (tok_valid[v]),
      .tok_last_o  (tok_last[v]),
      .tok_tail_o  (tok_tail[v]),
      .tok_load_o  (tok_load[v]),
      .tok_dest_o  (tok_dest[v]),
      .tok_dchunk_o (tok_dchunk[v]),
      .tok_flags_o (tok_flags[v]),
      .c_i         (pe_c),
      .c_zero_i    (pe_cz),
      .c_o         (carry[v]),
      .c_zero_o    (czero[v]),
      .h_i         (h_in[v]),
      .h_zero_i    (hz_in[v]),
      .h_o         (hword[v]),
      .h_zero_o    (hzero[v]),
      .lo_o        (lo[v]),
      .sum_lo_o    (sum_lo[v]),
      .chain_i     (pe_chain),
      .chain_o     (chain[v]),
      .out_i       (pe_out),
      .out_o       (outp[v]),
      .add_slot_o  (add_slot[v])
`ifdef MM_FORMAL
      ,
      .f_active_o  (f_pe_active[v]),
      .f_flags_o   (f_flags_o[v])
`endif
    );

    // the h word from the right neighbour: 2c - 2 registers more than its
    // h register, so that it is read 2c - 1 cycles after it is written
    // (and its zero flag with it)
    if (v == NumPe - 1 && C == 1) begin : gen_h_none
      // one lap: virtual PE 0 (PE 0) sends h = 0 to the left, so the line
      // has no wire from PE 0 to PE NumPe-1
      assign h_in[v]  = '0;
      assign hz_in[v] = 1'b1;
    end else if (HDelay == 0) begin : gen_h_direct
      assign h_in[v]  = hword[Right];
      assign hz_in[v] = hzero[Right];
    end else begin : gen_h_line
      // flat (Yosys reads no 2-D packed signal declared in a generate scope)
      logic [HDelay*W-1:0] hl_q;
      logic [HDelay-1:0]   hzl_q;
      always_ff @(posedge clk_i) begin
        hl_q  <= {hl_q[(HDelay-1)*W-1:0], hword[Right]};
        hzl_q <= {hzl_q[HDelay-2:0], hzero[Right]};
      end
      assign h_in[v]  = hl_q[HDelay*W-1 -: W];
      assign hz_in[v] = hzl_q[HDelay-1];
    end
  end

  assign q_o   = lo[0];
  assign res_o = outp[0];

`ifdef MM_FORMAL
  assign f_active_o = |f_pe_active;
`endif  // MM_FORMAL

endmodule
