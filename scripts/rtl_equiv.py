#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Prove today's RTL of cores (or of a design around one) equivalent to
their RTL at a git revision, with Yosys at a small width:

    python scripts/rtl_equiv.py REV -- CORE [CORE ...] [WIDTH] [--kind modexp]

The check itself is montmul.flows.synth.equiv (python -m montmul.flows.synth.equiv --help)."""
import sys

from montmul.flows.synth.equiv import main

if __name__ == "__main__":
    sys.exit(main())
