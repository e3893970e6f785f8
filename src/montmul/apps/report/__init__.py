# SPDX-License-Identifier: Apache-2.0
"""Reports that set our measurements beside the papers' published numbers."""

#: Paper-family sections: modules ``montmul.apps.report.<name>`` with
#: ``build(workers) -> dict`` and ``markdown(data) -> str``; ``montmul
#: report`` runs each that exists (results.build) and appends its section
#: (render.markdown).
FAMILIES = ("p002", "p003", "p004")

