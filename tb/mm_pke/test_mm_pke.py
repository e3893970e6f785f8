# SPDX-License-Identifier: Apache-2.0
"""Bench of mm_pke (rtl/ws), the public-key engine: sequencer, program
memory, two banks and ALUs around mm_ws_array, against the engine's model
montmul.models.pke.

The bench loads the RSA-CRT program ``pke.rsa_crt_program(build)`` through
the program port and both banks as ``pke.host_images`` lays them out
(every word of every region of ``pke.layout``), starts the engine and
checks

* the total cycles from start to done equal ``pke.run``'s exactly;
* each main-timeline instruction is dispatched (``dbg_disp_o``, with its
  PC) in the cycle the model issues it, less the fetch cycle, and each
  product's first B request (``dbg_prod_o``) is in the model's cycle;
* every word of every region of both banks equals the model's afterwards,
  and the result m at MQ is message^d mod pq (an RSA-CRT signature with a
  real key matches ``pow``);
* bad programs (an unknown opcode, a PROD outside a JOB, END without REP,
  REP nested three deep, a program without HALT) raise err_o with its code
  and done_o, and do not hang.

Builds: one lap of the ring (c = 1) and two (c = 2) at ℓ = 64 on Icarus in
``make test`` (one message and a signature each); on Verilator, and ℓ = 128,
with three messages, under the ``full`` mark (``make test-full``).  The
modular ALU (``ModAlu`` = 1, ``pke.Build.mod_alu``): the RSA tests on its
ℓ = 64 build (the RSA program does not use it; the engine must run it the same).

ECC (``montmul.apps.ecc.engine``'s programs, ``MONTMUL_PKE_ECC`` names the
curve): the same checks (cycles, dispatches, products, every word of every
region against ``pke.run``) for every scalar multiplication, whose point
comes from the RTL's banks: on a 16-bit prime-order curve k·P (and, under
``full``, more scalars and k0·G + k1·Q) against the affine reference (Icarus
with ModAlu 1 in ``make test``; ModAlu 0, two laps and Verilator under
``full``); P-256 and P-384 ECDSA sign, verify and ECDH through the RTL on
Verilator, byte-identical to ``cryptography``, under ``full`` (P-256 with
both ModAlu settings; minutes each).
"""
from __future__ import annotations

import json
import os
import random

import pytest

#: (bits ℓ, P, w, simulators, full, ModAlu, ECC curve or None)
CASES = [
    (64, 12, 17, ("icarus",), False, 0, None),  # c = 1, d = 4, m = 9
    (64, 6, 16, ("icarus",), False, 0, None),  # c = 2, d = 2, m = 8
    (64, 12, 17, ("icarus",), False, 1, None),  # the modular ALU: RSA unchanged
    # Verilator: its C++ build alone takes about a minute (make test-full)
    (64, 12, 17, ("verilator",), True, 0, None),
    (64, 6, 16, ("verilator",), True, 0, None),
    (64, 12, 17, ("verilator",), True, 1, None),
    (128, 10, 17, ("icarus", "verilator"), True, 0, None),  # c = 2, larger m
    # ECC: a 16-bit curve (c = 1, d = 4, m = 7; P = 6: c = 2), P-256 (P = 22: c = 1, m = 21), P-384
    # (Icarus: about 2 minutes a k·P of the small curve; Verilator: a C++ build of a few minutes)
    (16, 8, 17, ("icarus",), False, 1, "small"),
    (16, 8, 17, ("icarus",), True, 0, "small"),
    (16, 6, 16, ("icarus",), True, 1, "small"),
    (16, 8, 17, ("verilator",), True, 0, "small"),
    (256, 22, 17, ("verilator",), True, 1, "secp256r1"),
    (256, 22, 17, ("verilator",), True, 0, "secp256r1"),
    (384, 34, 17, ("verilator",), True, 1, "secp384r1"),
]
#: Yosys' reading of the RTL (bench_util.yosys_netlist) on Verilator: the
#: synthesized engine is the simulated one (under ``full``)
NETLIST_CASES = [
    (16, 8, 17, True, 1, "small"),  # the ALU's MACR and DUAL paths, k·P on a 16-bit curve
    (64, 12, 17, True, 0, None),  # RSA-CRT: windows, tables, Garner's MACR
]
PROG_WORDS = 64
PROG_WORDS_ECC = 4096  # the ECC programs unroll the table's additions (about 2,200 words with the combine)


