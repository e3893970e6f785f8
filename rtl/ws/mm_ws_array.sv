// SPDX-License-Identifier: Apache-2.0
//
// mm_ws_array: the ws word-serial systolic Montgomery array as a working
// multiplier (docs/ws.md): the ring of NumPe processing elements
// (mm_ws_ring, mm_ws_pe) and a small sequencer that turns a job into the
// tokens injected at PE 0.  Cycle-exact with the model
// (src/montmul/models/ws.py, simulate), Chunks laps of the ring per wave
// (c: every job's V = m + 1 virtual PEs need exactly c laps).
//
// A job is a chain of products for one or two halves (the two CRT halves,
// interleaved cycle by cycle, half 1 one cycle behind half 0): word count m
// (at run time, up to MaxWords), the number of products, and whether A and
// M are loaded first.  Per product the word loop of docs/ws.md runs in
// s = m + QuotDelay waves; the result U (m words, < 2 N~) stays in the PEs
// as the next product's A and streams out of PE 0 word by word, in order.
// The B words come from the B stream or, for a squaring, from the previous
// product's result (the out path, fed back at PE 0).
//
// Native word-stream interface (docs/ws.md, "Native interface"):
//   * job: job_valid_i/job_ready_o with job_words_i (m), job_prods_i,
//     job_load_i, job_two_i.  A job outside the legal range (m not in
//     [QuotDelay + 2, MaxWords], no product) is accepted and dropped with a
//     one-cycle job_err_o.  The first token reaches PE 0's token register
//     ReqLatency + 1 = ReqRegs + 3 cycles after the accepting edge; the
//     model's cycle 0.
//   * load stream: ld_req_o (+ ld_half_o) in cycle t asks for the next (a_v,
//     M_(v-1)) pair of that half (v = 0 .. m); ld_a_i/ld_m_i are taken in
//     cycle t + 2.  (ReqRegs = 1: the requests leave a register.)
//   * B stream: b_req_o (+ b_half_o) in cycle t asks for the next B word of
//     that half (words 0 .. m-1 of every product, in order); b_i and b_sq_i
//     are taken in cycle t + 2.  b_sq_i = 1: use the previous
//     product's result word instead (a squaring), b_i ignored.
//   * result stream: res_valid_o with res_half_o and res_word_o, words
//     0 .. m-1 of every product of a half in order.
// There is no back-pressure inside a job: the engine answers every request.
//
// Control enters at PE 0 and travels in the tokens; the sequencer's
// counters and comparators are a few bits wide (at most the word count's),
// and no signal crosses more than a neighbour.
`include "mm_macros.svh"

module mm_ws_array #(
  parameter int NumPe     = 8,   // processing elements P: 3 .. 512
  parameter int WordWidth = 16,  // word width w: 2 .. 18
  parameter int DspRegs   = 3,   // MULT18X18D registers: 2 or 3
  parameter int LoopRegs  = 0,   // transport registers: 0 .. 2 (Latency = DspRegs + 3 + LoopRegs)
  parameter int Chunks    = 1,   // laps c: 1 .. 4; c > 1 needs P even and gcd(P/2, c) = 1
  parameter int QuotDelay = 4,   // quotient delay d: 2 .. 8 with 2cd >= Latency (= Latency: bypass)
  parameter int MaxWords  = 6,   // largest word count m: QuotDelay + 2 .. c P - 1
  parameter int ReqRegs   = 0,   // registers between the sequencer and the request ports: 0 or 1
  // derived, not to be set
  localparam int MWidth     = $clog2(MaxWords + 1),
  localparam int NWidth     = 16
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  // job
  input  logic                 job_valid_i,
  output logic                 job_ready_o,
  input  logic [MWidth-1:0]    job_words_i,  // m: QuotDelay + 2 .. MaxWords, (c-1) P <= m
  input  logic [NWidth-1:0]    job_prods_i,  // products per half: 1 .. 2^16 - 1
  input  logic                 job_load_i,   // load A and M first (else A is the last result)
  input  logic                 job_two_i,    // both halves (else half 0 only)
  output logic                 job_err_o,    // a job with illegal parameters was dropped
  // load stream: (a_v, M_(v-1)) pairs, v = 0 .. m, per half
  output logic                 ld_req_o,
  output logic                 ld_half_o,
  input  logic [WordWidth-1:0] ld_a_i,       // taken 2 cycles after ld_req_o
  input  logic [WordWidth-1:0] ld_m_i,
  // B stream: words 0 .. m-1 of every product, per half
  output logic                 b_req_o,
  output logic                 b_half_o,
  input  logic [WordWidth-1:0] b_i,          // taken 2 cycles after b_req_o
  input  logic                 b_sq_i,       // 1: B is the previous result (squaring)
  // result stream: words 0 .. m-1 of every product, per half, in order
  output logic                 res_valid_o,
  output logic                 res_half_o,
  output logic [WordWidth-1:0] res_word_o
`ifdef MM_FORMAL
  ,
  // for the formal flow only (docs/ws_core.md, "Formal"): the sequencer's
  // state, for a user's invariants that tie it to its own schedule
  output logic [2:0]           f_st_o,       // state: 0 idle, 1 load, 2 wave, 3 gap, 4 drain
  output logic [15:0]          f_step_o,     // cycles into the state (load, wave: 2c cnt
                                             // + tick; gap, drain: the gap's cycles gone)
  output logic [15:0]          f_words_o,    // the job's m
  output logic [15:0]          f_left_o,     // its products left after this one
  output logic                 f_two_o,      // its halves: both
  output logic                 f_active_o,   // a descriptor, token, add or result word under way
  output logic [NumPe-1:0][2*Chunks-1:0][2:0] f_flags_o  // every PE's slot flags
