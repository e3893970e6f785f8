// SPDX-License-Identifier: Apache-2.0
//
// mm_ws_mul: one unsigned WordWidth x WordWidth word product of the ws array
// (word-serial systolic Montgomery, docs/ws_proxy.md) on one ECP5 MULT18X18D
// with the block's own registers.  The product of the operands presented in
// cycle t leaves p_o in cycle t + DspRegs: the input registers (A and B), for
// DspRegs = 3 also the pipeline register in the middle of the multiplier, and
// the output register.  The placement measurements behind this
// (notes: ECP5 systolic limit) show why the registers belong inside the
// block: registers left in the fabric are placed far from the fixed DSP sites.
//
// With MM_ECP5_DSP defined (the ECP5 synthesis of the ws array) the block is
// the vendor primitive MULT18X18D, as Yosys's ECP5 cell library declares it;
// otherwise a behavioural twin with the same registers and latency, so that
// Icarus, Verilator and any other flow simulate and synthesize the array
// without the vendor model.
`include "mm_macros.svh"

module mm_ws_mul #(
  parameter int WordWidth = 16,  // operand word width w: 2 .. 18 (MULT18X18D, unsigned)
  parameter int DspRegs   = 3    // registers in the block: 2 (input, output) or 3 (+ pipeline)
) (
  input  logic                   clk_i,
  input  logic [WordWidth-1:0]   a_i,  // operands, taken by the input registers
  input  logic [WordWidth-1:0]   b_i,
  output logic [2*WordWidth-1:0] p_o   // a_i * b_i of DspRegs cycles before
);

  if (WordWidth < 2 || WordWidth > 18) begin : gen_bad_width
    `MM_FATAL("mm_ws_mul: WordWidth must be in [2, 18]")
  end
  if (DspRegs < 2 || DspRegs > 3) begin : gen_bad_regs
    `MM_FATAL("mm_ws_mul: DspRegs must be 2 or 3")
  end

`ifdef MM_ECP5_DSP
  logic [17:0] a18, b18;
  logic [35:0] p36;

  assign a18 = 18'(a_i);
  assign b18 = 18'(b_i);

  MULT18X18D #(
    .REG_INPUTA_CLK   ("CLK0"),
    .REG_INPUTA_CE    ("CE0"),
    .REG_INPUTA_RST   ("RST0"),
    .REG_INPUTB_CLK   ("CLK0"),
    .REG_INPUTB_CE    ("CE0"),
    .REG_INPUTB_RST   ("RST0"),
    .REG_INPUTC_CLK   ("NONE"),
    .REG_PIPELINE_CLK ((DspRegs == 3) ? "CLK0" : "NONE"),
    .REG_PIPELINE_CE  ("CE0"),
    .REG_PIPELINE_RST ("RST0"),
    .REG_OUTPUT_CLK   ("CLK0"),
    .REG_OUTPUT_CE    ("CE0"),
    .REG_OUTPUT_RST   ("RST0"),
    .GSR              ("DISABLED"),
    .RESETMODE        ("SYNC"),
    .SOURCEB_MODE     ("B_SHIFT"),
    .MULT_BYPASS      ("DISABLED")
  ) u_mult (
      .A17(a18[17]), .A16(a18[16]), .A15(a18[15]), .A14(a18[14]), .A13(a18[13]), .A12(a18[12]),
      .A11(a18[11]), .A10(a18[10]), .A9(a18[9]), .A8(a18[8]), .A7(a18[7]), .A6(a18[6]),
      .A5(a18[5]), .A4(a18[4]), .A3(a18[3]), .A2(a18[2]), .A1(a18[1]), .A0(a18[0]),
      .B17(b18[17]), .B16(b18[16]), .B15(b18[15]), .B14(b18[14]), .B13(b18[13]), .B12(b18[12]),
      .B11(b18[11]), .B10(b18[10]), .B9(b18[9]), .B8(b18[8]), .B7(b18[7]), .B6(b18[6]),
      .B5(b18[5]), .B4(b18[4]), .B3(b18[3]), .B2(b18[2]), .B1(b18[1]), .B0(b18[0]),
      .C17(), .C16(), .C15(), .C14(), .C13(), .C12(),
      .C11(), .C10(), .C9(), .C8(), .C7(), .C6(),
      .C5(), .C4(), .C3(), .C2(), .C1(), .C0(),
      .SRIA17(), .SRIA16(), .SRIA15(), .SRIA14(), .SRIA13(), .SRIA12(),
      .SRIA11(), .SRIA10(), .SRIA9(), .SRIA8(), .SRIA7(), .SRIA6(),
      .SRIA5(), .SRIA4(), .SRIA3(), .SRIA2(), .SRIA1(), .SRIA0(),
      .SRIB17(), .SRIB16(), .SRIB15(), .SRIB14(), .SRIB13(), .SRIB12(),
      .SRIB11(), .SRIB10(), .SRIB9(), .SRIB8(), .SRIB7(), .SRIB6(),
      .SRIB5(), .SRIB4(), .SRIB3(), .SRIB2(), .SRIB1(), .SRIB0(),
      .P35(p36[35]), .P34(p36[34]), .P33(p36[33]), .P32(p36[32]), .P31(p36[31]), .P30(p36[30]),
      .P29(p36[29]), .P28(p36[28]), .P27(p36[27]), .P26(p36[26]), .P25(p36[25]), .P24(p36[24]),
      .P23(p36[23]), .P22(p36[22]), .P21(p36[21]), .P20(p36[20]), .P19(p36[19]), .P18(p36[18]),
      .P17(p36[17]), .P16(p36[16]), .P15(p36[15]), .P14(p36[14]), .P13(p36[13]), .P12(p36[12]),
      .P11(p36[11]), .P10(p36[10]), .P9(p36[9]), .P8(p36[8]), .P7(p36[7]), .P6(p36[6]),
      .P5(p36[5]), .P4(p36[4]), .P3(p36[3]), .P2(p36[2]), .P1(p36[1]), .P0(p36[0]),
      .SIGNEDA(1'b0), .SIGNEDB(1'b0), .SOURCEA(), .SOURCEB(),
      .CLK0(clk_i), .CLK1(), .CLK2(), .CLK3(),
      .CE0(1'b1), .CE1(), .CE2(), .CE3(),
      .RST0(1'b0), .RST1(), .RST2(), .RST3(),
      .SROA17(), .SROA16(), .SROA15(), .SROA14(), .SROA13(), .SROA12(), .SROA11(), .SROA10(),
      .SROA9(), .SROA8(), .SROA7(), .SROA6(), .SROA5(), .SROA4(), .SROA3(), .SROA2(), .SROA1(),
      .SROA0(),
      .SROB17(), .SROB16(), .SROB15(), .SROB14(), .SROB13(), .SROB12(), .SROB11(), .SROB10(),
      .SROB9(), .SROB8(), .SROB7(), .SROB6(), .SROB5(), .SROB4(), .SROB3(), .SROB2(), .SROB1(),
      .SROB0(),
      .ROA17(), .ROA16(), .ROA15(), .ROA14(), .ROA13(), .ROA12(), .ROA11(), .ROA10(), .ROA9(),
      .ROA8(), .ROA7(), .ROA6(), .ROA5(), .ROA4(), .ROA3(), .ROA2(), .ROA1(), .ROA0(),
      .ROB17(), .ROB16(), .ROB15(), .ROB14(), .ROB13(), .ROB12(), .ROB11(), .ROB10(), .ROB9(),
      .ROB8(), .ROB7(), .ROB6(), .ROB5(), .ROB4(), .ROB3(), .ROB2(), .ROB1(), .ROB0(),
      .ROC17(), .ROC16(), .ROC15(), .ROC14(), .ROC13(), .ROC12(), .ROC11(), .ROC10(), .ROC9(),
      .ROC8(), .ROC7(), .ROC6(), .ROC5(), .ROC4(), .ROC3(), .ROC2(), .ROC1(), .ROC0(),
      .SIGNEDP()
  );

  assign p_o = p36[2*WordWidth-1:0];
`else
  // Behavioural twin: the same registers as the block (no reset, as the
  // block's registers here: RST0 is tied low).
  logic [WordWidth-1:0]   a_q, b_q;
  logic [2*WordWidth-1:0] m_q, p_q, m_d;

  always_comb begin
    m_d = a_q * b_q;
  end

  always_ff @(posedge clk_i) begin
    a_q <= a_i;
    b_q <= b_i;
    p_q <= m_q;
  end

  if (DspRegs == 3) begin : gen_pipe
    always_ff @(posedge clk_i) begin
      m_q <= m_d;
    end
  end else begin : gen_no_pipe
    assign m_q = m_d;
  end

  assign p_o = p_q;
`endif

endmodule
