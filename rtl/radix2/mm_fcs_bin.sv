// SPDX-License-Identifier: Apache-2.0
//
// mm_fcs_bin: a full-carry-save core of McIvor et al. behind the common
// binary interface (docs/interface.md), so that it runs the common suite and
// compares with the other cores.  Variant selects the core:
//   1  FCS-MM-1 (mm_fcs1, paper 000 Sec. II-C, Figs. 5/6): five-to-two CSA;
//   2  FCS-MM-2 (mm_fcs2, paper 000 Sec. II-C): D = B + N precomputed in
//      carry-save form, four-to-two CSA.
// The registry names the two configurations fcs1_bin and fcs2_bin.  The
// request (A, B) enters the carry-save core as (A, 0), (B, 0); the core's
// carry-save result (SS, SC) is converted to S = SS + SC by mm_cs2bin, a
// CpaWidth-bit word-serial carry-propagate adder (SCS-MM-1's CPA_FC) that
// reads the core's held result one word per cycle.  The core's own shell
// (mm_req_ctrl) checks the request and answers a rejected one; mm_cs2bin
// passes that answer straight through.
//
// Result A*B*2^-(k+2) mod N in [0, 2N) for A, B in [0, 2N), odd N < 2^k.
// Latency, for every input, cycles after the accepting edge (models
// montmul.models.radix2.fcs1_bin and fcs2_bin):
//   Variant 1: (k+2) + ceil((k+1)/CpaWidth);
//   Variant 2: 1 + (k+2) + ceil((k+1)/CpaWidth) (one precompute cycle for
//              D = B + N);
// a rejected request is answered at the accepting edge.  The wrapper costs,
// besides the core: the w-bit adder and carry flip-flop, two (k+1)-bit word
// multiplexers, a (k+1)-bit result register, a word counter.
`include "mm_macros.svh"

module mm_fcs_bin #(
  parameter int Width      = 32,  // modulus width k: 3 .. 8192
  parameter bit CheckRange = 1,   // 1: reject operands >= 2N
  parameter bit CheckMod   = 1,   // 1: reject an even N or N < 3
  parameter int CpaWidth   = 32,  // word width w of the converter: 4 .. 256
  parameter int Variant    = 1    // carry-save core: 1 (FCS-MM-1) or 2 (FCS-MM-2)
) (
  // the common core interface (docs/interface.md); s_o = A*B*2^-(Width+2) mod N, in [0, 2N)
  `MM_CORE_PORTS
);

  if (Width < mm_pkg::WidthMin || Width > mm_pkg::WidthMax) begin : gen_bad_width
    `MM_FATAL("mm_fcs_bin: Width must be in [3, 8192]")
  end
  if (CpaWidth < 4 || CpaWidth > 256) begin : gen_bad_cpa
    `MM_FATAL("mm_fcs_bin: CpaWidth must be in [4, 256]")
  end
  if (Variant != 1 && Variant != 2) begin : gen_bad_variant
    `MM_FATAL("mm_fcs_bin: Variant must be 1 or 2")
  end

  logic           cs_in_valid, cs_in_ready, cs_out_valid, cs_out_ready, cs_err;
  logic [Width:0] cs_ss, cs_sc;
  logic           conv_idle;

  // A new request starts only when no binary response is pending.
  assign cs_in_valid = in_valid_i && conv_idle;
  assign in_ready_o  = cs_in_ready && conv_idle;

  // The carry-save core of the chosen variant (both have the same ports),
  // the carry words of A and B tied to zero: the operands are binary.
`define MM_FCS_BIN_CORE(module_name) \
    module_name #( \
      .Width     (Width), \
      .CheckRange(CheckRange), \
      .CheckMod  (CheckMod) \
    ) u_core ( \
      .clk_i      (clk_i), \
      .rst_ni     (rst_ni), \
      .in_valid_i (cs_in_valid), \
      .in_ready_o (cs_in_ready), \
      .as_i       (a_i), \
      .ac_i       ({(Width + 1){1'b0}}), \
      .bs_i       (b_i), \
      .bc_i       ({(Width + 1){1'b0}}), \
      .n_i        (n_i), \
      .out_valid_o(cs_out_valid), \
      .out_ready_i(cs_out_ready), \
      .ss_o       (cs_ss), \
      .sc_o       (cs_sc), \
      .err_o      (cs_err) \
    );
  if (Variant == 2) begin : gen_fcs2
    `MM_FCS_BIN_CORE(mm_fcs2)
  end else begin : gen_fcs1
    `MM_FCS_BIN_CORE(mm_fcs1)
  end
`undef MM_FCS_BIN_CORE

  mm_cs2bin #(
    .Width    (Width + 1),
    .WordWidth(CpaWidth)
  ) u_cs2bin (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .cs_valid_i (cs_out_valid),
    .cs_ready_o (cs_out_ready),
    .ss_i       (cs_ss),
    .sc_i       (cs_sc),
    .cs_err_i   (cs_err),
    .out_valid_o(out_valid_o),
    .out_ready_i(out_ready_i),
    .s_o        (s_o),
    .err_o      (err_o),
    .idle_o     (conv_idle)
  );

`ifdef MM_FORMAL
  // Invariant for the formal flow (docs/formal.md): the converter takes the
  // core's response (the core returns to idle) in the cycle it leaves
  // StWait, and no new request reaches the core until it is back there, so
  // while the converter presents a result the carry-save core is idle.
  always_comb begin
    if (rst_ni) begin
      if (!conv_idle) assert (cs_in_ready);
    end
  end
`endif  // MM_FORMAL

endmodule
