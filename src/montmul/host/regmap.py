# SPDX-License-Identifier: Apache-2.0
"""Register map of mm_modexp_regs (GENERATED from rdl/mm_modexp_regs.rdl by
montmul.host.generate; do not edit): byte offsets and (lsb, width) of
every field."""

from __future__ import annotations

SIZE = 0x20

ID = 0x00
INFO = 0x04
CTRL = 0x08
STATUS = 0x0c
EXP_LEN = 0x10
CYCLES = 0x14
WSEL = 0x18
DATA = 0x1c

#: register -> {field: (lsb, width)}
FIELDS: dict[str, dict[str, tuple[int, int]]] = {
    "ID": {"MAGIC": (0, 32)},
    "INFO": {"WIDTH": (0, 16), "WORDS": (16, 16)},
    "CTRL": {"START": (0, 1), "LADDER": (1, 1), "IRQ_EN": (2, 1)},
    "STATUS": {"BUSY": (0, 1), "DONE": (1, 1), "ERR": (2, 1), "OVERRUN": (3, 1), "ACCERR": (4, 1)},
    "EXP_LEN": {"LEN": (0, 16)},
    "CYCLES": {"COUNT": (0, 32)},
    "WSEL": {"OPERAND": (0, 3), "INDEX": (16, 14)},
    "DATA": {"VALUE": (0, 32)},
}