`endif
);

  localparam int Latency    = DspRegs + 3 + LoopRegs;
  localparam int ReqLatency = 2 + ReqRegs;           // descriptor to data, cycles
  localparam int Slots      = 2 * Chunks;
  localparam int SlotWidth  = $clog2(Slots);
  localparam int ChunkWidth = (SlotWidth > 1) ? SlotWidth - 1 : 1;
  localparam int IndexWidth = (NumPe > 1) ? $clog2(NumPe) : 1;
  localparam int TickWidth  = (Chunks > 1) ? $clog2(2 * Chunks) : 1;
  localparam int CW         = $clog2(2 * MaxWords + Latency + 4 * QuotDelay + 8 * Chunks) + 1;
  // idle cycles after a product's last wave: the interval is 2c(s - 1)
  // + Latency + 1, for c > 1 rounded up to a multiple of 2c (docs/ws.md)
  localparam int GapLen     = (Chunks == 1) ? Latency
                              : ((Latency + 2 * Chunks) / (2 * Chunks)) * (2 * Chunks) - 1;
  // result word 0 (PE 0's quotient of wave m) is on the result stream
  // Latency + 2 cycles after its token is formed
  localparam int MarkLen    = Latency + 2;
  // the smallest legal word count: c laps are needed (V = m + 1 > (c-1) P)
  localparam int MinWords   = (QuotDelay + 2 > (Chunks - 1) * NumPe) ? QuotDelay + 2
                                                                   : (Chunks - 1) * NumPe;
  localparam int W          = WordWidth;
  // descriptor fields
  localparam int DAct = 0, DLoad = 1, DHalf = 2, DNeedB = 3, DQown = 4, DLast = 5, DTail = 6,
                 DFirstTail = 7, DFlags = 8, DDchunk = 11, DDest = DDchunk + ChunkWidth,
                 DIdx = DDest + IndexWidth;
  localparam int DescW = DIdx + CW;

  if (NumPe < 3 || NumPe > 512) begin : gen_bad_pe
    `MM_FATAL("mm_ws_array: NumPe must be in [3, 512]")
  end
  if (Chunks < 1 || Chunks > 4
      || (Chunks > 1 && (NumPe % 2 != 0 || (Chunks != 3 && (NumPe / 2) % 2 == 0)
                         || (Chunks == 3 && (NumPe / 2) % 3 == 0)))) begin : gen_bad_chunks
    `MM_FATAL("mm_ws_array: Chunks must be in [1, 4]; Chunks > 1 needs P even, gcd(P/2, c) = 1")
  end
  if (ReqRegs < 0 || ReqRegs > 1) begin : gen_bad_reqregs
    `MM_FATAL("mm_ws_array: ReqRegs must be 0 or 1")
  end
  if (QuotDelay < 2 || QuotDelay > 8 || 2 * Chunks * QuotDelay < Latency) begin : gen_bad_delay
    `MM_FATAL("mm_ws_array: QuotDelay must be in [2, 8] with 2 Chunks QuotDelay >= Latency")
  end
  if (MaxWords < QuotDelay + 2 || MaxWords + 1 > Chunks * NumPe || MaxWords < (Chunks - 1) * NumPe)
  begin : gen_bad_words
    `MM_FATAL("mm_ws_array: MaxWords must be in [max(QuotDelay + 2, (c-1) P), c P - 1]")
  end

  typedef enum logic [2:0] {
    StIdle, StLoad, StWave, StGap, StDrain
  } state_e;

  state_e         st_d, st_q;
  logic [TickWidth-1:0] tick_d, tick_q;
  logic           tick_end;
  logic [CW-1:0]  cnt_d, cnt_q, gap_d, gap_q;
  logic [IndexWidth-1:0] pe_d, pe_q;         // a load's PE (v mod P) ...
  logic [ChunkWidth-1:0] ch_d, ch_q;         // ... and chunk (v div P)
  logic [NWidth-1:0] left_d, left_q;
  logic [CW-1:0]  m_d, m_q, s1_d, s1_q, mres_d, mres_q;
  logic           two_d, two_q, err_d, err_q;
  logic           accept, legal;
  logic [CW-1:0]  job_m;
  // descriptors: half 0's timeline, half 1's (a cycle later), merged, pipeline
  logic [DescW-1:0] tl0, tl1_d, tl1_q, merged;
  logic [ReqLatency-1:0][DescW-1:0] pipe_q;
  logic [DescW-1:0] fin;
  logic           fin_load, fin_wave;
  // squaring feedback: each half's last result, by word
  logic [MarkLen-1:0] mark_q;
  logic [1:0][CW-1:0] waddr_d, waddr_q;
  logic [1:0][W-1:0] sq_rd;
  logic [W-1:0]    sq_word;
  logic [W+1:0]    res;
  logic [W-1:0]    tok_b;
  /* verilator lint_off UNUSEDSIGNAL */
  logic [W-1:0]    q_unused;
  /* verilator lint_on UNUSEDSIGNAL */
