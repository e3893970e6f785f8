// SPDX-License-Identifier: Apache-2.0
//
// mm_r4booth: the scalable radix-4 Booth Montgomery multiplier of paper 002
// (Figs. 3-6, Sec. IV), on the common core interface (docs/interface.md),
// with right-shifting (Sec. IV-A) or left-shifting (Sec. IV-B) processing
// elements by ShiftLeft.  Algorithm and decisions: docs/scalable.md.
//
// One build serves every modulus up to Width bits: the operand length n is
// taken at run time from the modulus (its bit length), and a product costs
// the cycles of an n-bit product:
//   e = ceil((n+3)/w) words, k = ceil((n+4)/(2p)) pipeline cycles,
//   S = A*B*2^-(2pk-2) mod N in [0, 2N) for A, B in [0, 2N).
// Structure (Fig. 3): X, Y and N captured at the accepting edge (the
// interface delivers them in parallel); word memories (LUT RAM) for Y and
// |M^|, filled word by word in pass 0, |M^| computed there from N; a kernel
// of NumPes PEs (mm_r4booth_pe) in a generate loop, each taking one Booth
// digit of X per pipeline cycle and one w-bit word per clock; a FIFO
// (mm_r4booth_fifo, latency FifoLatency) from the last PE back to the first;
// the final correction + ((t xor s<0) ? N : 0) + t added word by word to the
// last pass on its way into the result register.
//   - ShiftLeft = 0: a pass has e words, each PE passes a word on after two
//     cycles (l = 2) and the stream carries the hidden sign bit of Z.
//     Latency: (k-1)*max(e, 2p+b) + 2p + e cycles (kernel: k*max(e, 2p+b)).
//   - ShiftLeft = 1: the PEs keep Z in place and shift the multiples left
//     instead, so a word passes to the next PE after one cycle (l = 1), a
//     pass has e+1 words (the overflow word), and the PE whose effective LSB
//     reaches the word boundary discards a word (one extra cycle, 2p/w per
//     pass).  The kernel needs w | 2p: every PE then keeps its LSB position
//     Pos = 2i mod w in every pass, and after the last pass Pos is 0, so the
//     last PE's stream is Z itself.
//     Latency: (k-1)*max(e+1, p+2p/w+b) + p + 2p/w + e + 1 cycles
//     (kernel: k*max(e+1, p+2p/w+b)).
`include "mm_macros.svh"

module mm_r4booth #(
  parameter int Width       = 64,  // largest modulus width: 3 .. 8192
  parameter int WordWidth   = 16,  // w: a power of two, 4 .. 64
  parameter int NumPes      = 2,   // p: 1 .. 256; ShiftLeft: a multiple of WordWidth/2
  parameter int FifoLatency = 1,   // b: 1 .. 8
  parameter bit CheckRange  = 1,   // 1: reject operands >= 2N
  parameter bit CheckMod    = 1,   // 1: reject an even N or N < 3
  parameter bit ShiftLeft   = 0    // 0: right-shifting PEs, 1: left-shifting PEs
) (
  // the common core interface (docs/interface.md); s_o = A*B*2^-(2pk-2) mod N, in [0, 2N)
  `MM_CORE_PORTS
);

  if (Width < mm_pkg::WidthMin || Width > mm_pkg::WidthMax) begin : gen_bad_width
    `MM_FATAL("mm_r4booth: Width must be in [3, 8192]")
  end
  if (WordWidth < 4 || WordWidth > 64 || (WordWidth & (WordWidth - 1)) != 0) begin : gen_bad_word
    `MM_FATAL("mm_r4booth: WordWidth must be a power of two in [4, 64]")
  end
  if (NumPes < 1 || NumPes > 256) begin : gen_bad_pes
    `MM_FATAL("mm_r4booth: NumPes must be in [1, 256]")
  end
  if (ShiftLeft && (2 * NumPes) % WordWidth != 0) begin : gen_bad_pos
    `MM_FATAL("mm_r4booth: 2*NumPes must be a multiple of WordWidth when ShiftLeft")
  end
  if (FifoLatency < 1 || FifoLatency > 8) begin : gen_bad_fifo
    `MM_FATAL("mm_r4booth: FifoLatency must be in [1, 8]")
  end

  localparam int W        = WordWidth;
  localparam int P        = NumPes;
  localparam int LogW     = $clog2(W);
  localparam int EMax     = (Width + 3 + W - 1) / W;          // words at n = Width
  localparam int MemWords = EMax + int'(ShiftLeft);           // words per pass: e, e+1 (left)
  localparam int MemBits  = MemWords * W;
  localparam int MemAW    = (MemWords > 1) ? $clog2(MemWords) : 1;
  localparam int KMax     = (Width + 4 + 2 * P - 1) / (2 * P);  // pipeline cycles at n = Width
  localparam int XWinW    = 2 * P * KMax + 3;                 // X << 1, with room for the top digit
  localparam int NbW      = $clog2(Width + 1);
  localparam int JW       = $clog2(MemWords + 1);
  localparam int BitsW    = $clog2(Width + 4 + 4 * P + 1);    // digit-bit counters
  localparam int FifoW    = ShiftLeft ? W + 3 : W + 4;        // z, (right: zsign,) t, first, last
  localparam int TBit     = FifoW - 3;                        // t in a FIFO word

  // ---------------------------------------------------------------- shell
  logic accept, start, busy, done;
  logic [Width:0] res;

  `MM_REQ_CTRL(u_ctrl, accept, start, busy, done, res)

  // ------------------------------------------------- operand registers
  logic [MemBits-1:0] n_q, n_d;        // N, for M^ (pass 0) and the correction
  logic [MemWords-1:0][W-1:0] yr;     // Y (pass 0), then the result words
  logic [XWinW-1:0]   xwin_q, xwin_d;
  logic               mneg_q, mneg_d;
  logic [JW-1:0]      e_q, e_d;        // words per pass: e, or e + 1 (left)
  logic [BitsW-1:0]   nlim_q, nlim_d;  // n + 4: digits cover it when 2p*passes >= n + 4
  logic [NbW-1:0]     nbits;           // bit length of n_i

  // modulus length: a binary search on the highest set bit of N, NbW levels,
  // each an OR over the upper half of the remaining window (log depth: a
  // linear priority chain of Width muxes overflows the WebAssembly Yosys'
  // call stack in ABC9 at Width 1024).  A function, so that the intermediate
  // values are not events (Icarus 11 would re-run an always_comb on them).
  localparam int BlPad = 1 << NbW;
  function automatic logic [NbW-1:0] bit_length(input logic [Width-1:0] v);
    logic [BlPad-1:0] x;
    logic [NbW-1:0]   pos;
    x   = BlPad'(v);
    pos = '0;
    for (int l = NbW - 1; l >= 0; l--) begin
      if (|(x >> (1 << l))) begin
        pos = pos | NbW'(1 << l);
        x   = x >> (1 << l);
      end
    end
    bit_length = (v == '0) ? '0 : pos + 1'b1;
  endfunction

  assign nbits = bit_length(n_i);

  // ------------------------------------------------- kernel streams
  logic [P:0]        sv, sf, sl, szs, st;
  logic [P:0][W-1:0] sz, sy, sm;
  logic [P-1:0][2:0] xbits;
  logic              pe0_v, pe0_f, pe0_l, pe0_zs, pe0_t;
  logic [W-1:0]      pe0_z, pe0_y, pe0_m;

  assign sv[0]  = pe0_v;
  assign sf[0]  = pe0_f;
  assign sl[0]  = pe0_l;
  assign sz[0]  = pe0_z;
  assign szs[0] = pe0_zs;
  assign st[0]  = pe0_t;
  assign sy[0]  = pe0_y;
  assign sm[0]  = pe0_m;

  for (genvar i = 0; i < P; i++) begin : gen_pe
    assign xbits[i] = xwin_q[2*i+2 -: 3];
    mm_r4booth_pe #(
      .WordWidth(W),
      .ShiftLeft(ShiftLeft),
      .Pos      (ShiftLeft ? (2 * i) % W : 0)
    ) u_pe (
      .clk_i  (clk_i),
      .rst_ni (rst_ni),
      .mneg_i (mneg_q),
      .xbits_i(xbits[i]),
      .valid_i(sv[i]),
      .first_i(sf[i]),
      .last_i (sl[i]),
      .z_i    (sz[i]),
      .zsign_i(szs[i]),
      .t_i    (st[i]),
      .y_i    (sy[i]),
      .m_i    (sm[i]),
      .valid_o(sv[i+1]),
      .first_o(sf[i+1]),
      .last_o (sl[i+1]),
      .z_o    (sz[i+1]),
      .zsign_o(szs[i+1]),
      .t_o    (st[i+1]),
      .y_o    (sy[i+1]),
      .m_o    (sm[i+1])
    );
  end

  // ------------------------------------------------- FIFO
  logic             fifo_w, fifo_rv, fifo_pop;
  logic [FifoW-1:0] fifo_wd, fifo_rd;

  mm_r4booth_fifo #(
    .DataWidth(FifoW),
    .Depth    (MemWords + 1),
    .Latency  (FifoLatency)
  ) u_fifo (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .clear_i (start),
    .wvalid_i(fifo_w),
    .wdata_i (fifo_wd),
    .rvalid_o(fifo_rv),
    .rdata_o (fifo_rd),
    .rpop_i  (fifo_pop)
  );

  // ------------------------------------------------- sequence controller
  logic             active_q, active_d;  // PE0 is inside a pass
  logic             more_q, more_d;      // another pass is still to start
  logic             pass0_q, pass0_d;    // the pass being fed is the first (Z = 0)
  logic [JW-1:0]    fj_q, fj_d;          // next word PE0 takes
  logic [BitsW-1:0] inbits_q, inbits_d;  // 2p * passes started
  logic [BitsW-1:0] outbits_q, outbits_d;// 2p * passes finished by the last PE
  logic [JW-1:0]    oj_q, oj_d;          // word index at the last PE (final pass)
  logic [1:0]       ocarry_q, ocarry_d;  // correction adder carry
  logic             tfin_q, tfin_d;      // t of the last digit
  logic             feed, feed_first, xshift;
  logic [JW-1:0]    j;
  logic             final_pass, tsel, add_n;
  logic [JW-1:0]    oj;
  logic [1:0]       ocin;
  logic [W+1:0]     osum;
  logic [W-1:0]     nword;

  // ------------------------------------------------- operand storage
  // The common interface delivers A, B and N in parallel, so they are
  // captured in registers at the accepting edge: X in the digit window
  // (xwin_q), N in n_q, Y in the words yr.  In pass 0 PE0 takes Y_j from yr
  // and |M^|_j = ((N >> 2) + N[1])_j, computed word by word from n_q with a
  // carry (no carry chain longer than a word), and both are written to the
  // word memories (mm_r4booth_mem: LUT RAM), which feed every later pass.
  // yr is then free and collects the result: the final pass writes result
  // word j after PE0 has read Y_j (the last PE is at least p cycles behind).
  logic [MemBits+1:0] npad;
  logic [W:0]         msum;           // |M^|_j and its carry out
  logic               mc_q, mc_d;     // |M^| carry between words (pass 0)
  logic [W-1:0]       ymem_rd, mmem_rd;
  logic [MemBits-1:0] yr_flat, bpad;
  logic               mem_we, res_we;

  assign npad    = {2'b0, n_q};
  assign msum    = {1'b0, npad[j*W+2 +: W]} + {{W{1'b0}}, (j == '0) ? n_q[1] : mc_q};
  assign mem_we  = feed & pass0_q;
  assign bpad    = MemBits'(b_i);
  assign yr_flat = yr;

  mm_r4booth_mem #(
    .DataWidth(W),
    .Depth    (MemWords),
    .AddrWidth(MemAW)
  ) u_ymem (
    .clk_i  (clk_i),
    .we_i   (mem_we),
    .addr_i (j[MemAW-1:0]),
    .wdata_i(yr[j]),
    .rdata_o(ymem_rd)
  );

  mm_r4booth_mem #(
    .DataWidth(W),
    .Depth    (MemWords),
    .AddrWidth(MemAW)
  ) u_mmem (
    .clk_i  (clk_i),
    .we_i   (mem_we),
    .addr_i (j[MemAW-1:0]),
    .wdata_i(msum[W-1:0]),
    .rdata_o(mmem_rd)
  );

  // yr: loaded with Y by a legal request, word oj rewritten by the final pass
  for (genvar i = 0; i < MemWords; i++) begin : gen_yr
    logic [W-1:0] word_q;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        word_q <= '0;
      end else if (start) begin
        word_q <= bpad[i*W +: W];
      end else if (res_we && oj == JW'(i)) begin
        word_q <= osum[W-1:0];
      end
    end
    assign yr[i] = word_q;
  end

  // PE0's input: pass 0 from zero, later passes from the FIFO.  A pass from
  // the FIFO starts in the first cycle its word 0 is at the head.  (The
  // combinational values are continuous assignments: Icarus 11 loops on an
  // always_comb that both computes and reads them.)
  assign feed_first = ~active_q & more_q & fifo_rv & busy;
  assign feed       = (active_q & busy) | feed_first;
  assign j          = active_q ? fj_q : '0;
  assign fifo_pop   = feed & ~pass0_q;
  assign pe0_v      = feed;
  assign pe0_f      = feed & (j == '0);
  assign pe0_l      = feed & (j == e_q - 1'b1);
  assign pe0_z      = pass0_q ? '0 : fifo_rd[W-1:0];
  assign pe0_zs     = (pass0_q || ShiftLeft) ? 1'b0 : fifo_rd[W];  // the left stream has no sign
  assign pe0_t      = pass0_q ? 1'b0 : fifo_rd[TBit];
  assign pe0_y      = pass0_q ? yr[j] : ymem_rd;
  assign pe0_m      = pass0_q ? msum[W-1:0] : mmem_rd;

  // The last PE's stream: to the FIFO, or (last pass) through the correction
  // adder into the result register.
  assign final_pass = (outbits_q + BitsW'(2 * P)) >= nlim_q;
  assign fifo_w     = sv[P] & ~final_pass & busy;
  assign tsel       = sf[P] ? st[P] : tfin_q;
  assign add_n      = tsel ^ mneg_q;
  assign oj         = sf[P] ? '0 : oj_q;
  assign ocin       = sf[P] ? {1'b0, st[P]} : ocarry_q;
  assign nword      = n_q[oj*W +: W];
  assign osum       = {2'b0, sz[P]} + (add_n ? {2'b0, nword} : '0) + {{W{1'b0}}, ocin};
  assign res_we     = sv[P] & busy & final_pass;
  assign done       = sv[P] & busy & final_pass & sl[P];
  assign xshift     = sv[P-1] & sf[P-1];
  if (ShiftLeft) begin : gen_fifo_left
    assign fifo_wd = {sl[P], sf[P], st[P], sz[P]};
  end else begin : gen_fifo_right
    assign fifo_wd = {sl[P], sf[P], st[P], szs[P], sz[P]};
  end

  always_comb begin
    active_d  = active_q;
    more_d    = more_q;
    pass0_d   = pass0_q;
    fj_d      = fj_q;
    inbits_d  = inbits_q;
    outbits_d = outbits_q;
    oj_d      = oj_q;
    ocarry_d  = ocarry_q;
    tfin_d    = tfin_q;
    xwin_d    = xwin_q;
    n_d       = n_q;
    mc_d      = mc_q;
    mneg_d    = mneg_q;
    e_d       = e_q;
    nlim_d    = nlim_q;

    if (feed) begin
      if (pass0_q) begin
        mc_d = msum[W];
      end
      if (j == e_q - 1'b1) begin
        active_d = 1'b0;
        pass0_d  = 1'b0;
      end else begin
        active_d = 1'b1;
        fj_d     = j + 1'b1;
      end
      if (feed_first) begin
        inbits_d = inbits_q + BitsW'(2 * P);
        more_d   = (inbits_q + BitsW'(2 * P)) < nlim_q;
      end
    end

    // The X window moves on by 2p bits once the last PE has its digit.
    if (xshift) begin
      xwin_d = xwin_q >> (2 * P);
    end

    if (sv[P] && busy) begin
      if (sl[P]) begin
        outbits_d = outbits_q + BitsW'(2 * P);
      end
      if (final_pass) begin
        // word oj of the result goes to yr (gen_yr)
        ocarry_d = osum[W+1:W];
        oj_d     = oj + 1'b1;
        tfin_d   = tsel;
      end
    end

    // A legal request loads everything and starts pass 0 in the next cycle.
    if (start) begin
      n_d       = MemBits'(n_i);
      xwin_d    = XWinW'({a_i, 1'b0});
      mneg_d    = ~n_i[1];
      e_d       = JW'(((32'(nbits) + 3 + W - 1) >> LogW) + int'(ShiftLeft));
      nlim_d    = BitsW'(nbits) + BitsW'(4);
      active_d  = 1'b1;
      pass0_d   = 1'b1;
      fj_d      = '0;
      inbits_d  = BitsW'(2 * P);
      more_d    = BitsW'(2 * P) < BitsW'(nbits) + BitsW'(4);
      outbits_d = '0;
      oj_d      = '0;
      ocarry_d  = '0;
      tfin_d    = 1'b0;
    end
  end

  `MM_FF(n_q, n_d, MemBits'(0))
  `MM_FF(mc_q, mc_d, 1'b0)
  `MM_FF(xwin_q, xwin_d, XWinW'(0))
  `MM_FF(mneg_q, mneg_d, 1'b0)
  `MM_FF(e_q, e_d, '0)
  `MM_FF(nlim_q, nlim_d, '0)
  `MM_FF(active_q, active_d, 1'b0)
  `MM_FF(more_q, more_d, 1'b0)
  `MM_FF(pass0_q, pass0_d, 1'b0)
  `MM_FF(fj_q, fj_d, '0)
  `MM_FF(inbits_q, inbits_d, '0)
  `MM_FF(outbits_q, outbits_d, '0)
  `MM_FF(oj_q, oj_d, '0)
  `MM_FF(ocarry_q, ocarry_d, '0)
  `MM_FF(tfin_q, tfin_d, 1'b0)

  // The last PE's Y and M^ words have no further use (nor, left-shifting,
  // its constant sign bit); accept is only needed
  // by cores that answer rejected requests themselves; the result is below
  // 2N < 2^(Width+1), so yr's words above are zero.
  logic [2*W+MemBits-Width:0] unused_tail;
  assign unused_tail = {sy[P], sm[P], szs[P], accept, yr_flat[MemBits-1:Width+1]};

  // The result is below 2N < 2^(Width+1): the words above are zero.
  assign res = yr_flat[Width:0];

endmodule