def small_curve():
    """A 16-bit prime-order curve (a = p - 3) for exact ECC runs on a small build."""
    from montmul.apps.ecc.curves import custom

    return custom(40087, 40084, 29458, 3, 3608, 40241, name="small-m3")


def hdl_params(bits: int, pes: int, w: int, mod_alu: int = 0, ecc: str | None = None) -> dict[str, int]:
    """mm_pke's parameters for pke.Build(bits, pes=pes, w=w, mod_alu=mod_alu) (L = 6: DspRegs 3,
    LoopRegs 0), the array sized to its m."""
    from montmul import design
    from montmul.models import pke

    b = pke.Build(bits, pes=pes, w=w, mod_alu=bool(mod_alu))
    return design.pke_hdl_params(b, PROG_WORDS_ECC if ecc else PROG_WORDS, max_words=b.m)


if os.environ.get("MONTMUL_IN_SIM"):
    import cocotb
    import gmpy2
    from cocotb.clock import Clock
    from cocotb.triggers import FallingEdge

    from montmul.flows.sim import pke_run
    from montmul.models import pke

    P = json.loads(os.environ["WS_PARAMS"])
    BITS, W = int(os.environ["MONTMUL_PKE_BITS"]), P["WordWidth"]
    MOD_ALU = bool(P.get("ModAlu", 0))  # design.pke_hdl_params sets it only when 1
    ECC = os.environ.get("MONTMUL_PKE_ECC", "")
    BUILD = pke.Build(BITS, pes=P["NumPe"], w=W, mod_alu=MOD_ALU)
    LAY = pke.layout(BUILD)
    PROG = P["ProgWords"]

    async def start(dut):
        cocotb.start_soon(Clock(dut.clk_i, pke_run.PERIOD_NS, unit="ns").start())
        await pke_run.reset(dut)

    async def load_program(dut, words: list[int]):
        assert len(words) <= PROG
        await pke_run.load_program(dut, words)

    def region_addrs(lay=None) -> list[int]:
        return sorted({a for addr, size in (lay or LAY).values() for a in range(addr, addr + size)})

    async def load_banks(dut, banks, lay=None):
        await pke_run.write_banks(dut, [[(a, banks[h][a]) for a in region_addrs(lay)] for h in (0, 1)])

    async def read_banks(dut, lay=None) -> list[dict[int, int]]:
        addrs = region_addrs(lay)
        return [dict(zip(addrs, await pke_run.read_addrs(dut, h, addrs))) for h in (0, 1)]

    async def run_engine(dut, limit: int):
        """Start the engine, sampling every cycle: return (cycles start->done,
        [(cycle, pc) dispatches], [product cycles], (err_o, err_code_o))."""
        dut.start_i.value = 1
        await FallingEdge(dut.clk_i)  # cycle S ends
        dut.start_i.value = 0
        disp, prods = [], []
        for t in range(1, limit):
            if int(dut.dbg_disp_o.value):
                disp.append((t, int(dut.dbg_pc_o.value)))
            if int(dut.dbg_prod_o.value):
                prods.append(t)
            if int(dut.done_o.value):
                await FallingEdge(dut.clk_i)
                assert not int(dut.busy_o.value)
                return t, disp, prods, (int(dut.err_o.value), int(dut.err_code_o.value))
            await FallingEdge(dut.clk_i)
        raise AssertionError(f"no done_o within {limit} cycles")

    def random_prime(bits: int, rng: random.Random) -> int:
        while True:
            p = int(gmpy2.next_prime(rng.randrange(1 << (bits - 1), 1 << bits)))
            if p.bit_length() == bits:
                return p

    async def check_run(dut, prog, banks, mach, lay=None, trace=True):
        """Run ``prog`` on the engine from ``banks`` and on pke.run: cycles,
        the dispatch and product cycles (``trace``), every region word;
        returns the RTL's region words and the model's result."""
        model_banks = [bank[:] for bank in banks]
        res = pke.run(prog, model_banks, mach)
        await load_program(dut, pke.encode(prog))
        await load_banks(dut, banks, lay)
        if trace:
            cycles, disp, prods, err = await run_engine(dut, res.cycles + 100)
        else:  # the long ECC runs: the RTL driver's wait for done_o, no sampling every cycle
            cycles, code = await pke_run.run_engine(dut, res.cycles + 100)
            assert not int(dut.busy_o.value)
            err = (int(code != 0), code)
        assert err == (0, 0), f"engine error code {err[1]}"
        assert cycles == res.cycles, f"start to done {cycles} cycles, pke.run {res.cycles}"
        if not trace:
            disp, prods = [], []
            res_trace = []
        else:
            res_trace = res.trace
        want_disp = [(issue, pc) for pc, text, issue, _ in res_trace if not text.startswith("PROD")]
        want_prods = [issue + 1 for _, text, issue, _ in res_trace if text.startswith("PROD")]
        assert disp == want_disp, f"dispatches (cycle, pc) differ: RTL {disp[:12]}..., model {want_disp[:12]}..."
        assert prods == want_prods, f"products' first B requests differ: RTL {prods[:8]}, model {want_prods[:8]}"
        got = await read_banks(dut, lay)
        for h in (0, 1):
            bad = [(a, got[h][a], model_banks[h][a]) for a in region_addrs(lay) if got[h][a] != model_banks[h][a]]
            assert not bad, f"bank {h}: words (address, RTL, model) differ: {bad[:8]}"
        return got, res

    async def check_crt(dut, p, q, dp, dq, c):
        """One RSA-CRT operation on the engine against pke.run; returns the result."""
        if q > p:
            p, q, dp, dq = q, p, dq, dp
        banks, ks = pke.host_images(BUILD, p, q, dp, dq, c)
        prog = pke.rsa_crt_program(BUILD)
        got, _ = await check_run(dut, prog, banks, pke.Machine(BUILD.array, ks, mod_alu=MOD_ALU))
        addr, size = LAY["MQ"]
        return sum(got[0][addr + i] << (W * i) for i in range(size))

    async def ecc_on_rtl(dut, ep, points, scalars):
        """engine's runner: the ECC program on the RTL (checked against pke.run);
        the point read from the RTL's bank 0."""
        from montmul.apps.ecc import engine as E

        banks, ks = E.images(ep, points, scalars)
        got, res = await check_run(dut, ep.program, banks, ep.build.machine(ks), ep.regions, trace=False)
        rd = lambda name: sum(got[0][ep.regions[name][0] + i] << (W * i) for i in range(ep.build.pb.m))  # noqa: E731
        x, y = rd("XOUT"), rd("YOUT")
        dut._log.info(f"ECC on the RTL: {res.cycles} cycles")
        return E.Run(None if (x, y) == (0, 0) else (x, y), res.cycles, res.parts, res.products, res.trace)

    def ecc_args(dut) -> dict:
        from cocotb.task import resume

        return {"runner": resume(lambda ep, pts, ks: ecc_on_rtl(dut, ep, pts, ks)), "pes": P["NumPe"], "w": W,
                "mod_alu": MOD_ALU}

    @cocotb.test(skip=ECC != "small")
    async def test_ecc_small(dut):
        """k·P and k0·G + k1·Q on a 16-bit curve through the RTL against the affine reference."""
        from cocotb.task import bridge

        from montmul.apps.ecc import engine as E
        from montmul.apps.ecc.curves import affine_add_public, affine_mul_public

        await start(dut)
        c = small_curve()
        G = (c.gx, c.gy)
        Q = affine_mul_public(c, 777, G)
        arr = ecc_args(dut)
        quick = bool(os.environ.get("MONTMUL_PKE_QUICK"))
        for k in (c.n - 1,) if quick else (1, 12345, c.n - 1, c.n):
            r = await bridge(E.run_scalar_mult)(c, k, Q, **arr)
            assert r.point == affine_mul_public(c, k, Q), k
        if quick:
            return
        k0, k1 = 1000, c.n - 1000
        want = affine_add_public(c, affine_mul_public(c, k0, G), affine_mul_public(c, k1, Q))
        r = await bridge(E.run_double)(c, k0, G, k1, Q, c.n.bit_length(), **arr)
        assert r.point == want

    @cocotb.test(skip=ECC in ("", "small"))
    async def test_ecc_protocols(dut):
        """ECDSA sign and verify and ECDH through the RTL, byte-identical to cryptography."""
        from cocotb.task import bridge
        from cryptography.hazmat.primitives import hashes, serialization
        from cryptography.hazmat.primitives.asymmetric import ec

        from montmul.apps.ecc import engine as E
        from montmul.apps.ecc.curves import get

        await start(dut)
        c = get(ECC)
        ecurve, hname, halg = {"secp256r1": (ec.SECP256R1(), "sha256", hashes.SHA256()),
                               "secp384r1": (ec.SECP384R1(), "sha384", hashes.SHA384())}[ECC]
        key = ec.derive_private_key(0x1F2E3D4C5B6A79881726354453627181, ecurve)
        d = key.private_numbers().private_value
        msg = b"montmul on the engine's RTL"
        arr = ecc_args(dut)
        sig = await bridge(E.ecdsa_sign)(c, d, msg, hname, **arr)
        assert sig == key.sign(msg, ec.ECDSA(halg, deterministic_signing=True))
        spki = key.public_key().public_bytes(serialization.Encoding.DER,
                                             serialization.PublicFormat.SubjectPublicKeyInfo)
        assert await bridge(E.ecdsa_verify)(c, spki, msg, sig, hname, **arr) is True
        peer = ec.derive_private_key(0x5A5A5A5A12345, ecurve)
        peer_spki = peer.public_key().public_bytes(serialization.Encoding.DER,
                                                   serialization.PublicFormat.SubjectPublicKeyInfo)
        assert await bridge(E.ecdh)(c, d, peer_spki, **arr) == key.exchange(ec.ECDH(), peer.public_key())

    @cocotb.test(skip=bool(ECC))
    async def test_rsa_crt(dut):
        """Random primes, exponents and messages, and the message extremes."""
        await start(dut)
        rng = random.Random(int(os.environ.get("MONTMUL_SEED", "1")))
        for c_kind in ("max",) if os.environ.get("MONTMUL_PKE_QUICK") else ("random", 0, "max"):
            p, q = random_prime(BITS, rng), random_prime(BITS - rng.randint(0, 3), rng)
            while q == p:
                q = random_prime(BITS, rng)
            n = p * q
            c = rng.randrange(n) if c_kind == "random" else (0 if c_kind == 0 else n - 1)
            dp, dq = rng.randrange(1, p - 1), rng.randrange(1, q - 1)
            m = await check_crt(dut, p, q, dp, dq, c)
            assert m % p == pow(c, dp, p) and m % q == pow(c, dq, q) and m < n

    @cocotb.test(skip=bool(ECC))
    async def test_signature(dut):
        """An RSA-CRT signature with a real key (e = 65537) equals pow(m, d, n) and verifies."""
        await start(dut)
        rng = random.Random(7)
        e = 65537
        while True:
            p, q = random_prime(BITS, rng), random_prime(BITS, rng)
            if p != q and gmpy2.gcd(e, (p - 1) * (q - 1)) == 1:
                break
        n, d = p * q, pow(e, -1, (p - 1) * (q - 1))
        msg = rng.randrange(2, n)
        sig = await check_crt(dut, p, q, d % (p - 1), d % (q - 1), msg)
        assert sig == pow(msg, d, n) and pow(sig, e, n) == msg

    @cocotb.test(skip=bool(ECC))
    async def test_bad_programs(dut):
        """Each bad program ends with done_o and err_o with its code (reset between them)."""
        Op, I = pke.Op, pke.Instr
        cases = [
            ([pke.Instr(Op.CLR, 0, 10, n=2).encode() | (31 << 67)], 1),  # opcode 31
            ([I(Op.PROD, pke.F_STORE, 0, 0, 100).encode(), I(Op.HALT).encode()], 2),
            ([I(Op.END).encode(), I(Op.HALT).encode()], 3),
            ([I(Op.REP, n=2).encode(), I(Op.REP, n=2).encode(), I(Op.REP, n=2).encode(), I(Op.HALT).encode()], 3),
            ([I(Op.REP, n=0).encode(), I(Op.HALT).encode()], 3),
            ([I(Op.JOB, 0, 0, 0, 1, pke.GROUP_WORDS, BUILD.m).encode(), I(Op.HALT).encode()], 4),  # no LOAD
            ([I(Op.CLR, 0, 10, n=0).encode(), I(Op.HALT).encode()], 11),
            ([I(Op.CLR, 0, 10, n=1).encode()] * PROG, 9),  # no HALT: runs past the end
        ]
        for words, code in cases:
            await start(dut)
            await load_program(dut, words + [0] * (PROG - len(words)) if code != 9 else words)
            cycles, _, _, err = await run_engine(dut, 10 * PROG)
            assert err == (1, code), f"program {[hex(x) for x in words]}: error {err}, want (1, {code})"
