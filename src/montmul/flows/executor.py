# SPDX-License-Identifier: Apache-2.0
"""The executor of montmul's sweeps: local processes (or threads) by default,
a Dask cluster on request (docs/cluster.md).

    from montmul.flows.executor import Executor
    with Executor(jobs=4) as ex:                          # a local pool, as before
        ...
    with Executor(scheduler="tcp://10.0.0.1:8786") as ex:  # a running Dask scheduler
        ...
    with Executor(cluster="local:2") as ex:               # a LocalCluster for this run
        for i, ok, value in ex.map(fn, [(a,), (b,)], desc="synthesis", unit="job"):
            ...

:meth:`Executor.map` runs ``fn(*item)`` for every item, yields the results
in completion order, feeds the progress bar (:mod:`montmul.progress`), and
cancels what is left of the sweep when the caller stops (Ctrl-C, an error).
A task's own failure (a tool error, a design that does not fit) is the
task's result: the task functions return it as data.  Dask reruns the tasks
of a worker that died on another worker; a task that took down several
workers (Dask's ``KilledWorker``) comes back as ``ok`` = False with a
message, never as a retry loop.

Workers need no shared file system.  A sweep on Dask ships the files its
tasks read as a :class:`Bundle` (their bytes, named relative to the data
root, with the client's :func:`stamp`), one task of the graph that every task
depends on (so Dask recomputes it from the graph when the worker holding it
dies); :func:`use_bundle` writes it once per worker into
``<build>/shipped/<digest>/`` and points :func:`montmul.resources.data_root`
at it while the task runs.  A worker whose montmul code differs from the
client's refuses the task (:class:`WorkerMismatch`).
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import functools
import hashlib
import importlib
import logging
import os
import shutil
import sys
import tempfile
import threading
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Iterator

from .. import progress, resources

__all__ = ["Executor", "Bundle", "ClusterError", "WorkerMismatch", "parse_cluster", "stamp", "use_bundle",
           "add_arguments", "from_args", "portable"]

#: Seconds to wait for a Dask scheduler to answer.
CONNECT_TIMEOUT = 20


class ClusterError(RuntimeError):
    """Dask is not installed, the scheduler cannot be reached, or the
    ``--cluster`` spec is malformed (a setup problem, before any task)."""


class WorkerMismatch(RuntimeError):
    """A worker runs montmul code that differs from the client's."""


def parse_cluster(spec: str) -> int:
    """``local:N`` -> N (worker processes of a LocalCluster, N >= 1)."""
    kind, sep, n = spec.partition(":")
    if kind != "local" or not sep or not n.isdigit() or int(n) < 1:
        raise ValueError(f"--cluster takes local:N (N worker processes on this machine), got {spec!r}")
    return int(n)


def add_arguments(parser) -> None:
    """``--scheduler ADDRESS`` / ``--cluster local:N`` on an argparse parser
    (every sweep command takes them)."""
    g = parser.add_mutually_exclusive_group()
    g.add_argument("--scheduler", metavar="ADDRESS",
                   help="run the tasks on a running Dask scheduler (tcp://host:8786, or a scheduler file); "
                        "--jobs is then the cluster's business (docs/cluster.md)")
    g.add_argument("--cluster", metavar="local:N",
                   help="start a Dask LocalCluster of N worker processes for this run (docs/cluster.md)")


def from_args(args, jobs: int | None = None) -> Executor:
    """The executor of parsed :func:`add_arguments` options (and ``jobs``
    local workers otherwise)."""
    return Executor(jobs=jobs, scheduler=getattr(args, "scheduler", None), cluster=getattr(args, "cluster", None))


def run_cli(prog: str, args, jobs: int | None, build: Callable[[Executor], object]) -> tuple[object, int]:
    """``build(executor)`` on the executor of the parsed :func:`add_arguments`
    options, as a command runs it: ``(result, 0)``, or ``(None, code)`` after
    a one-line error on stderr (4: no cluster or scheduler, 2: a bad value)."""
    try:
        with from_args(args, jobs) as ex:
            return build(ex), 0
    except (ClusterError, ValueError) as exc:
        print(f"{prog}: {exc}", file=sys.stderr)
        return None, 4 if isinstance(exc, ClusterError) else 2


