// SPDX-License-Identifier: Apache-2.0
//
// mm_volume: the volume harness of `montmul verify` (docs/verify.md).
//
// A Verilator C++ driver for any core on the common interface
// (docs/interface.md), built with `--prefix Vtop` around the core's top
// module.  It drives the valid/ready handshake itself, cycle by cycle, with no
// Python in the loop, and checks every response against an independent
// big-integer computation (GMP):
//   - value:   S * 2^r == A * B (mod N), r = log2 R for this modulus length;
//   - range:   0 <= S < OutBound * N;
//   - error:   err_o == (N even or N < 3 or, with CheckRange, A or B >= InBound * N),
//              and s_o == 0 when err_o is set;
//   - latency: the edge after which out_valid_o rises minus the accepting edge
//              equals the model's latency for this modulus length (the table
//              `lat=`, computed by montmul.verify from the Python model), or,
//              where the latency depends on the operands (lat entry -1), lies
//              in [0, bound]; a response held back by an older one (cores
//              with several products in flight) is due after the older one is
//              taken (docs/interface.md, "Several products in flight");
//   - protocol: nothing valid after reset, no response without a request,
//              a response held (valid, s_o, err_o stable) until taken, in_ready_o
//              low while a response is held (one-product cores), no hang.
// The first `log=` requests and every `log_stride=`-th one after them (value,
// flag and latency) are written to a file that montmul.verify checks against
// the Python model exactly.
//
// Requests: `mode=random` runs `count` requests: directed corner cases first
// (small, large and patterned moduli, one modulus of every bit length, the
// operands 0, 1, N-1, N, 2N-1, ...), then random ones (moduli of full and of
// random length, uniform operands with edge values mixed in, a few rejected
// requests), with random gaps between requests and random back-pressure.
// `mode=exhaustive` runs every odd N in [3, 2^k) with every A, B in
// [0, InBound * N).
//
// Arguments (key=value): width, mode, count, seed, inb, outb, check_range,
// in_flight, bound, timeout, radix (log2 R per modulus bit length 0..k,
// comma-separated), lat (model latency per bit length, -1: operand
// dependent), log, log_stride (requests to log), logfile, max_fail.  Prints one JSON
// object on stdout.  Exit status: 0 pass, 1 mismatch, 2 bad arguments.

#include <gmp.h>
#include <gmpxx.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <deque>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "Vtop.h"
#include "verilated.h"

