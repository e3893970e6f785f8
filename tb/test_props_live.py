# SPDX-License-Identifier: Apache-2.0
"""The port-level properties of rtl/formal/mm_core_props.sv are live in the
Verilator benches of every core on the common interface (bench_util binds
them to each core's shared suite on Verilator): a request that changes while
held stops the simulation on the property module's assertion.  ws's bench
runs this check itself (tb/mm_ws)."""
from __future__ import annotations

import pytest
from bench_util import check_props_live

from montmul import cores


@pytest.mark.parametrize("core", sorted(set(cores.CORES) - {"ws"}))
def test_props_live(core):
    check_props_live(core)
