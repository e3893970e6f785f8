# SPDX-License-Identifier: Apache-2.0
"""The bus wrapper's generated files and software: the register block, C
header, register documentation and driver offsets are what PeakRDL makes of
rdl/mm_modexp_regs.rdl today; the C example compiles against the header;
the instantiation templates in docs/integration.md are the registry's.  (The
wrapper itself is simulated in tb/mm_modexp_axil.)"""
from __future__ import annotations

import shutil
import subprocess

import pytest

from montmul.apps import integration
from montmul import resources
from montmul.host import generate

ROOT = resources.source_root()
pytestmark = pytest.mark.skipif(ROOT is None, reason="needs a source checkout")


def test_generated_register_files_are_up_to_date():
    bad = generate.check(ROOT)
    assert not bad, "regenerate with `python -m montmul.host.generate`:\n" + "\n".join(bad)


@pytest.mark.parametrize("std", ["c99", "c11"])  # C99: issue 47 (the header once needed C11's static_assert)
def test_c_example_compiles_against_the_header(tmp_path, std):
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        pytest.skip("no C compiler")
    proc = subprocess.run([cc, f"-std={std}", "-Wall", "-Wextra", "-Werror", "-pedantic", f"-I{ROOT / 'sw/include'}",
                           "-c", str(ROOT / "sw/examples/modexp.c"), "-o", str(tmp_path / "modexp.o")],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


def test_integration_templates_are_the_registrys():
    text = (ROOT / integration.DOC).read_text()
    assert integration.render(text) == text, "regenerate with `python -m montmul.apps.integration`"


def test_mmio_bus_reads_and_writes_32_bit_registers(tmp_path):
    """The board-side bus on a plain file standing in for /dev/mem: little-endian
    32-bit accesses at byte offsets from an unaligned physical address."""
    import asyncio
    import mmap

    from montmul.host.buses import Mmio

    f = tmp_path / "mem"
    f.write_bytes(bytes(2 * mmap.PAGESIZE))
    bus = Mmio(str(f), address=mmap.PAGESIZE + 0x40, size=0x20)

    async def go():
        await bus.write(0x1C, 0x4D4D5831)
        await bus.write(0x18, 0x1_0000_0005)  # truncated to 32 bits
        return await bus.read(0x1C), await bus.read(0x18)

    assert asyncio.run(go()) == (0x4D4D5831, 5)
    bus.close()
    raw = f.read_bytes()
    assert raw[mmap.PAGESIZE + 0x40 + 0x1C:][:4] == (0x4D4D5831).to_bytes(4, "little")