namespace {

// --- ports <-> GMP --------------------------------------------------------------
template <typename T>
typename std::enable_if<std::is_integral<T>::value>::type put(T& port, const mpz_class& v) {
  port = static_cast<T>(mpz_get_ui(v.get_mpz_t()));
}
template <std::size_t W>
void put(VlWide<W>& port, const mpz_class& v) {
  for (std::size_t i = 0; i < W; ++i) port[i] = 0;
  std::size_t cnt = 0;
  mpz_export(port.data(), &cnt, -1, sizeof(EData), 0, 0, v.get_mpz_t());
}
template <typename T>
typename std::enable_if<std::is_integral<T>::value>::type get(mpz_class& v, const T& port) {
  v = static_cast<unsigned long>(port);
}
template <std::size_t W>
void get(mpz_class& v, const VlWide<W>& port) {
  mpz_import(v.get_mpz_t(), W, -1, sizeof(EData), 0, 0, port.data());
}

std::string hex(const mpz_class& v) { return "0x" + v.get_str(16); }

// --- arguments ----------------------------------------------------------------
struct Args {
  std::map<std::string, std::string> kv;
  bool has(const std::string& k) const { return kv.count(k) != 0; }
  long long num(const std::string& k, long long dflt) const {
    auto it = kv.find(k);
    return it == kv.end() ? dflt : std::stoll(it->second);
  }
  std::string str(const std::string& k, const std::string& dflt) const {
    auto it = kv.find(k);
    return it == kv.end() ? dflt : it->second;
  }
  std::vector<long long> list(const std::string& k) const {
    std::vector<long long> out;
    std::string s = str(k, "");
    std::size_t pos = 0;
    while (pos < s.size()) {
      std::size_t e = s.find(',', pos);
      if (e == std::string::npos) e = s.size();
      out.push_back(std::stoll(s.substr(pos, e - pos)));
      pos = e + 1;
    }
    return out;
  }
};

struct Request {
  mpz_class a, b, n;
  bool expect_err = false;
  unsigned nbits = 0;
  uint64_t index = 0;
};

struct Outstanding {
  Request req;
  uint64_t t_acc = 0;      // accepting edge
  bool seen = false;       // out_valid_o has presented it
  uint64_t t_valid = 0;    // the edge after which it was first presented
  uint64_t t_due_from = 0; // the edge from which it may be presented (older one taken)
  int hold = 0;            // back-pressure cycles left
  mpz_class s;
  bool err = false;
};

struct Failure {
  std::string kind, detail;
  Request req;
  mpz_class s;
  int err = -1;
  long long cycles = -1;
};

// --- request generation -----------------------------------------------------------
class Generator {
 public:
  Generator(unsigned k, unsigned inb, bool check_range, uint64_t seed, bool exhaustive)
      : k_(k), inb_(inb), check_range_(check_range), exhaustive_(exhaustive), rng_(seed), grand_(gmp_randinit_mt) {
    grand_.seed(seed);
    if (exhaustive_) {
      ex_n_ = 3;
      ex_a_ = 0;
      ex_b_ = 0;
    } else {
      corners();
    }
  }

  // The next request; false when an exhaustive run is complete.
  bool next(Request& r) {
    if (exhaustive_) return next_exhaustive(r);
    if (corner_pos_ < corners_.size()) {
      r = corners_[corner_pos_++];
    } else {
      random_request(r);
    }
    finish(r);
    return true;
  }

  std::size_t corner_count() const { return corners_.size(); }
  std::mt19937_64& rng() { return rng_; }
  gmp_randclass& grand() { return grand_; }

 private:
  void finish(Request& r) {
    r.nbits = mpz_sizeinbase(r.n.get_mpz_t(), 2);
    if (r.n == 0) r.nbits = 0;
    mpz_class lim = r.n * inb_;
    r.expect_err = mpz_even_p(r.n.get_mpz_t()) || r.n < 3 || (check_range_ && (r.a >= lim || r.b >= lim));
  }

  bool next_exhaustive(Request& r) {
    mpz_class top = mpz_class(1) << k_;
    if (ex_n_ >= top) return false;
    r.n = ex_n_;
    r.a = ex_a_;
    r.b = ex_b_;
    finish(r);
    mpz_class lim = ex_n_ * inb_;
    if (++ex_b_ >= lim) {
      ex_b_ = 0;
      if (++ex_a_ >= lim) {
        ex_a_ = 0;
        ex_n_ += 2;
      }
    }
    return true;
  }

  mpz_class odd_modulus(unsigned bits) {
    // a random odd modulus of exactly `bits` bits (>= 3)
    if (bits < 2) bits = 2;
    mpz_class n = grand_.get_z_bits(bits);
    mpz_setbit(n.get_mpz_t(), bits - 1);
    mpz_setbit(n.get_mpz_t(), 0);
    if (n < 3) n = 3;
    return n;
  }

  void add_corners(const mpz_class& n, bool full) {
    mpz_class lim = n * inb_;
    std::vector<mpz_class> ops;
    auto add = [&](const mpz_class& v) {
      if (v < 0 || v >= lim) return;
      for (auto& o : ops)
        if (o == v) return;
      ops.push_back(v);
    };
    add(0);
    add(1);
    add(n - 1);
    add(lim - 1);
    add(grand_.get_z_range(lim));
    if (full) {
      add(2);
      add(n);
      add(n + 1);
      add(lim - 2);
      add((mpz_class(1) << mpz_sizeinbase(n.get_mpz_t(), 2)) - 1);  // all ones of N's length
      add(n >> 1);
      add(grand_.get_z_range(lim));
    }
    for (auto& a : ops)
      for (auto& b : ops) {
        Request r;
        r.a = a;
        r.b = b;
        r.n = n;
        corners_.push_back(r);
      }
  }

