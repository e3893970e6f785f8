# SPDX-License-Identifier: Apache-2.0
"""Simulation of the RTL cores: cocotb drivers, the shared test suite, and a
runner that builds a core (Icarus or Verilator) through cocotb_tools.runner.

Only :mod:`montmul.flows.sim.runner` is safe to import outside a simulation; the
other modules import cocotb and run inside the simulator.
"""
