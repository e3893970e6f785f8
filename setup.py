# SPDX-License-Identifier: Apache-2.0
"""Build hook: the wheel carries the RTL, synthesis templates, lint waivers
and SystemRDL sources as package data under ``montmul/data/``.

They live once in git, at the top of the source tree (rtl/, syn/, lint/,
rdl/), where the simulators, FuseSoC and the linters use them directly.  At
build time this hook copies them into the built package, so an installed
montmul finds them with importlib.resources (montmul.resources); an sdist
carries the top-level folders (MANIFEST.in) and builds the same wheel.  An
editable install copies nothing: montmul.resources then finds the checkout.
Everything else is in pyproject.toml.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
#: Keep in step with montmul.resources.DATA_DIRS.
DATA_DIRS = ("rtl", "syn", "lint", "rdl")
#: Suffixes copied (sources only: never build output or editor files).
SUFFIXES = {".sv", ".svh", ".v", ".vlt", ".rules", ".rdl", ".in", ".tcl", ".md", ".ys", ".sdc"}


class BuildPyWithData(build_py):
    def run(self) -> None:
        super().run()
        if self.editable_mode:
            return
        dest = Path(self.build_lib) / "montmul" / "data"
        if dest.exists():
            shutil.rmtree(dest)
        copied = 0
        for d in DATA_DIRS:
            src = HERE / d
            if not src.is_dir():
                raise FileNotFoundError(f"{src}: missing; the package data comes from the source tree's {d}/ folder")
            for f in sorted(src.rglob("*")):
                if f.is_file() and f.suffix in SUFFIXES:
                    out = dest / f.relative_to(HERE)
                    out.parent.mkdir(parents=True, exist_ok=True)
                    shutil.copy2(f, out)
                    copied += 1
        print(f"montmul: {copied} data files copied into {dest}")


setup(cmdclass={"build_py": BuildPyWithData})