  void corners() {
    mpz_class top = mpz_class(1) << k_;
    std::vector<mpz_class> special;
    auto add = [&](const mpz_class& n) {
      if (n < 3 || n >= top || mpz_even_p(n.get_mpz_t())) return;
      for (auto& o : special)
        if (o == n) return;
      special.push_back(n);
    };
    add(3);
    add(5);
    add(7);
    add(top - 1);
    add(top - 3);
    add((top >> 1) + 1);
    add((top >> 1) - 1);
    mpz_class pat5 = 0, patA = 0;  // 0101...01 and 1010...11
    for (unsigned i = 0; i < k_; i += 2) mpz_setbit(pat5.get_mpz_t(), i);
    for (unsigned i = 1; i < k_; i += 2) mpz_setbit(patA.get_mpz_t(), i);
    add(pat5 | 1);
    add(patA | 1);
    for (auto& n : special) add_corners(n, true);
    for (unsigned bits = 2; bits <= k_; ++bits) add_corners(odd_modulus(bits), false);
    // rejected requests: even and too small moduli, operands out of range
    auto bad = [&](const mpz_class& a, const mpz_class& b, const mpz_class& n) {
      Request r;
      r.a = a;
      r.b = b;
      r.n = n;
      corners_.push_back(r);
    };
    bad(1, 1, 0);
    bad(1, 1, 1);
    bad(1, 1, 2);
    bad(1, 1, top - 2);
    if (check_range_) {
      mpz_class n = odd_modulus(k_ > 2 ? k_ - 1 : 2);
      bad(n * inb_, 1, n);
      bad(1, n * inb_, n);
      mpz_class opmax = (mpz_class(1) << (k_ + 1)) - 1;
      if (opmax >= n * inb_) bad(opmax, opmax, n);
    }
  }

  void random_request(Request& r) {
    uint64_t u = rng_();
    unsigned bits = k_;
    if ((u & 3) == 0) bits = 2 + static_cast<unsigned>((u >> 8) % (k_ - 1));  // random length 2..k
    r.n = odd_modulus(bits);
    mpz_class lim = r.n * inb_;
    r.a = grand_.get_z_range(lim);
    r.b = grand_.get_z_range(lim);
    // edge operands now and then
    if (((u >> 32) & 15) == 0) r.a = ((u >> 40) & 1) ? lim - 1 : r.n - 1;
    if (((u >> 36) & 15) == 0) r.b = ((u >> 41) & 1) ? lim - 1 : mpz_class(0);
    // a rejected request now and then (1/1024)
    if (((u >> 44) & 1023) == 0) {
      switch ((u >> 54) & 3) {
        case 0: r.n -= 1; break;  // even
        case 1: r.n = (u >> 56) & 1; break;  // 0 or 1
        default: {
          const mpz_class room = (mpz_class(1) << (k_ + 1)) - lim;  // operand values above the range
          if (check_range_ && room > 0) r.a = lim + grand_.get_z_range(room);
          else r.n -= 1;
          break;
        }
      }
    }
  }

  unsigned k_, inb_;
  bool check_range_, exhaustive_;
  std::mt19937_64 rng_;
  gmp_randclass grand_;
  std::vector<Request> corners_;
  std::size_t corner_pos_ = 0;
  mpz_class ex_n_, ex_a_, ex_b_;
};

}  // namespace

