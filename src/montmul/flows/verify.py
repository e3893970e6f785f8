# SPDX-License-Identifier: Apache-2.0
"""Volume verification: millions of products per core on Verilator, checked
in C++ against GMP, without Python in the simulation loop (docs/verify.md).

:func:`build` compiles the core with the C++ driver ``sim/volume/mm_volume.cpp``
(Verilator ``--exe``, linked with GMP) into ``<build>/verify/``;
:func:`verify` runs it and returns a :class:`Result`:

* every response is checked in C++: value (S·R ≡ A·B mod N, GMP), range
  (S < OutBound·N), error flag (and s_o = 0 with it), the handshake (held
  under back-pressure, nothing valid without a request, no hang) and the
  latency: exactly the model's for the modulus length where the registry
  declares the latency independent of the operands (the table is computed
  here from the Python model, one run per modulus length), else within the
  registry's bound;
* ``model_sample`` requests (the first half of them, then the rest spread
  over the run) are logged and compared here with the Python model exactly (result bits and cycle count), which is what checks
  the operand-dependent latencies of ``scs2``, ``mscs``, ``fcs_mmm42`` and
  ``scs_new`` (``latency_model`` counts them).
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import shutil
import subprocess
import tempfile
import time
from dataclasses import asdict, dataclass, field
from importlib import resources as _ir
from pathlib import Path

from .. import progress, resources
from ..cores import Core
from .sim.runner import param_tag

#: Widths at which ``--exhaustive`` is allowed: about 4/3·8^k/... products
#: (k = 6: 174,716; k = 8: 11.2 million).
EXHAUSTIVE_MAX_WIDTH = 8
#: Requests the model checks by default (all of them in an exhaustive run
#: of a core whose latency depends on the operands).
MODEL_SAMPLE = 10_000
#: Requests of a random run by default.
DEFAULT_COUNT = 100_000
#: The harness stops after this many mismatches.
MAX_FAIL = 20


class HarnessError(RuntimeError):
    """The harness could not be built or did not run (a tool failure)."""


@dataclass
class Result:
    core: str
    width: int
    params: dict[str, int]
    mode: str
    seed: int
    products: int = 0          #: legal products checked (value, range, latency)
    rejected: int = 0          #: rejected requests checked (err_o, s_o = 0, latency 0)
    mismatches: int = 0        #: harness mismatches + model mismatches
    products_per_s: float = 0.0  #: products per second of simulation wall time
    products_per_cpu_s: float = 0.0  #: products per CPU second of the simulation loop
    cycles: int = 0
    seconds_sim: float = 0.0   #: wall seconds of the simulation loop (C++)
    cpu_seconds: float = 0.0   #: CPU seconds of the simulation loop
    latency_exact: int = 0     #: products whose latency equals the model's table entry
    latency_bounded: int = 0   #: products whose latency was only checked against the bound
    model_checked: int = 0     #: products compared with the Python model (result and cycles)
    model_mismatches: int = 0
    latency_model: int = 0     #: of the bounded ones, also checked exactly by the model sample
    corner_requests: int = 0
    backpressure: int = 0
    gaps: int = 0
    aborted: bool = False
    failures: list[dict] = field(default_factory=list)
    build_seconds: float = 0.0
    seconds_model: float = 0.0

    def as_dict(self) -> dict:
        return asdict(self)


def harness_source() -> Path:
    """The C++ driver (package data ``montmul/sim/volume/mm_volume.cpp``)."""
    return Path(str(_ir.files("montmul.flows.sim") / "volume" / "mm_volume.cpp"))


def build_dir(core: Core, hdl: dict[str, int]) -> Path:
    return resources.build_root() / "verify" / f"{core.name}_{param_tag(hdl)}"


def build(core: Core, width: int, params: dict[str, int] | None = None) -> Path:
    """Verilate ``core`` at ``width`` with the C++ driver; returns the
    executable (reused when nothing changed: Verilator and make skip an
    identical build)."""
    hdl = core.hdl_params(width, **(params or {}))
    resources.setup_tool_env()
    verilator = shutil.which("verilator")
    if verilator is None:
        raise HarnessError("verilator not found on PATH (make setup installs it)")
    bdir = build_dir(core, hdl)
    bdir.mkdir(parents=True, exist_ok=True)
    exe = bdir / "mm_volume"
    cmd = [
        verilator, "--cc", "--exe",
        "-O3", "--x-assign", "fast", "--x-initial", "fast", "-Wno-fatal", "-Wno-lint", "-Wno-style",
        "-Werror-USERFATAL",
        "--top-module", core.top, "--prefix", "Vtop", "--Mdir", str(bdir / "obj"), "-o", str(exe),
        *[f"-G{k}={v}" for k, v in hdl.items()],
        *[f"-I{d}" for d in core.includes()],
        *[str(s) for s in core.sources()],
        str(harness_source()),
        "-CFLAGS", "-O2 -std=c++17", "-LDFLAGS", "-lgmpxx -lgmp",
    ]
    env = dict(os.environ)
    # OPT_FAST: the generated model at -O2 (Verilator's default -Os is slower
    # to run); CFG_CXXFLAGS_PCH_I: see montmul.flows.sim.runner.build.
    env["MAKEFLAGS"] = "CFG_CXXFLAGS_PCH_I=-include OPT_FAST=-O2"
    # one build at a time per folder (parallel tests and runs may ask for the same one)
    with open(bdir / ".lock", "a") as lock, progress.phase("build"), \
            progress.Bar(None, f"verilator build of the volume harness: {core.name} width {width}", unit="s"):
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        runtime = _runtime_cache(verilator)
        proc = subprocess.run(cmd, cwd=bdir, env=env, capture_output=True, text=True)
        if proc.returncode == 0:
            _reuse_runtime(runtime, bdir / "obj")
            make = subprocess.run(["make", "-j", "1", "-C", str(bdir / "obj"), "-f", "Vtop.mk"], cwd=bdir, env=env,
                                  capture_output=True, text=True)
            proc = subprocess.CompletedProcess(cmd, make.returncode, proc.stdout + make.stdout,
                                               proc.stderr + make.stderr)
        (bdir / "build.log").write_text(proc.stdout + proc.stderr)
        if proc.returncode == 0:
            _keep_runtime(bdir / "obj", runtime)
    if proc.returncode != 0 or not exe.is_file():
        tail = "\n".join((proc.stdout + proc.stderr).strip().splitlines()[-8:])
        hint = " (the harness needs GMP: apt install libgmp-dev)" if "gmp" in tail.lower() else ""
        raise HarnessError(f"volume harness build of {core.name} width {width} failed{hint}; "
                           f"see {bdir / 'build.log'}:\n{tail}")
    return exe


#: Verilator's runtime objects, the same for every core built with the
#: options above: compiled once (two thirds of a harness build) and copied into
#: each new build folder, where make finds them newer than their sources.
RUNTIME_OBJS = ("verilated.o", "verilated_threads.o")


def _runtime_cache(verilator: str) -> Path:
    ver = subprocess.run([verilator, "--version"], capture_output=True, text=True).stdout.strip()
    tag = hashlib.sha256(f"{ver} {verilator} -O2 -std=c++17".encode()).hexdigest()[:12]
    return resources.build_root() / "verify" / f"_runtime_{tag}"


def _reuse_runtime(cache: Path, obj: Path) -> None:
    """Copy the cached runtime objects into a fresh build (newer than the
    Vtop.mk that Verilator just wrote, which they depend on in make)."""
    if all((cache / f).is_file() for f in RUNTIME_OBJS) and not (obj / RUNTIME_OBJS[0]).exists():
        for f in RUNTIME_OBJS:
            shutil.copyfile(cache / f, obj / f)


def _keep_runtime(obj: Path, cache: Path) -> None:
    if all((cache / f).is_file() for f in RUNTIME_OBJS) or not all((obj / f).is_file() for f in RUNTIME_OBJS):
        return
    tmp = Path(tempfile.mkdtemp(prefix="runtime_", dir=cache.parent))
    for f in RUNTIME_OBJS:
        shutil.copy2(obj / f, tmp / f)
    try:
        tmp.rename(cache)  # atomic: parallel builds never see half a cache
    except OSError:
        shutil.rmtree(tmp, ignore_errors=True)


def _sample_modulus(bits: int) -> int:
    """An odd modulus of exactly ``bits`` bits (3 for bits = 2)."""
    return max(3, (1 << (bits - 1)) | 1)


def radix_table(core: Core, width: int, hdl: dict[str, int]) -> list[int]:
    """log2 R for moduli of every bit length 0..width (0 and 1: unused)."""
    out = []
    for bits in range(width + 1):
        out.append(core.r_log2(width, hdl, _sample_modulus(max(bits, 2))))
    return out


def latency_table(core: Core, width: int, hdl: dict[str, int]) -> list[int]:
    """The model's latency for moduli of every bit length 0..width, or -1
    where it depends on the operands (``core.data_dependent``)."""
    if core.data_dependent:
        return [-1] * (width + 1)
    out = [-1, -1]
    for bits in range(2, width + 1):
        n = _sample_modulus(bits)
        out.append(core.run_model(1, 1, n, width, hdl).cycles)
    return out


def _model_check(core: Core, width: int, hdl: dict[str, int], log: Path, res: Result) -> None:
    """Compare every logged legal request with the Python model."""
    t0 = time.monotonic()
    with progress.phase("model"), progress.Bar(None, f"model: {core.name} width {width}", unit="mul") as bar:
        for line in log.read_text().splitlines():
            a, b, n, s, err, cycles, waited = line.split()
            if int(err):
                continue  # a rejected request: err_o, s_o and the latency were checked in C++
            ai, bi, ni, si, ci = int(a, 16), int(b, 16), int(n, 16), int(s, 16), int(cycles)
            m = core.run_model(ai, bi, ni, width, hdl)
            res.model_checked += 1
            bar.update()
            # a core with several products in flight presents a response no
            # earlier than right after the older one was taken
            if m.result != si or max(m.cycles, int(waited)) != ci:
                res.model_mismatches += 1
                if len(res.failures) < 10:
                    res.failures.append({
                        "kind": "model", "detail": f"model gives S = {hex(m.result)} in {m.cycles} cycles",
                        "a": a, "b": b, "n": n, "s": s, "err": 0, "cycles": ci,
                    })
    res.seconds_model = round(time.monotonic() - t0, 3)


def _log_args(count: int, exhaustive: bool, sample: int) -> list[str]:
    """The harness's log selection: every request of an exhaustive run (or
    the first ``sample``); in a random run the first half of the sample (the
    corner cases come first) and the other half spread evenly over the rest."""
    if exhaustive or sample >= count:
        return [f"log={sample}"]
    head = sample // 2
    stride = max(1, -(-(count - head) // max(1, sample - head)))
    return [f"log={head}", f"log_stride={stride}"]


def verify(
    core: Core,
    width: int,
    count: int = DEFAULT_COUNT,
    exhaustive: bool = False,
    seed: int = 1,
    params: dict[str, int] | None = None,
    model_sample: int | None = None,
    lat_override: list[int] | None = None,
    radix_override: list[int] | None = None,
) -> Result:
    """Build and run the volume harness; see the module docstring.

    ``model_sample``: requests compared with the Python model (default
    :data:`MODEL_SAMPLE`; every request of an exhaustive run of a core
    whose latency depends on the operands).  ``lat_override``/``radix_override`` replace the expected tables
    (the tests use them to check that a wrong expectation is caught).
    """
    hdl = core.hdl_params(width, **(params or {}))
    if not hdl["CheckMod"]:
        raise ValueError("CheckMod=0 leaves the modulus check to the host (mm_modexp); the volume harness "
                         "sends illegal moduli and expects them rejected: verify with CheckMod=1")
    if exhaustive and width > EXHAUSTIVE_MAX_WIDTH:
        raise ValueError(f"--exhaustive runs every odd N < 2^k with every A, B < 2N: at most width "
                         f"{EXHAUSTIVE_MAX_WIDTH} (width {width} asked)")
    if count < 1:
        raise ValueError(f"count must be at least 1, got {count}")
    t0 = time.monotonic()
    exe = build(core, width, params)
    build_seconds = time.monotonic() - t0
    if model_sample is None:
        # every product of an exhaustive run where the model is the only
        # exact check of the latency (operand-dependent cores)
        model_sample = (1 << 62) if exhaustive and core.data_dependent else MODEL_SAMPLE
    radix = radix_override or radix_table(core, width, hdl)
    lat = lat_override or latency_table(core, width, hdl)
    bound = core.latency_bound(width, hdl)
    res = Result(core.name, width, hdl, "exhaustive" if exhaustive else "random", seed,
                 build_seconds=round(build_seconds, 3))
    with tempfile.TemporaryDirectory(prefix="montmul_verify_") as tmp:
        log = Path(tmp) / "log.txt"
        argv = [
            str(exe), f"width={width}", f"mode={res.mode}", f"count={count}", f"seed={seed}",
            f"inb={core.in_bound}", f"outb={core.out_bound}", f"check_range={hdl['CheckRange']}",
            f"in_flight={core.in_flight(hdl)}", f"bound={bound}", f"max_fail={MAX_FAIL}",
            "radix=" + ",".join(map(str, radix)), "lat=" + ",".join(map(str, lat)),
            *_log_args(count, exhaustive, model_sample), f"logfile={log}",
        ]
        with progress.phase("simulate"), \
                progress.Bar(None, f"verilator: {core.name} width {width}, {res.mode}", unit="s"):
            proc = subprocess.run(argv, capture_output=True, text=True)
        if proc.returncode not in (0, 1):
            raise HarnessError(f"volume harness of {core.name} width {width} failed (status "
                               f"{proc.returncode}): {proc.stderr.strip()[-500:]}")
        try:
            out = json.loads(proc.stdout)
        except json.JSONDecodeError:
            raise HarnessError(f"volume harness printed no result: {proc.stdout[-300:]!r} {proc.stderr[-300:]!r}") \
                from None
        for key in ("products", "rejected", "mismatches", "cycles", "latency_exact", "latency_bounded",
                    "corner_requests", "backpressure", "gaps", "aborted", "failures"):
            setattr(res, key, out[key])
        res.seconds_sim = round(out["seconds"], 3)
        res.cpu_seconds = round(out["cpu_seconds"], 3)
        res.products_per_s = round(res.products / out["seconds"], 1) if out["seconds"] > 0 else 0.0
        res.products_per_cpu_s = round(res.products / out["cpu_seconds"], 1) if out["cpu_seconds"] > 0 else 0.0
        if log.is_file():
            _model_check(core, width, hdl, log, res)
    # The sample holds the first requests; those with operand-dependent
    # latency among them were checked exactly by the model.
    res.latency_model = min(res.latency_bounded, res.model_checked) if core.data_dependent else 0
    res.mismatches += res.model_mismatches
    return res


def totals(results: list[Result]) -> dict:
    """The sums over several runs (the JSON of a multi-run ``montmul verify``)."""
    products = sum(r.products for r in results)
    secs = sum(r.seconds_sim for r in results)
    return {
        "products": products,
        "rejected": sum(r.rejected for r in results),
        "mismatches": sum(r.mismatches for r in results),
        "products_per_s": round(products / secs, 1) if secs > 0 else 0.0,
        "seconds_sim": round(secs, 3),
        "cpu_seconds": round(sum(r.cpu_seconds for r in results), 3),
        "products_per_cpu_s": round(products / cpu, 1) if (cpu := sum(r.cpu_seconds for r in results)) > 0 else 0.0,
        "model_checked": sum(r.model_checked for r in results),
    }


def format_result(r: Result) -> str:
    """A human-readable summary of one run (and its first failures)."""
    params = ", ".join(f"{k}={v}" for k, v in r.params.items() if k not in ("Width",))
    lines = [
        f"{r.core} width {r.width} ({params}), {r.mode}"
        + (f" (seed {r.seed})" if r.mode == "random" else "")
        + f": {r.products:,} products + {r.rejected:,} rejected requests, {r.mismatches} mismatches",
        f"  {r.products_per_s:,.0f} products/s, {r.products_per_cpu_s:,.0f} per CPU second "
        f"({r.seconds_sim} s simulation, {r.cpu_seconds} s CPU, "
        f"{r.cycles:,} cycles; build {r.build_seconds} s)",
    ]
    if r.latency_bounded:
        lines.append(f"  latency: operand dependent, {r.latency_bounded:,} within the bound, "
                     f"{r.latency_model:,} exactly the model's (sample)")
    else:
        lines.append(f"  latency: {r.latency_exact:,} exactly the model's (operand independent)")
    lines.append(f"  model: {r.model_checked:,} products bit- and cycle-exact against the Python model "
                 f"({r.model_mismatches} mismatches, {r.seconds_model} s)")
    if r.mode == "random":
        lines.append(f"  handshake: {r.corner_requests:,} corner-case requests first, {r.backpressure:,} responses "
                     f"held under back-pressure, {r.gaps:,} idle gaps")
    for f in r.failures:
        lines.append(f"  MISMATCH ({f['kind']}: {f['detail']}): a={f['a']} b={f['b']} n={f['n']} "
                     f"-> s={f['s']} err={f['err']} cycles={f['cycles']}")
    if r.aborted:
        lines.append(f"  stopped early ({MAX_FAIL} mismatches or a protocol failure)")
    return "\n".join(lines)
