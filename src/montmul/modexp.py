# SPDX-License-Identifier: Apache-2.0
"""The public API of montmul's exponentiation (``from montmul import modexp``): the names of
:mod:`montmul.apps.modexp`, where the implementation lives, re-exported so that user
code does not depend on the package's internal layout (docs/library.md)."""

from .apps.modexp import *  # noqa: F401,F403
from .apps.modexp import __all__  # noqa: F401
