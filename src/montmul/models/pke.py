# SPDX-License-Identifier: Apache-2.0
"""The public-key engine ``mm_pke`` around the ws array: memory map, program
format, program generator and a cycle-exact model (``docs/pke.md``).

The engine keeps every operand in block RAM: one word memory per CRT half
(both halves run the same instruction stream, each on its own bank: equal
addresses, different data), two EBR groups per bank (an address bit) so that
an operation reads two operands in one cycle.  A small sequencer runs a
program of fixed-width instruction words over memory addresses:

* array jobs (:data:`JOB` + one :data:`PROD` per product: B from an address,
  the squaring, or a table entry indexed by the next exponent window of each
  half), timed exactly by the array's model (:func:`montmul.models.ws.chain_cycles`);
* word-serial ALU operations (:data:`MOV`, :data:`CLR`, :data:`ADD`,
  :data:`SUB`, :data:`SEL`) and :data:`MACR`, rows of word multiply-
  accumulates on a spare MULT18X18D per half (the word-level Montgomery
  reduction modulo N itself, and the schoolbook product of Garner's step);
* loops on public counters (:data:`REP` / :data:`END`) and the exponent
  cursor (:data:`SETX`).

:func:`rsa_crt_program` generates the RSA-CRT program from the array's
exponentiation schedule (:func:`montmul.models.ws.window_digits`);
:func:`run` executes a program on two memory banks, bit-exact and cycle-
exact, and returns the per-instruction trace; :func:`rsa_crt` signs or
decrypts with it.  Figures: ``python -m montmul.models.pke``.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass, field
from enum import IntEnum
from math import gcd

from . import ws

# --------------------------------------------------------------------------
# Instruction format
# --------------------------------------------------------------------------

#: Address bits of a bank (words per half: 2^13); the top bit selects the
#: EBR group.
ADDR_BITS = 13
MEM_WORDS = 1 << ADDR_BITS
#: REP blocks the sequencer nests (its loop counters).
MAX_LOOPS = 2
GROUP_WORDS = MEM_WORDS // 2

#: Fields of an instruction word, most significant first: (name, bits).
FIELDS = (("op", 5), ("flags", 5), ("dst", ADDR_BITS), ("a", ADDR_BITS), ("b", ADDR_BITS),
          ("c", ADDR_BITS), ("n", 10))
INSTR_BITS = sum(bits for _, bits in FIELDS)  # 72: two 36-bit EBR ports


class Op(IntEnum):
    HALT = 0  #: end of the program
    JOB = 1  #: start an array job: a = A (or table base), c = M, b = products, n = words m
    PROD = 2  #: one product of the running job: b = B (or table base), dst = store address
    REP = 3  #: repeat the block up to the matching END n times (n >= 1, public)
    END = 4  #: end of a REP block
    SETX = 5  #: exponent cursor: a = exponent base address, n = first window index, b = table stride
    MOV = 6  #: dst[i] = a[i], i < n
    CLR = 7  #: dst[i] = 0, i < n
    ADD = 8  #: dst = a + b (n words); flag F = carry out
    SUB = 9  #: dst = a - b (n words); flag F = borrow out
    SEL = 10  #: dst[i] = F ? a[i] : b[i] (constant time: every word written)
    MACR = 11  #: c rows of n-word multiply-accumulate into dst (REDC or MUL, below)


# Flags (5 bits).  Common: H0 (half 0 only; a JOB with H0 runs one half),
# XA (operand a read from the other half's bank).
F_H0 = 1
F_XA = 2
F_LOAD = 4  #: JOB: load A and M first
F_ATAB = 8  #: JOB: A = table entry of the next exponent window
F_BSQ = 4  #: PROD: B = the previous result (squaring)
F_BTAB = 8  #: PROD: B = table entry of the next exponent window
F_STORE = 16  #: PROD: store the result at dst
F_REDC = 4  #: MACR: quotient q_j = Y[j]*(word at b-1) mod 2^w (REDC); else q_j = a[j] (MUL)
#: Builds with the modular ALU (``Build.mod_alu``, mm_pke's ``ModAlu``): the ALU
#: keeps a copy of a modulus N_A (n words, loaded by MOV.LDN) and ADD/SUB with
#: DUAL also write t2 = (a ± b) ∓ N_A at c, F the carry/borrow of that second
#: chain: a modular add or subtract is DUAL then SEL (two passes, not three).
F_LDN = 4  #: MOV: also load the words into the ALU's modulus N_A (mod_alu builds)
F_DUAL = 4  #: ADD/SUB: also t2 = (a ± b) ∓ N_A at c; F = t2's carry/borrow (mod_alu builds)


@dataclass(frozen=True)
class Instr:
    """One instruction.  ``part`` labels it for the figures (not encoded)."""

    op: Op
    flags: int = 0
    dst: int = 0
    a: int = 0
    b: int = 0
    c: int = 0
    n: int = 0
    part: str = field(default="", compare=False)

    def encode(self) -> int:
        """The instruction word (:data:`INSTR_BITS` bits, fields :data:`FIELDS`)."""
        word = 0
        for name, bits in FIELDS:
            value = int(getattr(self, name))
            if not 0 <= value < 1 << bits:
                raise ValueError(f"{self.op.name}: field {name}={value} does not fit in {bits} bits")
            word = (word << bits) | value
        return word

    @staticmethod
    def decode(word: int) -> Instr:
        if not 0 <= word < 1 << INSTR_BITS:
            raise ValueError(f"instruction word {word:#x} is not {INSTR_BITS} bits")
        values = {}
        for name, bits in reversed(FIELDS):
            values[name] = word & ((1 << bits) - 1)
            word >>= bits
        try:
            values["op"] = Op(values["op"])
        except ValueError:
            raise ValueError(f"unknown opcode {values['op']}") from None
        return Instr(**values)

    def __str__(self) -> str:
        fl = [name for name, bit in _FLAG_NAMES.get(self.op, ()) if self.flags & bit]
        fl += [name for name, bit in (("H0", F_H0), ("XA", F_XA)) if self.flags & bit]
        args = {Op.JOB: f"A={self.a} M={self.c} prods={self.b} m={self.n}",
                Op.PROD: f"B={self.b} dst={self.dst}",
                Op.REP: f"{self.n}", Op.END: "", Op.HALT: "",
                Op.SETX: f"exp={self.a} window={self.n} stride={self.b}",
                Op.MACR: f"Y={self.dst} q={self.a} B={self.b} rows={self.c} cols={self.n}"}.get(
            self.op, f"dst={self.dst} a={self.a} b={self.b}"
                     + (f" c={self.c}" if self.op in (Op.ADD, Op.SUB) and self.flags & F_DUAL else "")
                     + f" n={self.n}")
        return f"{self.op.name}{'.' + '.'.join(fl) if fl else ''} {args}".rstrip()


_FLAG_NAMES = {Op.JOB: (("LOAD", F_LOAD), ("ATAB", F_ATAB)),
               Op.PROD: (("SQ", F_BSQ), ("TAB", F_BTAB), ("ST", F_STORE)),
               Op.MACR: (("REDC", F_REDC),), Op.MOV: (("LDN", F_LDN),),
               Op.ADD: (("DUAL", F_DUAL),), Op.SUB: (("DUAL", F_DUAL),)}


def encode(program: list[Instr]) -> list[int]:
    return [ins.encode() for ins in program]


def decode(words: list[int]) -> list[Instr]:
    return [Instr.decode(x) for x in words]


# --------------------------------------------------------------------------
# Timing of the engine (the RTL's contract)
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class Timing:
    """Cycle constants of the engine around the array (docs/pke.md, "Cycles").

    ``dispatch``: cycles to decode an instruction word on the main
    timeline; ``fetch``: cycles from a PC change to its word in the decode
    stage (the program memory's address and output registers), so REP and
    END on the main timeline cost ``fetch - dispatch`` cycles beside their
    dispatch and a JOB's words are fetched one every ``fetch`` cycles;
    ``setx``: SETX's cycles beside its dispatch (the first window read, then
    its table offset stride·window registered); ``mem``: EBR read latency (address cycle to data, with the
    output register); ``mac``: the word multiplier's latency (MULT18X18D with
    input, pipeline and output registers); ``job_start``: from a JOB's issue
    cycle to the edge E that the array accepts it (a cycle to read the window
    and form A's address, a cycle with ``job_valid``); ``req_regs``: the
    array's ReqRegs (the engine's build: 1, its requests leave a register);
    ``res_delay``: from E to the array's cycle τ = 0, ReqRegs + 3 (docs/ws.md,
    "Native interface"); ``res_regs``: the result stream's registers in the
    sequencer (a result word is written, and a job ends, that many cycles
    after it is on the stream)."""

    dispatch: int = 1
    fetch: int = 2
    setx: int = 2
    mem: int = 2
    mac: int = 3
    job_start: int = 2
    req_regs: int = 1
    res_regs: int = 2

    @property
    def res_delay(self) -> int:
        return self.req_regs + 3

    def stream(self, n: int) -> int:
        """MOV/ADD/SUB/SEL of n words: word i's addresses in cycle I+i, its
        data mem cycles later, the result registered and written a cycle after."""
        return n + self.mem + 1

    def clear(self, n: int) -> int:
        return n

    def macr(self, rows: int, cols: int) -> int:
        """Per row: the quotient word (read, multiply, register: mem+mac+1),
        cols+1 words streamed (cols products and the carry word), the row's
        pipeline drain (mem+mac+1); then the top word."""
        return rows * (cols + 1 + 2 * (self.mem + self.mac + 1)) + 1

    def job(self, chain: int) -> int:
        """A JOB block: accepted job_start cycles after issue, the last result
        word on the result stream res_delay + chain cycles later (the array's
        cycle τ = chain: the cycle its next job's first token could enter,
        docs/ws.md "Native interface"; measured on mm_pke), registered
        (res_regs) and written; the next instruction issues after it."""
        return self.job_start + self.res_delay + self.res_regs + chain


# --------------------------------------------------------------------------
# The machine
# --------------------------------------------------------------------------


@dataclass
class Machine:
    """What the program runs on: the array (its build and, per half, the
    constants of the modulus loaded as M: w, d, ℓ, m and Ñ), the timing
    constants."""

    arr: ws.Array
    ks: list[ws.Constants]  #: per half
    timing: Timing = field(default_factory=Timing)
    mod_alu: bool = False  #: the ALUs hold a modulus (MOV.LDN, ADD/SUB.DUAL): ``Build.mod_alu``

    @property
    def m(self) -> int:
        return self.ks[0].m


@dataclass
class RunResult:
    banks: list[list[int]]
    cycles: int
    trace: list[tuple]  #: (pc, instruction text, issue cycle, cycles) per executed instruction
    parts: dict[str, int]  #: cycles per ``part`` label
    products: int  #: array products per half


def _group(addr: int) -> int:
    return addr // GROUP_WORDS


def _span(what: str, addr: int, n: int) -> None:
    if n < 1 or addr < 0 or addr + n > MEM_WORDS:
        raise ValueError(f"{what}: words {addr}..{addr + n - 1} outside the bank (0..{MEM_WORDS - 1})")
    if _group(addr) != _group(addr + n - 1):
        raise ValueError(f"{what}: words {addr}..{addr + n - 1} straddle the two EBR groups")


def _ports(what: str, x: int, y: int) -> None:
    """Two operands read in the same cycles must sit in different EBR groups."""
    if _group(x) == _group(y):
        raise ValueError(f"{what}: operands at {x} and {y} are in the same EBR group (one read port)")


def _read(bank: list[int], addr: int, n: int, w: int) -> int:
    return sum(bank[addr + i] << (w * i) for i in range(n))


def _write(bank: list[int], addr: int, n: int, w: int, value: int) -> None:
    mask = (1 << w) - 1
    for i in range(n):
        bank[addr + i] = (value >> (w * i)) & mask
    if value >> (w * n):
        raise AssertionError(f"value does not fit in {n} words at {addr}")


def digit(bank: list[int], ebase: int, index: int) -> int:
    """Window ``index`` (most significant first) of the exponent at ebase:
    four 4-bit windows per word, the first in bits 15..12."""
    word = bank[ebase + index // 4]
    return (word >> (4 * (3 - index % 4))) & 0xF


def pack_exponent(e: int, windows: int) -> list[int]:
    """The exponent's windows (``ws.window_digits``) packed four per word."""
    digits = ws.window_digits(e, 4 * windows)
    digits += [0] * (-len(digits) % 4)
    return [(digits[i] << 12) | (digits[i + 1] << 8) | (digits[i + 2] << 4) | digits[i + 3]
            for i in range(0, len(digits), 4)]


