# SPDX-License-Identifier: Apache-2.0
"""The ``full`` mark: runs that ``make test`` leaves to ``make test-full``.

``make test`` keeps every core's shared suite at its smallest widths on Icarus
and Verilator, every parameter set on Icarus, and one configuration of each
unit bench on Verilator; the runs below repeat those on Verilator at wider
operands or other parameter sets, or are a second engine of the same check.
They cost more than a third of the suite's time on a 2-core machine
(measured: ``pytest --durations=0``), so ``make test`` deselects them
(``-m "not full"``) and ``make test-full`` runs them (``-m full``).
"""
from __future__ import annotations

import re

import pytest

#: Test ids (``path::name[params]``) that ``make test`` leaves out.
FULL = [re.compile(p) for p in (
    # the cores' benches on Verilator above 64 bits (64 bits runs in make test)
    r"^tb/(?!mm_ws_)[^\[]*\[[^\]]*verilator[^\]]*-w(?:256|512|1024|2048|4096)\b",
    # non-default parameter sets on Verilator (Icarus runs every one of them)
    r"^tb/.*\[[^\]]*verilator[^\]]*-(?:WordWidth|NumPes|CpaWidth|FifoLatency)\d",
    r"^tb/mm_dsp_redundant/.*_interleave\[verilator-256",
    # unit benches: one Verilator configuration in make test
    r"^tb/mm_seg_add/.*\[(?!w64-s16-)[^\]]*-verilator\]",
    # CRT signatures on Verilator: one core in make test
    r"^tests/test_rsa\.py::test_crt_sign_on_verilator\[(?!scs_new_ct\])",
    # ws at 64 bits on Icarus (about 75 s: a product is ~250 cycles of the
    # ring; Verilator runs 64 bits in make test, Icarus 8 bits)
    r"^tb/mm_ws/test_mm_ws\.py::test_mm_ws\[icarus-w64\]",
    # ws inside mm_modexp on Icarus (minutes: ~220 cycles a product); make
    # test runs one exponentiation on it (tests/test_fusesoc.py's smoke test)
    r"^tb/mm_modexp/test_mm_modexp\.py::test_mm_modexp\[icarus-ws-w8\]",
    # ws's non-default parameter sets on Icarus (the bypass, two laps):
    # make test runs the defaults on Icarus and Verilator; the array's own
    # bench (tb/mm_ws_array) runs its small builds of both in make test
    r"^tb/mm_ws/test_mm_ws\.py::test_mm_ws\[icarus-w8-",
    # the engine's half on Verilator (tb/mm_pke runs the whole engine, its
    # halves included, on Icarus in make test)
    r"^tb/mm_pke_half/.*\[verilator-",
    # the engine behind its AXI4-Lite wrapper (Verilator only, 2-3 min for
    # each of two builds: the C++ build and five tests with RSA-512 runs)
    r"^tb/mm_pke_axil/",
    # the store's re-filing by a Yosys equivalence proof (about 40 s of
    # Yosys; the other re-filing paths run in make test)
    r"^tests/test_synth_store\.py::test_rekey_equiv$",
    # ECC on the engine above 256 bits (make test-ecc-full's rule)
    r"^tests/test_apps_ecc_engine\.py::test_scalar_mult_standard_curves\[secp384r1\]",
    # RSA-512 verification on mm_modexp around ws in RTL (a 512-bit ws
    # Verilator build, about a minute of CPU); make test signs on mm_pke's RTL
    r"^tests/test_apps_rsa_pke\.py::test_rsa512_verify_verilator$",
    # ws_ecp5 simulates as ws (the same RTL; only its ECP5 synthesis
    # differs): make test runs these registry-wide checks on ws
    r"^tests/test_(?:leak|fusesoc|modexp_lint|modexp_model|lint|rsa|integration|engine_crt|ecc_protocols)\.py::\w+"
    r"\[[^\]]*ws_ecp5",
    r"^tb/mm_modexp/test_mm_modexp\.py::test_mm_modexp\[icarus-ws_ecp5-",
    # the ws core's MM_FORMAL invariants on Verilator: the formal flow's
    # build in make test, two laps and the defaults in make test-full
    r"^tb/mm_ws/test_mm_ws\.py::test_mm_ws_invariants\[w8",
    # the ws core's handshake k-induction (about 3 minutes of the solver)
    r"^tests/test_formal\.py::test_ws_handshake_proved_by_induction$",
    # the port properties live on ws_ecp5 (it simulates as ws, checked in make test)
    r"^tb/test_props_live\.py::test_props_live\[ws_ecp5\]",
    # the engine's ModAlu builds at 16 bits on Icarus (make test runs the
    # ModAlu RSA build at 64 bits and the default 16-bit curve)
    r"^tb/mm_pke/test_mm_pke\.py::test_mm_pke\[icarus-l16-[^\]]*-modalu-small\]",
    # the leak audit of the engine's ECC programs at P-256 and P-384 through
    # the CLI (minutes of the model) and a sample through mm_pke's RTL on
    # Verilator (a build); make test audits a 16-bit curve and secp160r1
    r"^tests/test_apps_leak_ecc\.py::test_(?:cli_standard_curves|rtl_sample_verilator)",
    # RSA-512 through mm_pke's RTL on Verilator (a 40 s build; make test runs
    # the engine's driver on Icarus at 64 bits, cycles equal to the model)
    r"^tests/test_apps_rsa_pke\.py::test_rsa512_sign_verilator",
    # the upper width bound on Icarus (Verilator checks it in make test)
    r"^tests/test_lint\.py::test_illegal_width_icarus\[[^\]]*-w8193\]",
)]


def pytest_collection_modifyitems(config, items):
    for item in items:
        if any(p.search(item.nodeid) for p in FULL):
            item.add_marker(pytest.mark.full)
