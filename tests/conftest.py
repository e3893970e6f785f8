# SPDX-License-Identifier: Apache-2.0
"""Marks for ``make test-fast`` (``pytest -m "not rtl and not slow" tests``):

* ``rtl``: the tests under tests/ that run EDA tools (RTL simulation, lint,
  synthesis);
* ``slow``: pure-Python tests that take seconds each: the model checks at
  widths of 256 bits and more (any integer >= 256 in the parameter ids) and
  the RSA and property tests named below.

``make test`` runs them all, but for the ECC tests on curves above 256 bits
(``make test-ecc-full``) and the runs the root ``conftest.py`` marks ``full``
(``make test-full``)."""
from __future__ import annotations

import importlib.util
import os
import re
from pathlib import Path

import pytest

# No test's synthesis result comes from the tracked store (syn/results/,
# montmul.flows.synth.store): tests run the flows or use their own build folders.
os.environ["MONTMUL_SYNTH_STORE"] = "off"

#: Whole files that run Verilator/Verible lint, Yosys, nextpnr or OpenSTA.
TOOL_FILES = {"test_lint.py", "test_modexp_lint.py", "test_synth.py", "test_report.py"}

#: Words in a test's name or parameter ids that mean it simulates RTL.
RTL_WORDS = ("icarus", "verilator")

#: Tests that simulate RTL without saying so in their name.
RTL_TESTS = {"test_rtl_paths", "test_data_dependent_flag_matches_rtl", "test_rerun_reproduces_the_flow"}

#: Pure-Python tests of several seconds each (measured: `pytest --durations`).
SLOW_TESTS = {
    "test_encryption_both_ways", "test_nist_siggen15_subset_model", "test_pkcs1v15_sign_byte_identical",
    "test_pss_both_ways", "test_every_exponentiation_equals_pow", "test_crt_and_non_crt_agree_on_random_inputs",
    "test_pkcs1v15_sign_without_crt_byte_identical", "test_nist_siggen_pss_known_salt", "test_rsa_no_crt_and_pss",
    "test_property_chain", "test_oaep_label_and_hashes", "test_property_all_models", "test_rsa_encrypt_decrypt",
    "test_pkcs1v15_hashes_byte_identical", "test_small_moduli_at_wide_width", "test_rsa_safe_defaults",
    "test_corner_operands", "test_random_scs_new",
}

#: Parameter ids with a number this large are wide-operand model runs.
WIDE = 256

#: ECC tests on curves of more than 256 field bits: seconds to a minute each
#: on the model, so they run in ``make test-ecc-full`` (MONTMUL_ECC_FULL=1);
#: ``make test`` runs every curve up to 256 bits.
ECC_WIDE = re.compile(r"secp384|secp521|brainpoolP(?:320|384|512)|P-384|P-521")
ECC_FILES = ("test_ecc_", "test_cli_ecc")


def pytest_collection_modifyitems(config, items):
    for item in items:
        func = getattr(item, "originalname", item.name)
        ids = item.name[len(func):]
        if (item.path.name in TOOL_FILES or any(w in item.name.lower() for w in RTL_WORDS)
                or func in RTL_TESTS):
            item.add_marker(pytest.mark.rtl)
        elif func in SLOW_TESTS or any(int(x) >= WIDE for x in re.findall(r"\d+", ids)):
            item.add_marker(pytest.mark.slow)
        if (item.path.name.startswith(ECC_FILES) and ECC_WIDE.search(ids)
                and os.environ.get("MONTMUL_ECC_FULL") != "1"):
            item.add_marker(pytest.mark.skip(reason="set MONTMUL_ECC_FULL=1 (make test-ecc-full) for curves "
                                                    "above 256 bits"))


@pytest.fixture(scope="session")
def load_script():
    """A loader of the repository's scripts that are not in the package
    (``scripts/nextpnr_try.py``): path relative to the repository -> the
    module."""
    root = Path(__file__).resolve().parents[1]

    def load(rel: str):
        spec = importlib.util.spec_from_file_location(Path(rel).stem, root / rel)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        return mod

    return load
