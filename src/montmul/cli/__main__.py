# SPDX-License-Identifier: Apache-2.0
import sys

from .commands import main

sys.exit(main())
