// SPDX-License-Identifier: Apache-2.0
//
// mm_modexp: modular exponentiation X = base^exp mod N on top of any montmul
// core (docs/modexp.md).  The core is the module mm_modexp_core, a one-line
// wrapper that the Python tooling generates from the core's registry entry
// (montmul.modexp.core_wrapper) into the build directory; so the engine names
// no core, and a newly registered core needs no change here.  The checked-in
// rtl/modexp/mm_modexp_core.sv wraps the reference core mm_r2_basic.
//
// Algorithm, with MM(a, b) = a*b*R^-1 mod N the core's Montgomery product
// (R = the core's radix, values in [0, 2N)):
//   one = MM(R2, 1)                     R mod N
//   chk = MM(one, 1), reduced:  must be 1, else R2 != R^2 mod N: err
//   y   = MM(base, R2)                  base in the Montgomery domain
//   x   = one
//   for i = exp_len-1 downto 0:
//     mode 0 (paper 004, Algorithm 2: left-to-right square-and-multiply):
//       x = MM(x, x); if e_i: x = MM(x, y)
//     mode 1 (Montgomery powering ladder, invariant y = x*base):
//       e_i = 1: x = MM(x, y); y = MM(y, y)
//       e_i = 0: y = MM(x, y); x = MM(x, x)
//   result = MM(x, 1), minus N if >= N
// Every product is in [0, 2N) and every operand below 2N, so products chain
// with no subtraction (Walter's bound); one subtraction at the end.  The exit
// product MM(x, 1) is congruent to base^exp, and the subtraction brings it
// into [0, N).
//
// Latency: each core product costs its latency L_i + 2 (the core's accepting
// edge and the edge that takes its response), each of the two reductions
// three cycles: L = sum(L_i + 2) + 6.  A rejected request is answered at the
// accepting edge (L = 0).  In mode 1 the sequence of products depends on
// exp_len only, so on a constant-time core the latency does too.
`include "mm_macros.svh"

module mm_modexp #(
  parameter int Width = 32  // modulus width k: 3 .. 8192
) (
  input  logic                     clk_i,
  input  logic                     rst_ni,
  // request
  input  logic                     in_valid_i,
  output logic                     in_ready_o,
  input  logic [Width-1:0]         base_i,     // base, below N
  input  logic [Width-1:0]         exp_i,      // exponent; bits >= exp_len_i must be 0
  input  logic [$clog2(Width+1)-1:0] exp_len_i,  // exponent length t: 1 .. Width
  input  logic [Width-1:0]         n_i,        // odd N, 3 <= N < 2^Width
  input  logic [Width-1:0]         r2_i,       // R^2 mod N (R: the core's radix)
  input  logic                     ladder_i,   // 0: square-and-multiply, 1: ladder
  // response
  output logic                     out_valid_o,
  input  logic                     out_ready_i,
  output logic [Width-1:0]         result_o,   // base^exp mod N, in [0, N); 0 on err
  output logic                     err_o       // request rejected; result_o is 0
);

  if (Width < mm_pkg::WidthMin || Width > mm_pkg::WidthMax) begin : gen_bad_width
    `MM_FATAL("mm_modexp: Width must be in [3, 8192]")
  end

  localparam int LenW = $clog2(Width + 1);
  localparam int IdxW = $clog2(Width);  // bit index 0 .. Width-1

  typedef enum logic [2:0] {
    StIdle,    // ready for a request
    StMul,     // present a product to the core
    StWait,    // wait for the core's response, take it
    StRed1,    // reduction step 1: segment carries and check flags to registers
    StRed2,    // reduction step 2: segment carries (y >= N) and the check, to registers
    StRed3,    // reduction step 3: act on them
    StDone     // hold the response
  } state_e;

  typedef enum logic [2:0] {
    PhOne,   // one = MM(R2, 1)
    PhChk,   // chk = MM(one, 1)
    PhBase,  // y = MM(base, R2)
    PhLoop,  // the exponent bits
    PhExit   // MM(x, 1)
  } phase_e;

  state_e            state_q, state_d;
  phase_e            phase_q, phase_d;
  logic              sub_q, sub_d;        // second product of the current bit
  logic [IdxW-1:0]   idx_q, idx_d;        // current exponent bit
  logic              ladder_q, ladder_d;
  logic [Width-1:0]  n_q, n_d;
  logic [Width-1:0]  e_q, e_d;
  logic [Width-1:0]  r2_q, r2_d;
  logic [Width-1:0]  base_q, base_d;
  logic [Width:0]    x_q, x_d;            // accumulator / ladder R0, in [0, 2N)
  logic [Width:0]    y_q, y_d;            // base*R / ladder R1 / value to reduce / result
  logic              err_q, err_d;

  // The core's operands come from registers (opa_q, opb_q), and its result
  // goes into x or y through a multiplexer whose select is a flip-flop, so
  // no engine decode sits between the core's registers and the engine's
  // wide registers, or between the engine's and the core's (see "Operand
  // and result paths" below).
  logic [Width:0]    opa_q, opa_d, opb_q, opb_d;
  logic              ldx_q, ldx_d, ldy_q, ldy_d;  // x / y take core_s (StWait)
  logic              ldr_q, ldr_d;                 // y takes the reduction (StRed3)

  // Request checks, in the accepting cycle (like the cores' mm_in_check).
  logic              req_err;
  logic              bad_n, bad_base, bad_len, bad_exp, bad_r2;

  // exp_len_i > Width: only possible when Width + 1 is not a power of two.
  logic              len_above;
  if ((1 << LenW) - 1 > Width) begin : gen_len_above
    assign len_above = exp_len_i > LenW'(Width);
  end else begin : gen_len_fits
    assign len_above = 1'b0;
  end

  // An exponent bit at or above exp_len_i (mm_len_check: not one comparator
  // per bit).
  mm_len_check #(
    .Width(Width),
    .LenW (LenW)
  ) u_len (
    .e_i    (exp_i),
    .len_i  (exp_len_i),
    .above_o(bad_exp)
  );

  always_comb begin
    bad_n    = ~n_i[0] | ~|n_i[Width-1:1];  // even, or N = 1
    bad_len  = (exp_len_i == '0) || len_above;
    req_err  = bad_n | bad_base | bad_len | bad_exp | bad_r2;
  end

  // base >= N and R2 >= N: the carry out of x + ~N + 1, through the
  // segmented adder (no carry chain longer than a segment).
  logic [Width-1:0] unused_base_diff, unused_r2_diff;
  mm_seg_add #(
    .Width(Width)
  ) u_cmp_base (
    .a_i (base_i),
    .b_i (~n_i),
    .ci_i(1'b1),
    .s_o (unused_base_diff),
    .co_o(bad_base)
  );
  mm_seg_add #(
    .Width(Width)
  ) u_cmp_r2 (
    .a_i (r2_i),
    .b_i (~n_i),
    .ci_i(1'b1),
    .s_o (unused_r2_diff),
    .co_o(bad_r2)
  );

  // The core.
  logic              core_in_valid, core_in_ready;
  logic              core_out_valid, core_out_ready;
  logic [Width:0]    core_s;
  logic              core_err;

  mm_modexp_core #(
    .Width(Width)
  ) u_core (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .in_valid_i (core_in_valid),
    .in_ready_o (core_in_ready),
    .a_i        (opa_q),
    .b_i        (opb_q),
    .n_i        (n_q),
    .out_valid_o(core_out_valid),
    .out_ready_i(core_out_ready),
    .s_o        (core_s),
    .err_o      (core_err)
  );

  localparam logic [Width:0] One = {{Width{1'b0}}, 1'b1};

  logic              ebit;                // exponent bit idx_q (ebit_q)
  logic              ebit_q, ebit_d;
  logic              ebit_next;           // exponent bit idx_q - 1
  logic              last_bit;

  // Exponent-bit selection, off the critical path: nidx_q = idx_q - 1 is a
  // register (no decrement on the path), and e_q[nidx_q] is a two-level
  // multiplexer with a register between the levels: epart_q[g] = bit
  // nidx_q mod EGrp of group g of the exponent, loaded every cycle, and
  // ebit_next = epart_q[nidx_q / EGrp].  The index changes only at the edge
  // that ends an exponent bit, and the next such edge is at least two edges
  // later (a product takes StMul and StWait), so epart_q has caught up by then.
  localparam int EGrpBits = (IdxW < 4) ? IdxW : 4;
  localparam int EGrp     = 1 << EGrpBits;
  localparam int NumEGrp  = (Width + EGrp - 1) / EGrp;
  logic [IdxW-1:0]         nidx_q, nidx_d;
  logic [NumEGrp*EGrp-1:0] e_pad;
  logic [NumEGrp-1:0]      epart_q, epart_d;
  assign e_pad = {{(NumEGrp*EGrp-Width){1'b0}}, e_q};
  always_comb begin
    for (int g = 0; g < NumEGrp; g++) begin
      epart_d[g] = e_pad[g*EGrp + int'(nidx_q[EGrpBits-1:0])];
    end
  end
  if (NumEGrp > 1) begin : gen_egrp
    localparam int HiW = $clog2(NumEGrp);
    // HiW <= IdxW - EGrpBits, since Width <= 2^IdxW.
    logic [HiW-1:0] nidx_hi;
    assign nidx_hi   = nidx_q[EGrpBits+:HiW];
    assign ebit_next = epart_q[nidx_hi];
  end else begin : gen_egrp_one
    assign ebit_next = epart_q[0];
  end

  // The two reductions, in three cycles so that neither is on the critical
  // path at any Width (no wide carry chain, no long chain of logic, no wide
  // fan-out of a slow signal):
  //   StRed1: for each RedSegWidth-bit segment j of y - N = y + ~N + 1, the
  //           carry out with carry-in 0 (red_gen_q) and 1 (red_tra_q); for the
  //           R^2 check, whether segment j of y equals that of 1 (chk1_q) and
  //           of N + 1 (chkn_q).  Short chains and small AND trees into
  //           registers, loaded every cycle.
  //   StRed2: the carry into every segment from red_gen_q/red_tra_q by a
  //           parallel prefix into red_c_q (its last bit: y >= N), and the
  //           check's AND of the segment flags into chk_q.
  //   StRed3: y = y >= N ? y - N : y, each segment's sum recomputed from y
  //           and N with its registered carry-in (one segment chain and a
  //           multiplexer), or err / continue (check).
  // The prefix's levels are kept nets: left to itself, ABC maps the
  // Kogge-Stone prefix to a ripple through the segments (measured: 19 LUT
  // levels across the die at Width 1024, 23.8 MHz against the core's 44.3).
  // The R^2 check: y mod N = 1 exactly when y = 1 or y = N + 1 (y < 2N).
  // y = N + 1 is tested without a carry chain: with k = N ^ 1 ^ y (the
  // carries the sum N + 1 would need to give y), N + 1 = y exactly when k_0 = 0
  // and every k_(i+1) is the carry out of bit i, maj(N_i, 1_i, k_i).
  localparam int RedSegWidth = 64;
  localparam int RedW        = Width + 1;
  localparam int NumRed      = (RedW + RedSegWidth - 1) / RedSegWidth;

  logic [Width:0]    red_b;               // ~N, Width + 1 bits
  logic [Width:0]    red_sum0, red_sum1;  // per segment: y + ~N, y + ~N + 1
  logic [NumRed-1:0] red_gen, red_tra;    // their carries out
  logic [NumRed-1:0] red_gen_q, red_tra_q;
  logic [NumRed:0]   red_c;               // carry into segment j (from red_gen_q, red_tra_q)
  logic [NumRed:0]   red_c_q;             // red_c, valid in StRed3; red_c_q[NumRed]: y >= N
  logic [Width:0]    red_diff;            // y - N, valid in StRed3
  logic [Width:0]    chk_k, chk_maj;
  logic [Width:0]    chk1_bit, chkn_bit;  // per bit: y agrees with 1 / with N + 1
  logic [NumRed-1:0] chk1_seg, chkn_seg, chk1_q, chkn_q;
  logic              chk_q, chk_d;        // y mod N = 1, valid in StRed3

  assign red_b    = ~{1'b0, n_q};
  assign chk_k    = {1'b0, n_q} ^ One ^ y_q;
  assign chk_maj  = ({1'b0, n_q} & One) | ({1'b0, n_q} & chk_k) | (One & chk_k);
  assign chk1_bit = ~(y_q ^ One);
  assign chkn_bit = {~chk_maj[Width] & ~(chk_k[Width] ^ chk_maj[Width-1]),
                     ~(chk_k[Width-1:1] ^ chk_maj[Width-2:0]),
                     ~chk_k[0]};

  for (genvar j = 0; j < NumRed; j++) begin : gen_red
    localparam int Lo = j * RedSegWidth;
    localparam int W  = (RedW - Lo < RedSegWidth) ? RedW - Lo : RedSegWidth;
    logic [W-1:0] a_seg, b_seg;
    logic         unused_lsb;
    assign a_seg = y_q[Lo+:W];
    assign b_seg = red_b[Lo+:W];
    assign {red_gen[j], red_sum0[Lo+:W]} = {1'b0, a_seg} + {1'b0, b_seg};
    // a + b + 1 as one W+1-bit addition (1 + 1 in the extra low bit carries
    // the 1 in), so the tools map it to one carry chain, not two.
    assign {red_tra[j], red_sum1[Lo+:W], unused_lsb} = {1'b0, a_seg, 1'b1} + {1'b0, b_seg, 1'b1};
    assign red_diff[Lo+:W] = red_c_q[j] ? red_sum1[Lo+:W] : red_sum0[Lo+:W];
    assign chk1_seg[j] = &chk1_bit[Lo+:W];
    assign chkn_seg[j] = &chkn_bit[Lo+:W];
  end

  // Segment carries with carry-in 1, a Kogge-Stone prefix over the registered
  // (generate, transmit) pairs: level l combines node j with node j - 2^l;
  // log2(NumRed) levels of one AND-OR each, every level a kept net.
  localparam int RedLevels = $clog2(NumRed);
  (* keep *) logic [RedLevels:0][NumRed-1:0] pre_g;
  (* keep *) logic [RedLevels:0][NumRed-1:0] pre_t;
  assign pre_g[0] = red_gen_q;
  assign pre_t[0] = red_tra_q;
  for (genvar l = 0; l < RedLevels; l++) begin : gen_pre
    for (genvar j = 0; j < NumRed; j++) begin : gen_node
      if (j >= (1 << l)) begin : gen_comb
        assign pre_g[l+1][j] = pre_g[l][j] | (pre_t[l][j] & pre_g[l][j-(1<<l)]);
        assign pre_t[l+1][j] = pre_t[l][j] & pre_t[l][j-(1<<l)];
      end else begin : gen_pass
        assign pre_g[l+1][j] = pre_g[l][j];
        assign pre_t[l+1][j] = pre_t[l][j];
      end
    end
  end
  // Carry into segment j with carry-in 1: segments 0..j-1 generate, or
  // transmit.
  assign red_c = {pre_g[RedLevels] | pre_t[RedLevels], 1'b1};
  assign chk_d    = (&chk1_q) | (&chkn_q);

  // Operand and result paths.  The core reads its operands from opa_q and
  // opb_q, loaded at the edge that enters StMul (held in StMul), so the
  // core's load multiplexers see flip-flops, as between registers.  Their
  // sources are chosen by one-hot flip-flops (sa_q, sb_q), the plan of the
  // operands that the next StMul will need, computed one cycle ahead from
  // registers that stay unchanged over a product (phase, ladder, sub-step,
  // exponent bit, last bit):
  //   StIdle, StDone   -> (R2 port, 1)       the first product, PhOne
  //   StRed1..3        -> (base, R2)         PhBase, after the R^2 check
  //   StMul, StWait    -> the operands of the product after this one, from
  //                       the core's result (core_s), x and y
  // A product's destination (x or y) takes core_s in every StWait cycle
  // (ldx_q / ldy_q, set at the accepting edge, cleared at the edge that
  // takes the response), so the last load is the result and the core's
  // response valid is in no wide multiplexer's select.  The destination's
  // old value is never needed after its product is accepted: the plan
  // takes the new value from core_s, the other register from x or y.
  localparam int SrcCore = 0, SrcX = 1, SrcY = 2, SrcIn = 3, SrcReg = 4;
  // a: SrcIn = the R2 port, SrcReg = base; b: SrcIn = 1, SrcReg = R2.
  logic [4:0] sa_q, sa_d, sb_q, sb_d;
  logic       destx;  // the current product's destination is x (else y)

  always_comb begin
    ebit     = ebit_q;
    last_bit = (idx_q == '0);

    // Destination of the product of phase_q / sub_q / ebit.
    unique case (phase_q)
      PhOne:   destx = 1'b1;
      PhLoop:  destx = ladder_q ? (sub_q ? !ebit : ebit) : 1'b1;
      default: destx = 1'b0;  // PhChk, PhBase, PhExit: y
    endcase

    // The plan: operands of the next product.
    sa_d = 5'b00001 << SrcCore;
    sb_d = 5'b00001 << SrcIn;
    unique case (state_q)
      StIdle, StDone: begin
        sa_d = 5'b00001 << SrcIn;
        sb_d = 5'b00001 << SrcIn;
      end
      StRed1, StRed2, StRed3: begin
        sa_d = 5'b00001 << SrcReg;
        sb_d = 5'b00001 << SrcReg;
      end
      default: begin  // StMul, StWait: the product after this one
        unique case (phase_q)
          PhBase: begin
            // First loop product: ladder x*y (y new), else x*x.
            sa_d = 5'b00001 << SrcX;
            sb_d = ladder_q ? (5'b00001 << SrcCore) : (5'b00001 << SrcX);
          end
          PhLoop: begin
            if (ladder_q) begin
              if (!sub_q) begin
                // Next: the square of the register not overwritten.
                sa_d = ebit ? (5'b00001 << SrcY) : (5'b00001 << SrcX);
                sb_d = sa_d;
              end else if (last_bit) begin
                // Next: MM(x, 1); x is new when e_i = 0.
                sa_d = ebit ? (5'b00001 << SrcX) : (5'b00001 << SrcCore);
                sb_d = 5'b00001 << SrcIn;
              end else begin
                // Next bit: x*y, one of them new.
                sa_d = ebit ? (5'b00001 << SrcX) : (5'b00001 << SrcCore);
                sb_d = ebit ? (5'b00001 << SrcCore) : (5'b00001 << SrcY);
              end
            end else if (!sub_q && ebit) begin
              // Next: x*y, x new.
              sa_d = 5'b00001 << SrcCore;
              sb_d = 5'b00001 << SrcY;
            end else if (last_bit) begin
              sa_d = 5'b00001 << SrcCore;  // MM(x, 1)
              sb_d = 5'b00001 << SrcIn;
            end else begin
              sa_d = 5'b00001 << SrcCore;  // next bit: x*x, x new
              sb_d = 5'b00001 << SrcCore;
            end
          end
          default: begin  // PhOne: next MM(x, 1), x new; PhChk, PhExit: unused
            sa_d = 5'b00001 << SrcCore;
            sb_d = 5'b00001 << SrcIn;
          end
        endcase
      end
    endcase

    // The operand registers: held while a product is presented.
    opa_d = opa_q;
    opb_d = opb_q;
    if (state_q != StMul) begin
      opa_d = ({(Width+1){sa_q[SrcCore]}} & core_s)
            | ({(Width+1){sa_q[SrcX]}}    & x_q)
            | ({(Width+1){sa_q[SrcY]}}    & y_q)
            | ({(Width+1){sa_q[SrcIn]}}   & {1'b0, r2_i})
            | ({(Width+1){sa_q[SrcReg]}}  & {1'b0, base_q});
      opb_d = ({(Width+1){sb_q[SrcCore]}} & core_s)
            | ({(Width+1){sb_q[SrcX]}}    & x_q)
            | ({(Width+1){sb_q[SrcY]}}    & y_q)
            | ({(Width+1){sb_q[SrcIn]}}   & One)
            | ({(Width+1){sb_q[SrcReg]}}  & {1'b0, r2_q});
    end

    // The wide registers: flip-flop selects only.
    x_d = ldx_q ? core_s : x_q;
    y_d = ldy_q ? core_s : ((ldr_q && red_c_q[NumRed]) ? red_diff : y_q);
  end

  always_comb begin
    state_d  = state_q;
    phase_d  = phase_q;
    sub_d    = sub_q;
    idx_d    = idx_q;
    ladder_d = ladder_q;
    n_d      = n_q;
    e_d      = e_q;
    r2_d     = r2_q;
    base_d   = base_q;
    err_d    = err_q;
    ebit_d   = ebit_q;
    nidx_d   = nidx_q;
    ldx_d    = 1'b0;
    ldy_d    = 1'b0;
    ldr_d    = 1'b0;
    unique case (state_q)
      StIdle: begin
        if (in_valid_i) begin
          n_d      = n_i;
          e_d      = exp_i;
          r2_d     = r2_i;
          base_d   = base_i;
          ladder_d = ladder_i;
          // exp_len_i is in [1, Width] unless rejected: t-1 fits IdxW bits.
          idx_d    = IdxW'(exp_len_i - 1'b1);
          nidx_d   = IdxW'(exp_len_i - 2'd2);
          ebit_d   = exp_i[IdxW'(exp_len_i - 1'b1)];
          phase_d  = PhOne;
          sub_d    = 1'b0;
          err_d    = req_err;
          if (req_err) begin
            state_d = StDone;
          end else begin
            state_d = StMul;
          end
        end
      end
      StMul: begin
        if (core_in_ready) begin
          state_d = StWait;
          // The destination takes core_s from the next cycle on.
          ldx_d   = destx;
          ldy_d   = !destx;
        end
      end
      StWait: begin
        ldx_d = ldx_q;
        ldy_d = ldy_q;
        if (core_out_valid) begin
          // This edge is the destination's last load: the response.
          ldx_d   = 1'b0;
          ldy_d   = 1'b0;
          state_d = StMul;
          if (core_err) begin
            // Never expected (the requests were checked): answer err.
            err_d   = 1'b1;
            state_d = StDone;
          end else begin
            unique case (phase_q)
              PhOne: begin
                phase_d = PhChk;
              end
              PhChk: begin
                state_d = StRed1;
              end
              PhBase: begin
                phase_d = PhLoop;
              end
              PhLoop: begin
                // The bit is done after the ladder's second product, or after
                // the square when the bit is 0, or after the multiplication.
                if (!sub_q && (ladder_q || ebit)) begin
                  sub_d = 1'b1;
                end else begin
                  sub_d = 1'b0;
                  if (last_bit) begin
                    phase_d = PhExit;
                  end else begin
                    idx_d  = nidx_q;
                    nidx_d = nidx_q - 1'b1;
                    ebit_d = ebit_next;
                  end
                end
              end
              PhExit: begin
                state_d = StRed1;
              end
              default: begin
                err_d   = 1'b1;
                state_d = StDone;
              end
            endcase
          end
        end
      end
      StRed1: begin
        state_d = StRed2;
      end
      StRed2: begin
        state_d = StRed3;
        // The final reduction writes y in StRed3 (the check only reads it).
        ldr_d   = (phase_q != PhChk);
      end
      StRed3: begin
        if (phase_q == PhChk) begin
          // R2 * R^-2 = 1 mod N exactly when R2 = R^2 mod N (R2 < N).
          if (!chk_q) begin
            err_d   = 1'b1;
            state_d = StDone;
          end else begin
            phase_d = PhBase;
            state_d = StMul;
          end
        end else begin
          state_d = StDone;  // y = y - N when y >= N (ldr_q, above)
        end
      end
      StDone: begin
        if (out_ready_i) begin
          state_d = StIdle;
        end
      end
      default: state_d = StIdle;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q  <= StIdle;
      phase_q  <= PhOne;
      sub_q    <= 1'b0;
      idx_q    <= '0;
      ladder_q <= 1'b0;
      n_q      <= '0;
      e_q      <= '0;
      r2_q     <= '0;
      base_q   <= '0;
      x_q      <= '0;
      y_q      <= '0;
      err_q    <= 1'b0;
      ebit_q   <= 1'b0;
      nidx_q   <= '0;
      opa_q    <= '0;
      opb_q    <= '0;
      sa_q     <= 5'b00001 << SrcIn;  // the first request's plan (StIdle)
      sb_q     <= 5'b00001 << SrcIn;
      ldx_q    <= 1'b0;
      ldy_q    <= 1'b0;
      ldr_q    <= 1'b0;
    end else begin
      state_q  <= state_d;
      phase_q  <= phase_d;
      sub_q    <= sub_d;
      idx_q    <= idx_d;
      ladder_q <= ladder_d;
      n_q      <= n_d;
      e_q      <= e_d;
      r2_q     <= r2_d;
      base_q   <= base_d;
      x_q      <= x_d;
      y_q      <= y_d;
      err_q    <= err_d;
      ebit_q   <= ebit_d;
      nidx_q   <= nidx_d;
      opa_q    <= opa_d;
      opb_q    <= opb_d;
      sa_q     <= sa_d;
      sb_q     <= sb_d;
      ldx_q    <= ldx_d;
      ldy_q    <= ldy_d;
      ldr_q    <= ldr_d;
    end
  end

  // Pipeline registers of the exponent-bit selection and the reductions:
  // loaded every cycle, no reset needed for function (reset for clean traces).
  `MM_FF(epart_q, epart_d, '0)
  `MM_FF(red_gen_q, red_gen, '0)
  `MM_FF(red_tra_q, red_tra, '0)
  `MM_FF(red_c_q, red_c, '0)
  `MM_FF(chk1_q, chk1_seg, '0)
  `MM_FF(chkn_q, chkn_seg, '0)
  `MM_FF(chk_q, chk_d, 1'b0)

  assign in_ready_o     = (state_q == StIdle);
  assign out_valid_o    = (state_q == StDone);
  assign core_in_valid  = (state_q == StMul);
  assign core_out_ready = (state_q == StWait);
  // y holds the reduced result in StDone (0 after a rejection).
  assign result_o       = err_q ? '0 : y_q[Width-1:0];
  assign err_o          = err_q;

`ifdef MM_FORMAL
  // Invariants for the formal flow (docs/formal.md), for a core that takes
  // one product at a time: the encodings are legal; the core holds a product
  // exactly while the engine waits for it (StWait), and is idle otherwise
  // (so StMul lasts one cycle); an error flag only in the response states;
  // the result and operand selects as described above.
  always_comb begin
    if (rst_ni) begin
      assert (state_q <= StDone);
      assert (phase_q <= PhExit);
      if (state_q == StWait) begin
        assert (!core_in_ready);
      end else begin
        assert (core_in_ready && !core_out_valid);
      end
      if (err_q) assert (state_q == StIdle || state_q == StDone);
      // The destination flags: exactly one while waiting, none otherwise;
      // the reduction's write only in the final StRed3.
      if (state_q == StWait) begin
        assert (ldx_q != ldy_q);
      end else begin
        assert (!ldx_q && !ldy_q);
      end
      if (ldr_q) assert (state_q == StRed3 && phase_q != PhChk);
      assert ($onehot(sa_q) && $onehot(sb_q));
    end
  end
`endif  // MM_FORMAL

endmodule
