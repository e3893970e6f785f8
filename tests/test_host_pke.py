# SPDX-License-Identifier: Apache-2.0
"""The driver of mm_pke_axil (montmul.host.pke) against a register-level
stand-in of the block: the ID check, the build constants and the builds
they allow, the program and bank windows' bus words, bad inputs rejected
before the bus is touched, k·P through the windows to the engine's model
(ModelBus); the generated C header's layout against the
generated Python offsets, and the C example (sw/examples/pke.c) compiles.
(The driver on the real wrapper: tb/mm_pke_axil.)"""
from __future__ import annotations

import asyncio
import shutil
import subprocess

import pytest

from montmul import resources
from montmul.host import pke_regmap as rm
from montmul.host.pke import MAGIC, PkeDevice, PkeError, _runs, place
from montmul.models import pke, ws

#: The bench's build: ℓ = 256 on P = 10, w = 17 (d = 2, c = 2, m = 19).
HW = {"pes": 10, "w": 17, "d": 2, "c": 2, "dsp": 3, "loop": 0, "m": 19, "prog": 64, "mod_alu": 0}


class FakeBus:
    """Answers the build registers like a mm_pke_axil with HW's parameters
    and records every write."""

    def __init__(self, ident: int = MAGIC, **hw) -> None:
        h = {**HW, **hw}
        self.regs = {
            rm.ID: ident,
            rm.ARRAY: place("ARRAY", "PES", h["pes"]) | place("ARRAY", "W", h["w"]) | place("ARRAY", "D", h["d"])
            | place("ARRAY", "C", h["c"]),
            rm.PIPE: place("PIPE", "DSP_REGS", h["dsp"]) | place("PIPE", "LOOP_REGS", h["loop"])
            | place("PIPE", "LATENCY", h["dsp"] + 3 + h["loop"]),
            rm.SIZES: place("SIZES", "MAX_WORDS", h["m"]) | place("SIZES", "PROG_WORDS", h["prog"]),
            rm.MEMORY: place("MEMORY", "BANK_WORDS", pke.MEM_WORDS) | place("MEMORY", "INSTR_BITS", pke.INSTR_BITS),
            rm.OPTIONS: place("OPTIONS", "MOD_ALU", h["mod_alu"]),
        }
        self.writes: list[tuple[int, int]] = []

    async def read(self, addr: int) -> int:
        return self.regs.get(addr, 0)

    async def write(self, addr: int, value: int) -> None:
        self.writes.append((addr, value))


def opened(**kw) -> tuple[PkeDevice, FakeBus]:
    bus = FakeBus(**kw)
    dev = PkeDevice(bus)
    asyncio.run(dev.open())
    return dev, bus


def test_open_reads_the_build():
    dev, _ = opened()
    i = dev.info
    assert (i.pes, i.w, i.d, i.c, i.latency, i.max_words, i.prog_words) == (10, 17, 2, 2, 6, 19, 64)
    assert i.mod_alu == 0 and opened(mod_alu=1)[0].info.mod_alu == 1


def test_open_rejects_another_block():
    with pytest.raises(PkeError, match="no mm_pke_axil at 0x0: ID reads 0x4d4d5831"):
        asyncio.run(PkeDevice(FakeBus(ident=0x4D4D5831)).open())


def test_calls_before_open_fail():
    with pytest.raises(PkeError, match="open"):
        asyncio.run(PkeDevice(FakeBus()).write_program([0]))


def test_build_matches_the_hardware():
    dev, _ = opened()
    b = dev.build(256)
    assert (b.pes, b.w, b.d, b.latency, b.m) == (10, 17, 2, 6, 19)
    with pytest.raises(ValueError, match=r"ℓ = 512 bits needs m = 34 words in 4 laps of the ring; the hardware runs up to 19 words in 2"):
        dev.build(512)
    dev, _ = opened(m=18)
    with pytest.raises(ValueError, match="runs up to 18 words"):
        dev.build(256)


def test_build_with_the_quotient_bypass():
    """2cd = L (P = 66, w = 17, L = 6, d = 3, c = 1: the RSA-2048 build) is the model's qlat = -1."""
    dev, _ = opened(pes=66, d=3, c=1, m=65)
    b = dev.build(1024)
    assert (b.qlat, b.d, b.m) == (-1, 3, 65)
    dev, _ = opened(pes=66, d=2, c=2, m=131)
    assert dev.build(2048).qlat == 0


