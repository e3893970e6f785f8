# SPDX-License-Identifier: Apache-2.0
"""The public API of montmul's elliptic-curve cryptography (``from montmul
import ecc``): the names of :mod:`montmul.apps.ecc`, where the
implementation lives, re-exported so that user code does not depend on the
package's internal layout (docs/ecc.md, docs/library.md)."""

from .apps.ecc import *  # noqa: F401,F403
from .apps.ecc import __all__  # noqa: F401
