# SPDX-License-Identifier: Apache-2.0
"""The registry is consistent with the RTL, the FuseSoC core file and the
models."""
from __future__ import annotations

import random
import re

import pytest

from montmul import cores
from montmul.cores import ROOT, RTL
from montmul.models import InputError

ALL = sorted(cores.CORES)


@pytest.mark.parametrize("name", ALL)
def test_entry_matches_rtl(name):
    core = cores.get(name)
    if core.is_config:
        assert core.name.startswith(core.top[3:] + "_"), "a configuration is named <module>_<suffix>"
    else:
        assert core.top == f"mm_{core.name}", "registry name must be the module name without mm_"
    for path in core.sources():
        text = path.read_text()
        mods = re.findall(r"^module\s+(\w+)", text, re.M)
        assert mods == [path.stem], f"{path}: one module per file, named after the file"
        assert path.stem.startswith("mm_")
    top = core.sources()[-1].read_text()
    for p in list(core.params) + list(core.hdl_overrides):
        assert re.search(rf"parameter\s+\w+\s+{p}\b", top), f"{p} is not a parameter of {core.top}"


@pytest.mark.parametrize("name", ALL)
def test_model_meets_registry_claims(name):
    """R, output range and latency bound as registered, on random inputs."""
    core = cores.get(name)
    rng = random.Random(7)
    for k in (8, 33, 128):
        for _ in range(50):
            n = rng.randrange(3, 1 << k) | 1
            a, b = rng.randrange(core.in_bound * n), rng.randrange(core.in_bound * n)
            m = core.run_model(a, b, n, k)
            assert m.result % n == a * b * pow(2, -core.r_log2(k), n) % n
            assert 0 <= m.result < core.out_bound * n
            assert m.cycles <= core.bound(k)


@pytest.mark.parametrize("name", ALL)
def test_model_rejects_bad_inputs(name):
    core = cores.get(name)
    for a, b, n in ((1, 1, 8), (1, 1, 1), (1, 1, 0), (2 * 11, 1, 11), (1, 2 * 11, 11), (1, 1, 1 << 8)):
        with pytest.raises(InputError):
            core.run_model(a, b, n, 8)


def test_parameter_ranges_enforced():
    core = cores.get("scs_new")
    with pytest.raises(ValueError):
        core.hdl_params(2)
    with pytest.raises(ValueError):
        core.hdl_params(16, CheckRange=2)


def test_every_rtl_file_is_registered_and_in_fusesoc():
    listed = set((ROOT / "montmul.core").read_text().split())
    registered = list(cores.CORES.values()) + list(cores.SCALABLE.values())
    used = {str(p.relative_to(ROOT)) for c in registered for p in c.sources()}
    # The exponentiation engine (not a core) and its default core wrapper.
    from montmul.modexp import CORE_WRAPPER, ENGINE_RTL

    used |= {f"rtl/{ENGINE_RTL}", f"rtl/modexp/{CORE_WRAPPER}.sv"}
    for path in RTL.rglob("*.sv"):
        rel = str(path.relative_to(ROOT))
        assert rel in used, f"{rel} is used by no registered core"
        assert any(tok.startswith(rel) for tok in listed), f"{rel} missing from montmul.core"


def test_unknown_core_message():
    with pytest.raises(KeyError, match="known cores"):
        cores.get("nope")
