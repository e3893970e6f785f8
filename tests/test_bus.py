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

from montmul import integration, resources
from montmul.driver import generate

ROOT = resources.source_root()
pytestmark = pytest.mark.skipif(ROOT is None, reason="needs a source checkout")


def test_generated_register_files_are_up_to_date():
    bad = generate.check(ROOT)
    assert not bad, "regenerate with `python -m montmul.driver.generate`:\n" + "\n".join(bad)


def test_c_example_compiles_against_the_header(tmp_path):
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        pytest.skip("no C compiler")
    proc = subprocess.run([cc, "-std=c11", "-Wall", "-Wextra", "-Werror", "-pedantic", f"-I{ROOT / 'sw/include'}",
                           "-c", str(ROOT / "sw/examples/modexp.c"), "-o", str(tmp_path / "modexp.o")],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


def test_integration_templates_are_the_registrys():
    text = (ROOT / integration.DOC).read_text()
    assert integration.render(text) == text, "regenerate with `python -m montmul.integration`"
