# SPDX-License-Identifier: Apache-2.0
"""The registry is consistent with the RTL, the FuseSoC core file and the
models."""
from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from montmul import cores
from montmul.cores import ROOT, RTL
from montmul.models import InputError

ALL = sorted(cores.CORES)


@pytest.mark.parametrize("name", ALL + sorted(cores.UNITS))
def test_entry_matches_rtl(name):
    core = cores.lookup(name)
    assert core.top == Path(core.rtl[-1]).stem, "the top module's file comes last"
    if not core.fixed and not core.synth_defines:
        # (a configuration pins parameters or synthesis macros of another entry's top)
        assert core.top == f"mm_{core.name}", "registry name must be the module name without mm_"
    for path in core.sources():
        text = path.read_text()
        mods = re.findall(r"^(?:module|package)\s+(\w+)", text, re.M)
        assert mods == [path.stem], f"{path}: one module or package per file, named after the file"
        assert path.stem.startswith("mm_")
    top = core.sources()[-1].read_text()
    for p in core.all_params:
        assert re.search(rf"parameter\s+\w+\s+{p}\b", top), f"{p} is not a parameter of {core.top}"
    for p in core.test_params:
        core.hdl_params(16, **p)  # every test parameter set is legal


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
            assert m.result % n == a * b * pow(2, -core.radix_log2(k, None, n), n) % n
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
    with pytest.raises(ValueError, match="no parameter"):
        core.hdl_params(16, CpaWidth=8)
    with pytest.raises(ValueError, match="fixes ConstTime=1"):
        cores.get("scs_new_ct").hdl_params(16, ConstTime=0)
    assert cores.get("scs_new_ct").hdl_params(16, ConstTime=1)["ConstTime"] == 1


def test_shared_parameters_defined_once():
    for core in [*cores.CORES.values(), *cores.UNITS.values()]:
        assert core.all_params["Width"] is cores.WIDTH
        assert core.all_params["CheckRange"] is cores.CHECK_RANGE
        assert core.all_params["CheckMod"] is cores.CHECK_MOD
    with pytest.raises(ValueError, match="redefines the shared"):
        cores.register(_scalable_core("bad", params={"Width": cores.WIDTH}))


def _scalable_core(name, **kw):
    """A core of the kind the next families need: R follows the request's
    modulus (whole words of it), several products in flight, a word size whose
    legal combinations with Width are checked."""

    def check(k, p):
        if p["WordWidth"] > k:
            raise ValueError(f"WordWidth={p['WordWidth']} wider than Width={k}")

    fields = dict(
        name=name, family="test", paper="-", top="mm_r2_basic", rtl=("radix2/mm_r2_basic.sv",),
        model=cores.get("r2_basic").model,
        params={"WordWidth": cores.Param(16, 4, 64, "word size w"), "Interleave": cores.Param(1, 1, 3, "slots")},
        r_log2=lambda k, p, n: p["WordWidth"] * cores.ceil_div(n.bit_length() + 2, p["WordWidth"]),
        latency_bound=lambda k, p: 3 * k,
        in_flight=lambda p: p["Interleave"],
        check=check,
        description="-",
    )
    fields.update(kw)
    return cores.Core(**fields)


def test_registry_describes_request_dependent_radix_and_slots():
    core = _scalable_core("scalable_probe")
    assert core.radix_log2(1024, {"WordWidth": 16}, n=(1 << 1023) + 1) == 1040
    assert core.radix_log2(1024, {"WordWidth": 16}, n=(1 << 511) + 1) == 528
    assert core.radix_log2(64) == 80  # default: the widest modulus
    assert core.in_flight(core.hdl_params(64, Interleave=3)) == 3 and core.in_flight(core.hdl_params(64)) == 1
    with pytest.raises(ValueError, match="wider than Width"):
        core.hdl_params(8, WordWidth=16)
    with pytest.raises(ValueError, match="outside its legal range"):
        core.hdl_params(64, Interleave=4)


def test_every_rtl_file_is_registered_and_in_fusesoc():
    listed = set((ROOT / "montmul.core").read_text().split())
    used = {str(p.relative_to(ROOT)) for c in cores.CORES.values() for p in c.sources()}
    # The exponentiation engines (not cores) and their default core wrapper.
    from montmul.design import CORE_WRAPPER, CRT_RTL, ENGINE_RTL, LEN_CHECK_RTL

    used |= {f"rtl/{ENGINE_RTL}", f"rtl/{CRT_RTL}", f"rtl/{LEN_CHECK_RTL}", f"rtl/modexp/{CORE_WRAPPER}.sv"}
    # The AXI4-Lite wrapper of the engine and its register block.
    from montmul.design import BUS_RTL

    used |= {f"rtl/{f}" for f in BUS_RTL}
    # The public-key engine mm_pke and its AXI4-Lite wrapper (docs/pke_axil.md).
    from montmul.flows.fusesoc import PKE_AXIL_RTL

    used |= {f"rtl/{f}" for f in PKE_AXIL_RTL}
    # The formal flow's property module: read by `montmul formal` only.
    from montmul.flows.formal import PROPS_RTL

    # The timing harness of `montmul synth --engine regs`: synthesis only.
    from montmul.design import REGS_RTL

    not_shipped = {f"rtl/{PROPS_RTL}", f"rtl/{REGS_RTL}"}
    for path in RTL.rglob("*.sv"):
        rel = str(path.relative_to(ROOT))
        # mm_pke_half: a unit with its own bench (tb/mm_pke_half), not in the engine.
        if rel in not_shipped or rel == "rtl/ws/mm_pke_half.sv":
            continue
        assert rel in used, f"{rel} is used by no registered core"
        assert any(tok.startswith(rel) for tok in listed), f"{rel} missing from montmul.core"


def test_unknown_core_message():
    with pytest.raises(KeyError, match="known cores"):
        cores.get("nope")


def test_mm_pkg_width_range_is_the_registry_s() -> None:
    """rtl/common/mm_pkg.sv's legal widths are the registry's, and a core
    whose files use the package reads it before them."""
    text = (RTL / "common" / "mm_pkg.sv").read_text()
    got = {m[0]: int(m[1]) for m in re.findall(r"localparam int (Width(?:Min|Max)) = (\d+);", text)}
    assert got == {"WidthMin": cores.WIDTH.lo, "WidthMax": cores.WIDTH.hi}
    users = 0
    for core in [*cores.CORES.values(), *cores.UNITS.values()]:
        using = [i for i, f in enumerate(core.rtl) if "mm_pkg::" in (RTL / f).read_text()]
        if using:
            users += 1
            assert "common/mm_pkg.sv" in core.rtl[:min(using)], core.name
    assert users >= 15