def run(program: list[Instr], banks: list[list[int]], mach: Machine, exact: bool = False,
        compute: bool = True) -> RunResult:
    """Execute ``program`` on the two banks (modified in place).

    Bit-exact (array products by :func:`ws.montmul`, or with ``exact`` by
    :func:`ws.simulate`, whose cycles must then equal the closed form) and
    cycle-exact under :class:`Timing`.  ``compute=False`` only counts the
    cycles (they do not depend on the data; the constant-time test checks
    it).  Raises ValueError for a malformed program."""
    if len(banks) != 2 or any(len(b) != MEM_WORDS for b in banks):
        raise ValueError(f"two banks of {MEM_WORDS} words")
    tm, w, arr = mach.timing, mach.arr.w, mach.arr
    mask = (1 << w) - 1
    pc, t, trace = 0, 0, []
    parts: dict[str, int] = {}
    loops: list[list[int]] = []  # [start pc, iterations left]
    flag = [0, 0]
    nalu: list[list[int]] = [[], []]  # the ALUs' modulus N_A (mod_alu), words
    cursor = [0, 0, 0]  # [exponent base, window index, table stride]
    products = 0
    steps = 0

    def note(ins: Instr, pc_: int, issue: int, cyc: int, acc: int | None = None) -> None:
        trace.append((pc_, str(ins), issue, cyc))
        key = ins.part or ins.op.name
        parts[key] = parts.get(key, 0) + (cyc if acc is None else acc)

    def next_window(h: int) -> int:
        return digit(banks[h], cursor[0], cursor[1])

    while True:
        if pc >= len(program):
            raise ValueError("program runs past its end without HALT")
        steps += 1
        if steps > 1 << 22:
            raise ValueError("program does not halt")
        ins = program[pc]
        halves = (0,) if ins.flags & F_H0 else (0, 1)
        t += tm.dispatch
        parts["dispatch"] = parts.get("dispatch", 0) + tm.dispatch
        issue = t
        op = ins.op
        if op == Op.HALT:
            note(ins, pc, issue, 0)
            break
        if op == Op.REP:
            if ins.n < 1:
                raise ValueError(f"pc {pc}: REP count {ins.n} below 1")
            if len(loops) == MAX_LOOPS:
                raise ValueError(f"pc {pc}: REP nested deeper than {MAX_LOOPS}")
            loops.append([pc + 1, ins.n])
            note(ins, pc, issue, tm.fetch - tm.dispatch)
            t += tm.fetch - tm.dispatch
            pc += 1
            continue
        if op == Op.END:
            if not loops:
                raise ValueError(f"pc {pc}: END without REP")
            note(ins, pc, issue, tm.fetch - tm.dispatch)
            t += tm.fetch - tm.dispatch
            loops[-1][1] -= 1
            if loops[-1][1]:
                pc = loops[-1][0]
            else:
                loops.pop()
                pc += 1
            continue
        if op == Op.SETX:
            _span("SETX", ins.a, 1)
            cursor[:] = [ins.a, ins.n, ins.b]
            note(ins, pc, issue, tm.setx)
            t += tm.setx
            pc += 1
            continue
        if op == Op.PROD:
            raise ValueError(f"pc {pc}: PROD outside a JOB")
        if op == Op.JOB:
            pc, cyc, nprod = _job(program, pc, banks, mach, halves, cursor, loops, exact, compute, note, issue)
            products += nprod
            t += cyc
            continue
        n = ins.n
        if op == Op.MACR:
            cyc = tm.macr(ins.c, n)
            _macr(ins, banks, halves, w, compute, pc)
        else:
            cyc = tm.clear(n) if op == Op.CLR else tm.stream(n)
            _span(f"pc {pc} {op.name} dst", ins.dst, n)
            if op != Op.CLR:
                _span(f"pc {pc} {op.name} a", ins.a, n)
            if op in (Op.ADD, Op.SUB, Op.SEL):
                _span(f"pc {pc} {op.name} b", ins.b, n)
                if not ins.flags & F_XA:
                    _ports(f"pc {pc} {op.name}", ins.a, ins.b)
            dual = op in (Op.ADD, Op.SUB) and bool(ins.flags & F_DUAL)
            ldn = op == Op.MOV and bool(ins.flags & F_LDN)
            if (dual or ldn) and not mach.mod_alu:
                raise ValueError(f"pc {pc}: {op.name}.{'DUAL' if dual else 'LDN'} needs a build with the "
                                 f"modular ALU (mod_alu)")
            if ldn and n > mach.m:
                raise ValueError(f"pc {pc}: MOV.LDN of {n} words, the ALU's modulus holds m = {mach.m}")
            if dual:
                _span(f"pc {pc} {op.name} c", ins.c, n)
                if _group(ins.c) == _group(ins.dst):
                    raise ValueError(f"pc {pc}: {op.name}.DUAL writes dst {ins.dst} and c {ins.c} in the same "
                                     f"EBR group (one write port)")
                for h in halves:
                    if len(nalu[h]) < n:
                        raise ValueError(f"pc {pc}: {op.name}.DUAL over {n} words, the ALU of half {h} holds "
                                         f"{len(nalu[h])} words of N_A (MOV.LDN first)")
            if compute:
                srcs = {h: (1 - h if ins.flags & F_XA else h) for h in halves}
                for h in halves:
                    bank, abank = banks[h], banks[srcs[h]]
                    if op == Op.CLR:
                        out = [0] * n
                    elif op == Op.MOV:
                        out = abank[ins.a: ins.a + n]
                    elif op == Op.SEL:
                        pick = abank if flag[h] else bank
                        base = ins.a if flag[h] else ins.b
                        out = pick[base: base + n]
                    else:
                        carry, out = 0, []
                        for i in range(n):
                            x = abank[ins.a + i] + (bank[ins.b + i] if op == Op.ADD else -bank[ins.b + i]) + carry
                            out.append(x & mask)
                            carry = x >> w  # ADD: 0/1; SUB: 0/-1
                        flag[h] = 1 if carry else 0
                        if dual:  # t2 = (a ± b) ∓ N_A over the same n words; F its carry/borrow
                            carry, out2 = 0, []
                            for i in range(n):
                                x = out[i] + (-nalu[h][i] if op == Op.ADD else nalu[h][i]) + carry
                                out2.append(x & mask)
                                carry = x >> w
                            flag[h] = 1 if carry else 0
                            bank[ins.c: ins.c + n] = out2
                    if ldn:
                        nalu[h] = list(out)
                    bank[ins.dst: ins.dst + n] = out
            elif ldn:  # cycles only: the length of N_A matters, not its words
                for h in halves:
                    nalu[h] = [0] * n
        note(ins, pc, issue, cyc)
        t += cyc
        pc += 1
    return RunResult(banks, t, trace, parts, products)


