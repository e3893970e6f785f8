# SPDX-License-Identifier: Apache-2.0
"""Layer 4, the command line (``montmul``)."""

from .commands import all_parsers, build_parser, main

__all__ = ["all_parsers", "build_parser", "main"]
