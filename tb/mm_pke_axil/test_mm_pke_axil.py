# SPDX-License-Identifier: Apache-2.0
"""Bench of mm_pke_axil, the AXI4-Lite wrapper of the public-key engine
mm_pke (docs/pke_axil.md), driven by cocotbext-axi's AXI4-Lite
master through the Python driver (montmul.host.pke.PkeDevice):

* an RSA-512 PKCS#1 v1.5 / SHA-256 signature signed through the bus (the
  RSA-CRT program, the banks' images, START, polling DONE, the result read
  from the bank), byte-identical to ``cryptography``'s, with CYCLES equal
  to ``pke.run``'s cycles for the same program and images;
* reset values of every register, the build constants against the HDL
  parameters, SLVERR on unmapped, read-only and write-only accesses;
* the bank window: words read back in both banks, byte strobes, ACCERR
  for addresses past the bank and for bits at or above w;
* requests while a program runs (START, program stores, bank writes and
  reads): dropped with STATUS.IGNORED, never a stalled bus; the running
  program and its result undisturbed;
* bad programs: DONE with STATUS.ERR and the engine's error code, START
  refused until ABORT, ABORT in the middle of a run;
* ECC with the modular ALU (``ModAlu`` = 1, ``OPTIONS.MOD_ALU``): a P-256
  ECDH through the bus (``PkeDevice.ecdh``: the k·P program of
  ``montmul.apps.ecc.engine`` built with mod_alu, so MOV.LDN and
  ADD/SUB.DUAL), the shared secret byte-identical to ``cryptography``'s and
  CYCLES equal to ``pke.run``'s for the same program and images.

Two builds at ℓ = 256 (RSA-512), w = 17, L = 6: two laps of the ring (P = 10,
d = 2, c = 2, m = 19) and one lap with the quotient bypass (P = 22, d = 3,
c = 1, m = 20: 2cd = L, the RSA-2048 build's shape; the driver's build is
then the model's qlat = -1); for ECC a third, P = 22 at ℓ = 256 with
ModAlu = 1 and 4,096 program words (d = 3, the bypass: the driver's build
of the program), which runs the register test and the ECDH only.  The register block is PeakRDL output, which Icarus 11 cannot build (no
unpacked structs): Verilator only, as tb/mm_modexp_axil.
"""
from __future__ import annotations

import os

BITS, W = 256, 17
#: id -> (P, d, ModAlu, program words): d None = the model's least legal; d = 3 at c = 1 is the bypass
#: (2cd = L); ModAlu 1 with room for the ECC programs: the ECDH build
BUILDS = {"c2": (10, None, 0, 64), "c1-bypass": (22, 3, 0, 64), "c1-modalu-ecc": (22, 3, 1, 4096)}
PROG_WORDS = 64


def hdl_params(pes: int, d: int | None, mod_alu: int = 0, prog_words: int = PROG_WORDS,
               bits: int = BITS) -> dict[str, int]:
    """mm_pke_axil's parameters for the driver's build of ℓ = ``bits`` on P = ``pes``, w = W,
    L = 6 (DspRegs 3, LoopRegs 0), d (default the least legal), the array sized to its m."""
    from montmul import design

    b = design.pke_build(bits, pes=pes, w=W, d=d, mod_alu=bool(mod_alu))
    return design.pke_hdl_params(b, prog_words, max_words=b.m)