def _macr(ins: Instr, banks, halves, w, compute, pc) -> None:
    """c = rows, n = cols.  Y at dst (rows + cols + 1 words; the top word is
    written, not read).  For j < rows: q = (Y[j]*ninv) mod 2^w with ninv the
    word at b-1 (REDC) or q = a[j] (MUL); Y[j..j+cols-1] += q*B[0..cols-1]
    with the carry chain, then Y[j+cols] += carry + ov, ov its carry (0/1);
    finally Y[rows+cols] = ov.  REDC leaves Y*2^(-w*rows) mod B at dst+rows."""
    rows, cols = ins.c, ins.n
    if rows < 1 or cols < 1:
        raise ValueError(f"pc {pc}: MACR needs rows and cols >= 1")
    redc = bool(ins.flags & F_REDC)
    _span(f"pc {pc} MACR Y", ins.dst, rows + cols + 1)
    _span(f"pc {pc} MACR B", ins.b - redc, cols + redc)
    if not redc:
        _span(f"pc {pc} MACR q", ins.a, rows)
    _ports(f"pc {pc} MACR", ins.dst, ins.b)
    if not compute:
        return
    mask = (1 << w) - 1
    for h in halves:
        bank = banks[h]
        y, b = ins.dst, ins.b
        ninv = bank[b - 1] if redc else 0
        ov = 0
        for j in range(rows):
            q = (bank[y + j] * ninv) & mask if redc else banks[1 - h if ins.flags & F_XA else h][ins.a + j]
            carry = 0
            for i in range(cols):
                x = bank[y + j + i] + q * bank[b + i] + carry
                bank[y + j + i] = x & mask
                carry = x >> w
            x = bank[y + j + cols] + carry + ov
            bank[y + j + cols] = x & mask
            ov = x >> w
            assert ov <= 1
            if redc:
                assert bank[y + j] == 0, "REDC: the quotient clears the row's low word"
        bank[y + rows + cols] = ov


