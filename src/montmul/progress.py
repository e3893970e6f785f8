# SPDX-License-Identifier: Apache-2.0
"""Progress bars and wall time per phase for the long jobs (simulator
builds, batches of simulated or modelled multiplications, synthesis, reports,
benches).

Off by default, so the library and the tests print nothing; the ``montmul``
command turns it on (:func:`enable`).  On a terminal a ``tqdm`` bar on
stderr with count, rate and ETA; elsewhere (a pipe, a log, CI) plain lines on
stderr, the first after two seconds, then at most one every
:data:`PLAIN_INTERVAL` seconds, and one when the job ends.  Nothing is ever
written to stdout, so ``--json`` output stays one JSON object.

:data:`PHASES` accumulates the wall time of each phase (``build``,
``simulate``, ``model``, ``synthesize``) for the ``--json`` results.
"""

from __future__ import annotations

import contextlib
import sys
import threading
import time

#: Seconds before the first plain (non-terminal) progress line, and between two.
PLAIN_FIRST = 2.0
PLAIN_INTERVAL = 10.0
#: Seconds between two redraws of the elapsed time while no item finishes.
TICK = 1.0

#: Wall seconds per phase since the last :func:`reset`.
PHASES: dict[str, float] = {}

_state = {"on": False, "stream": None}


def enable(on: bool = True, stream=None) -> None:
    """Show progress (on ``stream``, default stderr) from now on."""
    _state["on"] = on
    _state["stream"] = stream


def enabled() -> bool:
    """On, and in the main process (worker processes of a pool never draw)."""
    import multiprocessing

    return bool(_state["on"]) and multiprocessing.parent_process() is None


def write(line: str) -> None:
    """One line on stderr that does not garble a bar being drawn."""
    stream = _state["stream"] or sys.stderr
    if _state.get("tty_bars"):
        from tqdm import tqdm

        tqdm.write(line, file=stream)
    else:
        print(line, file=stream, flush=True)


def reset() -> None:
    PHASES.clear()


def wall_seconds(total_since: float | None = None) -> dict[str, float]:
    """The phases' wall time, rounded, plus ``total`` since ``total_since``
    (a ``time.monotonic()`` value) when given."""
    out = {k: round(v, 3) for k, v in PHASES.items()}
    if total_since is not None:
        out["total"] = round(time.monotonic() - total_since, 3)
    return out


@contextlib.contextmanager
def phase(name: str):
    """Add the wall time of the ``with`` block to ``PHASES[name]``."""
    t0 = time.monotonic()
    try:
        yield
    finally:
        PHASES[name] = PHASES.get(name, 0.0) + time.monotonic() - t0


def _fmt_secs(s: float) -> str:
    s = int(s)
    return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}" if s >= 3600 else f"{s // 60:02d}:{s % 60:02d}"


class Bar:
    """A progress bar for ``total`` items (None: unknown, elapsed time only).

    Use as a context manager; :meth:`update` adds done items, :meth:`set`
    sets the count, :meth:`write` prints a line above the bar.  Nothing shows
    for a job done within a second (terminal) or two (plain lines).  A
    background tick keeps the elapsed time moving while no item finishes (a
    synthesis job of minutes, a simulator build)."""

    def __init__(self, total: int | None, desc: str, unit: str = "it"):
        self.total, self.desc, self.unit = total, desc, unit
        self.n = 0
        self.t0 = time.monotonic()
        self.active = enabled()
        stream = _state["stream"] or sys.stderr
        self.stream = stream
        self.tty = self.active and hasattr(stream, "isatty") and stream.isatty()
        self._bar = None
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._last_plain: float | None = None  # no plain line yet
        if not self.active:
            return
        if self.tty:
            try:
                from tqdm import tqdm
            except ImportError:  # not installed (requirements.txt pins it): plain lines
                self.tty = False
        if self.tty:
            _state["tty_bars"] = _state.get("tty_bars", 0) + 1
            self._bar = tqdm(total=total, desc=desc, unit=unit, file=stream, dynamic_ncols=True,
                             mininterval=0.2, leave=False, delay=1.0,
                             bar_format="{desc}: {elapsed} elapsed" if total is None else None)
        self._ticker = threading.Thread(target=self._tick, daemon=True)
        self._ticker.start()

    # -- plain lines --------------------------------------------------------
    def _plain(self, end: bool = False, stopped: bool = False) -> None:
        el = time.monotonic() - self.t0
        parts = [f"montmul: {self.desc}:"]
        parts.append(f"{self.n}/{self.total} {self.unit}" if self.total is not None else f"{self.n} {self.unit}")
        parts.append(f"{_fmt_secs(el)} elapsed")
        if self.n and el > 0:
            rate = self.n / el
            parts.append(f"{rate:.3g} {self.unit}/s")
            if self.total is not None and not end:
                parts.append(f"ETA {_fmt_secs((self.total - self.n) / rate)}")
        if end:
            parts.append("stopped" if stopped else "done")
        print(", ".join([parts[0] + " " + parts[1]] + parts[2:]), file=self.stream, flush=True)
        self._last_plain = time.monotonic()

    def _tick(self) -> None:
        while not self._stop.wait(TICK):
            with self._lock:
                if self._bar is not None:
                    self._bar.refresh()
                    continue
                now = time.monotonic()
                if self._last_plain is None and now - self.t0 >= PLAIN_FIRST or \
                        self._last_plain is not None and now - self._last_plain >= PLAIN_INTERVAL:
                    self._plain()

    # -- API ----------------------------------------------------------------
    def update(self, n: int = 1) -> None:
        self.set(self.n + n)

    def set(self, n: int) -> None:
        if n == self.n:
            return
        with self._lock:
            delta, self.n = n - self.n, n
            if self._bar is not None:
                self._bar.update(delta)

    def write(self, line: str) -> None:
        """A line of output on stderr, above the bar (always shown)."""
        if self._bar is not None:
            self._bar.write(line, file=self.stream)
        else:
            print(line, file=self.stream or sys.stderr, flush=True)

    def close(self, stopped: bool = False) -> None:
        """End the bar; ``stopped``: the job failed or was interrupted."""
        if not self.active:
            return
        self._stop.set()
        with self._lock:
            if self._bar is not None:
                self._bar.close()
                _state["tty_bars"] -= 1
            elif self._last_plain is not None:  # a job that showed progress says when it ends
                self._plain(end=True, stopped=stopped)
        self.active = False

    def __enter__(self) -> Bar:
        return self

    def __exit__(self, exc_type, *exc) -> None:
        self.close(stopped=exc_type is not None)
