# SPDX-License-Identifier: Apache-2.0
"""A driver for ``mm_modexp_axil`` (docs/integration.md): exponentiation
and RSA through its register map (``rdl/mm_modexp_regs.rdl``).

The driver talks to a *bus*: any object with ``async read(addr) -> int`` and
``async write(addr, value)`` on 32-bit registers at byte offsets, and
optionally ``async wait_irq()`` (return once ``irq_o`` is high).
:mod:`montmul.host.buses` has one over cocotbext-axi's AXI4-Lite master
(simulation) and one over ``/dev/mem`` or a UIO device (a board); the
driver is the same.

    dev = ModexpDevice(bus, core="scs_new_ct")
    await dev.open()                                  # checks ID, reads INFO
    r = await dev.modexp(base, exp, n, ladder=True)   # r.result, r.err, r.cycles
    sig = await dev.sign(key, b"message")             # RSA PKCS#1 v1.5, CRT on the device
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

from .. import engine
from . import regblock
from . import regmap as rm

MAGIC = 0x4D4D5831  #: ID register value ('MMX1')

#: WSEL.OPERAND codes.
OPERANDS = {"base": 0, "exp": 1, "n": 2, "r2": 3, "result": 4}


class DeviceError(RuntimeError):
    """The block is not there, or answered something a working block cannot."""


@dataclass(frozen=True)
class Job:
    """One exponentiation's outcome, read back from the registers."""

    result: int  #: base^exp mod n (0 when err)
    err: int  #: STATUS.ERR: the engine rejected the request
    cycles: int  #: CYCLES: the engine's latency in clock cycles


field = partial(regblock.field, rm.FIELDS)  #: field(reg, name, value): a field of a register's value
place = partial(regblock.place, rm.FIELDS)  #: place(reg, name, value): a value in its field


