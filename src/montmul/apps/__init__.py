# SPDX-License-Identifier: Apache-2.0
"""Layer 3, the applications: exponentiation, RSA, the leak audit and statistics, reports and benches."""
