// SPDX-License-Identifier: Apache-2.0
//
// mm_ws: the ws array (mm_ws_array) behind the common core ports, the
// wide-port adapter of docs/ws_core.md.  A request (A, B < 2N, odd N) runs
//
//   1. mm_ws_prep: M = (N~ + 1) / 2^(w(d+1)) from N alone, m words into
//      the load register (word 0 is M_(-1) = 0);
//   2. mm_ws_array: one product of one half, A and M loaded first, B
//      streamed: U = (A B + Q N~) / 2^(wm), U < 2 N~;
//   3. mm_ws_redc: S = (U + qN) / 2^E < 2N, E = w(d+1) + 1;
//
// so S = A B R'^-1 mod N with R' = 2^(wm + E).  The operand registers shift
// a word per request of the array (its load and B streams take the data two
// cycles after asking); the array's result words go straight into the
// reduction.  The latency is data independent: montmul.models.ws_core.
//
// The adapter holds A, B and N in Width-bit registers, as every core's
// ports do; its only adders are the units' word adders.  The array's own
// interface (docs/ws.md, "Native interface") is what an engine uses.
`include "mm_macros.svh"

module mm_ws #(
  parameter int Width      = 32,  // modulus width k
  parameter bit CheckRange = 1,   // 1: reject operands >= 2N
  parameter bit CheckMod   = 1,   // 1: reject an even N or N < 3
  parameter int NumPe      = 0,   // processing elements P: 3 .. 512; 0: the fewest for the laps
  parameter int WordWidth  = 16,  // word width w: 2 .. 18
  parameter int DspRegs    = 3,   // MULT18X18D registers: 2 or 3
  parameter int LoopRegs   = 0,   // transport registers: 0 .. 2
  parameter int Chunks     = 0,   // laps c of the ring: 1 .. 4; 0: ceil((m+1)/P), or the fewest
  parameter int QuotDelay  = 4,   // quotient delay d: 2 .. 8, 2cd >= DspRegs + 3 + LoopRegs
  // derived, not to be set
  localparam int E1     = WordWidth * (QuotDelay + 1),                  // E' = w(d+1)
  localparam int MWords = (Width + E1 + 2 + WordWidth - 1) / WordWidth,  // m
  localparam int MWidth = $clog2(MWords + 1)
) (
  `MM_CORE_PORTS
);

  localparam int W = WordWidth;
  localparam int RegW = (MWords + 1) * W;  // a load or B register: m + 1 words

  // The ring of a build (montmul.models.ws_core.build): NumPe = 0 and
  // Chunks = 0 take the fewest laps c with 2cd >= L that m words fit, on
  // the fewest PEs for them (c = 1: P = m + 1), so that one parameter set
  // is legal at every Width (the exponentiation engines fix a core's
  // parameters for every Width they are built at); Chunks = 0 with a given
  // NumPe takes c = ceil((m+1)/P), the only c that runs m words on P PEs.
  localparam int Latency = DspRegs + 3 + LoopRegs;

  // the ring rule (docs/ws.md, "Legal builds"): c = 1, or P even and
  // gcd(P/2, c) = 1.  (The three functions keep to what Icarus 11 evaluates
  // as constant functions: int results, loop variables declared outside.)
  function automatic int ring_ok(input int p, input int c);
    ring_ok = (c == 1 || (p % 2 == 0 && (p / 2) % ((c == 3) ? 3 : 2) != 0)) ? 1 : 0;
  endfunction

  // the fewest PEs that run m words in c laps, 0 if none: the first legal P
  // of P0 .. P0 + 7, P0 = max(3, ceil((m+1)/c)) (for c <= 4 a legal P is
  // among them if any is)
  function automatic int fit_pe(input int m, input int c);
    int p0, i;
    fit_pe = 0;
    p0 = (m + c) / c;
    if (p0 < 3) p0 = 3;
    for (i = 7; i >= 0; i = i - 1) begin
      if (p0 + i <= 512 && (c - 1) * (p0 + i) <= m && ring_ok(p0 + i, c) != 0) fit_pe = p0 + i;
    end
  endfunction

  // the fewest laps (1 .. 4) with 2cd >= L and a ring for m words, 0 if none
  function automatic int fit_laps(input int m, input int d, input int lat);
    int c;
    fit_laps = 0;
    for (c = 4; c >= 1; c = c - 1) begin
      if (2 * c * d >= lat && fit_pe(m, c) != 0) fit_laps = c;
    end
  endfunction

  // (an illegal Width stops the build on its own guard, on a 3-PE ring
  // rather than one sized for it)
  localparam bit WidthOk = Width >= 3 && Width <= 8192;
  localparam int Laps = !WidthOk ? 1
                        : (Chunks != 0) ? Chunks
                        : (NumPe != 0) ? (MWords + NumPe) / NumPe
                        : fit_laps(MWords, QuotDelay, Latency);
  localparam int Pes  = !WidthOk ? 3 : (NumPe != 0) ? NumPe : fit_pe(MWords, Laps);

  if (!WidthOk) begin : gen_bad_width
    `MM_FATAL("mm_ws: Width must be in [3, 8192]")
  end else if (NumPe < 0 || Chunks < 0 || Laps < 1 || Pes < 1) begin : gen_no_ring
    `MM_FATAL("mm_ws: no ring runs the operand's m words (NumPe and Chunks: 0 or legal values)")
  end else if (MWords > Laps * Pes - 1 || MWords < (Laps - 1) * Pes) begin : gen_bad_ring
    `MM_FATAL("mm_ws: the operand's m words must satisfy (Chunks-1)*NumPe <= m <= Chunks*NumPe - 1")
  end

  logic accept, start, busy, done;
  logic [Width:0] res;

  `MM_REQ_CTRL(u_shell, accept, start, busy, done, res)

  // ---- operand registers
  logic [Width-1:0] n_q;
  logic [RegW-1:0]  a_q, b_q, m_q;
  logic             prep_go_q, job_go_q;
  // prep's M stream
  logic             prep_ready, mw_valid, mw_last;
  logic [W-1:0]     mw;
  logic [$clog2((MWords > E1 ? MWords : E1) + 1)-1:0] mw_count;
  // the array
  logic             job_ready, job_err, ld_req, ld_half, b_req, b_half, res_valid, res_half;
  logic [W-1:0]     ld_a1_q, ld_a2_q, ld_m1_q, ld_m2_q, b1_q, b2_q, res_word;
  // the reduction
  logic             redc_ready, s_valid;
  logic [Width:0]   s_red;
