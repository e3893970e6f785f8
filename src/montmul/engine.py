# SPDX-License-Identifier: Apache-2.0
"""The exponentiation engine ``mm_modexp`` on any registered core: its
bit-exact, cycle-exact model, its request checks, and the generated wrapper
that plugs a core into it (``docs/modexp.md``).  Plain Python, no simulator
imports; :mod:`montmul.modexp` runs the same jobs on the model or the RTL.

The engine, for one request (base, exp, exp_len, N, R^2 mod N, mode):

1. input checks (rejected requests answer at the accepting edge, 0 cycles);
2. ``one = MM(R2, 1)`` (R mod N, the Montgomery form of 1);
3. ``chk = MM(one, 1)``, reduced once: must be 1, else R2 was not R^2 mod N
   and the request is rejected (err) - a wrong R^2 never gives a silent wrong
   answer;
4. ``bm = MM(base, R2)`` (the base in the Montgomery domain);
5. the exponent bits exp_len-1 .. 0: left-to-right square-and-multiply
   (paper 004, Algorithm 2) or the Montgomery powering ladder;
6. ``s = MM(x, 1)`` leaves the domain; one conditional subtraction of N.

Every core product is in [0, 2N) and every operand in [0, 2N), so products
chain with no subtraction in between (Walter's bound; ``docs/interface.md``).

Latency (the core's latency definition, ``docs/interface.md``): each core
multiplication costs its own latency L_i plus :data:`MUL_OVERHEAD` cycles (the
edge at which the core accepts, and the edge at which the engine takes the
core's response), and each of the two reductions (R^2 check and final) one
cycle: ``cycles = sum(L_i + 2) + 2``.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import cores
from .models import InputError

#: Engine cycles per core multiplication beyond the core's own latency: the
#: core's accepting edge and the edge at which the engine takes the response.
MUL_OVERHEAD = 2
#: Engine cycles per reduction (one conditional subtraction of N); there are
#: two: the R^2 check and the final reduction.
REDUCE_CYCLES = 1


@dataclass(frozen=True)
class ModexpResult:
    result: int  #: base**exp mod n in [0, n); 0 when err
    err: int  #: 1 when the request was rejected
    cycles: int  #: engine latency, defined like a core's latency (docs/interface.md)
    mults: int  #: core multiplications performed


@dataclass(frozen=True)
class Mult:
    """One core multiplication of an exponentiation (for traces)."""

    a: int
    b: int
    s: int
    cycles: int  #: the core's own latency


def exp_len_width(width: int) -> int:
    """Width of the engine's ``exp_len_i`` port: $clog2(Width + 1)."""
    return max(1, width.bit_length())


def default_width(n: int) -> int:
    """width=None: the modulus' bit length, at least 3 (the cores' minimum)."""
    return max(3, n.bit_length())


def default_exp_len(exp: int) -> int:
    """exp_len=None: the exponent's bit length; exp = 0 is the one-bit
    exponent "0", so x**0 = 1 (also 0**0 = 1, as Python's pow)."""
    return max(1, exp.bit_length())


def r2_mod(n: int, core: str, width: int, params: dict[str, int] | None = None) -> int:
    """R^2 mod n for ``core``'s Montgomery radix R of a request with modulus
    ``n`` at ``width`` (the per-key precomputation the host gives the engine,
    like OpenSSL's BN_MONT_CTX)."""
    if n < 1:
        raise ValueError(f"modulus must be positive, got {n}")
    return pow(2, 2 * cores.get(core).radix_log2(width, params, n), n)


#: The engine instantiates this module; :func:`core_wrapper` writes it.
CORE_WRAPPER = "mm_modexp_core"
#: The engine's RTL (after the core's files and the wrapper).
ENGINE_RTL = "modexp/mm_modexp.sv"
#: The checked-in wrapper (for lint and FuseSoC): the reference core.
DEFAULT_CORE = "r2_basic"

_PORTS = (
    ("clk_i", "input ", ""),
    ("rst_ni", "input ", ""),
    ("in_valid_i", "input ", ""),
    ("in_ready_o", "output", ""),
    ("a_i", "input ", "[Width:0]"),
    ("b_i", "input ", "[Width:0]"),
    ("n_i", "input ", "[Width-1:0]"),
    ("out_valid_o", "output", ""),
    ("out_ready_i", "input ", ""),
    ("s_o", "output", "[Width:0]"),
    ("err_o", "output", ""),
)


