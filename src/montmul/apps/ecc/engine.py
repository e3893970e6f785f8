# SPDX-License-Identifier: Apache-2.0
"""ECC programs for the public-key engine (``docs/pke_ecc.md``).

The engine of :mod:`montmul.models.pke` runs RSA's Montgomery products on the
ws array and its word-serial ALU ops on two banks; this module generates its
programs for elliptic curves from the formulas of :class:`.point.Arith`:
the Renes-Costello-Batina complete doubling and addition (a = -3 or any a)
are run once on a recording field, which gives the list of products,
additions and subtractions; the generator places every value in one of the
two EBR groups, turns products into array jobs (chained when a product's
operand is the previous result), additions and subtractions into
``pke.mod_add`` / ``pke.mod_sub`` with the modulus 2Ñ (values stay in
[0, 2Ñ), the array's operand range), and adds the copies the one-read-port
rule needs.

Programs (every half runs the same instructions on its own bank):

* conversion in of the base point, the table T[j] = j·P (j < 16; each
  entry holds X, Y, Z and the sums of them the addition formula needs,
  so that every table value is a product's B, read with ``TAB``);
* the fixed 4-bit window scalar multiplication: A = T[k_0], then per window
  four doublings and one addition of T[k_i] (the window is read by the
  products' ``TAB`` operands only, as in RSA: the scalar's digits are
  stored once per table read);
* optionally the combining addition on half 0 of half 1's result (``XA``):
  u1·G + u2·Q in verification (u1·G on half 0, u2·Q on half 1), and
  k·G = k_0·G + k_1·(2^(4V)·G) in signing (the two halves of the scalar);
* conversion to affine on half 0: Z^(p-2) as one exponentiation chain of
  the array (table of Z's powers, the public windows of p − 2), then x·Z⁻¹
  and y·Z⁻¹ and the RSA program's exact reduction.

``python -m montmul.apps.ecc.engine`` prints the cycles.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, field, replace

from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature, encode_dss_signature

from ...models import pke, ws
from . import encoding, protocols
from .curves import Curve, affine_mul_public
from .curves import get as get_curve
from .point import Arith

__all__ = ["Formula", "formulas", "EccBuild", "EccProgram", "program", "scalar_mult", "Run", "scalar_windows",
           "run_scalar_mult", "run_double", "base_mult", "split_base", "ecdsa_sign", "ecdsa_verify", "ecdh",
           "figures", "main"]

G1 = pke.GROUP_WORDS
CONSTS = ("A", "B", "B3")  # the order Arith enters a, b, 3b


# --------------------------------------------------------------------------
# The formulas, recorded from point.Arith
# --------------------------------------------------------------------------

class _Recorder:
    """A stand-in for Field: records mul/add/sub on symbolic values."""

    def __init__(self, p: int):
        self.p = p
        self.one = "ONE"
        self.ops: list[tuple[str, str, str, str]] = []
        self._consts = iter(CONSTS)
        self._k = 0

    def enter(self, x: int) -> str:
        return next(self._consts)

    def _op(self, op: str, x: str, y: str) -> str:
        v = f"v{self._k}"
        self._k += 1
        self.ops.append((op, v, x, y))
        return v

    def mul(self, x, y):
        return self._op("mul", x, y)

    def add(self, x, y):
        return self._op("add", x, y)

    def sub(self, x, y):
        return self._op("sub", x, y)


@dataclass
class Formula:
    """A point formula as operations (op, dst, x, y) on named values: the
    inputs P0..P2 (and Q0..Q2), the constants A, B, B3, ONE, temporaries.
    For an addition, ``table_ops`` are the operations on Q alone (done once
    per table entry) and ``comps`` the Q values the main operations read
    (each only as a product's operand)."""

    ops: list[tuple[str, str, str, str]]
    out: tuple[str, str, str]
    table_ops: list[tuple[str, str, str, str]] = field(default_factory=list)
    comps: list[str] = field(default_factory=list)

    @property
    def products(self) -> int:
        return sum(op == "mul" for op, *_ in self.ops)


def formulas(curve: Curve) -> tuple[Formula, Formula]:
    """(doubling, addition) of ``curve``'s Arith (a = -3 or general a)."""
    rec = _Recorder(curve.p)
    E = Arith(curve, rec)  # type: ignore[arg-type]
    rec.ops = []
    out = E.dbl(("P0", "P1", "P2"))
    dbl = Formula(rec.ops, out)
    rec.ops = []
    out = E.add(("P0", "P1", "P2"), ("Q0", "Q1", "Q2"))
    qset = {"Q0", "Q1", "Q2"}
    tops, main_ops = [], []
    for op in rec.ops:
        if op[2] in qset and op[3] in qset:
            if op[0] == "mul":
                raise ValueError("a product of Q alone in the addition formula")
            tops.append(op)
            qset.add(op[1])
        else:
            main_ops.append(op)
    comps = ["Q0", "Q1", "Q2"] + [o[1] for o in tops]
    for op, _, x, y in main_ops:
        if op != "mul" and (x in qset or y in qset):
            raise ValueError("a table value outside a product in the addition formula")
    return dbl, Formula(main_ops, out, tops, comps)


# --------------------------------------------------------------------------
# Build and memory map
# --------------------------------------------------------------------------

@dataclass(frozen=True)
class EccBuild:
    """The engine build for a curve: its field length ℓ = bits(p), the
    array (P, w, L, qlat), the scalar's windows per half and whether half 1's
    point is added to half 0's at the end (``combine``)."""

    curve: Curve
    windows: int
    combine: bool = False
    pes: int = 70
    w: int = 17
    latency: int = 6
    qlat: int = 0
    mod_alu: bool = False  #: the engine's modular ALU (``pke.Build.mod_alu``): DUAL + SEL per add/sub
    d: int | None = None  #: the array's quotient delay (default: the smallest legal for the curve)

    @property
    def pb(self) -> pke.Build:
        return pke.Build(self.curve.p.bit_length(), pes=self.pes, w=self.w, latency=self.latency, qlat=self.qlat,
                         d=self.d, mod_alu=self.mod_alu)

    def machine(self, ks) -> pke.Machine:
        b = self.pb
        return pke.Machine(b.array, ks, mod_alu=b.mod_alu)


class _Mem:
    """Region allocation in the two groups."""

    def __init__(self):
        self.top = [0, G1]
        self.regions: dict[str, tuple[int, int]] = {}

    def region(self, name: str, group: int, words: int) -> int:
        addr = self.top[group]
        self.top[group] += words
        if self.top[group] > (group + 1) * G1:
            raise ValueError(f"group {group} of the bank overflows at region {name}")
        self.regions[name] = (addr, words)
        return addr


@dataclass
class EccProgram:
    program: list[pke.Instr]
    regions: dict[str, tuple[int, int]]
    build: EccBuild
    tab_reads: int  #: the table reads per addition (each window's digit is stored so often)


class _Gen:
    def __init__(self, eb: EccBuild):
        self.eb = eb
        b = self.b = eb.pb
        self.m, self.ln, self.j = b.m, b.ln, b.j_out
        # Words of the ALU ops and copies: every value is below 2Ñ and a sum
        # below 4Ñ, so words above ceil(bits(4Ñ)/w) are 0 in every slot (the
        # array writes them 0, the ALU never writes them).  Fewer than m when
        # Ñ = p (p = -1 mod 2^(w(d+1)), as P-256's p for w(d+1) <= 96).
        k = ws.precompute(eb.curve.p, b.w, b.d, b.bits)
        self.na = min(self.m, -(-(4 * k.ntilde).bit_length() // b.w))
        self.dbl, self.add = formulas(eb.curve)
        m = self.m
        mem = self.mem = _Mem()
        self.ncomp = len(self.add.comps)
        # Group 0: the array's A sources (and MACR accumulators).
        self.TAB = mem.region("TAB", 0, 16 * self.ncomp * m)  # the point table; later Z's powers
        self.ACC = [mem.region(f"ACC{i}", 0, m) for i in range(3)]
        self.ONE0 = mem.region("ONE0", 0, m)
        self.ZI = mem.region("ZI", 0, m)
        self.OX = mem.region("OX", 0, m + self.j)
        self.OY = mem.region("OY", 0, m + self.j)
        self.T1 = mem.region("T1", 0, m)
        self.PX = mem.region("PX", 0, m)  # affine input x (h)
        self.PY = mem.region("PY", 0, m)
        # Group 1: the modulus, constants, the exponents.
        self.MS = mem.region("MS", 1, m)
        mem.region("NINV", 1, 1)
        self.MOD = mem.region("MOD", 1, m)
        self.MOD2 = mem.region("MOD2", 1, m)
        self.RR = mem.region("RR", 1, m)
        self.ONE = mem.region("ONE", 1, m)
        self.COUT = mem.region("COUT", 1, m)
        self.C = {c: mem.region(c, 1, m) for c in CONSTS}
        self.C["ONE"] = self.ONE
        self.TMP = mem.region("TMP", 1, m)
        self.T2 = mem.region("T2", 1, m)
        self.QF = mem.region("QF", 1, self.ncomp * m)
        self.XOUT = mem.region("XOUT", 1, m)
        self.YOUT = mem.region("YOUT", 1, m)
        self.tab_reads = sum(1 for op, _, x, y in self.add.ops if op == "mul" and
                             (x in self.add.comps or y in self.add.comps))
        nd = 3 + self.tab_reads * max(eb.windows - 1, 0)
        self.EXPK = mem.region("EXPK", 1, max(1, -(-nd // 4)))
        self.wi = -(-b.bits // ws.WINDOW)
        self.EXPI = mem.region("EXPI", 1, -(-self.wi // 4))
        self.scratch0 = mem.top[0]
        self.scratch1 = mem.top[1]
        self.peak = [self.scratch0, self.scratch1]
        self.prog: list[pke.Instr] = []
        self.part = ""

    # -- emission helpers ------------------------------------------------------
    def emit(self, *ins: pke.Instr):
        for i in ins:
            self.prog.append(replace(i, part=self.part))

    def _slot(self, group: int) -> int:
        a = self.alloc[group]
        self.alloc[group] += self.m
        self.peak[group] = max(self.peak[group], self.alloc[group])
        if self.alloc[group] > (group + 1) * G1:
            raise ValueError(f"group {group} of the bank overflows (scratch)")
        return a

    def mov(self, dst, a, fl=0):
        self.emit(pke.Instr(pke.Op.MOV, fl, dst, a, n=self.na))

    def alu(self, op: str, dst: int, a: int, b: int, fl: int):
        """dst = a ± b mod 2Ñ, with a copy if a and b share a group."""
        if a // G1 == b // G1:
            t = self._slot(1 - b // G1)
            self.mov(t, b, fl)
            b = t
        frag = pke.mod_add if op == "add" else pke.mod_sub
        self.emit(*frag(dst, a, b, self.MOD2, self.T1, self.T2, self.na, fl, dual=self.eb.mod_alu))

    # -- one formula -----------------------------------------------------------
    def _groups(self, f: Formula, loc: dict[str, int], qvals: set) -> dict[str, int]:
        """A group per temporary: hill-climbing on the number of copies."""
        temps = [o[1] for o in f.ops]
        grp = {v: (a // G1) for v, a in loc.items()}
        for v in temps:
            grp[v] = 0

        def cost():
            c = 0
            for op, _, x, y in f.ops:
                gx = None if x in qvals else grp[x]
                gy = None if y in qvals else grp[y]
                if op == "mul":
                    if x in self.C or x in qvals:
                        c += gy != 0
                    elif y in self.C or y in qvals:
                        c += gx != 0
                    else:
                        c += gx != 0 and gy != 0
                else:
                    c += x == y or gx == gy
            return c

        best = cost()
        improved = True
        while improved:
            improved = False
            for v in temps:
                grp[v] ^= 1
                c = cost()
                if c < best:
                    best, improved = c, True
                else:
                    grp[v] ^= 1
        return grp

    @staticmethod
    def _order(f: Formula) -> list[tuple[str, str, str, str]]:
        """f's operations in a dependency order that puts a product right
        after the product whose result it reads (one job, no new load) where
        its other operand is ready; otherwise the formula's own order."""
        defined = {o[1] for o in f.ops}
        done: set[str] = set()
        left = list(f.ops)
        out = []
        prev = None
        while left:
            ready = [o for o in left if all(v not in defined or v in done for v in o[2:])]
            pick = next((o for o in ready if o[0] == "mul" and prev is not None and prev in o[2:]), ready[0])
            out.append(pick)
            left.remove(pick)
            done.add(pick[1])
            prev = pick[1] if pick[0] == "mul" else None
        return out

    def formula(self, f: Formula, ins: list[int], outs: list[int], q: dict[str, tuple[int, bool]] | None,
                fl: int = 0):
        """Emit f with P at ``ins``, the results moved to ``outs``, Q's values
        at q[name] = (address, is a table read with stride)."""
        self.alloc = [self.scratch0, self.scratch1]
        loc = {f"P{i}": a for i, a in enumerate(ins)}
        for c, a in self.C.items():
            loc[c] = a
        q = q or {}
        grp = self._groups(f, loc, set(q))
        job: list[pke.Instr] = []
        job_a = [0]
        prev = [None]
        stride = self.ncomp * self.m

        def close():
            if job:
                self.emit(pke.Instr(pke.Op.JOB, fl | pke.F_LOAD, 0, job_a[0], len(job), self.MS, self.m), *job)
                job.clear()
            prev[0] = None

        def bsrc(v):
            if v in q:
                addr, tab = q[v]
                return (pke.F_BTAB, addr, 0) if tab else (0, addr, 0)
            return (0, loc[v], 0)

        for op, dst, x, y in self._order(f):
            if op == "mul":
                d = loc[dst] = self._slot(grp[dst])
                if prev[0] is not None and prev[0] in (x, y):
                    other = y if prev[0] == x else x
                    if other == prev[0]:
                        job.append(pke.Instr(pke.Op.PROD, pke.F_BSQ | pke.F_STORE, d))
                    else:
                        bf, ba, bn = bsrc(other)
                        job.append(pke.Instr(pke.Op.PROD, bf | pke.F_STORE, d, 0, ba, n=bn))
                    prev[0] = dst
                    continue
                close()
                cand = [v for v in (x, y) if v not in q and v not in self.C and loc[v] // G1 == 0]
                if cand:
                    a = cand[0]
                    other = y if a == x else x
                    a_addr = loc[a]
                else:
                    a = ([v for v in (x, y) if v not in q and v not in self.C]
                         or [v for v in (x, y) if v not in q])[0]
                    other = y if a == x else x
                    a_addr = self._slot(0)
                    self.mov(a_addr, loc[a], fl)
                job_a[0] = a_addr
                if other == a:
                    job.append(pke.Instr(pke.Op.PROD, pke.F_BSQ | pke.F_STORE, d))
                else:
                    bf, ba, bn = bsrc(other)
                    job.append(pke.Instr(pke.Op.PROD, bf | pke.F_STORE, d, 0, ba, n=bn))
                prev[0] = dst
            else:
                close()
                d = loc[dst] = self._slot(grp[dst])
                self.alu(op, d, loc[x], loc[y], fl)
        close()
        for v, o in zip(f.out, outs):
            self.mov(o, loc[v], fl)

    def entry(self, base: int, xyz: list[int], fl: int = 0):
        """A table entry (or QF) at base: X, Y, Z moved in, then the sums."""
        self.alloc = [self.scratch0, self.scratch1]
        m = self.m
        loc = {}
        for i, src in enumerate(xyz):
            loc[f"Q{i}"] = base + i * m
            if src != base + i * m:
                if src is None:
                    self.emit(pke.Instr(pke.Op.CLR, fl, base + i * m, n=m))
                else:
                    self.mov(base + i * m, src, fl)
        for k, (op, dst, x, y) in enumerate(self.add.table_ops):
            loc[dst] = base + self.add.comps.index(dst) * m if dst in self.add.comps else self._slot(1)
            self.alu(op, loc[dst], loc[x], loc[y], fl)

    def qloc(self, base: int, tab: bool) -> dict[str, tuple[int, bool]]:
        return {c: (base + i * self.m, tab) for i, c in enumerate(self.add.comps)}

    # -- the program -------------------------------------------------------------
    def generate(self) -> EccProgram:
        m, eb = self.m, self.eb
        E = self.ncomp * m
        T = lambda j: self.TAB + j * E  # noqa: E731
        # Conversion in: X~ = U(x, R^2), Y~ = U(y, R^2), Z~ = R.
        self.part = "conversion in"
        px, py = T(1), T(1) + m
        if eb.mod_alu:  # the ALUs' modulus for ADD/SUB.DUAL: 2Ñ
            self.emit(pke.Instr(pke.Op.MOV, pke.F_LDN, self.TMP, self.MOD2, n=self.na))
        self.emit(pke.Instr(pke.Op.JOB, pke.F_LOAD, 0, self.PX, 1, self.MS, m),
                  pke.Instr(pke.Op.PROD, pke.F_STORE, px, 0, self.RR),
                  pke.Instr(pke.Op.JOB, pke.F_LOAD, 0, self.PY, 1, self.MS, m),
                  pke.Instr(pke.Op.PROD, pke.F_STORE, py, 0, self.RR))
        # The table: T[0] = (0 : 1 : 0), T[1] = P, T[2] = 2P, T[j] = T[j-1] + P.
        self.part = "table"
        self.entry(T(0), [None, self.ONE, None])
        self.entry(T(1), [px, py, self.ONE])
        for j in range(2, 16):
            outs = [T(j) + i * m for i in range(3)]
            if j == 2:
                self.formula(self.dbl, [T(1) + i * m for i in range(3)], outs, None)
            else:
                self.formula(self.add, [T(j - 1) + i * m for i in range(3)], outs, self.qloc(T(1), False))
            self.entry(T(j), outs)
        # The windows.
        self.part = "scalar multiplication"
        self.emit(pke.Instr(pke.Op.SETX, 0, 0, self.EXPK, E, n=0))
        for i in range(3):
            self.emit(pke.Instr(pke.Op.JOB, pke.F_LOAD, 0, self.ONE0, 1, self.MS, m),
                      pke.Instr(pke.Op.PROD, pke.F_BTAB | pke.F_STORE, self.ACC[i], 0, self.TAB + i * m))
        if eb.windows > 1:
            self.emit(pke.Instr(pke.Op.REP, n=eb.windows - 1), pke.Instr(pke.Op.REP, n=ws.WINDOW))
            self.formula(self.dbl, self.ACC, self.ACC, None)
            self.emit(pke.Instr(pke.Op.END))
            self.formula(self.add, self.ACC, self.ACC, self.qloc(self.TAB, True))
            self.emit(pke.Instr(pke.Op.END))
        h0 = pke.F_H0
        if eb.combine:
            self.part = "combine"
            for i in range(3):
                self.emit(pke.Instr(pke.Op.MOV, h0 | pke.F_XA, self.QF + i * m, self.ACC[i], n=self.na))
            self.entry(self.QF, [self.QF + i * m for i in range(3)], h0)
            self.formula(self.add, self.ACC, self.ACC, self.qloc(self.QF, False), h0)
        # Affine: Z^(p-2) (table of Z's powers in TAB, stride m), x = X·Z^-1, y = Y·Z^-1, exact.
        self.part = "inversion"
        it = self.TAB
        self.mov(it, self.ONE, h0)
        self.mov(it + m, self.ACC[2], h0)
        prods = [pke.Instr(pke.Op.PROD, pke.F_BSQ | pke.F_STORE, it + 2 * m)]
        prods += [pke.Instr(pke.Op.PROD, pke.F_STORE, it + jj * m, 0, it + m) for jj in range(3, 16)]
        self.emit(pke.Instr(pke.Op.JOB, h0 | pke.F_LOAD, 0, it + m, len(prods), self.MS, m), *prods)
        wi = self.wi
        self.emit(pke.Instr(pke.Op.SETX, 0, 0, self.EXPI, m, n=0),
                  pke.Instr(pke.Op.JOB, h0 | pke.F_LOAD | pke.F_ATAB, 0, it, ws.WINDOW * (wi - 1) + wi,
                            self.MS, m))
        if wi > 1:
            self.emit(pke.Instr(pke.Op.REP, n=wi - 1), pke.Instr(pke.Op.REP, n=ws.WINDOW),
                      pke.Instr(pke.Op.PROD, pke.F_BSQ), pke.Instr(pke.Op.END),
                      pke.Instr(pke.Op.PROD, pke.F_BTAB, 0, 0, it), pke.Instr(pke.Op.END))
        self.emit(pke.Instr(pke.Op.PROD, pke.F_STORE, self.ZI, 0, self.ONE))
        self.part = "conversion out"
        for acc, o in ((self.ACC[0], self.OX), (self.ACC[1], self.OY)):
            self.emit(pke.Instr(pke.Op.JOB, h0 | pke.F_LOAD, 0, self.ZI, 2, self.MS, m),
                      pke.Instr(pke.Op.PROD, 0, 0, 0, acc),
                      pke.Instr(pke.Op.PROD, pke.F_STORE, o, 0, self.COUT))
        for o, dst in ((self.OX, self.XOUT), (self.OY, self.YOUT)):
            j = self.j
            self.emit(pke.Instr(pke.Op.CLR, h0, o + m, n=j),
                      pke.Instr(pke.Op.MACR, h0 | pke.F_REDC, o, 0, self.MOD, j, self.ln),
                      pke.Instr(pke.Op.SUB, h0, self.TMP, o + j, self.MOD, n=m),
                      pke.Instr(pke.Op.SEL, h0, dst, o + j, self.TMP, n=m))
        self.part = "halt"
        self.emit(pke.Instr(pke.Op.HALT))
        regions = dict(self.mem.regions)
        regions["SCRATCH0"] = (self.scratch0, self.peak[0] - self.scratch0)
        regions["SCRATCH1"] = (self.scratch1, self.peak[1] - self.scratch1)
        return EccProgram(self.prog, regions, eb, self.tab_reads)


def program(eb: EccBuild) -> EccProgram:
    """The program of ``eb`` (see the module's docstring)."""
    return _Gen(eb).generate()


# --------------------------------------------------------------------------
# Host side
# --------------------------------------------------------------------------

def _words(x: int, n: int, w: int) -> list[int]:
    if x < 0 or x >> (w * n):
        raise AssertionError(f"value of {x.bit_length()} bits in {n} words of {w} bits")
    return [(x >> (w * i)) & ((1 << w) - 1) for i in range(n)]


def _digits(k: int, windows: int, reads: int) -> list[int]:
    """The scalar's windows, most significant first: the first three times
    (A = T[k_0] by three products), every further one ``reads`` times."""
    ds = ws.window_digits(k, 4 * windows)
    if len(ds) != windows:
        raise AssertionError("window count")
    out = [ds[0]] * 3
    for d in ds[1:]:
        out += [d] * reads
    out += [0] * (-len(out) % 4)
    return [(out[i] << 12) | (out[i + 1] << 8) | (out[i + 2] << 4) | out[i + 3] for i in range(0, len(out), 4)]


def images(ep: EccProgram, points: list[tuple[int, int]], scalars: list[int]) -> tuple[list[list[int]], list]:
    """The two banks as the host writes them: per half its point (affine,
    ordinary values) and scalar, the modulus and the curve's constants."""
    eb, b = ep.build, ep.build.pb
    c, w, m = eb.curve, b.w, b.m
    p = c.p
    k = ws.precompute(p, w, b.d, b.bits)
    R = k.r
    lay = ep.regions
    banks = []
    for h in range(2):
        bank = [0] * pke.MEM_WORDS

        def put(name, value, nw=None, bank=bank):
            addr, size = lay[name]
            nw = size if nw is None else nw
            bank[addr: addr + nw] = _words(value, nw, w)

        put("MS", k.mscaled)
        put("NINV", -pow(p, -1, 1 << w) % (1 << w))
        put("MOD", p)
        put("MOD2", 2 * k.ntilde)
        put("RR", R * R % p)
        put("ONE", R % p)
        put("ONE0", R % p)
        put("COUT", (1 << (w * b.j_out)) % p)
        put("A", c.a * R % p)
        put("B", c.b * R % p)
        put("B3", 3 * c.b * R % p)
        x, y = points[h]
        put("PX", x)
        put("PY", y)
        packed = _digits(scalars[h], eb.windows, ep.tab_reads)
        addr = lay["EXPK"][0]
        bank[addr: addr + len(packed)] = packed
        packed = pke.pack_exponent(p - 2, -(-b.bits // ws.WINDOW))
        addr = lay["EXPI"][0]
        bank[addr: addr + len(packed)] = packed
        banks.append(bank)
    return banks, [k, k]


@dataclass
class Run:
    point: tuple[int, int] | None  #: the result (None: the point at infinity)
    cycles: int
    parts: dict[str, int]
    products: int
    trace: list[tuple]


def _run(ep: EccProgram, points, scalars, exact: bool = False, compute: bool = True, runner=None) -> Run:
    """Run ``ep`` on the model, or with ``runner(ep, points, scalars) -> Run``
    elsewhere (the RTL bench runs the engine's RTL with the same images)."""
    if runner is not None:
        return runner(ep, points, scalars)
    b = ep.build.pb
    if compute:
        banks, ks = images(ep, points, scalars)
    else:
        banks = [[0] * pke.MEM_WORDS for _ in range(2)]
        k = ws.precompute(ep.build.curve.p, b.w, b.d, b.bits)
        ks = [k, k]
    res = pke.run(ep.program, banks, ep.build.machine(ks), exact=exact, compute=compute)
    pt = None
    if compute:
        rd = lambda name: sum(banks[0][ep.regions[name][0] + i] << (b.w * i) for i in range(b.m))  # noqa: E731
        x, y = rd("XOUT"), rd("YOUT")
        pt = None if (x, y) == (0, 0) else (x, y)  # Z = 0 gives 0·Z^-1; (0, 0) is on no curve with b != 0
    return Run(pt, res.cycles, res.parts, res.products, res.trace)


def _check_scalar(curve: Curve, k: int, bits: int) -> None:
    if not isinstance(k, int) or k < 0 or k.bit_length() > bits:
        raise ValueError(f"scalar outside [0, 2^{bits}) for {curve.name}")


def _windows(bits: int) -> int:
    return -(-bits // ws.WINDOW)


def scalar_windows(bits: int) -> int:
    """The 4-bit windows of a scalar below 2^bits (an EccBuild's ``windows``)."""
    return _windows(bits)


def run_scalar_mult(curve: Curve | str, k: int, point: tuple[int, int], *, exact: bool = False,
                    compute: bool = True, runner=None, **arr) -> Run:
    """k·P on the engine (both halves run it; the result is half 0's).
    ``arr``: :class:`EccBuild`'s array fields and ``mod_alu``; ``runner``: see :func:`_run`."""
    c = get_curve(curve) if isinstance(curve, str) else curve
    nb = c.n.bit_length()
    _check_scalar(c, k, nb)
    ep = program(EccBuild(c, _windows(nb), **arr))
    return _run(ep, [point, point], [k, k], exact, compute, runner)


def run_double(curve: Curve | str, k0: int, p0: tuple[int, int], k1: int, p1: tuple[int, int], bits: int, *,
               exact: bool = False, compute: bool = True, runner=None, **arr) -> Run:
    """k0·P0 + k1·P1 (scalars below 2^bits): k0·P0 on half 0, k1·P1 on half 1,
    the sum on half 0."""
    c = get_curve(curve) if isinstance(curve, str) else curve
    _check_scalar(c, k0, bits)
    _check_scalar(c, k1, bits)
    ep = program(EccBuild(c, _windows(bits), True, **arr))
    return _run(ep, [p0, p1], [k0, k1], exact, compute, runner)


def split_base(c: Curve) -> tuple[int, tuple[int, int]]:
    """(V, 2^(4V)·G) for signing: k = k_0 + 2^(4V)·k_1 with V = ceil(windows/2)."""
    V = -(-_windows(c.n.bit_length()) // 2)
    G1p = affine_mul_public(c, 1 << (4 * V), (c.gx, c.gy))
    return V, G1p


def base_mult(curve: Curve | str, k: int, **kw) -> Run:
    """k·G with the scalar split over the two halves (fixed base: the host
    keeps 2^(4V)·G as a curve constant)."""
    c = get_curve(curve) if isinstance(curve, str) else curve
    _check_scalar(c, k, c.n.bit_length())
    V, G1p = split_base(c)
    mask = (1 << (4 * V)) - 1
    return run_double(c, k & mask, (c.gx, c.gy), k >> (4 * V), G1p, 4 * V, **kw)


def scalar_mult(curve: Curve | str, k: int, point: tuple[int, int], **kw) -> tuple[int, int] | None:
    return run_scalar_mult(curve, k, point, **kw).point


# --------------------------------------------------------------------------
# Protocols through the engine (the mod-n arithmetic of ECDSA on the host)
# --------------------------------------------------------------------------

def _bits2int(data: bytes, qlen: int) -> int:
    x = int.from_bytes(data, "big")
    blen = 8 * len(data)
    return x >> (blen - qlen) if blen > qlen else x


def ecdsa_sign(curve: Curve | str, private_key: int, message: bytes, hash: str = "sha256",
               encoding: str = "der", **arr) -> bytes:
    """An ECDSA signature with RFC 6979's nonce (byte-identical to
    ``cryptography``'s deterministic signing); k·G on the engine
    (:func:`base_mult`), s = k^-1(e + r·d) mod n on the host."""
    c = get_curve(curve) if isinstance(curve, str) else curve
    if not isinstance(private_key, int) or not 1 <= private_key < c.n:
        raise ValueError(f"private key outside [1, n) for {c.name}")
    if encoding not in ("der", "p1363"):
        raise ValueError(f"unknown signature encoding {encoding!r}; use der or p1363")
    hname = str(hash).lower()
    if hname not in protocols.HASHES:
        raise ValueError(f"unsupported hash {hash!r}; use one of {', '.join(protocols.HASHES)}")
    h1 = protocols.digest(hname, bytes(message))
    n = c.n
    e = _bits2int(h1, n.bit_length()) % n
    for k in protocols.rfc6979_nonces(c, private_key, h1, hname):
        R = base_mult(c, k, **arr).point
        if R is None:
            continue
        r = R[0] % n
        s = pow(k, -1, n) * (e + r * private_key) % n
        if r and s:
            break
    if encoding == "der":
        return encode_dss_signature(r, s)
    return r.to_bytes(c.order_bytes, "big") + s.to_bytes(c.order_bytes, "big")


def ecdsa_verify(curve: Curve | str, public_key: bytes, message: bytes, signature: bytes,
                 hash: str = "sha256", **arr) -> bool:
    """Verify a DER ECDSA signature: u1·G + u2·Q on the engine (u1·G on half
    0, u2·Q on half 1, the sum on half 0); the mod-n steps on the host."""
    c = get_curve(curve) if isinstance(curve, str) else curve
    qx, qy = encoding.load_public(c, public_key)
    try:
        r, s = decode_dss_signature(bytes(signature))
    except (ValueError, TypeError):
        return False
    n = c.n
    if not (1 <= r < n and 1 <= s < n) or encode_dss_signature(r, s) != bytes(signature):
        return False
    e = _bits2int(protocols.digest(hash, bytes(message)), n.bit_length()) % n
    wi = pow(s, -1, n)
    R = run_double(c, e * wi % n, (c.gx, c.gy), r * wi % n, (qx, qy), n.bit_length(), **arr).point
    return R is not None and R[0] % n == r


def ecdh(curve: Curve | str, private_key: int, peer_public_key: bytes, **arr) -> bytes:
    """x(d·Q), the field's length, for a DER SubjectPublicKeyInfo Q; d·Q on the engine."""
    c = get_curve(curve) if isinstance(curve, str) else curve
    if not isinstance(private_key, int) or not 1 <= private_key < c.n:
        raise ValueError(f"private key outside [1, n) for {c.name}")
    qx, qy = encoding.load_public(c, peer_public_key)
    R = run_scalar_mult(c, private_key, (qx, qy), **arr).point
    if R is None:
        raise ValueError("the shared point is the point at infinity")
    return R[0].to_bytes(c.field_bytes, "big")


# --------------------------------------------------------------------------
# Figures
# --------------------------------------------------------------------------

def formula_cycles(eb: EccBuild) -> dict[str, dict[str, int]]:
    """Measured cycles of one doubling and one addition (with TAB operands)
    as the generator emits them (``pke.run``, cycles only), and what they hold."""
    out = {}
    for name in ("dbl", "add"):
        g = _Gen(eb)
        g.prog = [pke.Instr(pke.Op.SETX, 0, 0, g.EXPK, g.ncomp * g.m, n=0)] if name == "add" else []
        f = g.dbl if name == "dbl" else g.add
        g.formula(f, g.ACC, g.ACC, g.qloc(g.TAB, True) if name == "add" else None)
        g.emit(pke.Instr(pke.Op.HALT))
        b = eb.pb
        k = ws.precompute(eb.curve.p, b.w, b.d, b.bits)
        prog = g.prog
        if eb.mod_alu:  # the ALU's modulus, loaded once per program (not counted)
            prog = [pke.Instr(pke.Op.MOV, pke.F_LDN, g.TMP, g.MOD2, n=g.na)] + prog
        mach = eb.machine([k, k])
        r = pke.run(prog, [[0] * pke.MEM_WORDS for _ in range(2)], mach, compute=False)
        per = {"jobs": 0, "products": r.products, "ALU ops": 0, "copies": 0, "cycles": r.cycles}
        cyc = {"array": 0, "ALU": 0, "copies": 0, "dispatch": r.parts.get("dispatch", 0)}
        for _, text, _, c in r.trace[1 if eb.mod_alu else 0:]:
            op = text.split()[0].split(".")[0]
            if op == "JOB":
                per["jobs"] += 1
                cyc["array"] += c
            elif op in ("ADD", "SUB", "SEL"):
                per["ALU ops"] += 1
                cyc["ALU"] += c
            elif op == "MOV":
                per["copies"] += 1
                cyc["copies"] += c
        if name == "add":
            setx = mach.timing.dispatch + mach.timing.setx  # the SETX
            cyc["dispatch"] -= setx
            per["cycles"] -= setx
        if eb.mod_alu:
            ldn = r.trace[0][3] + 1
            cyc["dispatch"] -= 1
            per["cycles"] -= ldn
        per["ALU ops"] //= 2 if eb.mod_alu else 3  # one modular add/sub = three stream ops (DUAL, SEL: two)
        out[name] = {**per, **{f"{k} cycles": v for k, v in cyc.items()}}
    return out


def _dag_makespan(f: Formula, prod: int, alu: int, lanes: int, alus: int, overlap: bool) -> int:
    """List schedule of f's operations in program order: products on ``lanes``
    array lanes (``prod`` cycles each), modular adds/subs on ``alus`` word
    ALUs (``alu`` cycles each); ``overlap``: the two kinds run at the same
    time (else one instruction at a time, as the engine's sequencer does)."""
    ready: dict[str, int] = {}
    free = {"mul": [0] * lanes, "alu": [0] * alus}
    t_serial = 0
    for op, dst, x, y in f.ops:
        kind = "mul" if op == "mul" else "alu"
        dur = prod if kind == "mul" else alu
        start = max(ready.get(x, 0), ready.get(y, 0))
        if not overlap:
            start = max(start, t_serial)
        units = free[kind]
        i = min(range(len(units)), key=lambda u: max(units[u], start))
        start = max(start, units[i])
        units[i] = start + dur
        ready[dst] = start + dur
        if not overlap:  # one issue at a time, but a second lane may start on the next product
            t_serial = start + (0 if kind == "mul" and lanes > 1 else dur)
    return max(ready.values())


#: engine/array changes the estimate models, each on top of the previous:
#: (label, array lanes, word ALUs, ALU ops overlap products, next A's load hidden, one-pass mod add/sub)
CHANGES = (
    ("as built (serial; the estimator's check)", 1, 1, False, False, False),
    ("ALU op while the array runs", 1, 1, True, False, False),
    ("+ next A's load under the running product", 1, 1, True, True, False),
    ("+ modular add/sub in one pass", 1, 1, True, True, True),
    ("+ two products side by side (both halves, an ALU each)", 2, 2, True, True, True),
    ("+ ⌊P/V⌋ products side by side per half on the ring, an ALU each", -1, -1, True, True, True),
    ("dependency bound (unlimited lanes and ALUs)", 99, 99, True, True, True),
)


def estimates(eb: EccBuild) -> list[dict]:
    """Cycles of one doubling and one addition under the changes of
    :data:`CHANGES`: a list schedule of the formula's dependency graph with
    the build's costs (a one-product job with or without its load, a
    modular add/sub as three stream ops or as one pass); the group copies
    are left out."""
    b = eb.pb
    k = ws.precompute(eb.curve.p, b.w, b.d, b.bits)
    arr, tm = b.array, pke.Timing()
    dbl, add = formulas(eb.curve)
    add_ops = Formula(add.ops, add.out)
    rows = []
    ring = 2 * max(1, b.pes // k.v)
    na = _Gen(eb).na  # the ALU ops' words
    for label, lanes, alus, overlap, hide, onepass in CHANGES:
        lanes, alus = (ring, ring) if lanes < 0 else (lanes, alus)
        prod = tm.job(ws.chain_cycles(arr, k, 1, square=False, halves=2, load=not hide)) + tm.dispatch
        alu = (1 if onepass else 2 if eb.mod_alu else 3) * (tm.stream(na) + tm.dispatch) + (1 if onepass else 0)
        d = _dag_makespan(dbl, prod, alu, lanes, alus, overlap)
        a = _dag_makespan(add_ops, prod, alu, lanes, alus, overlap)
        rows.append({"change": label, "lanes": lanes, "product": prod, "mod add/sub": alu, "dbl": d, "add": a})
    return rows


def estimate_totals(eb_kp: EccBuild, measured: int, n_dbl: int, n_add: int) -> list[dict]:
    """A whole operation under each change: the measured cycles outside the
    point formulas plus n_dbl doublings and n_add additions as estimated."""
    fc = formula_cycles(eb_kp)
    fixed = measured - n_dbl * fc["dbl"]["cycles"] - n_add * fc["add"]["cycles"]
    return [{**r, "total": fixed + n_dbl * r["dbl"] + n_add * r["add"]} for r in estimates(eb_kp)]


def figures(curves=("secp256r1", "secp384r1"), pes: int = 70, w: int = 17, latency: int = 6, qlat: int = 0,
            mhz: float = 141.0, mod_alu: bool = False) -> list[dict]:
    rows = []
    arr = dict(pes=pes, w=w, latency=latency, qlat=qlat, mod_alu=mod_alu)
    for name in curves:
        c = get_curve(name)
        nb = c.n.bit_length()
        V, _ = split_base(c)
        runs = {
            "k·P, ECDH": run_scalar_mult(c, 0, (0, 0), compute=False, **arr),
            "k·G, ECDSA sign": run_double(c, 0, (0, 0), 0, (0, 0), 4 * V, compute=False, **arr),
            "u1·G + u2·Q, verify": run_double(c, 0, (0, 0), 0, (0, 0), nb, compute=False, **arr),
        }
        for op, r in runs.items():
            rows.append({"curve": name, "operation": op, "products/half": r.products, "cycles": r.cycles,
                         "ms": r.cycles / (mhz * 1e3), **{k: r.parts.get(k, 0) for k in PARTS}})
    return rows


PARTS = ("conversion in", "table", "scalar multiplication", "combine", "inversion", "conversion out",
         "dispatch")


def estimate_rows(curves=("secp256r1", "secp384r1"), pes: int = 70, w: int = 17, mhz: float = 141.0,
                  mod_alu: bool = False) -> list[dict]:
    """Per curve and change: one doubling, one addition, and k·P (ECDH) and
    k·G (sign, split over the halves) estimated (:func:`estimate_totals`)."""
    rows = []
    for name in curves:
        c = get_curve(name)
        W = _windows(c.n.bit_length())
        V, _ = split_base(c)
        ecdh = run_scalar_mult(c, 0, (0, 0), compute=False, pes=pes, w=w, mod_alu=mod_alu)
        sign = run_double(c, 0, (0, 0), 0, (0, 0), 4 * V, compute=False, pes=pes, w=w, mod_alu=mod_alu)
        eb = EccBuild(c, W, pes=pes, w=w, mod_alu=mod_alu)
        # ECDH: T[2] and 4(W-1) doublings, 13 table and W-1 window additions; sign: V windows, + the combine
        t1 = estimate_totals(eb, ecdh.cycles, 4 * (W - 1) + 1, (W - 1) + 13)
        t2 = estimate_totals(eb, sign.cycles, 4 * (V - 1) + 1, (V - 1) + 14)
        for a, b in zip(t1, t2):
            rows.append({"curve": name, **{k: a[k] for k in ("change", "lanes", "product", "mod add/sub", "dbl",
                                                                 "add")},
                         "k·P": a["total"], "k·P ms": a["total"] / (mhz * 1e3),
                         "k·G": b["total"], "k·G ms": b["total"] / (mhz * 1e3)})
    return rows


def format_estimates(rows: list[dict], mhz: float) -> str:
    head = ["curve", "change (cumulative)", "array lanes", "product", "mod add/sub", "dbl", "add",
            "k·P, ECDH", f"ms @ {mhz:g} MHz", "k·G, sign", f"ms @ {mhz:g} MHz"]
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        lanes = "∞" if r["lanes"] >= 99 else str(r["lanes"])
        out.append("| " + " | ".join([r["curve"], r["change"], lanes, str(r["product"]), str(r["mod add/sub"]),
                                      f"{r['dbl']:,}", f"{r['add']:,}", f"{r['k·P']:,}", f"{r['k·P ms']:.3f}",
                                      f"{r['k·G']:,}", f"{r['k·G ms']:.3f}"]) + " |")
    return "\n".join(out)


def format_figures(rows: list[dict], mhz: float) -> str:
    head = ["curve", "operation", "products/half", "cycles", f"ms @ {mhz:g} MHz", *PARTS]
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        vals = [r["curve"], r["operation"], f"{r['products/half']:,}", f"{r['cycles']:,}", f"{r['ms']:.3f}"]
        vals += [f"{r[k]:,}" for k in PARTS]
        out.append("| " + " | ".join(vals) + " |")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m montmul.apps.ecc.engine", description=__doc__.splitlines()[0])
    ap.add_argument("--curves", nargs="+", default=["secp256r1", "secp384r1"])
    ap.add_argument("--pes", type=int, default=70)
    ap.add_argument("--w", type=int, default=17)
    ap.add_argument("--mhz", type=float, default=141.0)
    ap.add_argument("--mod-alu", action="store_true", help="the engine with the modular ALU (pke.Build.mod_alu)")
    args = ap.parse_args(argv)
    try:
        rows = figures(tuple(args.curves), args.pes, args.w, mhz=args.mhz, mod_alu=args.mod_alu)
        frows = []
        for name in args.curves:
            eb = EccBuild(get_curve(name), _windows(get_curve(name).n.bit_length()), pes=args.pes, w=args.w,
                          mod_alu=args.mod_alu)
            for f, v in formula_cycles(eb).items():
                frows.append((name, f, v))
        erows = estimate_rows(tuple(args.curves), args.pes, args.w, args.mhz, args.mod_alu)
    except (ValueError, KeyError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(format_figures(rows, args.mhz))
    print()
    keys = list(frows[0][2])
    print("| curve | formula | " + " | ".join(keys) + " |")
    print("|" + "---|" * (len(keys) + 2))
    for name, f, v in frows:
        print(f"| {name} | {'doubling' if f == 'dbl' else 'addition (TAB)'} | "
              + " | ".join(f"{v[k]:,}" for k in keys) + " |")
    print()
    print(format_estimates(erows, args.mhz))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
