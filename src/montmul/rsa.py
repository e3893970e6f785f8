# SPDX-License-Identifier: Apache-2.0
"""The public API of montmul's RSA (``from montmul import rsa``): the names of
:mod:`montmul.apps.rsa`, where the implementation lives, re-exported so that user
code does not depend on the package's internal layout (docs/library.md)."""

from .apps.rsa import *  # noqa: F401,F403
from .apps.rsa import __all__  # noqa: F401