# --------------------------------------------------------------------------
# What a task carries: the client's code stamp and the files it reads.
@functools.lru_cache(maxsize=None)
def stamp() -> str:
    """montmul's version and a digest of its code (every ``.py`` of the
    package as code, :func:`montmul.resources.code_digest`, and the C++ of the
    volume harness): equal on the client and a worker when both run the same
    montmul."""
    from .. import __version__

    pkg = resources.package_dir().resolve()
    h = hashlib.sha256(resources.code_digest(sorted(pkg.rglob("*.py")), pkg).encode())
    for f in sorted(pkg.rglob("*.cpp")):
        h.update(f.relative_to(pkg).as_posix().encode() + b"\0" + f.read_bytes())
    return f"{__version__}+{h.hexdigest()[:12]}"


@dataclass(frozen=True)
class Bundle:
    """Files a sweep's tasks read (``{name relative to the data root: bytes}``)
    and the client's :func:`stamp`; ``digest`` names the bundle by content."""

    files: dict[str, bytes]
    stamp: str
    digest: str = field(default="")

    @staticmethod
    def of(paths: Iterable[Path]) -> Bundle:
        """The bundle of ``paths`` (files under the data root)."""
        root = resources.data_root().resolve()
        files = {}
        for p in sorted({Path(p).resolve() for p in paths}):
            if not p.is_relative_to(root):
                raise ValueError(f"{p}: not under montmul's data root {root}; only files there can be shipped")
            files[p.relative_to(root).as_posix()] = p.read_bytes()
        h = hashlib.sha256(stamp().encode())
        for name, data in files.items():
            h.update(name.encode() + b"\0" + hashlib.sha256(data).digest())
        return Bundle(files, stamp(), h.hexdigest()[:16])


def _bundle(b: Bundle) -> Bundle:
    """The task that holds a sweep's bundle on the cluster."""
    return b


def materialize(bundle: Bundle, root: Path | None = None) -> Path:
    """Write ``bundle`` into ``<root>/shipped/<digest>/`` (root: the build
    folder, :func:`montmul.resources.build_root`) once; returns the folder."""
    top = (root or resources.build_root()) / "shipped"
    dest = top / bundle.digest
    if dest.is_dir():
        return dest
    top.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{bundle.digest}_", dir=top))
    for name, data in bundle.files.items():
        p = tmp / name
        if ".." in Path(name).parts or Path(name).is_absolute():
            raise ValueError(f"bundle file {name!r}: not a relative path")
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(data)
    try:
        tmp.rename(dest)  # atomic: a parallel task never sees half a bundle
    except OSError:
        shutil.rmtree(tmp, ignore_errors=True)
    return dest


_root_cond = threading.Condition()
_root_state: dict = {"root": None, "users": 0, "saved": None}


@contextlib.contextmanager
def use_bundle(bundle: Bundle) -> Iterator[Path]:
    """On a worker: check the client's stamp, write the bundle, and run the
    block with montmul's data root (:data:`montmul.resources.SOURCE_ENV`) on
    it.  Tasks of the same bundle run side by side; a task of another bundle
    waits until they are done (the data root is one per process)."""
    if bundle.stamp != stamp():
        raise WorkerMismatch(f"this worker runs montmul {stamp()}, the client montmul {bundle.stamp}: "
                             "install the same montmul on the workers as on the client")
    root = materialize(bundle)
    with _root_cond:
        while _root_state["users"] and _root_state["root"] != root:
            _root_cond.wait()
        if not _root_state["users"]:
            _root_state["saved"] = os.environ.get(resources.SOURCE_ENV)
            os.environ[resources.SOURCE_ENV] = str(root)
            _root_state["root"] = root
        _root_state["users"] += 1
    try:
        yield root
    finally:
        with _root_cond:
            _root_state["users"] -= 1
            if not _root_state["users"]:
                if _root_state["saved"] is None:
                    os.environ.pop(resources.SOURCE_ENV, None)
                else:
                    os.environ[resources.SOURCE_ENV] = _root_state["saved"]
                _root_state["root"] = None
                _root_cond.notify_all()


