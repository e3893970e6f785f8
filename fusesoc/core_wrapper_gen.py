#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""FuseSoC generator ``mm_core_wrapper`` (registered in montmul.core): writes
a registered core's engine wrapper ``mm_modexp_core`` at build time.  FuseSoC
runs it under the ``python3`` on PATH, which must import montmul; the code is
montmul.flows.fusesoc.generate."""
import sys

from montmul.flows.fusesoc import generate

sys.exit(generate(sys.argv[1:]))