int main(int argc, char** argv) {
  Args args;
  for (int i = 1; i < argc; ++i) {
    const char* eq = std::strchr(argv[i], '=');
    if (!eq) {
      std::fprintf(stderr, "mm_volume: argument %s is not key=value\n", argv[i]);
      return 2;
    }
    args.kv[std::string(argv[i], eq - argv[i])] = eq + 1;
  }
  const unsigned k = static_cast<unsigned>(args.num("width", 0));
  const bool exhaustive = args.str("mode", "random") == "exhaustive";
  const uint64_t count = static_cast<uint64_t>(args.num("count", 1000));
  const uint64_t seed = static_cast<uint64_t>(args.num("seed", 1));
  const unsigned inb = static_cast<unsigned>(args.num("inb", 2));
  const unsigned outb = static_cast<unsigned>(args.num("outb", 2));
  const bool check_range = args.num("check_range", 1) != 0;
  const unsigned in_flight = static_cast<unsigned>(args.num("in_flight", 1));
  const long long bound = args.num("bound", 0);
  const uint64_t timeout = static_cast<uint64_t>(args.num("timeout", 2 * bound + 100));
  const uint64_t log_count = static_cast<uint64_t>(args.num("log", 0));
  const uint64_t log_stride = static_cast<uint64_t>(args.num("log_stride", 0));
  const uint64_t max_fail = static_cast<uint64_t>(args.num("max_fail", 20));
  const std::vector<long long> radix = args.list("radix");
  const std::vector<long long> lat = args.list("lat");
  if (k < 2 || radix.size() != k + 1 || lat.size() != k + 1 || bound <= 0) {
    std::fprintf(stderr, "mm_volume: need width >= 2, bound > 0 and radix, lat lists of width+1 entries\n");
    return 2;
  }
  FILE* logf = nullptr;
  if (log_count || log_stride) {
    logf = std::fopen(args.str("logfile", "volume.log").c_str(), "w");
    if (!logf) {
      std::perror("mm_volume: logfile");
      return 2;
    }
  }

  auto ctx = std::make_unique<VerilatedContext>();
  ctx->commandArgs(1, argv);
  auto top = std::make_unique<Vtop>(ctx.get());
  Generator gen(k, inb, check_range, seed, exhaustive);

  uint64_t edge = 0, requests = 0, products = 0, rejected = 0, lat_exact = 0, lat_bounded = 0, logged = 0;
  uint64_t backpressure = 0, gaps = 0, mismatches = 0;
  std::vector<Failure> failures;
  bool aborted = false;
  std::string abort_reason;

  auto fail = [&](const std::string& kind, const std::string& detail, const Request& r, const mpz_class& s, int err,
                  long long cycles) {
    ++mismatches;
    if (failures.size() < 10) failures.push_back(Failure{kind, detail, r, s, err, cycles});
    if (mismatches >= max_fail) {
      aborted = true;
      abort_reason = "too many mismatches";
    }
  };

  // reset
  top->clk_i = 0;
  top->rst_ni = 0;
  top->in_valid_i = 0;
  top->out_ready_i = 0;
  top->eval();
  for (int i = 0; i < 3; ++i) {
    top->clk_i = 1;
    top->eval();
    top->clk_i = 0;
    top->eval();
  }
  top->rst_ni = 1;
  top->eval();
  {
    Request none;
    if (top->out_valid_o) fail("protocol", "out_valid_o high after reset", none, 0, -1, -1);
  }

  std::mt19937_64& rng = gen.rng();
  std::deque<Outstanding> queue;
  Request cur;
  bool have_cur = false, gen_done = false;
  int gap = 0;
  uint64_t cur_since = 0;
  mpz_class s_now, t1, t2;
  const bool single = in_flight == 1;

  auto fetch = [&]() {
    if (!exhaustive && requests >= count) {
      gen_done = true;
      return;
    }
    if (!gen.next(cur)) {
      gen_done = true;
      return;
    }
    cur.index = requests++;
    have_cur = true;
    put(top->a_i, cur.a);
    put(top->b_i, cur.b);
    put(top->n_i, cur.n);
  };
  fetch();

  const auto t0 = std::chrono::steady_clock::now();
  const std::clock_t c0 = std::clock();
  while (!aborted && (!gen_done || have_cur || !queue.empty())) {
    // --- clock low: drive, settle, sample ---------------------------------------
    const bool in_valid = have_cur && gap == 0;
    top->in_valid_i = in_valid;
    Outstanding* head = queue.empty() ? nullptr : &queue.front();
    top->out_ready_i = !(head && head->seen && head->hold > 0);
    top->eval();
    const bool in_ready = top->in_ready_o;
    const bool out_valid = top->out_valid_o;
    bool take = false;
    if (out_valid) {
      if (!head) {
        fail("protocol", "out_valid_o high with no request outstanding", Request(), 0, -1, -1);
        aborted = true;
        abort_reason = "protocol";
        break;
      }
      get(s_now, top->s_o);
      const bool err_now = top->err_o;
      if (!head->seen) {
        head->seen = true;
        head->t_valid = edge;
        head->s = s_now;
        head->err = err_now;
        if ((rng() & 15) == 0) {
          head->hold = 1 + static_cast<int>(rng() & 3);
          ++backpressure;
          top->out_ready_i = 0;
          top->eval();
        }
      } else if (head->s != s_now || head->err != err_now) {
        fail("protocol", "response changed while held (out_ready_i low)", head->req, s_now, err_now, -1);
      }
      if (single && in_ready)
        fail("protocol", "in_ready_o high while a response is pending", head->req, s_now, err_now, -1);
      take = top->out_ready_i;
      if (head->hold > 0) --head->hold;
    } else if (head && head->seen) {
      fail("protocol", "out_valid_o dropped before out_ready_i", head->req, head->s, head->err, -1);
      aborted = true;
      abort_reason = "protocol";
      break;
    }
    const bool accept = in_valid && in_ready;

    // --- rising edge -------------------------------------------------------------
    top->clk_i = 1;
    top->eval();
    ++edge;
    top->clk_i = 0;

    if (take) {
      Outstanding& o = queue.front();
      const Request& r = o.req;
      const long long cycles = static_cast<long long>(o.t_valid - o.t_acc);
      // due: the request's own latency from acceptance, or right after the
      // older response was taken, whichever is later
      const uint64_t from = o.t_due_from > o.t_acc ? o.t_due_from : o.t_acc;
      if (logf && (r.index < log_count || (log_stride && r.index % log_stride == 0))) {
        // last field: cycles it waited for an older response to be taken
        std::fprintf(logf, "%s %s %s %s %d %lld %lld\n", hex(r.a).c_str(), hex(r.b).c_str(), hex(r.n).c_str(),
                     hex(o.s).c_str(), o.err ? 1 : 0, cycles, static_cast<long long>(from - o.t_acc));
        ++logged;
      }
      if (r.expect_err) {
        ++rejected;
        if (!o.err) fail("error flag", "err_o low on a request the core must reject", r, o.s, o.err, cycles);
        else if (o.s != 0) fail("error flag", "s_o not 0 with err_o", r, o.s, o.err, cycles);
        if (o.t_valid != from) fail("latency", "rejected request not answered at once (want 0)", r, o.s, o.err, cycles);
      } else {
        ++products;
        if (o.err) {
          fail("error flag", "err_o high on a legal request", r, o.s, o.err, cycles);
        } else {
          const long long rl = radix[r.nbits];
          t1 = r.a * r.b;
          mpz_mod(t1.get_mpz_t(), t1.get_mpz_t(), r.n.get_mpz_t());
          mpz_mul_2exp(t2.get_mpz_t(), o.s.get_mpz_t(), static_cast<mp_bitcnt_t>(rl));
          mpz_mod(t2.get_mpz_t(), t2.get_mpz_t(), r.n.get_mpz_t());
          if (t1 != t2) fail("value", "S*R mod N != A*B mod N (R = 2^" + std::to_string(rl) + ")", r, o.s, o.err, cycles);
          else if (o.s >= r.n * outb) fail("range", "S >= " + std::to_string(outb) + "N", r, o.s, o.err, cycles);
        }
        const long long want = lat[r.nbits];
        if (want >= 0) {
          ++lat_exact;
          const uint64_t due = o.t_acc + static_cast<uint64_t>(want);
          const uint64_t exp = due > from ? due : from;
          if (o.t_valid != exp)
            fail("latency", "want " + std::to_string(exp - o.t_acc) + " cycles (model)", r, o.s, o.err, cycles);
        } else {
          ++lat_bounded;
          const uint64_t exp_max = o.t_acc + static_cast<uint64_t>(bound);
          if (o.t_valid > (exp_max > from ? exp_max : from))
            fail("latency", "above the bound " + std::to_string(bound), r, o.s, o.err, cycles);
        }
      }
      queue.pop_front();
      if (!queue.empty()) queue.front().t_due_from = edge;
    }
    if (accept) {
      Outstanding o;
      o.req = cur;
      o.t_acc = edge;  // t_due_from is set when the response ahead of it is taken
      queue.push_back(o);
      have_cur = false;
      fetch();
      cur_since = edge;
      if (have_cur && (rng() & 15) == 0) {
        gap = 1 + static_cast<int>(rng() & 3);
        ++gaps;
      }
    } else if (gap > 0) {
      --gap;
    }
    if (have_cur && gap == 0 && edge - cur_since > timeout + timeout * in_flight) {
      fail("hang", "request not accepted within " + std::to_string(timeout * (in_flight + 1)) + " cycles", cur,
           0, -1, -1);
      aborted = true;
      abort_reason = "hang";
    }
    if (!queue.empty()) {
      const Outstanding& h = queue.front();
      const uint64_t from = h.t_due_from > h.t_acc ? h.t_due_from : h.t_acc;
      if (!h.seen && edge - from > timeout) {
        fail("hang", "no response within " + std::to_string(timeout) + " cycles", h.req, 0, -1, -1);
        aborted = true;
        abort_reason = "hang";
      }
    }
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const double cpu_seconds = static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC;
  top->final();
  if (logf) std::fclose(logf);

  std::printf("{\"products\": %llu, \"rejected\": %llu, \"requests\": %llu, \"mismatches\": %llu, "
              "\"cycles\": %llu, \"seconds\": %.6f, \"cpu_seconds\": %.6f, \"latency_exact\": %llu, \"latency_bounded\": %llu, "
              "\"corner_requests\": %llu, \"backpressure\": %llu, \"gaps\": %llu, \"logged\": %llu, "
              "\"aborted\": %s, \"abort_reason\": \"%s\", \"failures\": [",
              (unsigned long long)products, (unsigned long long)rejected, (unsigned long long)requests,
              (unsigned long long)mismatches, (unsigned long long)edge, seconds, cpu_seconds, (unsigned long long)lat_exact,
              (unsigned long long)lat_bounded, (unsigned long long)(exhaustive ? 0 : gen.corner_count()),
              (unsigned long long)backpressure, (unsigned long long)gaps, (unsigned long long)logged,
              aborted ? "true" : "false", abort_reason.c_str());
  for (std::size_t i = 0; i < failures.size(); ++i) {
    const Failure& f = failures[i];
    std::printf("%s{\"kind\": \"%s\", \"detail\": \"%s\", \"index\": %llu, \"a\": \"%s\", \"b\": \"%s\", "
                "\"n\": \"%s\", \"s\": \"%s\", \"err\": %d, \"cycles\": %lld}",
                i ? ", " : "", f.kind.c_str(), f.detail.c_str(), (unsigned long long)f.req.index,
                hex(f.req.a).c_str(), hex(f.req.b).c_str(), hex(f.req.n).c_str(), hex(f.s).c_str(), f.err,
                f.cycles);
  }
  std::printf("]}\n");
  return mismatches ? 1 : 0;
}