class ModexpDevice(regblock.RegBlock):
    """mm_modexp_axil at byte address ``base`` of ``bus``; ``core`` names the
    registered core the hardware was built with (it fixes the Montgomery
    radix, hence R^2 mod N, which the driver computes once per modulus)."""

    FIELDS, ID, STATUS, MAGIC, NAME, ERROR = rm.FIELDS, rm.ID, rm.STATUS, MAGIC, "mm_modexp_axil", DeviceError

    def __init__(self, bus, *, core: str, params: dict[str, int] | None = None, base: int = 0,
                 max_polls: int = 10**7) -> None:
        super().__init__(bus, base=base, max_polls=max_polls)
        self.core = core
        self.params = params
        self.width = 0
        self.words = 0
        self._r2: dict[int, int] = {}

    # --- registers -------------------------------------------------------
    async def open(self) -> None:
        """Check the ID register and read the build's width."""
        await self.check_id()
        info = await self.read(rm.INFO)
        self.width = field("INFO", "WIDTH", info)
        self.words = field("INFO", "WORDS", info)
        if self.words != -(-self.width // 32):
            raise DeviceError(f"INFO: {self.words} words for width {self.width}")

    async def clear_status(self) -> None:
        """Clear the sticky flags (DONE, ERR, OVERRUN, ACCERR)."""
        await self.clear_flags("DONE", "ERR", "OVERRUN", "ACCERR")

    # --- operands ----------------------------------------------------------
    async def write_operand(self, name: str, value: int) -> None:
        """Write one operand, least significant word first, through the window."""
        self._need_open()
        if not 0 <= value < 1 << self.width:
            raise ValueError(f"{name}={value:#x} does not fit the engine's {self.width}-bit port")
        await self.write(rm.WSEL, place("WSEL", "OPERAND", OPERANDS[name]))
        for i in range(self.words):
            await self.write(rm.DATA, (value >> (32 * i)) & 0xFFFFFFFF)

    async def read_operand(self, name: str) -> int:
        self._need_open()
        await self.write(rm.WSEL, place("WSEL", "OPERAND", OPERANDS[name]))
        value = 0
        for i in range(self.words):
            value |= await self.read(rm.DATA) << (32 * i)
        return value

    # --- jobs ------------------------------------------------------------------
    def r2(self, n: int) -> int:
        """R^2 mod n for the core's radix at the hardware's width (cached per modulus)."""
        if n not in self._r2:
            self._r2[n] = engine.r2_mod(n, self.core, self.width, self.params)
        return self._r2[n]

    async def load(self, base: int, exp: int, n: int, *, exp_len: int | None = None, r2: int | None = None) -> None:
        """Write a job's operands (allowed while another job runs: the engine
        copied the running job's operands when it started)."""
        self._need_open()
        if n < 1:
            raise ValueError(f"modulus must be positive, got {n}")
        t = engine.default_exp_len(exp) if exp_len is None else exp_len
        await self.write_operand("base", base)
        await self.write_operand("exp", exp)
        await self.write_operand("n", n)
        await self.write_operand("r2", self.r2(n) if r2 is None else r2)
        await self.write(rm.EXP_LEN, place("EXP_LEN", "LEN", t))

    async def start(self, *, ladder: bool = False) -> None:
        await self.write(rm.CTRL, place("CTRL", "START", 1) | place("CTRL", "LADDER", int(ladder))
                         | place("CTRL", "IRQ_EN", 1))

    async def wait(self) -> dict[str, int]:
        """Wait for the running job (interrupt if the bus has one, else by
        polling STATUS; DeviceError after ``max_polls`` polls); returns STATUS."""
        return await self.wait_done(idle_is_error=False)

    async def finish(self) -> Job:
        """Wait for the running job and read its outcome."""
        st = await self.wait()
        cycles = await self.read(rm.CYCLES)
        result = await self.read_operand("result")
        return Job(result, st["ERR"], cycles)

    async def modexp(self, base: int, exp: int, n: int, *, ladder: bool = False,
                     exp_len: int | None = None, r2: int | None = None) -> Job:
        """base^exp mod n on the device."""
        await self.load(base, exp, n, exp_len=exp_len, r2=r2)
        await self.start(ladder=ladder)
        return await self.finish()

    # --- RSA ---------------------------------------------------------------------
    async def rsa_private(self, key, c: int, *, ladder: bool = True) -> tuple[int, list[Job]]:
        """c^d mod n by CRT: c^dP mod p and c^dQ mod q on the device (the
        second job's operands are loaded while the first runs), Garner's
        recombination in software.  The ladder with exp_len = the prime's
        length keeps the sequence of products independent of the key
        (constant time on a constant-time core)."""
        if None in (key.p, key.q, key.dp, key.dq, key.qinv):
            raise ValueError("rsa_private needs a private key with its CRT values (p, q, dP, dQ, qInv)")
        if not 0 <= c < key.n:
            raise ValueError("ciphertext representative out of range: need 0 <= c < n")
        p, q = key.p, key.q
        for prime in (p, q):
            if prime.bit_length() > self.width:
                raise ValueError(f"a {prime.bit_length()}-bit prime does not fit the {self.width}-bit engine")
        await self.load(c % p, key.dp, p, exp_len=p.bit_length())
        await self.start(ladder=ladder)
        await self.load(c % q, key.dq, q, exp_len=q.bit_length())
        j1 = await self.finish()
        await self.start(ladder=ladder)
        j2 = await self.finish()
        if j1.err or j2.err:
            raise DeviceError("the engine rejected a CRT half")
        h = key.qinv * (j1.result - j2.result) % p
        return j2.result + q * h, [j1, j2]

    async def rsa_public(self, key, m: int) -> tuple[int, Job]:
        """m^e mod n (verification, encryption) on the device."""
        if key.n.bit_length() > self.width:
            raise ValueError(f"a {key.n.bit_length()}-bit modulus does not fit the {self.width}-bit engine")
        job = await self.modexp(m, key.e, key.n)
        if job.err:
            raise DeviceError("the engine rejected m^e mod n")
        return job.result, job

    async def sign(self, key, message: bytes, *, hash: str = "sha256", ladder: bool = True) -> tuple[bytes, list[Job]]:
        """RSASSA-PKCS1-v1_5 signature of ``message`` (RFC 8017 Sec. 8.2),
        the private-key operation on the device.  Needs ``montmul[rsa]``."""
        from ..apps import rsa

        em = rsa.emsa_pkcs1_v15(message, key.size, hash)
        s, jobs = await self.rsa_private(key, rsa.os2ip(em), ladder=ladder)
        return rsa.i2osp(s, key.size), jobs

    def _need_open(self) -> None:
        if not self.width:
            raise DeviceError("call open() first")