def core_hdl_params(core: str, params: dict[str, int] | None = None) -> dict[str, int]:
    """The core's HDL parameters other than Width, as the engine build fixes
    them: the registry's defaults, then ``params``, then the entry's fixed
    overrides (e.g. scs_new_ct's ConstTime=1), checked against their ranges;
    CheckRange is 0 (the engine checks its own inputs)."""
    c = cores.get(core)
    hdl = c.hdl_params(c.all_params["Width"].default, **(params or {}))
    if "CheckRange" in hdl:
        # The engine checks base < N and R2 < N itself, and every operand it
        # feeds back is a core product, below 2N (Walter's bound): the core's
        # range comparators would only add the engine's operand multiplexers
        # and a wide comparison to the clock period.
        hdl["CheckRange"] = 0
    return {k: v for k, v in hdl.items() if k != "Width"}


def core_wrapper(core: str, params: dict[str, int] | None = None) -> str:
    """SystemVerilog text of ``mm_modexp_core``: the registered core's top
    module with its fixed parameters, on the common core interface.  The
    engine instantiates ``mm_modexp_core``, so choosing a core is choosing
    which generated wrapper is compiled with it; no list of cores in RTL."""
    c = cores.get(core)
    check_core(c)
    fixed = core_hdl_params(core, params)
    w = cores.WIDTH
    plist = [("Width", "Width")]
    for k in sorted(fixed):
        # On/off parameters (range 0..1) are `bit` and get one-bit literals
        # (Icarus 11 mishandles 32-bit values there); int parameters decimal.
        v, p = fixed[k], c.all_params[k]
        plist.append((k, f"1'b{v}" if (p.lo, p.hi) == (0, 1) else str(v)))
    pw = max(len(k) for k, _ in plist)
    params_txt = ",\n".join(f"    .{k:<{pw}}({v})" for k, v in plist)
    tw = max(len(t) for _, _, t in _PORTS)
    ports_txt = ",\n".join(
        f"  {d} logic {t:<{tw}} {n}" for n, d, t in _PORTS
    )
    nw = max(len(n) for n, _, _ in _PORTS)
    conns = ",\n".join(f"    .{n:<{nw}}({n})" for n, _, _ in _PORTS)
    setting = ", ".join(f"{k}={v}" for k, v in sorted(fixed.items())) or "no other parameters"
    return f"""// SPDX-License-Identifier: Apache-2.0
//
// {CORE_WRAPPER}: the core that mm_modexp drives - registered core
// '{c.name}' ({c.top}, {setting}).
// GENERATED by montmul.engine.core_wrapper('{c.name}') from the core registry
// (src/montmul/cores.py); do not edit.  Builds of mm_modexp on another core
// compile their own generated copy instead of this file (docs/modexp.md).
module {CORE_WRAPPER} #(
  parameter int Width = 32  // modulus width k: {w.lo} .. {w.hi}
) (
{ports_txt}
);

  {c.top} #(
{params_txt}
  ) u_core (
{conns}
  );

endmodule
"""


def write_core_wrapper(path, core: str, params: dict[str, int] | None = None):
    """Write :func:`core_wrapper` to ``path`` unless it already holds exactly
    that text (an unchanged file keeps its time stamp, so builds stay up to
    date); atomic, so parallel builders never see half a file."""
    import os
    from pathlib import Path

    path = Path(path)
    text = core_wrapper(core, params)
    if path.exists() and path.read_text() == text:
        return path
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(text)
    os.replace(tmp, path)
    return path


def check_core(c: cores.Core) -> None:
    # The engine feeds products back as operands and reduces once at the end.
    if c.out_bound > c.in_bound or c.out_bound > 2:
        raise ValueError(
            f"core {c.name!r}: outputs in [0, {c.out_bound}N) cannot be chained into inputs "
            f"[0, {c.in_bound}N) and reduced by one subtraction"
        )


def check_ports(base: int, exp: int, n: int, r2: int, exp_len: int, width: int) -> None:
    """ValueError for values that cannot even be presented at the ports."""
    for name, v, bits in (
        ("base", base, width),
        ("exp", exp, width),
        ("n", n, width),
        ("r2", r2, width),
        ("exp_len", exp_len, exp_len_width(width)),
    ):
        if v < 0 or v >= 1 << bits:
            raise ValueError(f"{name}={v} does not fit the engine's {bits}-bit port (width {width})")