def _job(program, pc0, banks, mach: Machine, halves, cursor, loops, exact, compute, note, issue):
    """A JOB block: the JOB word and the PROD/REP/END words of its products.
    Returns (pc after the block, cycles on the main timeline, products)."""
    ins = program[pc0]
    tm, arr, m, w = mach.timing, mach.arr, mach.m, mach.arr.w
    nprod = ins.b
    if nprod < 1:
        raise ValueError(f"pc {pc0}: JOB with {nprod} products")
    if ins.n != m:
        raise ValueError(f"pc {pc0}: JOB word count {ins.n} differs from the build's m = {m}")
    load = bool(ins.flags & F_LOAD)
    if not load:
        raise ValueError(f"pc {pc0}: JOB without LOAD (A in place across jobs is not supported by the engine)")
    # Walk the block: the PRODs in order (REP/END expanded), fetched while the array runs.
    prods, fetches, pc = [], [], pc0 + 1
    depth0 = len(loops)
    while len(prods) < nprod:
        if pc >= len(program):
            raise ValueError(f"pc {pc0}: JOB needs {nprod} products, the program ends after {len(prods)}")
        p = program[pc]
        fetches.append(pc)
        if p.op == Op.PROD:
            prods.append((pc, p, len(fetches)))
            pc += 1
        elif p.op == Op.REP:
            if p.n < 1:
                raise ValueError(f"pc {pc}: REP count {p.n} below 1")
            if len(loops) == MAX_LOOPS:
                raise ValueError(f"pc {pc}: REP nested deeper than {MAX_LOOPS}")
            loops.append([pc + 1, p.n])
            pc += 1
        elif p.op == Op.END:
            if len(loops) <= depth0:
                raise ValueError(f"pc {pc}: END without REP inside the JOB at pc {pc0}")
            loops[-1][1] -= 1
            if loops[-1][1]:
                pc = loops[-1][0]
            else:
                loops.pop()
                pc += 1
        else:
            raise ValueError(f"pc {pc}: {p.op.name} inside the JOB at pc {pc0} ({len(prods)} of {nprod} products)")
    if len(loops) != depth0:
        raise ValueError(f"pc {pc0}: the JOB's last product is inside an unfinished REP")
    # Tables: entry j at base + j·stride, the stride SETX's b (the JOB's dst
    # and a table PROD's n are not used and must be 0).
    stride = cursor[2]
    if ins.flags & F_ATAB and ins.dst:
        raise ValueError(f"pc {pc0}: JOB.ATAB with dst {ins.dst}: the table stride is SETX's b ({stride})")
    for ppc, p, _ in prods:
        if p.flags & F_BTAB and p.n:
            raise ValueError(f"pc {ppc}: PROD.BTAB with n {p.n}: the table stride is SETX's b ({stride})")
    # Rules: a B from an address must not be the previous product's store (use SQ).
    for j in range(1, nprod):
        (_, p, _), (_, prev, _) = prods[j], prods[j - 1]
        if not p.flags & (F_BSQ | F_BTAB) and prev.flags & F_STORE and abs(p.b - prev.dst) < m:
            raise ValueError(f"pc {prods[j][0]}: B at {p.b} overlaps the previous product's result at {prev.dst} "
                             f"(not in memory yet: use SQ)")
        if p.flags & F_BTAB and prev.flags & F_STORE and p.b - m < prev.dst < p.b + 15 * stride + m:
            raise ValueError(f"pc {prods[j][0]}: the table at {p.b} overlaps the previous product's result "
                             f"at {prev.dst}")
    # A job's first product with SQ: the engine streams B from A's (resolved) address.
    _span(f"pc {pc0} JOB M", ins.c, m)
    a_base = ins.a
    if ins.flags & F_ATAB:
        _span(f"pc {pc0} JOB table", ins.a, 15 * stride + m)
    else:
        _span(f"pc {pc0} JOB A", ins.a, m)
    _ports(f"pc {pc0} JOB (A and M load pairs)", a_base, ins.c)
    # Per half: A, M, then the products.
    bsrc = []  # per product: kind for ws.Job ("sq", ("res", j), or "mem")
    store_of = {}
    for j, (_, p, _) in enumerate(prods):
        if p.flags & F_BSQ:
            bsrc.append(ws.SQUARE)
        elif p.flags & F_BTAB:
            _span(f"pc {prods[j][0]} PROD table", p.b, 15 * stride + m)
            bsrc.append("mem")
        else:
            _span(f"pc {prods[j][0]} PROD B", p.b, m)
            src = next((jj for jj in range(j - 1, -1, -1) if store_of.get(jj) == p.b), None)
            bsrc.append(ws.ResultOf(src) if src is not None else "mem")
        if p.flags & F_STORE:
            _span(f"pc {prods[j][0]} PROD dst", p.dst, m)
            store_of[j] = p.dst
    square = any(not (isinstance(b, str) and b == "mem") for b in bsrc)
    k0 = mach.ks[0]
    chain = ws.chain_cycles(arr, k0, nprod, square=square, halves=len(halves), load=True)
    jobs, results = [], []
    x0 = cursor[1]
    for h in halves:
        if not compute:
            break
        k = mach.ks[h]
        bank = banks[h]
        if _read(bank, ins.c, m, w) != k.mscaled:
            raise ValueError(f"pc {pc0}: M at {ins.c} in bank {h} is not half {h}'s scaled modulus")
        cursor[1] = x0
        a_addr = ins.a + (stride * _next(bank, cursor) if ins.flags & F_ATAB else 0)
        a = _read(bank, a_addr, m, w)
        bs, prev, res = [], a, []
        for j, (_, p, _) in enumerate(prods):
            if p.flags & F_BSQ:
                b = prev
            elif p.flags & F_BTAB:
                b = _read(bank, p.b + stride * _next(bank, cursor), m, w)
            else:
                b = _read(bank, p.b, m, w)
            bs.append(b if isinstance(bsrc[j], str) and bsrc[j] == "mem" else bsrc[j])
            prev = ws.montmul(prev, b, k)[0]
            res.append(prev)
            if p.flags & F_STORE:
                _write(bank, p.dst, m, w, prev)
        jobs.append(ws.Job(k, a, bs, load=True))
        results.append(res)
    if not compute:  # the cursor advances by the windows the job uses
        cursor[1] = x0 + (1 if ins.flags & F_ATAB else 0) + sum(1 for _, p, _ in prods if p.flags & F_BTAB)
    if exact and compute:
        sim = ws.simulate(arr, jobs)
        if sim.cycles != chain:
            raise AssertionError(f"pc {pc0}: ws.simulate takes {sim.cycles} cycles, chain_cycles {chain}")
        for h, res in enumerate(results):
            if sim.halves[h].results != res:
                raise AssertionError(f"pc {pc0}: half {h}: the engine's products differ from ws.simulate's")
    # Timing: PROD j's first B request (half 0) in cycle E + req_regs + load + j*interval
    # (mm_pke's dbg_prod_o).
    e_edge = issue + tm.job_start
    gap = arr.interval(k0, square)
    load_c = ws.load_cycles(arr, k0)
    # Cycles by part: each product after the first its interval, the rest the JOB's.
    note(ins, pc0, issue, tm.job(chain), tm.job(chain) - (nprod - 1) * gap)
    for j, (ppc, p, nfetch) in enumerate(prods):
        req = e_edge + tm.req_regs + load_c + j * gap
        if j:  # the words fetched since the previous PROD, one every tm.fetch cycles
            assert (nfetch - prods[j - 1][2]) * tm.fetch < gap, "the sequencer fetches the next PROD in time"
        note(p, ppc, req, 0, gap if j else 0)
    return pc, tm.job(chain), nprod


