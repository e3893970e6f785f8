// SPDX-License-Identifier: Apache-2.0
//
// mm_pke_pkg: the instruction format of the public-key engine mm_pke (docs/pke.md,
// "Instruction set"): opcodes, flag bits and field positions of the 72-bit word, for
// mm_pke_seq and mm_pke_alu.  Generated from montmul.models.pke (its Op, F_* and FIELDS)
// by `python -m montmul.models.pke --sv-package`; do not edit (tests/test_models_pke.py
// checks this file equals the generator's output).
package mm_pke_pkg;

  localparam int PkeInstrBits = 72;  // instruction word
  localparam int PkeAddrBits  = 13;  // bank address; the top bit selects the EBR group

  // opcodes (5 bits)
  localparam logic [4:0] OpHalt  = 5'd0;
  localparam logic [4:0] OpJob   = 5'd1;
  localparam logic [4:0] OpProd  = 5'd2;
  localparam logic [4:0] OpRep   = 5'd3;
  localparam logic [4:0] OpEnd   = 5'd4;
  localparam logic [4:0] OpSetx  = 5'd5;
  localparam logic [4:0] OpMov   = 5'd6;
  localparam logic [4:0] OpClr   = 5'd7;
  localparam logic [4:0] OpAdd   = 5'd8;
  localparam logic [4:0] OpSub   = 5'd9;
  localparam logic [4:0] OpSel   = 5'd10;
  localparam logic [4:0] OpMacr  = 5'd11;

  // flag bits (indices into the 5-bit flags field; the meaning depends on the opcode)
  localparam int FH0    = 0;  // all: half 0 only
  localparam int FXA    = 1;  // ALU: operand a from the other half's bank
  localparam int FLoad  = 2;  // JOB: load A and M
  localparam int FAtab  = 3;  // JOB: A = table entry of the next window
  localparam int FBsq   = 2;  // PROD: B = the previous result
  localparam int FBtab  = 3;  // PROD: B = table entry of the next window
  localparam int FStore = 4;  // PROD: store the result
  localparam int FRedc  = 2;  // MACR: REDC quotients
  localparam int FLdn   = 2;  // MOV: load the ALU's modulus (ModAlu)
  localparam int FDual  = 2;  // ADD/SUB: also (a +/- b) -/+ N_A at c (ModAlu)

  // fields, most significant first: least significant bit and width
  localparam int FldOpLsb     = 67;
  localparam int FldOpBits    = 5;
  localparam int FldFlagsLsb  = 62;
  localparam int FldFlagsBits = 5;
  localparam int FldDstLsb    = 49;
  localparam int FldDstBits   = 13;
  localparam int FldALsb      = 36;
  localparam int FldABits     = 13;
  localparam int FldBLsb      = 23;
  localparam int FldBBits     = 13;
  localparam int FldCLsb      = 10;
  localparam int FldCBits     = 13;
  localparam int FldNLsb      = 0;
  localparam int FldNBits     = 10;

endpackage
