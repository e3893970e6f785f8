# montmul front door: thin targets over the setup script, pytest and the CLI.
# The logic lives in Python (src/montmul), not here.

SHELL   := /bin/bash
VENV    := .venv
PY      := $(VENV)/bin/python
export PATH := $(CURDIR)/.tools/bin:$(CURDIR)/$(VENV)/bin:$(PATH)
JOBS    ?= $(shell nproc)

.PHONY: setup demo test test-fast lint cycles report clean bench-rsa rsa-axil

setup:
	@bash scripts/setup.sh

demo: setup  ## set up, then run the main job (both simulators' results beside the models)
	$(PY) -m montmul.cli demo

test: setup  ## set up, then run the whole test suite (models, CLI, lint, RTL benches)
	$(PY) -m pytest -n $(JOBS) -q

test-fast: setup  ## pure-Python tests only
	$(PY) -m pytest -n $(JOBS) -q tests

lint: setup
	$(PY) -m pytest -q tests/test_lint.py

cycles: setup  ## the issue's bulk cycle statistics at 1024 and 2048 bits
	$(PY) -m montmul.cli cycles --core scs_new --width 1024 --samples 10000
	$(PY) -m montmul.cli cycles --core scs_new --width 2048 --samples 10000

report: setup  ## every core through the ASIC, ECP5 and Xilinx flows: docs/results.md, docs/figures/, README table
	$(PY) -m montmul.cli report --widths 1024,2048 --fpga-widths 256

bench-rsa: setup  ## RSA-1024/2048 private-key cycles per core (model), ECP5 time, papers 002/004, OpenSSL
	$(PY) bench/bench_rsa.py --out bench/rsa.md

rsa-axil: setup  ## RSA-2048 PKCS#1 v1.5 signature through the AXI4-Lite wrapper (scs_new_ct, CRT, Verilator)
	MONTMUL_AXIL_RSA2048=1 $(PY) -m pytest -q -s tb/mm_modexp_axil -k rsa2048

clean:
	rm -rf build .pytest_cache