else:
    @pytest.mark.parametrize(
        "sim,bits,pes,w,full,mod_alu,ecc",
        [pytest.param(sim, bits, pes, w, full, mod_alu, ecc, marks=[pytest.mark.full] if full else [],
                      id=f"{sim}-l{bits}-p{pes}-w{w}" + (f"-modalu" if mod_alu else "") + (f"-{ecc}" if ecc else ""))
         for bits, pes, w, sims, full, mod_alu, ecc in CASES for sim in sims])
    def test_mm_pke(sim, bits, pes, w, full, mod_alu, ecc):
        from bench_util import unit_bench

        from montmul import design

        hdl = hdl_params(bits, pes, w, mod_alu, ecc)
        os.environ["MONTMUL_PKE_BITS"] = str(bits)
        os.environ["MONTMUL_PKE_ECC"] = ecc or ""
        # make test: the largest message only (the signature test runs a random one)
        os.environ["MONTMUL_PKE_QUICK"] = "" if full else "1"
        unit_bench(__file__, design.PKE.top, design.PKE.rtl, hdl, sim, opt=bool(ecc) and sim == "verilator")

    @pytest.mark.parametrize(
        "bits,pes,w,full,mod_alu,ecc",
        [pytest.param(bits, pes, w, full, mod_alu, ecc, marks=[pytest.mark.full] if full else [],
                      id=f"netlist-l{bits}-p{pes}-w{w}" + (f"-modalu" if mod_alu else "") + (f"-{ecc}" if ecc else ""))
         for bits, pes, w, full, mod_alu, ecc in NETLIST_CASES])
    def test_mm_pke_netlist(bits, pes, w, full, mod_alu, ecc):
        """The same checks on Yosys' elaboration of the engine (Verilator)."""
        from bench_util import unit_bench

        from montmul import design

        hdl = hdl_params(bits, pes, w, mod_alu, ecc)
        os.environ["MONTMUL_PKE_BITS"] = str(bits)
        os.environ["MONTMUL_PKE_ECC"] = ecc or ""
        os.environ["MONTMUL_PKE_QUICK"] = "1"
        unit_bench(__file__, design.PKE.top, design.PKE.rtl, hdl, "verilator", opt=False, netlist=True)