def rejects(base: int, exp: int, n: int, r2: int, exp_len: int, width: int) -> str | None:
    """Why the engine rejects the request at its accepting edge, or None."""
    if n < 3 or n % 2 == 0:
        return f"modulus N={n} must be odd and at least 3"
    if base >= n:
        return f"base {base} not below N"
    if not 1 <= exp_len <= width:
        return f"exponent length {exp_len} outside [1, {width}]"
    if exp >> exp_len:
        return f"exponent {exp:#x} has bits set at or above exp_len={exp_len}"
    if r2 >= n:
        return f"R^2 input {r2} not below N"
    return None


def engine_model(
    base: int,
    exp: int,
    n: int,
    r2: int,
    exp_len: int,
    *,
    core: str = "scs_new",
    width: int,
    params: dict[str, int] | None = None,
    ladder: bool = False,
    trace: list[Mult] | None = None,
) -> ModexpResult:
    """The engine's answer to one request with explicit R^2 and exp_len (the
    ports of mm_modexp), cycle-exact.  ``trace`` (if given) receives every
    core multiplication in order."""
    c = cores.get(core)
    check_core(c)
    check_ports(base, exp, n, r2, exp_len, width)
    if rejects(base, exp, n, r2, exp_len, width):
        return ModexpResult(0, 1, 0, 0)
    cycles = 0
    mults = 0

    class _CoreErr(Exception):
        pass

    def mm(a: int, b: int) -> int:
        nonlocal cycles, mults
        assert 0 <= a < c.in_bound * n and 0 <= b < c.in_bound * n, "operand outside the core's input range"
        try:
            r = c.run_model(a, b, n, width, params)
        except InputError:
            # The core answers err at its accepting edge; the engine takes it
            # at the next edge and answers err (never expected).
            cycles += MUL_OVERHEAD
            mults += 1
            raise _CoreErr from None
        assert 0 <= r.result < c.out_bound * n, "core result outside its output range"
        cycles += r.cycles + MUL_OVERHEAD
        mults += 1
        if trace is not None:
            trace.append(Mult(a, b, r.result, r.cycles))
        return r.result

    def reduce(s: int) -> int:
        nonlocal cycles
        cycles += REDUCE_CYCLES
        return s - n if s >= n else s

    try:
        x = mm(r2, 1)  # R mod N, in [0, 2N)
        if reduce(mm(x, 1)) != 1:  # R2 * R^-2 must be 1 mod N
            return ModexpResult(0, 1, cycles, mults)
        y = mm(base, r2)  # base * R mod N
        for i in reversed(range(exp_len)):
            bit = (exp >> i) & 1
            if ladder:
                # Invariant y = x * base (Montgomery forms); both products
                # every bit, whatever its value.
                p = mm(x, y)
                if bit:
                    x, y = p, mm(y, y)
                else:
                    x, y = mm(x, x), p
            else:
                x = mm(x, x)
                if bit:
                    x = mm(x, y)
        result = reduce(mm(x, 1))
    except _CoreErr:
        return ModexpResult(0, 1, cycles, mults)
    assert 0 <= result < n, "final result outside [0, N)"
    assert result == pow(base, exp, n), "engine model disagrees with pow()"
    return ModexpResult(result, 0, cycles, mults)


def modexp_model(
    base: int,
    exp: int,
    n: int,
    *,
    core: str = "scs_new",
    width: int | None = None,
    params: dict[str, int] | None = None,
    ladder: bool = False,
    exp_len: int | None = None,
) -> ModexpResult:
    """base**exp mod n as mm_modexp computes it on ``core``, with its exact
    latency.  R^2 comes from :func:`r2_mod`; width=None is n's bit length (at
    least 3); exp_len=None is exp's bit length (exp = 0: one bit, x**0 = 1).

    Requests the engine rejects return err=1 (result 0, 0 cycles); values that
    do not fit the engine's ports (negative, or >= 2**width) raise ValueError.
    """
    if width is None:
        width = default_width(n)
    if exp_len is None:
        exp_len = default_exp_len(exp)
    r2 = r2_mod(n, core, width, params) if n >= 1 else 0
    return engine_model(base, exp, n, r2, exp_len, core=core, width=width, params=params, ladder=ladder)