def test_program_words_are_three_bus_writes():
    dev, bus = opened()
    words = [(0xAB << 64) | (0x12345678 << 32) | 0x9ABCDEF0, 1]
    asyncio.run(dev.write_program(words))
    assert bus.writes == [(rm.PADDR, 0), (rm.PDATA0, 0x9ABCDEF0), (rm.PDATA1, 0x12345678), (rm.PDATA2, 0xAB),
                          (rm.PDATA0, 1), (rm.PDATA1, 0), (rm.PDATA2, 0)]
    with pytest.raises(ValueError, match="does not fit the 64-word memory"):
        asyncio.run(dev.write_program([0] * 65))
    with pytest.raises(ValueError, match="not 72 bits"):
        asyncio.run(dev.write_program([1 << 72]))


def test_bank_words():
    dev, bus = opened()
    asyncio.run(dev.write_bank(1, 4096, [5, (1 << 17) - 1]))
    assert bus.writes == [(rm.BSEL, (4096 << 16) | 1), (rm.BDATA, 5), (rm.BDATA, (1 << 17) - 1)]
    with pytest.raises(ValueError, match="not 17 bits"):
        asyncio.run(dev.write_bank(0, 0, [1 << 17]))
    with pytest.raises(ValueError, match="outside the 8192-word bank"):
        asyncio.run(dev.write_bank(0, pke.MEM_WORDS - 1, [0, 0]))


def test_layout_runs_cover_every_region():
    """The images are written as one run per EBR group, covering exactly the regions' words."""
    for bits in (64, 256, 1024):
        lay = pke.layout(pke.Build(bits, pes=70, w=17))
        runs = _runs(lay)
        words = {a for addr, size in lay.values() for a in range(addr, addr + size)}
        assert {a for lo, hi in runs for a in range(lo, hi)} == words
        assert len(runs) == 2


#: two 256-bit primes (2^256 - 189 and 2^255 - 19)
P256, Q256 = (1 << 256) - 189, (1 << 255) - 19


@pytest.mark.parametrize("args,msg", [
    ((10, 7, 1, 1, 0), "prime p=10"),
    ((11, 11, 1, 1, 0), "equal"),
    ((11, 7, 1, 1, 77), "outside"),
    ((P256, Q256, 0, 1, 3), "dP"),
    ((P256, Q256, 1, 1 << 256, 3), "dQ"),
    ((11, 7, 1, 1, 3), "quotient delay"),  # a 4-bit build is not legal on this array
])
def test_rsa_crt_rejects_bad_inputs_before_the_bus(args, msg):
    dev, bus = opened()
    with pytest.raises(ValueError, match=msg):
        asyncio.run(dev.rsa_crt(*args))
    assert bus.writes == []


def test_ecc_build_follows_the_modular_alu():
    """The ECC program's build: the hardware's array, mod_alu as OPTIONS.MOD_ALU says;
    a mod_alu program on an engine without the modular ALU is refused."""
    dev, _ = opened(mod_alu=1)
    eb = dev.ecc_build("secp256r1", 64)
    assert eb.mod_alu and (eb.pes, eb.w, eb.d, eb.pb.m) == (10, 17, 2, 19)
    assert not dev.ecc_build("secp256r1", 64, mod_alu=False).mod_alu
    dev, _ = opened()
    assert not dev.ecc_build("secp256r1", 64).mod_alu
    with pytest.raises(ValueError, match="modular ALU"):
        dev.ecc_build("secp256r1", 64, mod_alu=True)


def test_ecc_rejects_bad_inputs_before_the_bus():
    from montmul.apps.ecc.curves import get

    c = get("secp256r1")
    G = (c.gx, c.gy)
    dev, bus = opened()
    for args, msg in (((c, 1 << 256, G), "scalar outside"), ((c, 5, (c.gx, c.gy + 1)), "not an affine point"),
                      ((c, 5, G), "program memory 64")):
        with pytest.raises(ValueError, match=msg):
            asyncio.run(dev.scalar_mult(*args))
    with pytest.raises(ValueError, match="private key outside"):
        asyncio.run(dev.ecdh(c, 0, b"\x04"))
    with pytest.raises(ValueError):
        asyncio.run(dev.ecdh(c, 5, b"\x04\x01"))
    assert bus.writes == []


