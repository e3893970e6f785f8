# SPDX-License-Identifier: Apache-2.0
"""Register map of mm_pke_regs (GENERATED from rdl/mm_pke_regs.rdl by
montmul.host.generate; do not edit): byte offsets and (lsb, width) of
every field."""

from __future__ import annotations

SIZE = 0x3c

ID = 0x00
ARRAY = 0x04
PIPE = 0x08
SIZES = 0x0c
MEMORY = 0x10
CTRL = 0x14
STATUS = 0x18
CYCLES = 0x1c
PADDR = 0x20
PDATA0 = 0x24
PDATA1 = 0x28
PDATA2 = 0x2c
BSEL = 0x30
BDATA = 0x34
OPTIONS = 0x38

#: register -> {field: (lsb, width)}
FIELDS: dict[str, dict[str, tuple[int, int]]] = {
    "ID": {"MAGIC": (0, 32)},
    "ARRAY": {"PES": (0, 16), "W": (16, 5), "D": (24, 4), "C": (28, 4)},
    "PIPE": {"DSP_REGS": (0, 4), "LOOP_REGS": (4, 4), "LATENCY": (8, 8)},
    "SIZES": {"MAX_WORDS": (0, 16), "PROG_WORDS": (16, 16)},
    "MEMORY": {"BANK_WORDS": (0, 16), "INSTR_BITS": (16, 8)},
    "CTRL": {"START": (0, 1), "ABORT": (1, 1), "IRQ_EN": (2, 1)},
    "STATUS": {"BUSY": (0, 1), "DONE": (1, 1), "ERR": (2, 1), "CODE": (4, 4), "IGNORED": (8, 1), "ACCERR": (9, 1)},
    "CYCLES": {"COUNT": (0, 32)},
    "PADDR": {"ADDR": (0, 13)},
    "PDATA0": {"BITS": (0, 32)},
    "PDATA1": {"BITS": (0, 32)},
    "PDATA2": {"BITS": (0, 8)},
    "BSEL": {"HALF": (0, 1), "ADDR": (16, 14)},
    "BDATA": {"VALUE": (0, 32)},
    "OPTIONS": {"MOD_ALU": (0, 1)},
}
