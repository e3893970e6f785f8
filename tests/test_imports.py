# SPDX-License-Identifier: Apache-2.0
"""The package's import structure: no cycles, layers that run one way, no
private names across modules.

Every ``import`` and ``from … import`` of a ``montmul`` module is read from
the source with ``ast`` (including imports inside functions, which Python
resolves lazily but which are dependencies all the same).  The layers, lowest
first: models -> registry (cores, engine) -> flows (simulation, synthesis,
formal, verification, FuseSoC) -> applications (exponentiation, RSA,
reports, benches) and the bus host driver -> command line.  A module may import its own
layer or a lower one.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

PKG = Path(__file__).resolve().parents[1] / "src" / "montmul"

#: (module prefix, layer); the longest matching prefix wins.  The folders
#: are the layers: models/ and the foundation modules (0), the registry of
#: cores and designs (1), flows/ (2), apps/ and host/ (3), cli/ (4).
LAYERS = (
    ("montmul.resources", 0),
    ("montmul.progress", 0),
    ("montmul.models", 0),
    ("montmul.cores", 1),
    ("montmul.design", 1),
    ("montmul.engine", 1),
    ("montmul.flows", 2),
    ("montmul.apps", 3),
    ("montmul.host", 3),
    ("montmul.rsa", 3),  # public API re-exports of apps/ (docs/library.md)
    ("montmul.modexp", 3),
    ("montmul.ecc", 3),
    ("montmul.cli", 4),
    ("montmul.__main__", 4),
    ("montmul", 0),  # the package's own __init__
)


def _module_name(path: Path) -> str:
    rel = path.relative_to(PKG.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {_module_name(p): p for p in sorted(PKG.rglob("*.py"))}


def _resolve(mod: str, is_pkg: bool, node: ast.ImportFrom) -> str:
    if node.level == 0:
        return node.module or ""
    base = mod.split(".") if is_pkg else mod.split(".")[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _target(name: str) -> str | None:
    """The montmul module a dotted name refers to (a module, or a name in
    one), or None outside the package."""
    while name:
        if name in MODULES:
            return name
        name = name.rpartition(".")[0]
    return None


def imports(mod: str) -> list[tuple[str, str, int]]:
    """(imported module, imported name or '', line) for every montmul import
    of ``mod``."""
    path = MODULES[mod]
    tree = ast.parse(path.read_text(), str(path))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                t = _target(a.name)
                if t:
                    out.append((t, "", node.lineno))
        elif isinstance(node, ast.ImportFrom):
            base = _resolve(mod, path.name == "__init__.py", node)
            for a in node.names:
                sub = _target(f"{base}.{a.name}")
                if sub and sub == f"{base}.{a.name}":
                    out.append((sub, "", node.lineno))  # a submodule
                else:
                    t = _target(base)
                    if t:
                        out.append((t, a.name, node.lineno))
    return [(t, n, line) for t, n, line in out if t != mod]


GRAPH = {m: sorted({t for t, _, _ in imports(m)}) for m in MODULES}


def _layer(mod: str) -> int:
    best = max((p for p, _ in LAYERS if mod == p or mod.startswith(p + ".")), key=len)
    return dict(LAYERS)[best]


def _cycles(graph: dict[str, list[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph.get(v, []):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in graph:
        if v not in index:
            visit(v)
    return out


def test_no_import_cycles():
    # A package's __init__ importing its own submodules is not a cycle of
    # the code's structure; drop those edges.
    graph = {m: [t for t in ts if not t.startswith(m + ".")] for m, ts in GRAPH.items()}
    assert _cycles(graph) == []


def test_cycle_finder_finds_a_cycle():
    assert _cycles({"a": ["b"], "b": ["c"], "c": ["a"], "d": ["a"]}) == [["a", "b", "c"]]


@pytest.mark.parametrize("mod", sorted(MODULES))
def test_layers_run_one_way(mod):
    bad = [f"{t} (line {line})" for t, _, line in imports(mod)
           if _layer(t) > _layer(mod) and not t.startswith(mod + ".")]
    assert not bad, f"{mod} (layer {_layer(mod)}) imports a higher layer: {', '.join(bad)}"


def _module_aliases(mod: str) -> dict[str, str]:
    """Local names bound to other montmul modules (``from . import x``,
    ``import montmul.x as y``)."""
    path = MODULES[mod]
    out = {}
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            base = _resolve(mod, path.name == "__init__.py", node)
            for a in node.names:
                if f"{base}.{a.name}" in MODULES:
                    out[a.asname or a.name] = f"{base}.{a.name}"
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.asname and a.name in MODULES:
                    out[a.asname] = a.name
    return out


@pytest.mark.parametrize("mod", sorted(MODULES))
def test_no_private_names_across_modules(mod):
    bad = [f"{t}.{n} (line {line})" for t, n, line in imports(mod) if n.startswith("_") and not n.endswith("__")]
    aliases = _module_aliases(mod)
    for node in ast.walk(ast.parse(MODULES[mod].read_text())):
        if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                and node.value.id in aliases and node.attr.startswith("_") and not node.attr.startswith("__")):
            bad.append(f"{aliases[node.value.id]}.{node.attr} (line {node.lineno})")
    assert not bad, f"{mod} uses private names of other modules: {', '.join(bad)}"


def test_every_module_has_a_layer():
    for mod in MODULES:
        assert _layer(mod) is not None