if os.environ.get("MONTMUL_IN_SIM"):
    import json
    import random

    import cocotb
    from cocotb.triggers import ClockCycles, with_timeout
    from cocotbext.axi import AxiResp

    from montmul.apps import rsa
    from montmul.host import pke_regmap as rm
    from montmul.host.buses import CocotbAxiLite
    from montmul.host.regblock import cocotb_open
    from montmul.host.pke import MAGIC, PkeDevice, PkeError, place
    from montmul.models import pke

    P = json.loads(os.environ["WS_PARAMS"])
    #: RSA-2048 on demand (the pytest test below): only test_sign_rsa2048 runs
    KEY = os.environ.get("MONTMUL_PKE_AXIL_KEY")
    #: the ECC build (ModAlu 1): only the register test and test_ecdh_p256 run
    ECC = bool(P.get("ModAlu", 0))
    #: generous bound of a whole test in simulated time (10 ns clock)
    TIMEOUT_NS = 10**9

    async def setup(dut) -> tuple[PkeDevice, CocotbAxiLite]:
        return await cocotb_open(dut, PkeDevice)

    def key512(seed: int):
        return rsa.seeded_key(2 * BITS, seed)

    def model_cycles(dev: PkeDevice, p, q, dp, dq, c) -> tuple[int, int]:
        """(value, cycles) of pke.run on the program and images the driver loads."""
        if q > p:
            p, q, dp, dq = q, p, dq, dp
        b = dev.build(p.bit_length())
        banks, ks = pke.host_images(b, p, q, dp, dq, c)
        res = pke.run(pke.rsa_crt_program(b), banks, pke.Machine(b.array, ks))
        addr, size = pke.layout(b)["MQ"]
        return sum(banks[0][addr + i] << (b.w * i) for i in range(size)), res.cycles

    @cocotb.test(skip=bool(KEY) or ECC)
    async def test_sign_rsa512(dut):
        """RSA-512 PKCS#1 v1.5 / SHA-256 through the bus, byte-identical to cryptography."""
        from cryptography.hazmat.primitives import hashes
        from cryptography.hazmat.primitives.asymmetric import padding

        dev, bus = await setup(dut)
        key = key512(1)
        msg = b"montmul: RSA-512 through mm_pke_axil"
        sig, r = await with_timeout(dev.sign(key, msg), TIMEOUT_NS, "ns")
        want = key.cryptography_key().sign(msg, padding.PKCS1v15(), hashes.SHA256())
        assert sig == want, f"signature {sig.hex()} differs from cryptography's {want.hex()}"
        key.cryptography_key().public_key().verify(sig, msg, padding.PKCS1v15(), hashes.SHA256())
        c = rsa.os2ip(rsa.emsa_pkcs1_v15(msg, key.size))
        value, cycles = model_cycles(dev, key.p, key.q, key.dp, key.dq, c)
        assert (r.value, r.cycles) == (value, cycles), f"bus: {r.value:#x} in {r.cycles} cycles, pke.run: {cycles}"
        assert r.status["ERR"] == 0 and r.status["IGNORED"] == 0 and r.status["ACCERR"] == 0, r.status
        dut._log.info("RSA-512 signature through AXI4-Lite: %d engine cycles, %d bus transactions",
                      r.cycles, bus.transactions)
        # A second message with the program and constants already in place
        # would need only CIN; the driver reloads everything: same cycles.
        msg2 = b"a second message"
        sig2, r2 = await with_timeout(dev.sign(key, msg2), TIMEOUT_NS, "ns")
        assert sig2 == key.cryptography_key().sign(msg2, padding.PKCS1v15(), hashes.SHA256())
        assert r2.cycles == cycles

    @cocotb.test(skip=bool(KEY))
    async def test_registers_after_reset(dut):
        dev, bus = await setup(dut)
        m = bus.master
        info = dev.info
        assert await dev.read(rm.ID) == MAGIC
        assert (info.pes, info.w, info.d, info.c) == (P["NumPe"], P["WordWidth"], P["QuotDelay"], P["Chunks"])
        assert (info.dsp_regs, info.loop_regs, info.latency) == (P["DspRegs"], P["LoopRegs"],
                                                                 P["DspRegs"] + 3 + P["LoopRegs"])
        assert (info.max_words, info.prog_words) == (P["MaxWords"], P["ProgWords"])
        assert (info.bank_words, info.instr_bits) == (pke.MEM_WORDS, pke.INSTR_BITS)
        assert info.mod_alu == P.get("ModAlu", 0)
        for reg in (rm.CTRL, rm.STATUS, rm.CYCLES, rm.PADDR, rm.PDATA0, rm.PDATA1, rm.BSEL):
            assert await dev.read(reg) == 0, f"register {reg:#x} after reset"
        assert int(dut.irq_o.value) == 0
        # Unmapped addresses, writes of read-only registers, reads of PDATA2: SLVERR.
        for addr in (rm.SIZE, 0x40, 0xFC):
            assert (await m.read(addr, 4)).resp == AxiResp.SLVERR
            assert (await m.write(addr, b"\xff\xff\xff\xff")).resp == AxiResp.SLVERR
        for reg in (rm.ID, rm.ARRAY, rm.PIPE, rm.SIZES, rm.MEMORY, rm.OPTIONS, rm.CYCLES):
            before = await dev.read(reg)
            assert (await m.write(reg, b"\x00\x00\x00\x00")).resp == AxiResp.SLVERR
            assert await dev.read(reg) == before
        assert (await m.read(rm.PDATA2, 4)).resp == AxiResp.SLVERR
        assert await dev.read(rm.PADDR) == 0, "a refused read of PDATA2 stored nothing"
        assert await dev.read(rm.STATUS) == 0

    @cocotb.test(skip=bool(KEY) or ECC)
    async def test_bank_window(dut):
        dev, bus = await setup(dut)
        rng = random.Random(2)
        spots = [(0, 0), (1, 0), (0, pke.GROUP_WORDS - 1), (1, pke.GROUP_WORDS), (0, pke.MEM_WORDS - 5)]
        data = {}
        for h, a in spots:
            words = [rng.getrandbits(W) for _ in range(5)]
            words[0] = (1 << W) - 1
            await dev.write_bank(h, a, words)
            data[h, a] = words
        for (h, a), words in data.items():
            assert await dev.read_bank(h, a, 5) == words, f"bank {h} at {a}"
        assert await dev.read(rm.BSEL) == place("BSEL", "HALF", 0) | place("BSEL", "ADDR", pke.MEM_WORDS)
        assert await dev.read(rm.STATUS) == 0
        # Past the bank: the read returns 0, ACCERR.
        await dev.write(rm.BSEL, place("BSEL", "ADDR", pke.MEM_WORDS + 3))
        assert await dev.read(rm.BDATA) == 0
        assert (await dev.status())["ACCERR"] == 1
        await dev.clear_status()
        await dev.write(rm.BSEL, place("BSEL", "ADDR", pke.MEM_WORDS))
        await dev.write(rm.BDATA, 1)
        assert (await dev.status())["ACCERR"] == 1
        await dev.clear_status()
        # A word with bits at or above w: dropped, ACCERR.
        await dev.write_bank(0, 7, [0x1234])
        await dev.write(rm.BSEL, place("BSEL", "ADDR", 7))
        await dev.write(rm.BDATA, 1 << W)
        assert (await dev.status())["ACCERR"] == 1
        assert await dev.read_bank(0, 7, 1) == [0x1234]
        await dev.clear_status()
        # Byte strobes: the strobed bytes, zeros in the others.
        await dev.write(rm.BSEL, place("BSEL", "ADDR", 3))
        assert (await bus.master.write(rm.BDATA + 1, b"\xab")).resp == AxiResp.OKAY
        assert await dev.read_bank(0, 3, 1) == [0xAB00]
        assert await dev.read(rm.STATUS) == 0

    async def load_rsa(dev: PkeDevice, seed: int):
        """A random RSA-CRT operation's program and images in the engine; returns (value, cycles) of the model."""
        key = key512(seed)
        c = random.Random(seed).randrange(key.n)
        p, q, dp, dq = key.p, key.q, key.dp, key.dq
        if q > p:
            p, q, dp, dq = q, p, dq, dp
        b = dev.build(BITS)
        banks, _ = pke.host_images(b, p, q, dp, dq, c)
        await dev.write_program(pke.encode(pke.rsa_crt_program(b)))
        await dev.load_images(b, banks)
        value, cycles = model_cycles(dev, p, q, dp, dq, c)
        assert value == pow(c, key.d, key.n)
        return b, value, cycles

    async def read_result(dev: PkeDevice, b) -> int:
        addr, size = pke.layout(b)["MQ"]
        return sum(x << (b.w * i) for i, x in enumerate(await dev.read_bank(0, addr, size)))

    @cocotb.test(skip=bool(KEY) or ECC)
    async def test_requests_while_busy(dut):
        """Every request while a program runs is dropped with IGNORED; the bus never stalls."""
        dev, bus = await setup(dut)
        b, value, cycles = await load_rsa(dev, 3)
        lay = pke.layout(b)
        exp_addr = lay["EXP"][0]
        exp_word = (await dev.read_bank(1, exp_addr, 1))[0]
        await dev.start()
        st = await dev.status()
        assert st["BUSY"] == 1 and st["DONE"] == 0 and st["IGNORED"] == 0, st
        await dev.start()  # START while busy
        assert (await dev.status())["IGNORED"] == 1
        await dev.clear_status()
        await dev.write(rm.BSEL, place("BSEL", "HALF", 1) | place("BSEL", "ADDR", exp_addr))
        await dev.write(rm.BDATA, exp_word ^ 0xFFFF)  # would change the exponent
        assert (await dev.status())["IGNORED"] == 1
        await dev.clear_status()
        await dev.write(rm.BSEL, place("BSEL", "HALF", 1) | place("BSEL", "ADDR", exp_addr))
        assert await dev.read(rm.BDATA) == 0
        assert (await dev.status())["IGNORED"] == 1
        await dev.clear_status()
        await dev.write(rm.PADDR, 5)
        await dev.write(rm.PDATA2, 0xFF)  # would store a bad word at 5
        assert (await dev.status())["IGNORED"] == 1
        assert (await dev.status())["BUSY"] == 1, "the program ended before the checks: use a longer one"
        st = await with_timeout(dev.wait(), TIMEOUT_NS, "ns")
        assert st["ERR"] == 0 and st["DONE"] == 1, st
        assert await dev.read(rm.CYCLES) == cycles
        assert await read_result(dev, b) == value
        assert int(dut.irq_o.value) == 1
        # The program memory and the exponent were not touched: the same run again.
        await dev.clear_status()
        assert int(dut.irq_o.value) == 0
        assert await dev.read_bank(1, exp_addr, 1) == [exp_word]
        b, value, cycles = await load_rsa(dev, 3)
        r = await with_timeout(dev.run(), TIMEOUT_NS, "ns")
        assert r.cycles == cycles and await read_result(dev, b) == value
        assert r.status["IGNORED"] == 0

    @cocotb.test(skip=bool(KEY) or ECC)
    async def test_errors_and_abort(dut):
        """Bad programs stop with ERR and the engine's code; START is refused until ABORT."""
        dev, bus = await setup(dut)
        Op, I = pke.Op, pke.Instr
        cases = [
            ([I(Op.CLR, 0, 10, n=2).encode() | (31 << 67)], 1),  # opcode 31
            ([I(Op.END).encode(), I(Op.HALT).encode()], 3),
            ([I(Op.CLR, 0, 10, n=0).encode(), I(Op.HALT).encode()], 11),
            ([I(Op.CLR, 0, 10, n=1).encode()] * PROG_WORDS, 9),  # no HALT: runs past the end
        ]
        for words, code in cases:
            await dev.abort()
            await dev.clear_status()
            await dev.write_program(words)
            await dev.start()
            st = await with_timeout(dev.wait(), TIMEOUT_NS, "ns")
            assert (st["DONE"], st["ERR"], st["CODE"]) == (1, 1, code), f"program {words[:2]}: STATUS {st}"
            try:
                await dev.run()
                raise AssertionError("START was taken by an engine holding an error")
            except PkeError:
                pass
            assert (await dev.status())["IGNORED"] == 1
        # ABORT clears the error; a good program runs after it.
        await dev.abort()
        st = await dev.status()
        assert (st["ERR"], st["CODE"], st["BUSY"]) == (0, 0, 0), st
        await dev.clear_status()
        b, value, cycles = await load_rsa(dev, 4)
        r = await with_timeout(dev.run(), TIMEOUT_NS, "ns")
        assert r.cycles == cycles and await read_result(dev, b) == value
        # ABORT in the middle of a run: the engine stops without DONE, runs again.
        await dev.clear_status()
        await dev.start()
        await ClockCycles(dut.clk_i, cycles // 2)
        await dev.abort()
        st = await dev.status()
        assert (st["BUSY"], st["DONE"], st["ERR"]) == (0, 0, 0), st
        b, value, cycles = await load_rsa(dev, 5)
        r = await with_timeout(dev.run(), TIMEOUT_NS, "ns")
        assert r.cycles == cycles and await read_result(dev, b) == value

    @cocotb.test(skip=bool(KEY) or not ECC)
    async def test_ecdh_p256(dut):
        """P-256 ECDH through the bus on the ModAlu build: the k·P program with
        MOV.LDN and ADD/SUB.DUAL, byte-identical to cryptography, CYCLES = pke.run's."""
        from cryptography.hazmat.primitives import serialization
        from cryptography.hazmat.primitives.asymmetric import ec

        from montmul.apps.ecc import engine as E
        from montmul.apps.ecc.curves import get

        dev, _ = await setup(dut)
        c = get("secp256r1")
        ours = ec.derive_private_key(0x1F2E3D4C5B6A79881726354453627181, ec.SECP256R1())
        peer = ec.derive_private_key(0x5A5A5A5A12345, ec.SECP256R1()).public_key()
        spki = peer.public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
        d = ours.private_numbers().private_value
        z, r = await with_timeout(dev.ecdh(c, d, spki), TIMEOUT_NS, "ns")
        assert z == ours.exchange(ec.ECDH(), peer), "shared secret differs from cryptography's"
        eb = dev.ecc_build(c, E.scalar_windows(c.n.bit_length()))
        assert eb.mod_alu, "the driver builds the program for the engine's modular ALU"
        ep = E.program(eb)
        pt = peer.public_numbers()
        banks, ks = E.images(ep, [(pt.x, pt.y)] * 2, [d, d])
        res = pke.run(ep.program, banks, eb.machine(ks))
        assert r.cycles == res.cycles, f"bus: {r.cycles} cycles, pke.run: {res.cycles}"
        assert any(".DUAL" in text for _, text, _, _ in res.trace), "the program uses ADD/SUB.DUAL"
        dut._log.info("P-256 ECDH through mm_pke_axil (ModAlu 1): %d engine cycles", r.cycles)

    @cocotb.test(skip=not KEY)
    async def test_sign_rsa2048(dut):
        """RSA-2048 PKCS#1 v1.5 / SHA-256 on the RSA-2048 build, byte-identical to cryptography."""
        import time

        from cocotb.utils import get_sim_time
        from cryptography.hazmat.primitives import hashes
        from cryptography.hazmat.primitives.asymmetric import padding

        dev, bus = await setup(dut)
        key = rsa.load_pem(open(KEY, "rb").read())
        msg = b"montmul: RSA-2048 through mm_pke_axil"
        t0, ns0 = time.monotonic(), get_sim_time(unit="ns")
        sig, r = await dev.sign(key, msg)
        ns = get_sim_time(unit="ns") - ns0
        want = key.cryptography_key().sign(msg, padding.PKCS1v15(), hashes.SHA256())
        assert sig == want, "signature differs from cryptography's"
        c = rsa.os2ip(rsa.emsa_pkcs1_v15(msg, key.size))
        value, cycles = model_cycles(dev, key.p, key.q, key.dp, key.dq, c)
        assert (r.value, r.cycles) == (value, cycles), f"bus: {r.cycles} cycles, pke.run: {cycles}"
        out = {"params": P, "key_bits": key.bits, "engine_cycles": r.cycles, "bus_cycles_total": int(ns // 10),
               "bus_transactions": bus.transactions, "bus_reads": bus.reads, "bus_writes": bus.writes,
               "identical_to_cryptography": True, "signature": sig.hex(),
               "wall_seconds": round(time.monotonic() - t0, 1)}
        dut._log.info("RSA-2048 through mm_pke_axil: %s", json.dumps(out))
        path = os.environ.get("MONTMUL_PKE_AXIL_REPORT")
        if path:
            with open(path, "w") as f:
                json.dump(out, f, indent=1)

else:
    import pytest

    @pytest.mark.parametrize("build", list(BUILDS))
    @pytest.mark.parametrize("sim", ["verilator"])
    def test_mm_pke_axil(sim, build):
        from bench_util import unit_bench

        from montmul import design

        unit_bench(__file__, design.PKE_AXIL.top, design.PKE_AXIL.rtl, hdl_params(*BUILDS[build]), sim, opt=False)

    @pytest.mark.skipif(not os.environ.get("MONTMUL_PKE_AXIL_RSA2048"),
                        reason="RSA-2048 through mm_pke_axil: set MONTMUL_PKE_AXIL_RSA2048=1 (minutes on Verilator)")
    def test_rsa2048_through_pke_axil(tmp_path, monkeypatch):
        """The RSA-2048 build (ℓ = 1024: P = 66, w = 17, d = 3, c = 1, m = 65) signs
        through the bus; the figures go to build/pke_axil_rsa2048.json."""
        from bench_util import unit_bench

        from montmul import design
        from montmul.apps import rsa
        from montmul.resources import build_root

        pem = tmp_path / "key.pem"
        pem.write_bytes(rsa.generate(2048).to_pem())
        report = build_root() / "pke_axil_rsa2048.json"
        report.parent.mkdir(parents=True, exist_ok=True)
        monkeypatch.setenv("MONTMUL_PKE_AXIL_KEY", str(pem))
        monkeypatch.setenv("MONTMUL_PKE_AXIL_REPORT", str(report))
        unit_bench(__file__, design.PKE_AXIL.top, design.PKE_AXIL.rtl, hdl_params(66, 3, bits=1024), "verilator", opt=False)
        print(report.read_text())
