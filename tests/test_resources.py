# SPDX-License-Identifier: Apache-2.0
"""montmul.resources.code_digest, the key of every cache of computed results
(report cycle statistics, paper 004's RSA cycles, the RSA bench's model
runs): the code counts, its comments and docstrings do not."""
from __future__ import annotations

from pathlib import Path

import pytest

from montmul import resources
from montmul.apps.report import p004, results


def _package(root: Path) -> Path:
    pkg = root / "montmul"
    (pkg / "models").mkdir(parents=True)
    (pkg / "apps").mkdir()
    for name in ("cores.py", "engine.py", "apps/stats.py"):
        (pkg / name).write_text(f'"""{name}."""\nWIDTH = 8  # bits\n\n\ndef lat(k):\n    """Cycles."""\n    return k + 2\n')
    (pkg / "models" / "m.py").write_text("def step(x):\n    return x >> 1\n")
    return pkg


def test_code_digest_ignores_comments_and_docstrings_only(tmp_path):
    pkg = _package(tmp_path)
    files = lambda: [pkg / "cores.py", *pkg.glob("models/*.py")]  # noqa: E731
    base = resources.code_digest(files(), pkg)
    (pkg / "cores.py").write_text('"""Reworded,\nlonger."""\n# a comment\nWIDTH = 8  # width in bits\n\n\n'
                                  'def lat(k):\n    """Latency in cycles."""\n\n    return k + 2\n')
    assert resources.code_digest(files(), pkg) == base
    (pkg / "cores.py").write_text('WIDTH = 8\n\n\ndef lat(k):\n    return k + 3\n')  # a constant changed
    assert resources.code_digest(files(), pkg) != base
    (pkg / "cores.py").write_text('WIDTH = 8\n\n\ndef lat(k):\n    return k + 2\n')
    assert resources.code_digest(files(), pkg) == base
    (pkg / "models" / "m2.py").write_text("X = 1\n")  # a new file counts
    assert resources.code_digest(files(), pkg) != base
    (pkg / "models" / "m2.py").unlink()
    (pkg / "models" / "m.py").rename(pkg / "models" / "n.py")  # so does a file's name
    assert resources.code_digest(files(), pkg) != base


@pytest.mark.parametrize("digest", [results._model_hash, p004._sources_hash], ids=["results", "p004"])
def test_report_caches_are_keyed_on_code(tmp_path, monkeypatch, digest):
    """The report's cycle statistics and paper 004's RSA cycles keep their
    caches over a comment edit of the registry and drop them on a code edit."""
    pkg = _package(tmp_path)
    monkeypatch.setattr(resources, "package_dir", lambda: pkg)
    base = digest()
    (pkg / "cores.py").write_text('"""Registry."""\n# new comment\nWIDTH = 8\n\n\ndef lat(k):\n    return k + 2\n')
    assert digest() == base
    (pkg / "cores.py").write_text('WIDTH = 9\n\n\ndef lat(k):\n    return k + 2\n')
    assert digest() != base
