# SPDX-License-Identifier: Apache-2.0
"""Bench of mm_modexp_axil, the AXI4-Lite wrapper of the exponentiation
engine (docs/integration.md), driven by cocotbext-axi's AXI4-Lite master
through the Python driver (montmul.host.ModexpDevice): exponentiations in
both modes against pow() and their CYCLES against the engine model, RSA
(CRT on the device, Garner in software), back-to-back jobs with the next
job loaded while one runs, START while busy (OVERRUN, nothing lost), reset
in the middle of a job, bad register accesses (SLVERR) and bad window
accesses (ACCERR), rejected requests (ERR).

Default suite: scs_new_ct at Width 64 on Verilator, RSA with a 128-bit
modulus (two 64-bit CRT halves).  On demand (MONTMUL_AXIL_RSA2048=1):
an RSA-2048 PKCS#1 v1.5 signature on scs_new_ct at Width 1024 (CRT halves),
compared byte for byte with ``cryptography``; it prints and writes
(build/axil_rsa2048.json) its cycle count and bus transactions.  The
register block is PeakRDL output, which Icarus 11 cannot build (no unpacked
structs): Verilator only.
"""
from __future__ import annotations

import os

if os.environ.get("MONTMUL_IN_SIM"):
    import json
    import random
    import time
    from types import SimpleNamespace

    import cocotb
    from cocotb.triggers import ClockCycles, with_timeout
    from cocotb.utils import get_sim_time
    from cocotbext.axi import AxiResp

    from montmul.host import ModexpDevice
    from montmul.host import regmap as rm
    from montmul.host.buses import CocotbAxiLite
    from montmul.host.regblock import cocotb_open
    from montmul.host.regblock import cocotb_reset as reset
    from montmul.host.device import MAGIC, place
    from montmul.engine import modexp_model

    CORE = os.environ["MONTMUL_CORE"]
    WIDTH = int(os.environ["MONTMUL_WIDTH"])
    TIMEOUT_NS = int(os.environ["MONTMUL_MODEXP_TIMEOUT"]) * 10 * 4 + 10**6

    async def setup(dut) -> tuple[ModexpDevice, CocotbAxiLite]:
        return await cocotb_open(dut, lambda bus: ModexpDevice(bus, core=CORE))

    def odd(rng: random.Random, bits: int) -> int:
        return rng.randrange(1 << (bits - 1), 1 << bits) | 1

    def check_job(job, base, exp, n, ladder, exp_len=None):
        want = modexp_model(base, exp, n, core=CORE, width=WIDTH, ladder=ladder, exp_len=exp_len)
        assert (job.result, job.err, job.cycles) == (want.result, want.err, want.cycles), (
            f"{base:#x}^{exp:#x} mod {n:#x} ladder={ladder}: bus gave {job}, model {want}")
        if not want.err:
            assert job.result == pow(base, exp, n)

    @cocotb.test()
    async def test_id_and_info(dut):
        dev, _ = await setup(dut)
        assert await dev.read(rm.ID) == MAGIC
        assert (dev.width, dev.words) == (WIDTH, -(-WIDTH // 32))
        assert await dev.read(rm.STATUS) == 0
        # Operands read back through the window, every word.
        v = random.Random(1).getrandbits(WIDTH)
        await dev.write_operand("n", v)
        assert await dev.read_operand("n") == v

    @cocotb.test()
    async def test_modexp(dut):
        dev, _ = await setup(dut)
        rng = random.Random(2)
        cases = [(0, 0, 3), (2, 0, 5), (3**4, 5, 3**5), ((1 << WIDTH) - 3, 3, (1 << WIDTH) - 1)]
        for _ in range(6):
            n = odd(rng, WIDTH)
            cases.append((rng.randrange(n), rng.getrandbits(rng.randint(1, WIDTH)), n))
        for i, (b, e, n) in enumerate(cases):
            ladder = bool(i % 2)
            job = await with_timeout(dev.modexp(b, e, n, ladder=ladder), TIMEOUT_NS, "ns")
            check_job(job, b, e, n, ladder)

    @cocotb.test()
    async def test_back_to_back_and_preload(dut):
        """The next job's operands go in while a job runs; results in order."""
        dev, _ = await setup(dut)
        rng = random.Random(3)
        jobs = [(rng.randrange(n), rng.getrandbits(WIDTH // 2) | 1, n) for n in (odd(rng, WIDTH) for _ in range(4))]
        await dev.load(*jobs[0])
        await dev.start(ladder=True)
        for i, job in enumerate(jobs):
            if i + 1 < len(jobs):
                await dev.load(*jobs[i + 1])  # while job i runs
                assert (await dev.status())["BUSY"] == 1, "the job ended before the next was loaded: use a longer one"
            got = await with_timeout(dev.finish(), TIMEOUT_NS, "ns")
            check_job(got, *job, ladder=True)
            if i + 1 < len(jobs):
                await dev.start(ladder=True)
        assert (await dev.status())["OVERRUN"] == 0

    @cocotb.test()
    async def test_start_while_busy(dut):
        dev, _ = await setup(dut)
        rng = random.Random(4)
        n = odd(rng, WIDTH)
        b, e = rng.randrange(n), rng.getrandbits(WIDTH) | (1 << (WIDTH - 1))
        await dev.load(b, e, n)
        await dev.start(ladder=True)
        await dev.load(5, 7, 11)  # different operands, then START again while busy
        await dev.start(ladder=False)
        st = await dev.status()
        assert st["BUSY"] == 1 and st["OVERRUN"] == 1, st
        job = await with_timeout(dev.finish(), TIMEOUT_NS, "ns")
        check_job(job, b, e, n, ladder=True)  # the running job was not disturbed
        await dev.clear_status()
        st = await dev.status()
        assert not any(st.values()), st
        job = await with_timeout(dev.modexp(5, 7, 11), TIMEOUT_NS, "ns")
        check_job(job, 5, 7, 11, ladder=False)

    @cocotb.test()
    async def test_reset_mid_job(dut):
        dev, _ = await setup(dut)
        rng = random.Random(5)
        n = odd(rng, WIDTH)
        await dev.load(rng.randrange(n), (1 << WIDTH) - 1, n, exp_len=WIDTH)
        await dev.start(ladder=True)
        await ClockCycles(dut.clk_i, 50)
        assert (await dev.status())["BUSY"] == 1
        await reset(dut)
        assert await dev.read(rm.STATUS) == 0
        assert await dev.read(rm.CYCLES) == 0
        assert await dev.read_operand("n") == 0, "operands are cleared by reset"
        b, e = rng.randrange(n), rng.getrandbits(WIDTH)
        job = await with_timeout(dev.modexp(b, e, n, ladder=True), TIMEOUT_NS, "ns")
        check_job(job, b, e, n, ladder=True)

    @cocotb.test()
    async def test_bad_accesses(dut):
        dev, bus = await setup(dut)
        m = bus.master
        # Unmapped addresses and read-only registers: SLVERR, nothing changes.
        for addr in (0x20, 0x40, 0xFC):
            assert (await m.read(addr, 4)).resp == AxiResp.SLVERR
            assert (await m.write(addr, b"\xff\xff\xff\xff")).resp == AxiResp.SLVERR
        for reg in (rm.ID, rm.INFO, rm.CYCLES):
            before = await dev.read(reg)
            assert (await m.write(reg, b"\x00\x00\x00\x00")).resp == AxiResp.SLVERR
            assert await dev.read(reg) == before
        assert await dev.read(rm.STATUS) == 0
        # Window accesses outside the window: OKAY, dropped / 0, ACCERR.
        await dev.write_operand("base", 0x1234)
        await dev.write(rm.WSEL, place("WSEL", "OPERAND", 0) | place("WSEL", "INDEX", dev.words))
        await dev.write(rm.DATA, 0xDEADBEEF)
        assert (await dev.status())["ACCERR"] == 1
        assert await dev.read_operand("base") == 0x1234
        await dev.clear_status()
        await dev.write(rm.WSEL, place("WSEL", "OPERAND", 4))
        await dev.write(rm.DATA, 1)  # RESULT is read only
        assert (await dev.status())["ACCERR"] == 1
        await dev.clear_status()
        await dev.write(rm.WSEL, place("WSEL", "OPERAND", 7))
        assert await dev.read(rm.DATA) == 0
        assert (await dev.status())["ACCERR"] == 1
        await dev.clear_status()
        # Byte strobes: one byte of a word.
        await dev.write(rm.WSEL, place("WSEL", "OPERAND", 0))
        assert (await m.write(rm.DATA + 1, b"\xab")).resp == AxiResp.OKAY
        assert await dev.read_operand("base") == 0xAB34
        # Requests the engine rejects: ERR, RESULT 0, CYCLES 0 or the check.
        for b, e, n, t in ((1, 1, 10, None), (12, 1, 11, None), (2, 3, 11, WIDTH + 1), (2, 4, 11, 2)):
            job = await with_timeout(dev.modexp(b, e, n, exp_len=t), TIMEOUT_NS, "ns")
            assert job.err == 1 and job.result == 0, (b, e, n, t, job)
            assert (await dev.status())["ERR"] == 1
        job = await with_timeout(dev.modexp(2, 3, 11, r2=(dev.r2(11) + 1) % 11), TIMEOUT_NS, "ns")
        assert job.err == 1 and job.cycles > 0, job  # a wrong R^2 fails the engine's check product
        # ... and the next good job clears ERR.
        job = await with_timeout(dev.modexp(2, 10, 1001), TIMEOUT_NS, "ns")
        check_job(job, 2, 10, 1001, ladder=False)
        assert (await dev.status())["ERR"] == 0

    def _small_key(bits: int, rng: random.Random):
        import gmpy2

        while True:
            p = int(gmpy2.next_prime(rng.getrandbits(bits // 2) | (1 << (bits // 2 - 1))))
            q = int(gmpy2.next_prime(rng.getrandbits(bits // 2) | (1 << (bits // 2 - 1))))
            e = 65537
            phi = (p - 1) * (q - 1)
            if p != q and phi % e and p.bit_length() <= WIDTH and q.bit_length() <= WIDTH:
                d = pow(e, -1, phi)
                return SimpleNamespace(n=p * q, e=e, d=d, p=p, q=q, dp=d % (p - 1), dq=d % (q - 1),
                                       qinv=pow(q, -1, p), size=(p * q).bit_length() // 8 + 1)

    @cocotb.test()
    async def test_rsa_small(dut):
        """Raw RSA with a 2*Width-bit key: CRT halves on the device."""
        dev, bus = await setup(dut)
        rng = random.Random(6)
        key = _small_key(2 * WIDTH, rng)
        for _ in range(2):
            c = rng.randrange(key.n)
            m, jobs = await with_timeout(dev.rsa_private(key, c), 2 * TIMEOUT_NS, "ns")
            assert m == pow(c, key.d, key.n)
            assert [j.cycles for j in jobs] == [
                modexp_model(c % p, d, p, core=CORE, width=WIDTH, ladder=True, exp_len=p.bit_length()).cycles
                for p, d in ((key.p, key.dp), (key.q, key.dq))]

    @cocotb.test(skip=not os.environ.get("MONTMUL_AXIL_KEY"))
    async def test_rsa2048_signature(dut):
        """RSA-2048 PKCS#1 v1.5 / SHA-256, byte-identical to cryptography."""
        from cryptography.hazmat.primitives import hashes
        from cryptography.hazmat.primitives.asymmetric import padding

        from montmul.apps import rsa

        dev, bus = await setup(dut)
        key = rsa.load_pem(open(os.environ["MONTMUL_AXIL_KEY"], "rb").read())
        msg = b"montmul: RSA-2048 through the AXI4-Lite wrapper"
        t0 = time.monotonic()
        t_sim0 = get_sim_time(unit="ns")
        n0 = bus.transactions
        sig, jobs = await dev.sign(key, msg)
        ns = get_sim_time(unit="ns") - t_sim0
        want = key.cryptography_key().sign(msg, padding.PKCS1v15(), hashes.SHA256())
        assert sig == want, "signature differs from cryptography's"
        key.cryptography_key().public_key().verify(sig, msg, padding.PKCS1v15(), hashes.SHA256())
        model = [modexp_model(rsa.os2ip(rsa.emsa_pkcs1_v15(msg, key.size)) % p, d, p, core=CORE, width=WIDTH,
                              ladder=True, exp_len=p.bit_length()).cycles
                 for p, d in ((key.p, key.dp), (key.q, key.dq))]
        assert [j.cycles for j in jobs] == model
        out = {
            "core": CORE, "width": WIDTH, "key_bits": key.bits, "crt": True, "ladder": True,
            "engine_cycles": [j.cycles for j in jobs], "engine_cycles_total": sum(j.cycles for j in jobs),
            "bus_cycles_total": ns // 10, "bus_transactions": bus.transactions - n0,
            "bus_reads": bus.reads, "bus_writes": bus.writes,
            "identical_to_cryptography": True, "signature": sig.hex(),
            "wall_seconds": round(time.monotonic() - t0, 1),
        }
        dut._log.info("RSA-2048 through AXI4-Lite: %s", json.dumps(out))
        path = os.environ.get("MONTMUL_AXIL_REPORT")
        if path:
            with open(path, "w") as f:
                json.dump(out, f, indent=1)

else:
    from pathlib import Path

    import pytest

    from montmul.host import sim as bus_sim

    HERE = Path(__file__).parent

    @pytest.mark.parametrize("core,width", [pytest.param("scs_new_ct", 64, id="scs_new_ct-w64")])
    def test_mm_modexp_axil(core, width, tmp_path):
        bus_sim.run(core, width, "test_mm_modexp_axil", HERE)

    @pytest.mark.skipif(not os.environ.get("MONTMUL_AXIL_RSA2048"),
                        reason="RSA-2048 through the AXI wrapper: set MONTMUL_AXIL_RSA2048=1 (minutes on Verilator)")
    def test_rsa2048_through_axil(tmp_path):
        from montmul.apps import rsa
        from montmul.resources import build_root

        key = rsa.generate(2048)
        pem = tmp_path / "key.pem"
        pem.write_bytes(key.to_pem())
        report = build_root() / "axil_rsa2048.json"
        report.parent.mkdir(parents=True, exist_ok=True)
        bus_sim.run("scs_new_ct", 1024, "test_mm_modexp_axil", HERE, testcase="test_rsa2048_signature",
                    extra_env={"MONTMUL_AXIL_KEY": str(pem),
                               "MONTMUL_AXIL_REPORT": str(report)})
        print(report.read_text())