def _next(bank, cursor) -> int:
    x = digit(bank, cursor[0], cursor[1])
    cursor[1] += 1
    return x


# --------------------------------------------------------------------------
# Build, memory map and the RSA-CRT program
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class Build:
    """One engine build and program: half length ℓ (``bits``), exponent
    length E (``exp_bits``: ℓ plus the exponent-blinding bits), the array
    (P, w, L, qlat, d; d the smallest legal by default) and the base-
    blinding option with its public exponent e."""

    bits: int
    exp_bits: int | None = None
    pes: int = 70
    w: int = 17
    latency: int = 6
    qlat: int = 0
    d: int | None = None
    base_blind: bool = False
    e: int = 65537
    #: the modular ALU (mm_pke's ``ModAlu``): MOV.LDN and ADD/SUB.DUAL (:data:`F_DUAL`)
    mod_alu: bool = False

    def __post_init__(self):
        if self.bits < 2:
            raise ValueError(f"half length ℓ={self.bits} below 2 bits")
        if self.exp_bits is None:
            object.__setattr__(self, "exp_bits", self.bits)
        if self.exp_bits < 1:
            raise ValueError(f"exponent length {self.exp_bits} below 1 bit")
        if self.d is None:
            object.__setattr__(self, "d", ws.pick_delay(self.pes, self.w, self.bits, self.latency, self.qlat))
        k = ws.precompute(3, self.w, self.d, self.bits)
        if not ws.ring_ok(self.pes, self.array.chunks(k)):
            raise ValueError(f"P={self.pes} cannot run {self.array.chunks(k)} laps of the ring "
                             f"(P even with gcd(P/2, c) = 1 needed)")
        if not self.array.quotient_ok(k):
            raise ValueError(f"quotient delay d={self.d} breaks the array's rule 2cd >= L + 1 + qlat")
        if self.base_blind and (not isinstance(self.e, int) or self.e < 1):
            raise ValueError(f"public exponent e={self.e} below 1")

    @property
    def array(self) -> ws.Array:
        return ws.Array(self.pes, self.w, self.d, self.latency, self.qlat)

    @property
    def m(self) -> int:
        return ws.precompute(3, self.w, self.d, self.bits).m

    @property
    def ln(self) -> int:
        """Words of p, q and the exact values: ceil(ℓ/w)."""
        return -(-self.bits // self.w)

    @property
    def j_out(self) -> int:
        """REDC rows of the exact reduction: d + 2."""
        return self.d + 2

    @property
    def windows(self) -> int:
        return -(-self.exp_bits // ws.WINDOW)


def layout(b: Build) -> dict[str, tuple[int, int]]:
    """The memory map: region name -> (address, words), equal in both banks.

    Group 0 (reads on one port): the array's A sources, the table, the
    REDC/MAC accumulators; group 1: the scaled modulus M, the modulus for
    the ALU (its word -N^-1 mod 2^w just below it), the constants B reads
    from, the exponent."""
    m, ln, j = b.m, b.ln, b.j_out
    g0 = [("CIN", ln + m), ("T", 16 * m), ("Z", j + m), ("HZ", j + m), ("MQ", 2 * ln + 1), ("DT", m),
          ("D", m), ("H", m)]
    g1 = [("MS", m), ("NINV", 1), ("MOD", m), ("QMOD", m), ("TMP", m), ("MP", m), ("RRC", m),
          ("COUT", m), ("QINVC", m), ("EXP", -(-b.windows // 4))]
    if b.base_blind:
        g0 += [("RIN", ln + m), ("RINV", ln + m)]
        g1 += [("RJC", m), ("CT", m), ("RT", m), ("UB", m)]
    out = {}
    for base, regions in ((0, g0), (GROUP_WORDS, g1)):
        addr = base
        for name, size in regions:
            out[name] = (addr, size)
            addr += size
        if addr > base + GROUP_WORDS:
            raise ValueError(f"ℓ={b.bits}: group {base // GROUP_WORDS} needs {addr - base} words, "
                             f"the bank has {GROUP_WORDS} per group")
    return out


def _exact_out(lay, src: str, dst: str, b: Build, part: str, fl: int = 0) -> list[Instr]:
    """Y in [0, 2Ñ) at region src (m words, ≡ x·2^(wJ)) -> x mod N exactly at dst:
    clear the tail, REDC over J = d+2 rows (< 2N), subtract N, select."""
    m, ln, j = b.m, b.ln, b.j_out
    y = lay[src][0]
    return [Instr(Op.CLR, fl, y + m, n=j, part=part),
            Instr(Op.MACR, fl | F_REDC, y, 0, lay["MOD"][0], j, ln, part=part),
            Instr(Op.SUB, fl, lay["TMP"][0], y + j, lay["MOD"][0], n=m, part=part),
            Instr(Op.SEL, fl, lay[dst][0], y + j, lay["TMP"][0], n=m, part=part)]


def _reduce_in(lay, src: str, b: Build, part: str) -> list[Instr]:
    """A 2ℓ-bit input at src (2·ceil(ℓ/w) words) -> Y = x·2^(-w·ceil(ℓ/w)) mod N,
    Y < 2N, at src + ceil(ℓ/w) (m words, zero-extended)."""
    m, ln = b.m, b.ln
    y = lay[src][0]
    return [Instr(Op.CLR, 0, y + 2 * ln, n=m - ln, part=part),
            Instr(Op.MACR, F_REDC, y, 0, lay["MOD"][0], ln, ln, part=part)]


def mod_add(dst: int, a: int, b: int, mod: int, t1: int, t2: int, n: int, flags: int = 0,
            part: str = "", dual: bool = False) -> list[Instr]:
    """dst = (a + b) mod N for a, b in [0, N), N at mod, n words with room
    for a + b < 2N: ADD t1 = a + b; SUB t2 = t1 - N (F = borrow: t1 < N);
    SEL dst = F ? t1 : t2.  Groups: a and b apart, t1 apart from mod and t2.
    ``dual`` (a mod_alu build, N loaded into the ALU by MOV.LDN): ADD.DUAL
    writes t1 = a + b and t2 = t1 - N in one pass, then SEL; ``mod`` unused."""
    if dual:
        _ports("mod_add t1, t2", t1, t2)
        return [Instr(Op.ADD, flags | F_DUAL, t1, a, b, t2, n=n, part=part),
                Instr(Op.SEL, flags, dst, t1, t2, n=n, part=part)]
    return [Instr(Op.ADD, flags, t1, a, b, n=n, part=part),
            Instr(Op.SUB, flags, t2, t1, mod, n=n, part=part),
            Instr(Op.SEL, flags, dst, t1, t2, n=n, part=part)]


def mod_sub(dst: int, a: int, b: int, mod: int, t1: int, t2: int, n: int, flags: int = 0,
            part: str = "", dual: bool = False) -> list[Instr]:
    """dst = (a - b) mod N for a, b in [0, N), over n words: SUB t1 = a - b
    (F = borrow: a < b, t1 = a - b + 2^(wn)); ADD t2 = t1 + N (wraps to
    a - b + N); SEL dst = F ? t2 : t1.  Groups: a and b apart, t1 apart from
    mod and t2.  The ADD's carry equals the SUB's borrow (t1 + N wraps past
    2^(wn) exactly when a < b), so SEL sees the right flag.  ``dual``:
    SUB.DUAL writes t1 = a - b and t2 = t1 + N in one pass, then SEL."""
    if dual:
        _ports("mod_sub t1, t2", t1, t2)
        return [Instr(Op.SUB, flags | F_DUAL, t1, a, b, t2, n=n, part=part),
                Instr(Op.SEL, flags, dst, t2, t1, n=n, part=part)]
    return [Instr(Op.SUB, flags, t1, a, b, n=n, part=part),
            Instr(Op.ADD, flags, t2, t1, mod, n=n, part=part),
            Instr(Op.SEL, flags, dst, t2, t1, n=n, part=part)]


def rsa_crt_program(b: Build) -> list[Instr]:
    """The RSA-CRT program (both halves; Garner on half 0): conversion in,
    the table, the fixed-window exponentiation (``ws.exponent_chains``'
    schedule: four squarings and one table product per further window),
    conversion out with the exact reduction, Garner, and the base-blinding
    steps if the build has them.  Result: m = c^d mod pq at region MQ of
    bank 0 (2·ceil(ℓ/w) + 1 words)."""
    lay = layout(b)
    A = {name: addr for name, (addr, _) in lay.items()}
    m, ln = b.m, b.ln
    T = A["T"]
    prog: list[Instr] = []
    emit = prog.extend
    # Conversion in.
    emit(_reduce_in(lay, "CIN", b, "conversion in"))
    table_first = []
    if b.base_blind:
        emit(_reduce_in(lay, "RIN", b, "blinding"))
        emit(_reduce_in(lay, "RINV", b, "blinding"))
        emit([Instr(Op.JOB, F_LOAD, 0, A["CIN"] + ln, 1, A["MS"], m, part="conversion in"),
              Instr(Op.PROD, F_STORE, A["CT"], 0, A["RRC"], part="conversion in"),
              Instr(Op.JOB, F_LOAD, 0, A["RINV"] + ln, 1, A["MS"], m, part="blinding"),
              Instr(Op.PROD, F_STORE, A["UB"], 0, A["RJC"], part="blinding")])
        # r~, then r~^e by the public e's bits (square and multiply), then x~ = U(r~^e, c~).
        bits = bin(b.e)[3:]
        table_first = [Instr(Op.PROD, F_STORE, A["RT"], 0, A["RRC"], part="blinding")]
        for bit in bits:
            table_first.append(Instr(Op.PROD, F_BSQ, part="blinding"))
            if bit == "1":
                table_first.append(Instr(Op.PROD, 0, 0, 0, A["RT"], part="blinding"))
        table_first.append(Instr(Op.PROD, F_STORE, T + m, 0, A["CT"], part="blinding"))
        a_src = A["RIN"] + ln
    else:
        table_first = [Instr(Op.PROD, F_STORE, T + m, 0, A["RRC"], part="conversion in")]
        a_src = A["CIN"] + ln
    # The table: T[0] = R mod N (host), T[1] = x~, T[j] = U(T[j-1], x~).
    table = [Instr(Op.PROD, F_BSQ | F_STORE, T + 2 * m, part="table")]
    table += [Instr(Op.PROD, F_STORE, T + jj * m, 0, T + m, part="table") for jj in range(3, 16)]
    prods = table_first + table
    emit([Instr(Op.JOB, F_LOAD, 0, a_src, len(prods), A["MS"], m, part=prods[0].part)] + prods)
    # The windows: A = T[e_0], then per further window 4 squarings and T[e_i].
    W = b.windows
    out_b = A["UB"] if b.base_blind else A["COUT"]
    emit([Instr(Op.SETX, 0, 0, A["EXP"], m, n=0, part="exponentiation"),
          Instr(Op.JOB, F_LOAD | F_ATAB, 0, T, ws.WINDOW * (W - 1) + W, A["MS"], m, part="exponentiation")])
    if W > 1:
        emit([Instr(Op.REP, n=W - 1, part="exponentiation"),
              Instr(Op.REP, n=ws.WINDOW, part="exponentiation"),
              Instr(Op.PROD, F_BSQ, part="exponentiation"),
              Instr(Op.END, part="exponentiation"),
              Instr(Op.PROD, F_BTAB, 0, 0, T, part="exponentiation"),
              Instr(Op.END, part="exponentiation")])
    emit([Instr(Op.PROD, F_STORE, A["Z"], 0, out_b, part="conversion out")])
    emit(_exact_out(lay, "Z", "MP", b, "reduction"))
    # Garner on half 0 (half 0 holds the larger prime p): h = (m_p - m_q)·qInv mod p, m = m_q + h·q.
    g = "Garner"
    emit([Instr(Op.CLR, F_H0, A["MQ"] + ln + 1, n=ln, part=g),
          Instr(Op.MOV, F_H0 | F_XA, A["MQ"], A["MP"], n=ln + 1, part=g),
          Instr(Op.SUB, F_H0, A["DT"], A["MOD"], A["MQ"], n=m, part=g),
          Instr(Op.ADD, F_H0, A["D"], A["DT"], A["MP"], n=m, part=g),
          Instr(Op.JOB, F_H0 | F_LOAD, 0, A["D"], 1, A["MS"], m, part=g),
          Instr(Op.PROD, F_STORE, A["HZ"], 0, A["QINVC"], part=g)])
    emit(_exact_out(lay, "HZ", "H", b, g, F_H0))
    emit([Instr(Op.MACR, F_H0, A["MQ"], A["H"], A["QMOD"], ln, ln, part=g),
          Instr(Op.HALT, part="halt")])
    return prog


# --------------------------------------------------------------------------
# Host side: constants, memory images, RSA-CRT
# --------------------------------------------------------------------------


@dataclass
class CrtResult:
    value: int
    cycles: int
    parts: dict[str, int]
    products: int
    trace: list[tuple]
    build: Build


def _words(x: int, n: int, w: int) -> list[int]:
    if x >> (w * n):
        raise AssertionError(f"{x.bit_length()}-bit value in {n} words of {w} bits")
    return [(x >> (w * i)) & ((1 << w) - 1) for i in range(n)]


def host_images(b: Build, p: int, q: int, dp: int, dq: int, c: int, r: int | None = None,
                rinv: int | None = None) -> tuple[list[list[int]], list[ws.Constants]]:
    """The two banks as the host writes them (half 0: p, half 1: q; p > q):
    per half the scaled modulus, the modulus with its word -N^-1 mod 2^w,
    T[0] = R mod N, the conversion constants R²·2^(w·ceil(ℓ/w)),
    2^(w(d+2)) and (blinding) 2^(w(ceil(ℓ/w)+d+2))·R, the exponent's windows,
    the message (and r, r^-1 mod pq) in both; in bank 0 q and
    qInv·R·2^(w(d+2)) mod p for Garner.  Every other word is 0."""
    lay = layout(b)
    w, m, ln, j = b.w, b.m, b.ln, b.j_out
    banks, ks = [], []
    qinv = pow(q, -1, p)
    for h, (n, e) in enumerate(((p, dp), (q, dq))):
        k = ws.precompute(n, w, b.d, b.bits)
        ks.append(k)
        bank = [0] * MEM_WORDS

        def put(name, value, off=0, nw=None, bank=bank):
            addr, size = lay[name]
            nw = size - off if nw is None else nw
            bank[addr + off: addr + off + nw] = _words(value, nw, w)

        put("MS", k.mscaled)
        put("NINV", -pow(n, -1, 1 << w) % (1 << w))
        put("MOD", n)
        put("T", k.r % n, nw=m)
        put("RRC", k.r * k.r * (1 << (w * ln)) % n)
        put("COUT", (1 << (w * j)) % n)
        put("CIN", c, nw=2 * ln)
        addr, size = lay["EXP"]
        packed = pack_exponent(e, b.windows)
        bank[addr: addr + len(packed)] = packed
        if b.base_blind:
            put("RJC", (1 << (w * (ln + j))) * k.r % n)
            put("RIN", r, nw=2 * ln)
            put("RINV", rinv, nw=2 * ln)
        if h == 0:
            put("QMOD", q)
            put("QINVC", qinv * k.r * (1 << (w * j)) % p)
        banks.append(bank)
    return banks, ks


def rsa_crt(p: int, q: int, dp: int, dq: int, message: int, bits: int | None = None, *,
            exp_bits: int | None = None, pes: int = 70, w: int = 17, latency: int = 6, qlat: int = 0,
            d: int | None = None, r: int | None = None, e: int | None = None,
            exact: bool = False, compute: bool = True) -> CrtResult:
    """message^d mod pq through the engine, with dp = d mod (p-1) and
    dq = d mod (q-1) (or exponent-blinded dp + kp(p-1), dq + kq(q-1): give
    ``exp_bits`` = ℓ + blinding bits).  ``r`` with ``e``: base blinding
    (the engine exponentiates c·r^e and multiplies by r^-1; r^-1 mod pq is
    the host's).  ``bits``: the build's half length ℓ (default: the longer
    prime's).  Returns the value, the cycles and the cycles per part."""
    for name, x in (("p", p), ("q", q)):
        if not isinstance(x, int) or x < 3:
            raise ValueError(f"prime {name}={x} is below 3")
        if x % 2 == 0:
            raise ValueError(f"prime {name}={x} is even; Montgomery multiplication needs an odd modulus")
    if p == q:
        raise ValueError("p and q are equal")
    if q > p:  # half 0 holds the larger prime (Garner's bound m_q < p)
        p, q, dp, dq = q, p, dq, dp
    bits = p.bit_length() if bits is None else bits
    n = p * q
    if not isinstance(message, int) or not 0 <= message < n:
        raise ValueError(f"message is outside [0, N) for the {n.bit_length()}-bit modulus")
    b = Build(bits, exp_bits, pes, w, latency, qlat, d, base_blind=r is not None, e=e if e is not None else 65537)
    if p.bit_length() > bits:
        raise ValueError(f"prime of {p.bit_length()} bits does not fit the build's ℓ = {bits} bits")
    for name, x in (("dP", dp), ("dQ", dq)):
        if not isinstance(x, int) or x < 1:
            raise ValueError(f"exponent {name} must be at least 1, got {x}")
        if x.bit_length() > b.exp_bits:
            raise ValueError(f"exponent {name} has {x.bit_length()} bits, longer than the build's "
                             f"{b.exp_bits}")
    rinv = None
    if r is not None:
        if e is None:
            raise ValueError("base blinding needs the public exponent e")
        if not isinstance(r, int) or not 2 <= r < n or gcd(r, n) != 1:
            raise ValueError("the base-blinding factor r must be in [2, N) and coprime to N")
        rinv = pow(r, -1, n)
    if compute:
        banks, ks = host_images(b, p, q, dp, dq, message, r, rinv)
    else:  # cycles only: the constants' values do not matter
        banks = [[0] * MEM_WORDS for _ in range(2)]
        ks = [ws.precompute(x, w, b.d, bits) for x in (p, q)]
    prog = rsa_crt_program(b)
    res = run(prog, banks, Machine(b.array, ks, mod_alu=b.mod_alu), exact=exact, compute=compute)
    addr, size = layout(b)["MQ"]
    value = _read(banks[0], addr, size, w) if compute else 0
    return CrtResult(value, res.cycles, res.parts, res.products, res.trace, b)


# --------------------------------------------------------------------------
# Figures
# --------------------------------------------------------------------------

PARTS = ("conversion in", "table", "exponentiation", "conversion out", "reduction", "Garner", "blinding",
         "dispatch")


def figures(rsa_bits=(2048, 3072, 4096), pes: int = 70, w: int = 17, latency: int = 6, qlat: int = 0,
            mhz: float = 141.0, exp_blind: int = 0, base_blind: bool = False) -> list[dict]:
    """Cycles of one RSA-CRT private-key operation per modulus length, by
    part, from the engine model (timing only: the cycles do not depend on
    the data; the tests check values and cycles at small sizes)."""
    if mhz <= 0:
        raise ValueError("the clock frequency must be positive")
    rows = []
    for nbits in rsa_bits:
        if nbits < 8 or nbits % 2:
            raise ValueError(f"RSA length {nbits} must be even and at least 8")
        ell = nbits // 2
        b = Build(ell, ell + exp_blind, pes, w, latency, qlat)
        p = (1 << ell) - 1
        q = (1 << (ell - 1)) + 1
        res = rsa_crt(p, q, 1, 1, 0, ell, exp_bits=b.exp_bits, pes=pes, w=w, latency=latency, qlat=qlat,
                      r=2 if base_blind else None, e=65537 if base_blind else None, compute=False)
        arr = b.array
        k = ws.precompute(3, w, b.d, ell)
        row = {"rsa": nbits, "ell": ell, "P": pes, "d": b.d, "c": arr.chunks(k), "m": k.m,
               "cycles": res.cycles, "ms": res.cycles / (mhz * 1e3), "mhz": mhz, "products": res.products}
        row.update({part: res.parts.get(part, 0) for part in PARTS})
        rows.append(row)
    return rows


def format_figures(rows: list[dict]) -> str:
    head = ["RSA", "ℓ", "P", "d", "c", "m", "products/half", "cycles", f"ms @ {rows[0]['mhz']:g} MHz"] + list(PARTS)
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        cells = [r["rsa"], r["ell"], r["P"], r["d"], r["c"], r["m"], f"{r['products']:,}", f"{r['cycles']:,}",
                 f"{r['ms']:.3f}"] + [f"{r[p]:,}" for p in PARTS]
        lines.append("| " + " | ".join(str(x) for x in cells) + " |")
    return "\n".join(lines)


def format_layout(b: Build) -> str:
    """The memory map as a table (addresses equal in both banks)."""
    lines = ["| region | group | address | words | holds |", "|---|---|---|---|---|"]
    for name, (addr, size) in sorted(layout(b).items(), key=lambda x: x[1][0]):
        lines.append(f"| {name} | {_group(addr)} | {addr} | {size} | {REGIONS[name]} |")
    return "\n".join(lines)


#: What each region of :func:`layout` holds (h: written by the host per key or per operation).
REGIONS = {
    "CIN": "message c (h, 2·⌈ℓ/w⌉ words), REDC accumulator; c·2^(-w⌈ℓ/w⌉) mod N above its low half",
    "T": "table T[0..15], m words each (T[0] = R mod N: h)",
    "Z": "conversion-out result, REDC accumulator of the exact reduction",
    "HZ": "Garner: h·2^(w(d+2)) in [0, 2Ñ), REDC accumulator (bank 0)",
    "MQ": "Garner: m_q, then the result m = m_q + h·q (bank 0, 2⌈ℓ/w⌉ + 1 words)",
    "DT": "Garner: p − m_q (bank 0)", "D": "Garner: D = m_p + p − m_q < 2p (bank 0)",
    "H": "Garner: h = (m_p − m_q)·qInv mod p (bank 0)",
    "MS": "scaled modulus M = (Ñ+1)/2^(w(d+1)) for the array's loads (h)",
    "NINV": "−N⁻¹ mod 2^w, the REDC quotient factor (h)", "MOD": "modulus N, zero-padded to m words (h)",
    "QMOD": "q, for Garner (h, bank 0)", "TMP": "difference of the conditional subtraction",
    "MP": "exact m_p (bank 0) and m_q (bank 1)", "RRC": "R²·2^(w⌈ℓ/w⌉) mod N: conversion in (h)",
    "COUT": "2^(w(d+2)) mod N: conversion out (h)", "QINVC": "qInv·R·2^(w(d+2)) mod p (h, bank 0)",
    "EXP": "exponent windows, four per word, most significant first (h)",
    "RIN": "blinding factor r (h), REDC accumulator", "RINV": "r⁻¹ mod pq (h), REDC accumulator",
    "RJC": "2^(w(⌈ℓ/w⌉+d+2))·R mod N: r⁻¹ into the conversion-out constant (h)",
    "CT": "c̃ = c·R mod N", "RT": "r̃ = r·R mod N", "UB": "r⁻¹·2^(w(d+2)) mod N: blinded conversion out",
}


#: The flags as the RTL names them (bit indices in the package), and their words.
_SV_FLAGS = (("FH0", F_H0, "all: half 0 only"), ("FXA", F_XA, "ALU: operand a from the other half's bank"),
             ("FLoad", F_LOAD, "JOB: load A and M"), ("FAtab", F_ATAB, "JOB: A = table entry of the next window"),
             ("FBsq", F_BSQ, "PROD: B = the previous result"),
             ("FBtab", F_BTAB, "PROD: B = table entry of the next window"),
             ("FStore", F_STORE, "PROD: store the result"), ("FRedc", F_REDC, "MACR: REDC quotients"),
             ("FLdn", F_LDN, "MOV: load the ALU's modulus (ModAlu)"),
             ("FDual", F_DUAL, "ADD/SUB: also (a +/- b) -/+ N_A at c (ModAlu)"))


def sv_package() -> str:
    """``rtl/ws/mm_pke_pkg.sv``: the instruction format's constants (opcodes,
    flag bits, field positions) for the sequencer and the ALUs, generated
    from :class:`Op`, the ``F_*`` flags and :data:`FIELDS` so that the RTL
    and the model cannot drift (``python -m montmul.models.pke --sv-package``;
    tests/test_models_pke.py checks the file equals this text)."""
    lines = ["// SPDX-License-Identifier: Apache-2.0", "//",
             "// mm_pke_pkg: the instruction format of the public-key engine mm_pke (docs/pke.md,",
             "// \"Instruction set\"): opcodes, flag bits and field positions of the 72-bit word, for",
             "// mm_pke_seq and mm_pke_alu.  Generated from montmul.models.pke (its Op, F_* and FIELDS)",
             "// by `python -m montmul.models.pke --sv-package`; do not edit (tests/test_models_pke.py",
             "// checks this file equals the generator's output).",
             "package mm_pke_pkg;", "",
             f"  localparam int PkeInstrBits = {INSTR_BITS};  // instruction word",
             f"  localparam int PkeAddrBits  = {ADDR_BITS};  // bank address; the top bit selects the EBR group",
             "", "  // opcodes (5 bits)"]
    for op in Op:
        name = "Op" + op.name.capitalize()
        lines.append(f"  localparam logic [4:0] {name:<7} = 5'd{int(op)};")
    lines += ["", "  // flag bits (indices into the 5-bit flags field; the meaning depends on the opcode)"]
    for name, bit, what in _SV_FLAGS:
        lines.append(f"  localparam int {name:<6} = {bit.bit_length() - 1};  // {what}")
    lines += ["", "  // fields, most significant first: least significant bit and width"]
    lsb = INSTR_BITS
    for name, bits in FIELDS:
        lsb -= bits
        cap = "Fld" + name.capitalize()
        lines.append(f"  localparam int {cap + 'Lsb':<12} = {lsb};")
        lines.append(f"  localparam int {cap + 'Bits':<12} = {bits};")
    lines += ["", "endpackage", ""]
    return "\n".join(lines)


def format_listing(program: list[Instr]) -> str:
    """The program, one instruction per line: index, word (hex), text, part."""
    width = -(-INSTR_BITS // 4)
    return "\n".join(f"{i:4d}  {ins.encode():0{width}x}  {str(ins):<64s} {ins.part}" for i, ins in enumerate(program))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m montmul.models.pke", description=(
        "Cycles of an RSA-CRT private-key operation on the mm_pke engine model, by part."))
    ap.add_argument("--rsa", type=int, nargs="+", default=[2048, 3072, 4096], help="RSA modulus lengths")
    ap.add_argument("--pes", type=int, default=70, help="array PEs P (default 70)")
    ap.add_argument("--w", type=int, default=17, help="word width (default 17)")
    ap.add_argument("--latency", type=int, default=6, help="array DSP path latency L (default 6)")
    ap.add_argument("--qlat", type=int, default=0, help="quotient latency (default 0; -1: bypass)")
    ap.add_argument("--mhz", type=float, default=141.0, help="clock (default 141 MHz)")
    ap.add_argument("--exp-blind-bits", type=int, default=0, help="exponent-blinding bits (default 0)")
    ap.add_argument("--blind", action="store_true", help="base blinding (r^e, e = 65537, on the engine)")
    ap.add_argument("--layout", type=int, metavar="ELL", help="print the memory map for halves of ELL bits")
    ap.add_argument("--listing", type=int, metavar="ELL", help="print the RSA-CRT program for halves of ELL bits")
    ap.add_argument("--sv-package", action="store_true", help="print rtl/ws/mm_pke_pkg.sv (the instruction format)")
    args = ap.parse_args(argv)
    if args.sv_package:
        print(sv_package(), end="")
        return 0
    try:
        if args.layout or args.listing:
            ell = args.layout or args.listing
            b = Build(ell, ell + args.exp_blind_bits, args.pes, args.w, args.latency, args.qlat,
                      base_blind=args.blind)
            print(format_layout(b) if args.layout else format_listing(rsa_crt_program(b)))
            return 0
        rows = figures(tuple(args.rsa), args.pes, args.w, args.latency, args.qlat, args.mhz,
                       args.exp_blind_bits, args.blind)
    except ValueError as e:
        ap.exit(2, f"error: {e}\n")
    print(format_figures(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