class ModelBus(FakeBus):
    """FakeBus with the windows and START of the block, the engine being
    ``pke.run`` (ModAlu as ``mod_alu``): enough for a whole run through the driver."""

    def __init__(self, **hw) -> None:
        super().__init__(**hw)
        self.prog: dict[int, int] = {}
        self.banks = [[0] * pke.MEM_WORDS for _ in range(2)]
        self.paddr = self.half = self.baddr = self.stage = 0
        self.mod_alu = bool(hw.get("mod_alu", 0))

    async def read(self, addr: int) -> int:
        if addr == rm.BDATA:
            self.baddr += 1
            return self.banks[self.half][self.baddr - 1]
        return await super().read(addr)

    async def write(self, addr: int, value: int) -> None:
        await super().write(addr, value)
        if addr == rm.PADDR:
            self.paddr = value
        elif addr == rm.PDATA0:
            self.stage = value
        elif addr == rm.PDATA1:
            self.stage |= value << 32
        elif addr == rm.PDATA2:
            self.prog[self.paddr] = self.stage | (value << 64)
            self.paddr += 1
        elif addr == rm.BSEL:
            self.half, self.baddr = value & 1, value >> 16
        elif addr == rm.BDATA:
            self.banks[self.half][self.baddr] = value
            self.baddr += 1
        elif addr == rm.CTRL and value & 1:
            prog = pke.decode([self.prog[i] for i in range(len(self.prog))])
            info = self.info
            b = pke.Build(self.bits, pes=info.pes, w=info.w, d=info.d, qlat=-1 if 2 * info.c * info.d == 6 else 0,
                          mod_alu=self.mod_alu)
            k = ws.precompute(self.p, b.w, b.d, b.bits)
            res = pke.run(prog, self.banks, pke.Machine(b.array, [k, k], mod_alu=self.mod_alu))
            self.regs[rm.CYCLES] = res.cycles
            self.regs[rm.STATUS] = place("STATUS", "DONE", 1)


def test_ecc_scalar_mult_through_the_driver():
    """k·P on a 16-bit curve through the driver's windows to the engine's
    model: the point and the cycles of engine.run_scalar_mult on the same build."""
    from montmul.apps.ecc import engine as E
    from montmul.apps.ecc.curves import affine_mul_public, custom

    c = custom(40087, 40084, 29458, 3, 3608, 40241, name="small-m3")  # tb/mm_pke's curve
    for mod_alu in (0, 1):
        bus = ModelBus(pes=8, d=4, c=1, m=7, prog=4096, mod_alu=mod_alu)
        dev = PkeDevice(bus)
        bus.info = asyncio.run(dev.open())
        bus.bits, bus.p = c.p.bit_length(), c.p
        Q = affine_mul_public(c, 777, (c.gx, c.gy))
        for k in (c.n - 1, 12345, c.n):
            pt, r = asyncio.run(dev.scalar_mult(c, k, Q))
            assert pt == affine_mul_public(c, k, Q)
            want = E.run_scalar_mult(c, k, Q, pes=8, d=4, mod_alu=bool(mod_alu), compute=False)
            assert r.cycles == want.cycles and r.value == (pt[0] if pt else 0)


@pytest.mark.parametrize("std", ["c99", "c11"])
def test_c_example_compiles_against_the_header(tmp_path, std):
    root = resources.source_root()
    cc = shutil.which("cc") or shutil.which("gcc")
    if root is None or cc is None:
        pytest.skip("needs a source checkout and a C compiler")
    proc = subprocess.run([cc, f"-std={std}", "-Wall", "-Wextra", "-Werror", "-pedantic", f"-I{root / 'sw/include'}",
                           "-c", str(root / "sw/examples/pke.c"), "-o", str(tmp_path / "pke.o")],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


def test_c_header_offsets_are_the_python_ones(tmp_path):
    """sw/include/mm_pke_regs.h's struct puts every register at pke_regmap's offset (C99)."""
    root = resources.source_root()
    cc = shutil.which("cc") or shutil.which("gcc")
    if root is None or cc is None:
        pytest.skip("needs a source checkout and a C compiler")
    checks = "\n".join(f"typedef char check_{name}[offsetof(mm_pke_regs_t, {name}) == {off:#x} ? 1 : -1];"
                       for name, off in ((n, getattr(rm, n)) for n in rm.FIELDS))
    src = tmp_path / "t.c"
    src.write_text(f'#include <stddef.h>\n#include "mm_pke_regs.h"\n{checks}\n'
                   f"typedef char check_size[sizeof(mm_pke_regs_t) == {rm.SIZE:#x} ? 1 : -1];\n")
    proc = subprocess.run([cc, "-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic", "-Wno-unused-local-typedefs",
                           f"-I{root / 'sw/include'}", "-c", str(src), "-o", str(tmp_path / "t.o")],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