`ifdef MM_FORMAL
  logic            f_ring_active;
`endif

  // ---- job acceptance
  assign job_m       = CW'(job_words_i);
  assign legal       = job_m >= CW'(MinWords) && job_m <= CW'(MaxWords) && job_prods_i != '0;
  assign job_ready_o = (st_q == StIdle);
  assign accept      = job_valid_i && job_ready_o;
  assign job_err_o   = err_q;
  assign tick_end    = tick_q == TickWidth'(2 * Chunks - 1);

  // ---- the timeline of half 0 (the request stage): per product s waves 2c
  // cycles apart, GapLen idle cycles between products, loads first (one
  // every 2c cycles), then a drain until the last result word is out
  always_comb begin
    st_d   = st_q;
    tick_d = tick_q;
    cnt_d  = cnt_q;
    pe_d   = pe_q;
    ch_d   = ch_q;
    gap_d  = gap_q;
    left_d = left_q;
    m_d    = m_q;
    s1_d   = s1_q;
    mres_d = mres_q;
    two_d  = two_q;
    err_d  = 1'b0;
    case (st_q)
      StIdle: begin
        if (accept && legal) begin
          if (job_load_i) begin
            st_d = StLoad;
          end else begin
            st_d = StWave;
          end
          tick_d = '0;
          cnt_d  = '0;
          pe_d   = '0;
          ch_d   = '0;
          left_d = job_prods_i - NWidth'(1);
          m_d    = job_m;
          s1_d   = job_m + CW'(QuotDelay - 1);
          mres_d = job_m - CW'(QuotDelay);
          two_d  = job_two_i;
        end
        err_d = accept && !legal;
      end
      StLoad: begin
        tick_d = tick_q + TickWidth'(1);
        if (tick_end) begin
          tick_d = '0;
          if (cnt_q == m_q) begin
            st_d  = StWave;
            cnt_d = '0;
          end else begin
            cnt_d = cnt_q + CW'(1);
            if (pe_q == IndexWidth'(NumPe - 1)) begin
              pe_d = '0;
              ch_d = ch_q + ChunkWidth'(1);
            end else begin
              pe_d = pe_q + IndexWidth'(1);
            end
          end
        end
      end
      StWave: begin
        if (tick_q == '0 && cnt_q == s1_q) begin
          cnt_d = '0;
          if (left_q == '0) begin
            st_d  = StDrain;
            // the next job's first token may follow 2m - 2d + Latency + 1
            // cycles after the last wave's (+1 with two halves): the cycle
            // of the last result word (docs/ws.md, chain_cycles); the
            // drain lasts that minus 2, the idle cycle that accepts it
            gap_d = (m_q << 1) + CW'(Latency) + CW'(two_q) - CW'(2 * QuotDelay + 2);
          end else begin
            st_d   = StGap;
            gap_d  = CW'(GapLen - 1);
            left_d = left_q - NWidth'(1);
          end
        end else if (tick_end) begin
          tick_d = '0;
          cnt_d  = cnt_q + CW'(1);
        end else begin
          tick_d = tick_q + TickWidth'(1);
        end
      end
      StGap: begin
        gap_d = gap_q - CW'(1);
        if (gap_q == '0) begin
          st_d = StWave;
        end
      end
      StDrain: begin
        gap_d = gap_q - CW'(1);
        if (gap_q == '0) begin
          st_d = StIdle;
        end
      end
      default: st_d = StIdle;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      st_q   <= StIdle;
      tick_q <= '0;
      cnt_q  <= '0;
      pe_q   <= '0;
      ch_q   <= '0;
      gap_q  <= '0;
      left_q <= '0;
      m_q    <= '0;
      s1_q   <= '0;
      mres_q <= '0;
      two_q  <= 1'b0;
      err_q  <= 1'b0;
    end else begin
      st_q   <= st_d;
      tick_q <= tick_d;
      cnt_q  <= cnt_d;
      pe_q   <= pe_d;
      ch_q   <= ch_d;
      gap_q  <= gap_d;
      left_q <= left_d;
      m_q    <= m_d;
      s1_q   <= s1_d;
      mres_q <= mres_d;
      two_q  <= two_d;
      err_q  <= err_d;
    end
  end

  // ---- half 0's descriptor of this cycle; half 1's is the same a cycle later
  always_comb begin
    tl0                           = '0;
    tl0[DAct]                     = (st_q == StLoad || st_q == StWave) && tick_q == '0;
    tl0[DLoad]                    = (st_q == StLoad);
    tl0[DNeedB]                   = cnt_q < m_q;
    tl0[DQown]                    = cnt_q < CW'(QuotDelay);
    tl0[DLast]                    = cnt_q == s1_q;
    tl0[DTail]                    = cnt_q >= m_q;
    tl0[DFirstTail]               = cnt_q == m_q;
    // load flags {result, top, first}: virtual PE v's last-wave word is a
    // result word if 1 <= v <= m - d; the top virtual PE is v = m
    tl0[DFlags+2]                 = cnt_q != '0 && cnt_q <= mres_q;
    tl0[DFlags+1]                 = cnt_q == m_q;
    tl0[DFlags]                   = cnt_q == '0;
    tl0[DDchunk+:ChunkWidth]      = ch_q;
    tl0[DDest+:IndexWidth]        = pe_q;
    tl0[DIdx+:CW]                 = cnt_q;
    tl1_d                         = tl0;
    tl1_d[DAct]                   = tl0[DAct] && two_q;
    tl1_d[DHalf]                  = 1'b1;
    // the schedule never puts both halves' tokens in one cycle (docs/ws.md)
    merged = tl0[DAct] ? tl0 : tl1_q;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      tl1_q  <= '0;
      pipe_q <= '0;
    end else begin
      tl1_q  <= tl1_d;
      pipe_q <= {pipe_q[ReqLatency-2:0], merged};
    end
  end

  // ---- requests: the descriptor of this cycle (ReqRegs = 0) or of the
  // cycle before, from the pipeline's first register (ReqRegs = 1: the
  // engine's request logic starts at a register); the token they become
  // 2 cycles after the request
  logic [DescW-1:0] req;
  assign req       = (ReqRegs == 0) ? merged : pipe_q[0];
  assign ld_req_o  = req[DAct] && req[DLoad];
  assign ld_half_o = req[DHalf];
  assign b_req_o   = req[DAct] && !req[DLoad] && req[DNeedB];
  assign b_half_o  = req[DHalf];

  assign fin      = pipe_q[ReqLatency-1];
  assign fin_load = fin[DAct] && fin[DLoad];
  assign fin_wave = fin[DAct] && !fin[DLoad];

  // B word i of a squaring: word i of the half's previous result, written
  // as it came out (at least 2 cycles before it is taken, docs/ws.md), so
  // it is read a cycle before it is taken, from the descriptor one stage
  // ahead of fin, into a register: the buffer's read is off PE 0's token
  // path. (A memory with one write and one asynchronous read port: LUT RAM
  // on the ECP5. An index past MaxWords writes nothing; a read there is
  // never used: a squaring reads words 0 .. m-1.)
  localparam int BufAw = (MaxWords > 1) ? $clog2(MaxWords) : 1;
  logic [DescW-1:0] pre;
  logic [W-1:0]     sq_q;
  assign pre = pipe_q[ReqLatency-2];
  for (genvar k = 0; k < 2; k++) begin : gen_sq
    logic [W-1:0] buf_q [MaxWords];
    logic         wr;

    assign wr = res[W+1] && res[W] == 1'(k);

    always_ff @(posedge clk_i) begin
      if (wr && waddr_d[k] < CW'(MaxWords)) begin
        buf_q[waddr_d[k][BufAw-1:0]] <= res[W-1:0];
      end
    end

    assign sq_rd[k] = buf_q[pre[DIdx+:BufAw]];
  end

  always_ff @(posedge clk_i) begin
    sq_q <= pre[DHalf] ? sq_rd[1] : sq_rd[0];
  end

  assign sq_word = sq_q;

  always_comb begin
    tok_b = '0;
    if (fin_load) begin
      tok_b = ld_a_i;
    end else if (fin_wave && fin[DNeedB]) begin
      tok_b = b_sq_i ? sq_word : b_i;
    end
  end

  // the result stream's word index per half: word 0 is marked (its token's
  // "first tail wave" bit, MarkLen cycles later), then one per word
  always_comb begin
    for (int k = 0; k < 2; k++) begin
      waddr_d[k] = waddr_q[k];
      if (res[W+1] && res[W] == 1'(k)) begin
        waddr_d[k] = mark_q[MarkLen-1] ? '0 : waddr_q[k] + CW'(1);
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      mark_q  <= '0;
      waddr_q <= '0;
    end else begin
      mark_q  <= {mark_q[MarkLen-2:0], fin_wave && fin[DFirstTail]};
      waddr_q <= waddr_d;
    end
  end

  mm_ws_ring #(
    .NumPe     (NumPe),
    .WordWidth (W),
    .DspRegs   (DspRegs),
    .LoopRegs  (LoopRegs),
    .QuotDelay (QuotDelay),
    .Slots     (Slots)
  ) u_ring (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .inj_valid_i  (fin[DAct]),
    .inj_b_i      (tok_b),
    .inj_q_i      (fin_load ? ld_m_i : '0),
    .inj_slot_i   (SlotWidth'(fin[DHalf])),
    .inj_wave_i   (fin_wave),
    .inj_last_i   (fin[DLast]),
    .inj_tail_i   (fin[DTail]),
    .inj_load_i   (fin_load),
    .inj_dest_i   (fin[DDest+:IndexWidth]),
    .inj_dchunk_i (fin[DDchunk+:ChunkWidth]),
    .inj_flags_i  (fin[DFlags+:3]),
    .inj_qown_i   (fin[DLoad] || fin[DQown]),
    .q_o          (q_unused),
    .res_o        (res)
`ifdef MM_FORMAL
    ,
    .f_active_o   (f_ring_active),
    .f_flags_o    (f_flags_o)
`endif
  );

  assign res_valid_o = res[W+1];
  assign res_half_o  = res[W];
  assign res_word_o  = res[W-1:0];

`ifdef MM_FORMAL
  // Invariants of the sequencer (docs/ws_core.md, "Formal"): its counters
  // stay in their states' ranges and the job's derived values match its m;
  // and its state for a user's own invariants.
  logic [CW-1:0] f_drain;  // the drain's length for the job (gap_d on entry)
  always_comb begin
    f_drain = (m_q << 1) + CW'(Latency) + CW'(two_q) - CW'(2 * QuotDelay + 2);
    if (rst_ni) begin
      assert (st_q == StIdle || st_q == StLoad || st_q == StWave || st_q == StGap
              || st_q == StDrain);
      assert (32'(tick_q) < 2 * Chunks);
      if (st_q != StIdle) begin
        assert (m_q >= CW'(MinWords) && m_q <= CW'(MaxWords));
        assert (s1_q == m_q + CW'(QuotDelay - 1) && mres_q == m_q - CW'(QuotDelay));
      end
      if (st_q == StLoad) begin
        assert (cnt_q <= m_q && 32'(pe_q) < NumPe && 32'(cnt_q) == 32'(ch_q) * NumPe + 32'(pe_q));
      end
      if (st_q == StWave) begin
        assert (cnt_q <= s1_q && (cnt_q != s1_q || tick_q == '0));
      end
      if (st_q == StGap) begin
        assert (32'(gap_q) < GapLen);
      end
      if (st_q == StDrain) begin
        assert (gap_q <= f_drain);
      end
    end
  end

  always_comb begin
    f_st_o   = 3'(st_q);
    f_step_o = '0;
    case (st_q)
      StLoad, StWave: f_step_o = 16'(32'(cnt_q) * 2 * Chunks + 32'(tick_q));
      StGap:          f_step_o = 16'(GapLen - 1 - 32'(gap_q));
      StDrain:        f_step_o = 16'(f_drain - gap_q);
      default:        f_step_o = '0;
    endcase
  end
  logic [ReqLatency-1:0] f_pipe_act;  // the request pipeline's active bits
  for (genvar i = 0; i < ReqLatency; i++) begin : gen_f_pipe
    assign f_pipe_act[i] = pipe_q[i][DAct];
  end
  assign f_active_o = f_ring_active || tl1_q[DAct] || |f_pipe_act;
  assign f_words_o = 16'(m_q);
  assign f_left_o  = 16'(left_q);
  assign f_two_o   = two_q;
`endif  // MM_FORMAL

endmodule
