# SPDX-License-Identifier: Apache-2.0
"""A driver for ``mm_pke_axil``, the AXI4-Lite wrapper of the public-key
engine ``mm_pke`` (docs/pke_axil.md), through its register map
(``rdl/mm_pke_regs.rdl``, offsets in :mod:`.pke_regmap`).

The bus is the same as :class:`montmul.host.ModexpDevice`'s: any object with
``async read(addr)`` and ``async write(addr, value)`` on 32-bit registers at
byte offsets (:mod:`montmul.host.buses`).

    dev = PkeDevice(bus)
    await dev.open()                          # checks ID, reads the build
    r = await dev.rsa_crt(p, q, dp, dq, c)    # r.value = c^d mod pq, r.cycles
    sig = await dev.sign(key, b"message")     # RSASSA-PKCS1-v1_5, all of it on the engine
    pt, r = await dev.scalar_mult("secp256r1", k, (x, y))   # k·P, the ECC program of the build
    z, r = await dev.ecdh("secp256r1", d, peer_spki)         # ECDH's shared x-coordinate

:meth:`PkeDevice.rsa_crt` is the host side of :func:`montmul.models.pke.rsa_crt`:
it builds the program for the hardware's array (:func:`pke.rsa_crt_program`),
writes it (:func:`pke.encode`) and both banks (:func:`pke.host_images`, every
word of every region of :func:`pke.layout`), starts the engine, polls
``STATUS.DONE`` and reads the result from region MQ of bank 0.
:meth:`PkeDevice.scalar_mult` and :meth:`PkeDevice.ecdh` do the same for
the ECC programs of :mod:`montmul.apps.ecc.engine` (the build's ``mod_alu``
from ``OPTIONS.MOD_ALU``: DUAL and SEL per modular addition when the
engine has its modular ALU).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

from .. import design
from ..models import pke, ws
from . import pke_regmap as rm
from . import regblock

MAGIC = 0x4D504B31  #: ID register value ('MPK1')

#: STATUS.CODE values: mm_pke_seq's ErrX constants.
ERROR_CODES = {
    1: "unknown opcode",
    2: "PROD outside a JOB, or another instruction inside one",
    3: "bad REP/END nesting",
    4: "bad JOB",
    5: "the array dropped a job",
    6: "JOB.ATAB before the window was read",
    7: "a B request or result without its PROD",
    8: "two array reads on one bank port",
    9: "the PC ran past the program memory",
    10: "bad XA",
    11: "ALU operation of length 0",
}


class PkeError(RuntimeError):
    """The block is not there, the engine stopped on an error, or it answered
    something a working block cannot."""


field = partial(regblock.field, rm.FIELDS)  #: field(reg, name, value): a field of a register's value
place = partial(regblock.place, rm.FIELDS)  #: place(reg, name, value): a value in its field


@dataclass(frozen=True)
class Info:
    """The build constants the block reports (ARRAY, PIPE, SIZES, MEMORY, OPTIONS)."""

    pes: int
    w: int
    d: int
    c: int
    dsp_regs: int
    loop_regs: int
    latency: int
    max_words: int
    prog_words: int
    bank_words: int
    instr_bits: int
    mod_alu: int  #: mm_pke's ModAlu: the ALUs' modulus copy (MOV.LDN, ADD/SUB.DUAL)


@dataclass(frozen=True)
class PkeRun:
    """One program's outcome, read back from the registers."""

    value: int  #: the result read from the banks (0 for a bare run)
    cycles: int  #: CYCLES: START to the program's stop
    status: dict[str, int]  #: STATUS at the stop