`ifdef MM_FORMAL
  // the units' state (their formal-only ports), for the invariants below
  logic [1:0]       f_prep_st, f_redc_st;
  logic [15:0]      f_prep_cnt, f_redc_cnt, f_arr_step, f_arr_words, f_arr_left;
  logic [2:0]       f_arr_st;
  logic             f_arr_two, f_arr_active;
  logic [Pes-1:0][2*Laps-1:0][2:0] f_arr_flags;
`endif

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      prep_go_q <= 1'b0;
      job_go_q  <= 1'b0;
    end else begin
      if (start) begin
        prep_go_q <= 1'b1;
      end else if (prep_ready) begin
        prep_go_q <= 1'b0;
      end
      if (mw_valid && mw_last) begin
        job_go_q <= 1'b1;
      end else if (job_ready) begin
        job_go_q <= 1'b0;
      end
    end
  end

  // A, B and N taken with the request; M shifted in from the top as prep
  // sends it (after m words: word 0 = M_(-1) = 0, word j = M_(j-1)); each
  // request of the array shifts its register down a word
  always_ff @(posedge clk_i) begin
    if (start) begin
      n_q <= n_i;
      a_q <= RegW'(a_i);
      b_q <= RegW'(b_i);
      m_q <= '0;
    end else begin
      if (mw_valid) begin
        m_q <= {mw, m_q[RegW-1:W]};
      end
      if (ld_req) begin
        a_q <= {{W{1'b0}}, a_q[RegW-1:W]};
        m_q <= {{W{1'b0}}, m_q[RegW-1:W]};
      end
      if (b_req) begin
        b_q <= {{W{1'b0}}, b_q[RegW-1:W]};
      end
    end
  end

  // the streams' data two cycles after the request
  always_ff @(posedge clk_i) begin
    ld_a1_q <= a_q[W-1:0];
    ld_m1_q <= m_q[W-1:0];
    b1_q    <= b_q[W-1:0];
    ld_a2_q <= ld_a1_q;
    ld_m2_q <= ld_m1_q;
    b2_q    <= b1_q;
  end

  mm_ws_prep #(.Width(Width), .WordWidth(W), .QuotDelay(QuotDelay)) u_prep (
    .clk_i, .rst_ni,
    .in_valid_i (prep_go_q),
    .in_ready_o (prep_ready),
    .n_i        (n_q),
    .out_valid_o(mw_valid),
    .out_ready_i(1'b1),
    .out_word_o (mw),
    .out_last_o (mw_last),
    .words_o    (mw_count)
`ifdef MM_FORMAL
    ,
    .f_state_o  (f_prep_st),
    .f_cnt_o    (f_prep_cnt)
`endif
  );

  mm_ws_array #(
    .NumPe(Pes), .WordWidth(W), .DspRegs(DspRegs), .LoopRegs(LoopRegs), .Chunks(Laps),
    .QuotDelay(QuotDelay), .MaxWords(MWords)
  ) u_array (
    .clk_i, .rst_ni,
    .job_valid_i(job_go_q),
    .job_ready_o(job_ready),
    .job_words_i(MWidth'(MWords)),
    .job_prods_i(16'd1),
    .job_load_i (1'b1),
    .job_two_i  (1'b0),
    .job_err_o  (job_err),
    .ld_req_o   (ld_req),
    .ld_half_o  (ld_half),
    .ld_a_i     (ld_a2_q),
    .ld_m_i     (ld_m2_q),
    .b_req_o    (b_req),
    .b_half_o   (b_half),
    .b_i        (b2_q),
    .b_sq_i     (1'b0),
    .res_valid_o(res_valid),
    .res_half_o (res_half),
    .res_word_o (res_word)
`ifdef MM_FORMAL
    ,
    .f_st_o     (f_arr_st),
    .f_step_o   (f_arr_step),
    .f_words_o  (f_arr_words),
    .f_left_o   (f_arr_left),
    .f_two_o    (f_arr_two),
    .f_active_o (f_arr_active),
    .f_flags_o  (f_arr_flags)
`endif
  );

  mm_ws_redc #(.Width(Width), .WordWidth(W), .QuotDelay(QuotDelay)) u_redc (
    .clk_i, .rst_ni,
    .in_valid_i (res_valid),
    .in_ready_o (redc_ready),
    .in_word_i  (res_word),
    .n_i        (n_q),
    .out_valid_o(s_valid),
    .out_ready_i(1'b1),
    .s_o        (s_red)
`ifdef MM_FORMAL
    ,
    .f_state_o  (f_redc_st),
    .f_cnt_o    (f_redc_cnt)
`endif
  );

  assign done = s_valid;
  assign res  = s_red;

  // unused: the single half's flags, the unit's ready (the reduction takes
  // every word the array sends: docs/ws_core.md), the word count
  logic unused;
  assign unused = ^{accept, busy, job_err, ld_half, b_half, res_half, redc_ready, mw_count};

`ifdef MM_FORMAL
  // ---- Invariants for the formal flow (docs/ws_core.md, "Formal").  The
  // adapter's control is data independent: a legal request's whole run is
  // one fixed schedule of the build, so every control register is a
  // function of f_t_q, the cycles since the accepting edge.  The invariants
  // state that function for the units' states and counters, the array's
  // sequencer, its result stream and the PEs' slot flags (the only control
  // state that outlives a product), and that outside a run everything is
  // idle: then the k-induction of the handshake properties needs only to
  // look back past the ring's pipelines (`montmul formal --core ws`).  They
  // also hold, and are checked, in simulation (tb/mm_ws).
  //
  // The schedule, in cycles t after the accepting edge (t = 0: prep_go_q):
  localparam int FC2     = 2 * Laps;                        // cycles between waves
  localparam int FTJob   = E1 + MWords;                     // job_go_q (prep's E'-1 steps, m words)
  localparam int FTLoad  = FTJob + 1;                       // the array loads: m + 1 pairs
  localparam int FTWave  = FTLoad + FC2 * (MWords + 1);     // then s = m + d waves
  localparam int FTDrain = FTWave + FC2 * (MWords + QuotDelay - 1) + 1;
  localparam int FTIdle  = FTDrain + 2 * MWords + Latency - 2 * QuotDelay - 1;
  // the result stream: U_(d-1) at FTResX; U_0 .. U_(d-2) (PE 0's earlier
  // quotients) one wave apart before it, U_d .. U_(m-1) (the out path)
  // every other cycle after it
  localparam int FTResX  = FTDrain + Latency + 3;
  localparam int FTResL  = FTResX + 2 * (MWords - QuotDelay);  // U_(m-1)
  // the ring is idle after the last result word and the last wave's add in
  // the top virtual PE m (its token in PE 0 three cycles after the request)
  localparam int FTQuiet = ((FTResL > FTDrain + 2 + MWords + Latency) ? FTResL
                            : FTDrain + 2 + MWords + Latency) + 1;
  localparam int FTStep  = FTResL + 1;                      // redc: E steps
  localparam int FTConv  = FTStep + E1 + 1;                 // the result's words
  localparam int FTDone  = FTConv + (Width + W) / W;        // redc's response: the last busy cycle

  // the cycle U_j is on the result stream
  function automatic int f_res_at(input int j);
    f_res_at = (j < QuotDelay) ? FTResX - FC2 * (QuotDelay - 1 - j)
                               : FTResX + 2 * (j - QuotDelay + 1);
  endfunction

  // the cycle a load writes virtual PE v's slot flags
  function automatic int f_load_at(input int v);
    f_load_at = FTLoad + FC2 * v + 4 + v;
  endfunction

  logic [15:0] f_t_q;   // t: cycles since the accepting edge of the request under way
  logic        f_ran_q;  // a product has completed since reset: every slot is loaded

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      f_t_q   <= '0;
      f_ran_q <= 1'b0;
    end else begin
      if (start) begin
        f_t_q <= '0;
      end else if (busy) begin
        f_t_q <= f_t_q + 16'd1;
      end
      if (busy && done) begin
        f_ran_q <= 1'b1;
      end
    end
  end

  int   f_taken;  // U's words taken by redc
  logic f_res;    // a result word is due
  always_comb begin
    f_res   = 1'b0;
    f_taken = 0;
    for (int j = 0; j < MWords; j++) begin
      f_res   = f_res || (busy && 32'(f_t_q) == f_res_at(j));
      f_taken = f_taken + ((busy && 32'(f_t_q) > f_res_at(j)) ? 1 : 0);
    end
  end

  always_comb begin
    int t;
    t = 32'(f_t_q);
    if (rst_ni) begin
      if (busy) begin
        assert (t <= FTDone);
      end
      // prep: E' - 1 steps, then m words
      assert (prep_go_q == (busy && t == 0));
      assert (f_prep_st != 2'd3);
      if (!busy || t == 0 || t >= FTJob) begin
        assert (f_prep_st == 2'd0);
      end else if (t < E1) begin
        assert (f_prep_st == 2'd1 && 32'(f_prep_cnt) == t - 1);
      end else begin
        assert (f_prep_st == 2'd2 && 32'(f_prep_cnt) == t - E1);
      end
      // the array's job: one product of half 0, A and M loaded
      assert (job_go_q == (busy && t == FTJob));
      if (!busy || t < FTLoad || t >= FTIdle) begin
        assert (f_arr_st == 3'd0);
      end else if (t < FTWave) begin
        assert (f_arr_st == 3'd1 && 32'(f_arr_step) == t - FTLoad);
      end else if (t < FTDrain) begin
        assert (f_arr_st == 3'd2 && 32'(f_arr_step) == t - FTWave);
      end else begin
        assert (f_arr_st == 3'd4 && 32'(f_arr_step) == t - FTDrain);
      end
      if (f_arr_st != 3'd0) begin
        assert (32'(f_arr_words) == MWords && f_arr_left == '0 && !f_arr_two);
      end
      if (!busy || t <= FTLoad || t >= FTQuiet) begin
        assert (!f_arr_active);
      end
      // the result stream, and redc taking its m words
      assert (res_valid == f_res);
      // redc: the words in, E steps, the result's words, the response
      assert (f_redc_st != 2'd3 || (busy && t == FTDone));
      if (!busy || t <= FTResL) begin
        assert (f_redc_st == 2'd0 && 32'(f_redc_cnt) == f_taken);
      end else if (t < FTConv) begin
        assert (f_redc_st == 2'd1 && 32'(f_redc_cnt) == t - FTStep);
      end else if (t < FTDone) begin
        assert (f_redc_st == 2'd2 && 32'(f_redc_cnt) == t - FTConv);
      end else begin
        assert (f_redc_st == 2'd3);
      end
    end
  end

  // the slot flags {result, top, first} of virtual PE v = chunk P + p:
  // loaded (1 <= v <= m - d, v = m, v = 0) once its load has passed in the
  // first product since reset, else zero; half 1 is never loaded
  for (genvar p = 0; p < Pes; p++) begin : gen_f_pe
    for (genvar k = 0; k < 2 * Laps; k++) begin : gen_f_slot
      localparam int V = (k / 2) * Pes + p;
      always_comb begin
        if (rst_ni) begin
          if (k % 2 == 1 || V > MWords) begin
            assert (f_arr_flags[p][k] == 3'b000);
          end else if (f_ran_q || (busy && 32'(f_t_q) >= f_load_at(V))) begin
            assert (f_arr_flags[p][k] == {V >= 1 && V <= MWords - QuotDelay, V == MWords, V == 0});
          end else begin
            assert (f_arr_flags[p][k] == 3'b000);
          end
        end
      end
    end
  end
`endif  // MM_FORMAL

endmodule
