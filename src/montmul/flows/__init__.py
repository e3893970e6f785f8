# SPDX-License-Identifier: Apache-2.0
"""Layer 2, the flows: simulation (sim), synthesis (synth), formal proofs, volume verification, FuseSoC files."""