class PkeDevice(regblock.RegBlock):
    """mm_pke_axil at byte address ``base`` of ``bus``."""

    FIELDS, ID, STATUS, MAGIC, NAME, ERROR = rm.FIELDS, rm.ID, rm.STATUS, MAGIC, "mm_pke_axil", PkeError

    def __init__(self, bus, *, base: int = 0, max_polls: int = 10**7) -> None:
        super().__init__(bus, base=base, max_polls=max_polls)
        self.info: Info | None = None

    # --- registers -------------------------------------------------------
    async def open(self) -> Info:
        """Check the ID register and read the build constants."""
        await self.check_id()
        regs = {r: await self.read(getattr(rm, r)) for r in ("ARRAY", "PIPE", "SIZES", "MEMORY", "OPTIONS")}
        f = {name.lower(): field(r, name, v) for r, v in regs.items() for name in rm.FIELDS[r]}
        self.info = Info(**f)
        if self.info.instr_bits != pke.INSTR_BITS or self.info.bank_words != pke.MEM_WORDS:
            raise PkeError(f"the block reports {self.info.instr_bits}-bit instructions and {self.info.bank_words}-word "
                           f"banks; this driver knows {pke.INSTR_BITS} and {pke.MEM_WORDS}")
        return self.info

    async def clear_status(self) -> None:
        """Clear the sticky flags (DONE, IGNORED, ACCERR)."""
        await self.clear_flags("DONE", "IGNORED", "ACCERR")

    # --- builds ----------------------------------------------------------
    def build(self, bits: int, *, exp_bits: int | None = None, base_blind: bool = False, e: int = 65537) -> pke.Build:
        """The program build for half length ``bits`` on this hardware's array
        (its P, w, L, d; the array bypasses the quotient into the token when
        2cd = L, the model's qlat = -1: docs/ws.md); ValueError if the
        hardware cannot run it."""
        info = self._need_open()
        b = design.pke_build(bits, exp_bits, pes=info.pes, w=info.w, latency=info.latency, d=info.d,
                             base_blind=base_blind, e=e)
        chunks = b.array.chunks(ws.precompute(3, b.w, b.d, bits))
        if b.m > info.max_words or chunks != info.c:
            raise ValueError(f"ℓ = {bits} bits needs m = {b.m} words in {chunks} laps of the ring; the hardware "
                             f"runs up to {info.max_words} words in {info.c}")
        return b

    def ecc_build(self, curve, windows: int, combine: bool = False, *, mod_alu: bool | None = None):
        """The ECC program build (``montmul.apps.ecc.engine.EccBuild``) for
        ``curve`` on this hardware's array; ``mod_alu`` (default: the
        engine's ``OPTIONS.MOD_ALU``) True needs an engine with the modular
        ALU.  ValueError if the hardware cannot run it."""
        from ..apps.ecc import engine as E
        from ..apps.ecc.curves import get

        info = self._need_open()
        mod_alu = bool(info.mod_alu) if mod_alu is None else bool(mod_alu)
        if mod_alu and not info.mod_alu:
            raise ValueError("a mod_alu program needs the engine's modular ALU (OPTIONS.MOD_ALU = 1, ModAlu = 1): "
                             "without it MOV.LDN and ADD/SUB.DUAL compute wrong values")
        b = self.build(get(curve).p.bit_length())  # the array's checks (m, laps)
        return E.EccBuild(get(curve), windows, combine, pes=b.pes, w=b.w, latency=b.latency, qlat=b.qlat,
                          mod_alu=mod_alu, d=b.d)

    # --- memories ----------------------------------------------------------
    async def write_program(self, words: list[int]) -> None:
        """Store instruction words from address 0 (PADDR, PDATA0..2)."""
        info = self._need_open()
        if len(words) > info.prog_words:
            raise ValueError(f"a program of {len(words)} words does not fit the {info.prog_words}-word memory")
        await self.write(rm.PADDR, 0)
        for x in words:
            if not 0 <= x < 1 << pke.INSTR_BITS:
                raise ValueError(f"instruction word {x:#x} is not {pke.INSTR_BITS} bits")
            await self.write(rm.PDATA0, x & 0xFFFFFFFF)
            await self.write(rm.PDATA1, (x >> 32) & 0xFFFFFFFF)
            await self.write(rm.PDATA2, x >> 64)

    async def write_bank(self, half: int, addr: int, words: list[int]) -> None:
        """Words from ``addr`` of bank ``half`` (BSEL, BDATA)."""
        info = self._need_open()
        if addr < 0 or addr + len(words) > info.bank_words:
            raise ValueError(f"words {addr}..{addr + len(words) - 1} outside the {info.bank_words}-word bank")
        await self.write(rm.BSEL, place("BSEL", "HALF", half) | place("BSEL", "ADDR", addr))
        for x in words:
            if not 0 <= x < 1 << info.w:
                raise ValueError(f"bank word {x:#x} is not {info.w} bits")
            await self.write(rm.BDATA, x)

    async def read_bank(self, half: int, addr: int, n: int) -> list[int]:
        info = self._need_open()
        if addr < 0 or n < 0 or addr + n > info.bank_words:
            raise ValueError(f"words {addr}..{addr + n - 1} outside the {info.bank_words}-word bank")
        await self.write(rm.BSEL, place("BSEL", "HALF", half) | place("BSEL", "ADDR", addr))
        return [await self.read(rm.BDATA) for _ in range(n)]

    # --- runs ------------------------------------------------------------------
    async def start(self) -> None:
        await self.write(rm.CTRL, place("CTRL", "START", 1) | place("CTRL", "IRQ_EN", 1))

    async def abort(self) -> None:
        """Reset the engine (stops a program, clears its error; memories kept);
        CTRL.IRQ_EN keeps its value."""
        irq_en = field("CTRL", "IRQ_EN", await self.read(rm.CTRL))
        await self.write(rm.CTRL, place("CTRL", "ABORT", 1) | place("CTRL", "IRQ_EN", irq_en))

    async def wait(self) -> dict[str, int]:
        """Poll STATUS (waiting for the interrupt in between, if the bus has
        one) until the program stops; returns STATUS.  PkeError when the
        engine is idle without DONE, or after ``max_polls`` polls."""
        return await self.wait_done(idle_is_error=True)

    async def run(self) -> PkeRun:
        """Start the program in memory, wait for its stop; PkeError if it
        stopped on an error."""
        await self.start()
        st = await self.wait()
        cycles = await self.read(rm.CYCLES)
        if st["ERR"]:
            raise PkeError(f"the engine stopped on error {st['CODE']} "
                           f"({ERROR_CODES.get(st['CODE'], 'unknown code')})")
        return PkeRun(0, cycles, st)

    async def load_images(self, b: pke.Build, banks: list[list[int]]) -> None:
        """Every word of every region of ``pke.layout(b)`` in both banks (the
        regions are contiguous in each EBR group: one run per group)."""
        lay = pke.layout(b)
        for h in (0, 1):
            for lo, hi in _runs(lay):
                await self.write_bank(h, lo, banks[h][lo:hi])

    # --- RSA ---------------------------------------------------------------------
    async def rsa_crt(self, p: int, q: int, dp: int, dq: int, c: int, *, bits: int | None = None) -> PkeRun:
        """c^d mod pq on the engine with dP, dQ (the RSA-CRT program:
        exponentiations, exact reduction and Garner's recombination all on
        the engine); ``bits``: the build's half length (default: the longer
        prime's).  ValueError for bad inputs as :func:`pke.rsa_crt`."""
        for name, x in (("p", p), ("q", q)):
            if not isinstance(x, int) or x < 3 or x % 2 == 0:
                raise ValueError(f"prime {name}={x} must be an odd integer of at least 3")
        if p == q:
            raise ValueError("p and q are equal")
        if q > p:  # half 0 holds the larger prime (Garner's bound m_q < p)
            p, q, dp, dq = q, p, dq, dp
        if not isinstance(c, int) or not 0 <= c < p * q:
            raise ValueError(f"message is outside [0, N) for the {(p * q).bit_length()}-bit modulus")
        b = self.build(p.bit_length() if bits is None else bits)
        if p.bit_length() > b.bits:
            raise ValueError(f"prime of {p.bit_length()} bits does not fit the build's ℓ = {b.bits} bits")
        for name, x in (("dP", dp), ("dQ", dq)):
            if not isinstance(x, int) or x < 1 or x.bit_length() > b.exp_bits:
                raise ValueError(f"exponent {name} must be in [1, 2^{b.exp_bits})")
        banks, _ = pke.host_images(b, p, q, dp, dq, c)
        await self.write_program(pke.encode(pke.rsa_crt_program(b)))
        await self.load_images(b, banks)
        done = await self.run()
        addr, size = pke.layout(b)["MQ"]
        words = await self.read_bank(0, addr, size)
        value = sum(x << (b.w * i) for i, x in enumerate(words))
        return PkeRun(value, done.cycles, done.status)

    async def sign(self, key, message: bytes, *, hash: str = "sha256") -> tuple[bytes, PkeRun]:
        """RSASSA-PKCS1-v1_5 signature of ``message`` (RFC 8017 Sec. 8.2)
        with ``key`` (p, q, dp, dq, size: a :class:`montmul.apps.rsa.RsaKey`),
        the private-key operation on the engine.  Needs ``montmul[rsa]``."""
        from ..apps import rsa

        if None in (getattr(key, "p", None), getattr(key, "q", None), getattr(key, "dp", None),
                    getattr(key, "dq", None)):
            raise ValueError("sign needs a private key with its CRT values (p, q, dP, dQ)")
        em = rsa.emsa_pkcs1_v15(message, key.size, hash)
        r = await self.rsa_crt(key.p, key.q, key.dp, key.dq, rsa.os2ip(em))
        return rsa.i2osp(r.value, key.size), r

    # --- ECC ---------------------------------------------------------------------
    async def ecc_run(self, ep, points: list[tuple[int, int]], scalars: list[int]) -> tuple[tuple[int, int] | None,
                                                                                          PkeRun]:
        """Run the ECC program ``ep`` (``montmul.apps.ecc.engine.program``)
        with per half its point and scalar (``engine.images``): the program,
        every word of every region of both banks, START, the result point
        read from XOUT and YOUT of bank 0 (None: the point at infinity).
        The PkeRun's value is the x-coordinate (0 at infinity)."""
        from ..apps.ecc import engine as E

        info = self._need_open()
        if len(ep.program) > info.prog_words:
            raise ValueError(f"the ECC program has {len(ep.program)} words; the engine's program memory "
                             f"{info.prog_words} (ProgWords)")
        banks, _ = E.images(ep, points, scalars)
        await self.write_program(pke.encode(ep.program))
        for h in (0, 1):
            for lo, hi in _runs(ep.regions):
                await self.write_bank(h, lo, banks[h][lo:hi])
        done = await self.run()
        b = ep.build.pb
        x, y = [sum(v << (b.w * i) for i, v in enumerate(words))
                for words in [await self.read_bank(0, ep.regions[r][0], b.m) for r in ("XOUT", "YOUT")]]
        pt = None if (x, y) == (0, 0) else (x, y)  # (0, 0) is on no curve with b != 0 (engine.py)
        return pt, PkeRun(x, done.cycles, done.status)

    async def scalar_mult(self, curve, k: int, point: tuple[int, int], *,
                          mod_alu: bool | None = None) -> tuple[tuple[int, int] | None, PkeRun]:
        """k·P on the engine (``engine.run_scalar_mult``'s program: both
        halves run it, the result is half 0's); k below 2^bits(n), P an
        affine point on ``curve``.  ValueError for bad inputs."""
        from ..apps.ecc import engine as E
        from ..apps.ecc.curves import get

        c = get(curve)
        nb = c.n.bit_length()
        if not isinstance(k, int) or k < 0 or k.bit_length() > nb:
            raise ValueError(f"scalar outside [0, 2^{nb}) for {c.name}")
        if (not isinstance(point, tuple) or len(point) != 2 or not all(isinstance(v, int) and 0 <= v < c.p
                                                                        for v in point) or not c.on_curve(*point)):
            raise ValueError(f"the point is not an affine point of {c.name}")
        ep = E.program(self.ecc_build(c, E.scalar_windows(nb), mod_alu=mod_alu))
        return await self.ecc_run(ep, [point, point], [k, k])

    async def ecdh(self, curve, private_key: int, peer_public_key: bytes, *,
                   mod_alu: bool | None = None) -> tuple[bytes, PkeRun]:
        """ECDH's shared secret x(d·Q), big-endian, the field's length, for a
        DER SubjectPublicKeyInfo Q (``montmul.apps.ecc.engine.ecdh`` through
        the bus).  ValueError for a bad key or point, or the point at
        infinity."""
        from ..apps.ecc import encoding
        from ..apps.ecc.curves import get

        c = get(curve)
        if not isinstance(private_key, int) or not 1 <= private_key < c.n:
            raise ValueError(f"private key outside [1, n) for {c.name}")
        q = encoding.load_public(c, peer_public_key)
        pt, r = await self.scalar_mult(c, private_key, q, mod_alu=mod_alu)
        if pt is None:
            raise ValueError("the shared point is the point at infinity")
        return pt[0].to_bytes(c.field_bytes, "big"), r

    def _need_open(self) -> Info:
        if self.info is None:
            raise PkeError("call open() first")
        return self.info


def _runs(lay: dict[str, tuple[int, int]]) -> list[tuple[int, int]]:
    """The regions of a layout merged into contiguous [lo, hi) runs."""
    out: list[list[int]] = []
    for addr, size in sorted(lay.values()):
        if out and addr <= out[-1][1]:
            out[-1][1] = max(out[-1][1], addr + size)
        else:
            out.append([addr, addr + size])
    return [(lo, hi) for lo, hi in out]
