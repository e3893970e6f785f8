# SPDX-License-Identifier: Apache-2.0
"""Generate everything a bus wrapper's register map implies, from its one
SystemRDL source: for ``rdl/mm_modexp_regs.rdl`` (``mm_modexp_axil``) and
``rdl/mm_pke_regs.rdl`` (``mm_pke_axil``) each

* ``rtl/bus/<map>.sv``, ``rtl/bus/<map>_pkg.sv``: the register block with
  an AXI4-Lite slave port (PeakRDL-regblock, flat ports, asynchronous
  active-low reset, SLVERR on unmapped addresses and on writes to read-only
  / reads of write-only registers);
* ``sw/include/<map>.h``: the C header (PeakRDL-cheader);
* the register documentation (PeakRDL-markdown): ``docs/registers.md``,
  ``docs/pke_registers.md``;
* the offsets and fields for the Python driver: ``src/montmul/host/regmap.py``,
  ``src/montmul/host/pke_regmap.py``.

    python -m montmul.host.generate [--check]

``--check`` regenerates into a temporary folder and fails if any checked-in
file differs (tests/test_bus.py runs it).  Needs the ``montmul[rdl]`` extra.
"""

from __future__ import annotations

import difflib
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from .. import resources


@dataclass(frozen=True)
class RegMap:
    """One register map: its SystemRDL source and where its outputs go."""

    name: str  #: the addrmap's name (and the register block's module)
    doc: str  #: the generated register documentation
    regmap: str  #: the generated Python offsets

    @property
    def rdl(self) -> str:
        return f"rdl/{self.name}.rdl"

    @property
    def outputs(self) -> tuple[str, ...]:
        return (f"rtl/bus/{self.name}.sv", f"rtl/bus/{self.name}_pkg.sv", f"sw/include/{self.name}.h",
                self.doc, self.regmap)


MAPS = (
    RegMap("mm_modexp_regs", "docs/registers.md", "src/montmul/host/regmap.py"),
    RegMap("mm_pke_regs", "docs/pke_registers.md", "src/montmul/host/pke_regmap.py"),
)
RDL = MAPS[0].rdl
#: Every generated file, relative to the checkout.
OUTPUTS = tuple(o for m in MAPS for o in m.outputs)
REGBLOCK_ARGS = ("--cpuif", "axi4-lite-flat", "--addr-width", "8", "--default-reset", "arst_n", "--err-if-bad-addr", "--err-if-bad-rw")


def _peakrdl(*args: str) -> None:
    exe = [sys.executable, "-m", "peakrdl"]
    proc = subprocess.run([*exe, *args], capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"peakrdl {' '.join(args)} failed:\n{proc.stdout}{proc.stderr}")


def _regmap_py(rdl: Path, rel: str) -> str:
    """Python constants for the driver, read from the compiled register map."""
    from systemrdl import RDLCompiler
    from systemrdl.node import FieldNode, RegNode

    comp = RDLCompiler()
    comp.compile_file(str(rdl))
    top = comp.elaborate().top
    lines = [
        "# SPDX-License-Identifier: Apache-2.0",
        f'"""Register map of {top.inst_name} (GENERATED from {rel} by',
        "montmul.host.generate; do not edit): byte offsets and (lsb, width) of",
        'every field."""',
        "",
        "from __future__ import annotations",
        "",
    ]
    regs = [n for n in top.children() if isinstance(n, RegNode)]
    lines.append(f"SIZE = {top.size:#x}")
    lines.append("")
    for r in regs:
        lines.append(f"{r.inst_name} = {r.address_offset:#04x}")
    lines.append("")
    lines.append("#: register -> {field: (lsb, width)}")
    lines.append("FIELDS: dict[str, dict[str, tuple[int, int]]] = {")
    for r in regs:
        fs = ", ".join(f'"{f.inst_name}": ({f.lsb}, {f.width})' for f in r.fields() if isinstance(f, FieldNode))
        lines.append(f'    "{r.inst_name}": {{{fs}}},')
    lines.append("}")
    lines.append("")
    return "\n".join(lines)


def _generate_map(root: Path, rm: RegMap) -> dict[str, str]:
    rdl = root / rm.rdl
    sv, pkg, header, doc, py = rm.outputs
    with tempfile.TemporaryDirectory() as tmp:
        t = Path(tmp)
        _peakrdl("regblock", str(rdl), "-o", str(t / "rb"), *REGBLOCK_ARGS)
        # C99 (no C11 static_assert), so the header compiles under -std=c99 too
        _peakrdl("c-header", str(rdl), "-o", str(t / f"{rm.name}.h"), "--std", "gnu99")
        _peakrdl("markdown", str(rdl), "-o", str(t / "registers.md"))
        texts = {
            sv: (t / "rb" / f"{rm.name}.sv").read_text(),
            pkg: (t / "rb" / f"{rm.name}_pkg.sv").read_text(),
            header: (t / f"{rm.name}.h").read_text(),
            doc: (t / "registers.md").read_text(),
            py: _regmap_py(rdl, rm.rdl),
        }
    # Tools name their input by absolute path: keep outputs checkout-independent.
    return {k: v.replace(str(rdl), rm.rdl) for k, v in texts.items()}


def generate(root: Path, out: Path) -> list[Path]:
    """Write every output of :data:`OUTPUTS` under ``out`` from ``root``'s RDL."""
    written = []
    for rm in MAPS:
        for rel, text in _generate_map(root, rm).items():
            p = out / rel
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_text(text)
            written.append(p)
    return written


def check(root: Path) -> list[str]:
    """Names of checked-in outputs that differ from a fresh generation (with a diff)."""
    bad = []
    with tempfile.TemporaryDirectory() as tmp:
        generate(root, Path(tmp))
        for rel in OUTPUTS:
            new = (Path(tmp) / rel).read_text()
            old_p = root / rel
            old = old_p.read_text() if old_p.exists() else ""
            if new != old:
                diff = "".join(difflib.unified_diff(old.splitlines(True), new.splitlines(True), rel, rel + " (generated)", n=1))
                bad.append(f"{rel}:\n{diff[:2000]}")
    return bad


def main(argv: list[str] | None = None) -> int:
    return resources.generator_main(
        "montmul.host.generate", __doc__.split("\n\n")[0], argv, check,
        lambda root: [p.relative_to(root) for p in generate(root, root)])


if __name__ == "__main__":
    sys.exit(main())
