# montmul front door: thin targets over the setup script, pytest and the CLI.
# The logic lives in Python (src/montmul), not here.

SHELL   := /bin/bash
VENV    := .venv
PY      := $(VENV)/bin/python
export PATH := $(CURDIR)/.tools/bin:$(CURDIR)/$(VENV)/bin:$(PATH)
JOBS    ?= $(shell nproc)

.PHONY: help setup demo demo-full test test-fast test-ecc-full test-ws-full test-pke-full lint formal cycles report report-ecp5 synth-save clean bench-rsa bench-ecc rsa-axil rsa-pke-axil verify-volume coverage

help:  ## list the targets (this text)
	@grep -E '^[a-z0-9-]+:.*## ' $(MAKEFILE_LIST) | sed -E 's/^([a-z0-9-]+):[^#]*## /  make \1\t/' | expand -t 22
	@echo "  variables: JOBS=$(JOBS) (parallel processes), UPDATE=1 (make bench-rsa: refresh bench/rsa.md)"

setup:  ## install the tools and .venv (idempotent; every target calls it)
	@bash scripts/setup.sh

demo: setup  ## set up, then run the main job: every core on Icarus beside its model (paper 001's example, 100 random 256-bit products each)
	$(PY) -m montmul.cli demo --width 256 --samples 100 --sim icarus

demo-full: setup  ## every core at 1024 bits on Verilator beside its model (200 random products each; builds 15 Verilator models)
	$(PY) -m montmul.cli demo --width 1024 --samples 200 --sim verilator

test: setup  ## set up, then run the test suite (models, CLI, lint, RTL benches at their smallest widths)
	$(PY) -m pytest -n $(JOBS) -q --durations=30 -m "not full"

test-full: setup  ## the runs make test leaves out: Verilator benches above 64 bits and at other parameter sets (conftest.py)
	$(PY) -m pytest -n $(JOBS) -q -m full

test-fast: setup  ## pure-Python tests only (no simulator, lint or synthesis; under a minute)
	$(PY) -m pytest -n $(JOBS) -q -m "not rtl and not slow" tests

test-ecc-full: setup  ## the ECC tests on every curve, those above 256 bits included (about 10 min)
	MONTMUL_ECC_FULL=1 $(PY) -m pytest -n $(JOBS) -q tests/test_ecc_curves.py tests/test_ecc_field.py tests/test_ecc_point.py tests/test_ecc_protocols.py tests/test_cli_ecc.py

test-ws-full: setup  ## the ws array's bench on its larger builds too (tb/mm_ws_array, marker ws_full; about 10 min)
	MONTMUL_WS_FULL=1 $(PY) -m pytest -q tb/mm_ws_array

test-pke-full: setup  ## RSA-2048 and RSA-4096 CRT signatures through the public-key engine mm_pke on Verilator (tests/test_apps_rsa_pke.py)
	MONTMUL_PKE_FULL=1 $(PY) -m pytest -q -s tests/test_apps_rsa_pke.py -k pke_full

lint: setup  ## Verilator and Verible lint of every RTL file
	$(PY) -m pytest -q tests/test_lint.py

formal: setup  ## SymbiYosys: every core and mm_modexp at k = 3, handshake by k-induction, function by BMC (docs/formal.md; ~25 min)
	$(PY) -m montmul.apps.formal_sweep --width 3

cycles: setup  ## cycle statistics of scs_new at 1024 and 2048 bits on Verilator (about 10 min)
	$(PY) -m montmul.cli cycles --core scs_new --width 1024 --samples 10000 --sim verilator
	$(PY) -m montmul.cli cycles --core scs_new --width 2048 --samples 10000 --sim verilator

report: setup  ## refresh docs/results.md, docs/figures/, README's table (hours from a fresh clone; minutes cached)
	$(PY) -m montmul.cli report --widths 1024,2048 --fpga-widths 256,1024,2048 --out docs

bench-rsa: setup  ## RSA-1024/2048/3072/4096 CRT bench (CRT engine and 2 x mm_modexp), each RSA-1024 and RSA-2048 row confirmed on Verilator, into build/bench/rsa.{md,json} (UPDATE=1: the tracked bench/rsa.{md,json})
	$(PY) -m montmul.apps.bench_rsa --jobs $(JOBS) --crt-engine both --confirm verilator --confirm-bits 1024,2048 --out $(if $(UPDATE),bench,build/bench)/rsa.md --json-out $(if $(UPDATE),bench,build/bench)/rsa.json
	$(if $(UPDATE),$(PY) -m montmul.apps.report.choosing --out docs/choosing.md)

bench-ecc: setup  ## ECC bench: P-256/P-384 k·P, ECDSA sign/verify, ECDH on the engine (model cycles, stored post-route clock) beside OpenSSL and IPECC, into build/bench/ecc.{md,json} (UPDATE=1: the tracked bench/ecc.{md,json})
	$(PY) -m montmul.apps.ecc.bench --out $(if $(UPDATE),bench,build/bench)/ecc.md --json-out $(if $(UPDATE),bench,build/bench)/ecc.json

rsa-axil: setup  ## RSA-2048 PKCS#1 v1.5 signature through the AXI4-Lite wrapper (scs_new_ct, CRT, Verilator)
	MONTMUL_AXIL_RSA2048=1 $(PY) -m pytest -q -s tb/mm_modexp_axil -k rsa2048

rsa-pke-axil: setup  ## RSA-2048 PKCS#1 v1.5 signature through mm_pke_axil on the RSA-2048 build (P = 66, w = 17, d = 3; Verilator)
	MONTMUL_PKE_AXIL_RSA2048=1 $(PY) -m pytest -q -s tb/mm_pke_axil -k rsa2048

verify-volume: setup  ## volume harness, every core: 10^6 products at 64 bits, every product at widths 3-6 (docs/verify.md)
	$(PY) -m montmul.cli verify --core all --width 64 --count 1000000
	$(PY) -m montmul.cli verify --core all --width 3,4,5,6 --exhaustive

coverage: setup  ## line and toggle coverage of every core's bench on Verilator at 64 bits (build/coverage/coverage.md)
	$(PY) -m montmul.flows.sim.coverage --jobs $(JOBS)

report-ecp5: setup  ## every core on ECP5 at 256/1024/2048 bits + engine vs core: docs/results_ecp5.md, README's ECP5 block (synthesis cache only; RUN=1 runs what is missing: hours)
	$(PY) -m montmul.apps.report.ecp5 $(if $(RUN),,--cached) --out docs/results_ecp5.md --readme README.md
	$(PY) -m montmul.apps.report.choosing --out docs/choosing.md

synth-save: setup  ## copy finished synthesis results from build/synth/cache into the tracked store syn/results/ (then commit them)
	$(PY) -m montmul.flows.synth.store save

clean:  ## delete build/ (simulator builds, synthesis cache; the tracked store syn/results/ stays)
	rm -rf build .pytest_cache
