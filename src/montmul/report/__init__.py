# SPDX-License-Identifier: Apache-2.0
"""Reports that set our measurements beside the papers' published numbers."""