def portable(fn: Callable) -> Callable:
    """``fn`` as its module's import name gives it: a function of a module
    run as a script (``python -m montmul.apps.bench_rsa``) is
    ``__main__.fn`` here, which a worker process cannot import; it gets the
    same function of ``montmul.apps.bench_rsa`` instead."""
    if getattr(fn, "__module__", None) != "__main__":
        return fn
    spec = getattr(sys.modules.get("__main__"), "__spec__", None)
    if spec is None or not spec.name or spec.name == "__main__":
        return fn
    return getattr(importlib.import_module(spec.name), fn.__qualname__, fn)


def worker_name() -> str:
    """The Dask worker running this task (its address), or "local"."""
    try:
        from distributed import get_worker

        return str(get_worker().address)
    except (ImportError, ValueError):
        return "local"


# --------------------------------------------------------------------------
class Executor:
    """Where a sweep's tasks run: a local pool of ``jobs`` (default), the Dask
    scheduler at ``scheduler`` (an address such as ``tcp://host:8786``, or a
    scheduler file written by ``dask scheduler --scheduler-file``), or a
    LocalCluster of ``cluster`` = ``local:N`` worker processes started for
    the run.  Use as a context manager (it closes the client and any cluster
    it started)."""

    def __init__(self, jobs: int | None = None, scheduler: str | None = None, cluster: str | None = None,
                 timeout: float | None = None):
        if scheduler and cluster:
            raise ValueError("--scheduler and --cluster exclude each other (one is a running cluster, the other "
                             "starts one)")
        self.jobs = jobs
        self.client = None
        self._cluster = None
        self.dashboard: str | None = None
        self._bundles: dict[str, object] = {}
        if not scheduler and not cluster:
            return
        n = parse_cluster(cluster) if cluster else 0
        timeout = CONNECT_TIMEOUT if timeout is None else timeout
        try:
            import distributed
        except ImportError:
            raise ClusterError("--scheduler and --cluster run on Dask: pip install 'montmul[cluster]' "
                               "(dask and distributed)") from None
        try:
            if cluster:
                self._cluster = distributed.LocalCluster(
                    n_workers=n, threads_per_worker=1, processes=True, dashboard_address=":0",
                    silence_logs=logging.ERROR)
                self.client = distributed.Client(self._cluster)
            elif Path(scheduler).is_file():
                self.client = distributed.Client(scheduler_file=scheduler, timeout=timeout)
            else:
                self.client = distributed.Client(scheduler, timeout=timeout)
        except (OSError, TimeoutError, ValueError, RuntimeError) as exc:
            self.close()
            where = f"the Dask scheduler at {scheduler}" if scheduler else f"a LocalCluster of {n} workers"
            raise ClusterError(f"cannot reach {where}: {exc}") from None
        try:
            self.dashboard = self.client.dashboard_link if self.client.scheduler_info().get(
                "services", {}).get("dashboard") else None
        except (KeyError, AttributeError):  # no dashboard (bokeh not installed)
            self.dashboard = None
        if progress.enabled():
            where = f"a LocalCluster of {n} workers" if cluster else f"the Dask scheduler at {scheduler}"
            progress.write(f"montmul: running on {where}" + (f"; dashboard {self.dashboard}" if self.dashboard else ""))
            if not self.workers():
                progress.write("montmul: the scheduler has no worker yet; the tasks wait for one (Ctrl-C stops)")

    @property
    def remote(self) -> bool:
        """True on Dask (tasks ship what they read), False for a local pool."""
        return self.client is not None

    def workers(self) -> int:
        """Workers (threads) that run tasks: the pool size, or the cluster's
        total threads now."""
        if self.client is None:
            return self.jobs or os.cpu_count() or 1
        info = self.client.scheduler_info(n_workers=-1) if _takes_n_workers(self.client) else \
            self.client.scheduler_info()
        return sum(int(w.get("nthreads", 1)) for w in info.get("workers", {}).values())

    def ship(self, paths: Iterable[Path]) -> object:
        """What a task takes to read ``paths`` on a worker: on Dask the future
        of their :class:`Bundle` (one task, computed once per sweep), locally
        None (the files are here)."""
        if self.client is None:
            return None
        b = Bundle.of(paths)
        if b.digest not in self._bundles:
            self._bundles[b.digest] = self.client.submit(_bundle, b, key=f"montmul-files-{b.digest}", pure=False)
        return self._bundles[b.digest]

    def map(self, fn: Callable, items: list[tuple], desc: str, unit: str = "task", local: str = "process",
            name: str = "montmul-task", bar: bool = True) -> Iterator[tuple[int, bool, object]]:
        """Run ``fn(*item)`` for every item; yield ``(index, ok, value)`` in
        completion order: ``ok`` with the task's return value, or False with
        a one-line message when the cluster lost the task (it killed the
        workers that ran it).  Any other exception of a task is raised (the
        rest of the sweep cancelled).  ``local``: "process" or "thread", the
        pool a local run uses (one task: run here, no pool)."""
        if not items:
            return
        n = min(len(items), self.workers()) if self.client is None else self.workers()
        where = f"Dask, {n} worker threads" if self.client is not None else f"{n} in parallel"
        ctx = progress.Bar(len(items), f"{desc} ({where})", unit=unit) if bar else contextlib.nullcontext()
        fn = portable(fn)
        it = self._dask(fn, items, name) if self.client is not None else self._local(fn, items, local, n)
        try:
            with ctx as b:
                for out in it:
                    if b is not None:
                        b.update()
                    yield out
        finally:
            it.close()  # the caller stopped (Ctrl-C, an error, break): cancel what is left

    def _local(self, fn, items, local, n):
        if n <= 1 and (len(items) == 1 or local == "thread"):  # no pool needed
            for i, item in enumerate(items):
                yield i, True, fn(*item)
            return
        kind = concurrent.futures.ProcessPoolExecutor if local == "process" else concurrent.futures.ThreadPoolExecutor
        pool = kind(max_workers=n)
        try:
            futs = {pool.submit(fn, *item): i for i, item in enumerate(items)}
            for fut in concurrent.futures.as_completed(futs):
                yield futs[fut], True, fut.result()
        except BaseException:
            pool.shutdown(wait=False, cancel_futures=True)
            raise
        pool.shutdown(wait=True)

    def _dask(self, fn, items, name):
        import distributed

        token = uuid.uuid4().hex[:8]
        futs = [self.client.submit(fn, *item, key=f"{name}-{token}-{i}", pure=False, retries=0)
                for i, item in enumerate(items)]
        index = {f.key: i for i, f in enumerate(futs)}
        done = False
        try:
            for fut in distributed.as_completed(futs):
                i = index[fut.key]
                if fut.status == "error":
                    exc = fut.exception()
                    if isinstance(exc, distributed.KilledWorker):
                        yield i, False, (f"lost: the task ended the worker that ran it several times "
                                         f"(Dask KilledWorker; out of memory?): {exc}")
                        continue
                    raise exc
                value = fut.result()
                fut.release()
                yield i, True, value
            done = True
        finally:
            if not done:
                self.client.cancel(futs)

    def close(self) -> None:
        if self.client is not None:
            for f in self._bundles.values():
                f.release()
            self._bundles.clear()
            with contextlib.suppress(Exception):
                self.client.close()
            self.client = None
        if self._cluster is not None:
            with contextlib.suppress(Exception):
                self._cluster.close()
            self._cluster = None

    def __enter__(self) -> Executor:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _takes_n_workers(client) -> bool:
    import inspect

    return "n_workers" in inspect.signature(client.scheduler_info).parameters
