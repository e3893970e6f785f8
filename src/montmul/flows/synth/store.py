# SPDX-License-Identifier: Apache-2.0
"""The tracked store of finished synthesis results: ``syn/results/``.

A place-and-route run at 1024 or 2048 bits takes 15 to 60 minutes, and the
build cache (``build/synth/cache/``) lives only as long as the checkout.
The store keeps finished results in git, under the same keys, so a fresh
clone's reports, benchmarks and ``montmul synth`` find them without
rerunning anything: :func:`montmul.flows.synth.synth` looks in the build cache
first, then here.  A key hashes the RTL, the flow files, the tool versions
and every option (:func:`montmul.flows.synth.cache_key`), so an entry is used only
for exactly the design and flow it was made with; after an RTL or flow
change its key is simply never asked for again, and ``prune`` deletes it.

    python -m montmul.flows.synth.store save     # copy build/synth/cache/*.json here
    python -m montmul.flows.synth.store list     # what the store holds, stale or not
    python -m montmul.flows.synth.store prune    # delete entries of superseded RTL/flows
    python -m montmul.flows.synth.store rekey --same-results FILE   # see rekey()
    python -m montmul.flows.synth.store rekey --same-netlist        # see rekey_same_netlist()
    python -m montmul.flows.synth.store rekey --equiv REV           # see rekey_equiv()

``MONTMUL_SYNTH_STORE`` names another store folder; empty or ``off``
disables the store (the test suite runs with it off, so a test's synthesis
never comes from git).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import sys
from pathlib import Path

from ... import resources
from . import flows, tools

STORE_ENV = "MONTMUL_SYNTH_STORE"


def store_dir() -> Path | None:
    """The store folder, or None when ``MONTMUL_SYNTH_STORE`` turns it off."""
    env = os.environ.get(STORE_ENV)
    if env is not None:
        return None if env.strip().lower() in ("", "off", "0", "none") else Path(env).resolve()
    return resources.syn_dir() / "results"


def entry(key: str) -> Path | None:
    """The store file of cache key ``key`` (existing or not), None without a store."""
    root = store_dir()
    return None if root is None else root / f"{key}.json"


def _results(folder: Path) -> list[tuple[Path, dict]]:
    out = []
    for path in sorted(folder.glob("*.json")) if folder.is_dir() else []:
        try:
            data = json.loads(path.read_text())
        except (OSError, json.JSONDecodeError):
            continue
        if isinstance(data, dict) and data.get("key") == path.stem:
            out.append((path, data))
    return out


def save(cache: Path | None = None, store: Path | None = None) -> list[Path]:
    """Copy every current result of the build cache ``cache`` (default: the
    default build's) that the store lacks into ``store`` (a stale one,
    :func:`why_stale`, is left behind: ``prune`` would delete it); the new
    store files."""
    from . import default_build

    cache = cache or default_build() / "cache"
    store = store or store_dir()
    if store is None:
        raise ValueError(f"the synthesis store is off ({STORE_ENV}={os.environ.get(STORE_ENV)!r})")
    store.mkdir(parents=True, exist_ok=True)
    added = []
    for path, r in _results(cache):
        dest = store / path.name
        if not dest.is_file() and why_stale(r) is None:
            shutil.copyfile(path, dest)
            added.append(dest)
    return added


def _diffs(result: dict, renames: dict[str, str] | None = None) -> list[tuple[str, str]]:
    """``[(file, "changed" | "gone" | "renamed")]``: the files (relative to
    the data root) whose hashes differ from the ones ``result`` was made with.
    ``renames`` maps a file's old name to its new one: such a file is looked
    for under its new name and listed under it, as "renamed" when its content
    is the same, else "changed".  Generated files (an engine's core wrapper,
    named ``generated/...`` in the key) are not checked: they do not exist in
    a fresh checkout, and what generates them is Python, not hashed."""
    from . import GENERATED

    root = resources.data_root()
    renames = renames or {}
    out = []
    for kind, digest in (("rtl", flows.rtl_digest), ("flow_files", flows.sha256_file)):
        for rel, want in result["hashes"].get(kind, {}).items():
            if rel.startswith(GENERATED):
                continue
            now = renames.get(rel, rel)
            path = (root / now).resolve()
            if not path.is_file():
                out.append((now, "gone"))
            elif digest(path) != want:
                out.append((now, "changed"))
            elif now != rel:
                out.append((now, "renamed"))
    return out


def why_stale(result: dict) -> str | None:
    """Why ``result``'s key can no longer be asked for (an RTL file, a flow
    file or a tool version changed since it was made), or None while it is
    current."""
    if not result.get("hashes"):
        return "no file hashes (made by an older flow)"
    for rel, state in _diffs(result):
        return f"{rel} changed" if state == "changed" else f"{rel} no longer exists"
    if result.get("tools") != tools.versions(result["target"]):
        return "tool versions changed"
    return None


def entries(store: Path | None = None) -> list[dict]:
    """``[{"path", "core", "width", "target", "engine", "status", "fmax_mhz", "stale"}]``."""
    store = store or store_dir()
    out = []
    for path, r in _results(store) if store is not None else []:
        out.append(_entry(path, r))
    return out


def prune(store: Path | None = None, dry_run: bool = False) -> list[dict]:
    """Delete the stale entries of ``store``; the entries deleted (or, with
    ``dry_run``, that would be)."""
    gone = [e for e in entries(store) if e["stale"]]
    if not dry_run:
        for e in gone:
            e["path"].unlink()
    return gone


def _candidates(store: Path | None, eligible, renames: dict[str, str] | None = None):
    """``(path, result, key, new_hashes, changed, gained)`` for each stored
    result that is stale only through changed (not missing) files and files
    its design reads today that it did not read then (``gained``: e.g. a
    package of constants added to a core's file list), all of which
    ``eligible(result, changed, gained)`` accepts, and whose key rebuilt today
    (:func:`montmul.flows.synth.cache_key`) hashes no other changed file and
    resolves to the flow options and HDL parameters the result was made with
    (a registry change, e.g. a flow option added for the width, changes what
    the same job asks for, so its old result answers another question).
    ``renames`` (old name -> new name) lets a moved file count as itself."""
    from . import GENERATED, Job, cache_key

    renames = renames or {}

    store = store or store_dir()
    for path, r in _results(store) if store is not None else []:
        if not r.get("hashes") or r.get("tools") != tools.versions(r["target"]) or not {"params", "options"} <= set(r):
            continue
        diffs = _diffs(r, renames)
        changed = sorted(rel for rel, state in diffs if state != "renamed")
        if any(state == "gone" for _, state in diffs):
            continue
        params = {k: v for k, v in r["params"].items() if k != "Width"}
        key, data = cache_key(Job(r["core"], r["width"], r["target"], params, r["options"], r["engine"]))
        if data["options"] != r["options"] or data["params"] != r["params"]:
            continue
        old = {kind: {renames.get(rel, rel): h for rel, h in hashes.items()} for kind, hashes in r["hashes"].items()}
        new = {"rtl": data["rtl"], "flow_files": data["flow_files"]}
        rebuilt = sorted(rel for kind in new for rel in set(new[kind]) | set(old.get(kind, {}))
                         if not rel.startswith(GENERATED) and new[kind].get(rel) != old.get(kind, {}).get(rel))
        # gained: read today, not then (a file dropped from the design, or
        # one that differs from what _diffs saw, leaves the entry alone)
        gained = sorted(set(rebuilt) - set(changed))
        if any(not any(rel in new[k] for k in new) or any(rel in old.get(k, {}) for k in new) for rel in gained):
            continue
        if key != r["key"] and (diffs or gained) and eligible(r, changed, gained):
            yield path, r, key, new, changed, gained


def _refile(path: Path, r: dict, key: str, new: dict, changed: list[str], dry_run: bool, gained: list[str] = (),
            **why) -> dict:
    """Write ``r`` under ``key`` with today's hashes and a ``rekeyed``
    record (old key, the changed and gained files' hashes then and now,
    ``why``), delete the old entry (not with ``dry_run``); the entry as
    listed."""
    dest = path.with_name(f"{key}.json")
    changed = sorted([*changed, *gained])
    if not dry_run:
        rec = {"from": r["key"], **why,
               "files": {rel: {"was": _hash_of(r["hashes"], rel), "now": _hash_of(new, rel)} for rel in changed}}
        dest.write_text(json.dumps({**r, "key": key, "hashes": new, "rekeyed": [*r.get("rekeyed", []), rec]},
                                   indent=1, sort_keys=False))
        path.unlink()
    return {**_entry(path, r), "new_path": dest, "files": changed}


def rekey(same_results: list[str], store: Path | None = None, dry_run: bool = False,
          renames: dict[str, str] | None = None) -> list[dict]:
    """File again under today's keys the stored results that went stale only
    because the files ``same_results`` changed (paths relative to the data
    root, as in a result's ``hashes``), for a change that cannot alter a
    finished result: a comment, or how a failed run is classified.  Naming a
    file here is a claim about its diff, made by whoever runs it; the
    re-filed result records it (``rekeyed``: old key, the files' hashes then
    and now).  Any other changed or missing file, a tool version change or a
    key that cannot be rebuilt leaves the entry stale.  ``renames`` (old name
    -> new name, relative to the data root) re-files results whose files
    moved: a moved file with the same content needs no claim, a moved and
    edited one must be named in ``same_results`` under its new name.  The
    entries re-filed (or, with ``dry_run``, that would be), each with
    ``new_path`` and ``files``."""
    allowed = {os.path.normpath(p) for p in same_results}
    renames = {os.path.normpath(a): os.path.normpath(b) for a, b in (renames or {}).items()}
    extra = {"renamed": renames} if renames else {}
    return [_refile(path, r, key, new, changed, dry_run, **extra)
            for path, r, key, new, changed, _ in _candidates(
                store, lambda r, changed, gained: not gained and set(changed) <= allowed, renames)]


#: The files a rerun of a result's own Yosys scripts must reproduce (per
#: script, the files it writes; compared by :func:`_netlist_digest`) for
#: :func:`rekey_same_netlist`.
NETLIST_FILES = {"synth.ys": ("netlist.json",), "hier.ys": ("hier_stat.json", "hier_inst.json")}


def rekey_same_netlist(store: Path | None = None, dry_run: bool = False) -> list[dict]:
    """File again under today's keys the stored results that went stale only
    because RTL files changed, when Yosys, rerun on today's RTL with the
    result's own scripts (``synth.ys``, ``hier.ys`` in its work folder, which
    must still be on this machine), writes the netlist and instance
    statistics the result was made from (:data:`NETLIST_FILES`; source
    locations aside, :func:`_netlist_digest`): nextpnr then gets the same
    netlist with the same options and tool versions, and its result is the
    same.  E.g. a change to a core's request check leaves every engine,
    which turns the check off, with the same netlist.  The re-filed result
    records the proof (``rekeyed``: ``by`` "netlist", the digests).  Entries
    without their work folder, or whose netlist differs, stay stale.  The
    entries re-filed (or, with ``dry_run``, that would be, still after the
    Yosys reruns)."""
    root = resources.data_root()

    def eligible(r: dict, changed: list[str], gained: list[str]) -> bool:
        work = root / r.get("work_dir", "")
        return (set(changed) <= set(r["hashes"].get("rtl", {})) and bool(r.get("work_dir"))
                and all(g.startswith("rtl/") for g in gained)
                and all((work / f).is_file() for ys, outs in NETLIST_FILES.items() for f in (ys, *outs)))

    done = []
    for path, r, key, new, changed, gained in _candidates(store, eligible):
        work = root / r["work_dir"]
        proof = _same_netlist(work)
        if proof is not None:
            done.append(_refile(path, r, key, new, changed, dry_run, gained, by="netlist", sha256=proof))
    return done


def rekey_equiv(rev: str, store: Path | None = None, dry_run: bool = False, width: int | None = None,
                echo=None) -> list[dict]:
    """File again under today's keys the stored results that went stale only
    because RTL files changed, or because their design reads files it did
    not read before (a package of constants, a shared module), when Yosys
    proves the design's RTL today equivalent to its RTL at git revision
    ``rev`` (:mod:`montmul.flows.synth.equiv`, at ``width``, default
    :data:`~montmul.flows.synth.equiv.DEFAULT_WIDTH`, with the result's
    other HDL parameters, or a smaller instance of them where the full one
    would take SAT hours, :data:`~montmul.flows.synth.equiv.SMALL`): the
    same registers with the same next-state and output functions, so a
    gained file adds no logic and synthesis gets the same design.  The
    re-filed result records the proof (``rekeyed``: ``by`` "equiv", the
    revision's commit, the width and parameters proved, the signals
    proved).  Only results made from the RTL as it is at ``rev`` (every
    file's hash) qualify: the proof says nothing about older RTL.  ``echo(line)`` is called with each check's verdict.  The
    entries re-filed (or, with ``dry_run``, that would be, still after the
    checks)."""
    from . import GENERATED, equiv

    commit = equiv.resolve_rev(rev)
    width = width or equiv.DEFAULT_WIDTH
    proofs: dict[tuple, object] = {}

    at_rev: dict[str, str | None] = {}

    def made_from_rev(r: dict) -> bool:
        # the proof is about the RTL at rev: the result must have been made
        # from exactly that RTL (every file it read, as it was at rev)
        for rel, h in r["hashes"].get("rtl", {}).items():
            if rel.startswith(GENERATED):
                continue
            if rel not in at_rev:
                at_rev[rel] = equiv.rev_digest(commit, rel)
            if at_rev[rel] != h:
                return False
        return True

    def eligible(r: dict, changed: list[str], gained: list[str]) -> bool:
        return (set(changed) <= set(r["hashes"].get("rtl", {})) and all(g.startswith("rtl/") for g in gained)
                and made_from_rev(r))

    done = []
    for path, r, key, new, changed, gained in _candidates(store, eligible):
        target, hdl = equiv.store_target(r, width)
        tag = (target.name, tuple(sorted(hdl.items())))
        if tag not in proofs:
            proofs[tag] = equiv.check(commit, target, width, hdl=hdl)
            if echo:
                echo(proofs[tag].line())
        res = proofs[tag]
        if res.equivalent:
            done.append(_refile(path, r, key, new, changed, dry_run, gained, by="equiv", rev=commit,
                                width=width, params=dict(hdl), signals=res.proved))
    return done


def _same_netlist(work: Path) -> dict[str, str] | None:
    """Rerun the Yosys scripts of the job folder ``work`` in a sibling
    folder on today's files: the digests of :data:`NETLIST_FILES` when all
    equal the folder's own, else None."""
    check = work.with_name(work.name + "_netcheck")
    shutil.rmtree(check, ignore_errors=True)
    check.mkdir()
    proof = {}
    try:
        for ys, outs in NETLIST_FILES.items():
            shutil.copyfile(work / ys, check / ys)
            tools.run("yosys", ["-q", "-l", f"{Path(ys).stem}.log", ys], check, f"{Path(ys).stem}.out")
            for f in outs:
                if not (check / f).is_file():
                    return None
                proof[f] = _netlist_digest(check / f)
                if proof[f] != _netlist_digest(work / f):
                    return None
    except tools.ToolError:
        return None
    finally:
        shutil.rmtree(check, ignore_errors=True)
    return proof


def _netlist_digest(path: Path) -> str:
    """SHA-256 of a Yosys JSON file without its source locations (string
    attributes named ``src``, ``module_src``, ``cell_src``: file:line text,
    which moves with any edit above it and which nextpnr only reports)."""
    def strip(o):
        if isinstance(o, dict):
            return {k: strip(v) for k, v in o.items() if not (k in _LOCATIONS and isinstance(v, str))}
        return [strip(v) for v in o] if isinstance(o, list) else o

    return hashlib.sha256(json.dumps(strip(json.loads(path.read_text())), sort_keys=True).encode()).hexdigest()


_LOCATIONS = frozenset({"src", "module_src", "cell_src"})


def _hash_of(hashes: dict, rel: str) -> str | None:
    return next((h[rel] for h in hashes.values() if rel in h), None)


def _entry(path: Path, r: dict) -> dict:
    return {"path": path, "core": r.get("core"), "width": r.get("width"), "target": r.get("target"),
            "engine": r.get("engine") or "", "status": r.get("status") or "ok",
            "fmax_mhz": r.get("fmax_mhz"), "stale": why_stale(r)}


def _describe(e: dict) -> str:
    eng = f" --engine {e['engine']}" if e["engine"] else ""
    fmax = f"{e['fmax_mhz']:.1f} MHz" if e["fmax_mhz"] else e["status"]
    return f"{e['path'].name}  {e['core']} w{e['width']} {e['target']}{eng}: {fmax}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m montmul.flows.synth.store", description=__doc__.split("\n\n")[0])
    ap.add_argument("action", choices=("save", "list", "prune", "rekey"))
    ap.add_argument("--same-netlist", action="store_true",
                    help="rekey: re-file results whose RTL changed when Yosys, rerun on today's RTL with the "
                         "result's own scripts, writes the same netlist (needs the result's work folder)")
    ap.add_argument("--equiv", metavar="REV",
                    help="rekey: re-file results whose RTL changed, or whose design gained a file, when Yosys "
                         "proves today's RTL equivalent to the RTL at git revision REV (small width)")
    ap.add_argument("--dry-run", action="store_true", help="prune, rekey: only list what would change")
    ap.add_argument("--same-results", action="append", default=[], metavar="FILE",
                    help="rekey: a changed file (relative to the source root) that cannot alter a finished "
                         "result; repeatable")
    ap.add_argument("--renamed", action="append", default=[], metavar="OLD=NEW",
                    help="rekey: a file moved from OLD to NEW (relative to the source root); an edited one must "
                         "also be named by --same-results NEW; repeatable")
    args = ap.parse_args(argv)
    renames = {}
    for item in args.renamed:
        old, sep, new = item.partition("=")
        if not sep or not old or not new:
            print(f"error: --renamed takes OLD=NEW, got {item!r}", file=sys.stderr)
            return 2
        renames[old] = new
    store = store_dir()
    if store is None:
        print(f"error: the synthesis store is off ({STORE_ENV})", file=sys.stderr)
        return 2
    if args.action == "save":
        added = save(store=store)
        print(f"{len(added)} result(s) added to {store}")
        for p in added:
            print(f"  {p.name}")
    elif args.action == "list":
        for e in entries(store):
            print(_describe(e) + (f"  [stale: {e['stale']}]" if e["stale"] else ""))
    elif args.action == "rekey":
        if not args.same_results and not args.same_netlist and not renames and not args.equiv:
            print("error: rekey needs --same-results FILE, --renamed OLD=NEW, --same-netlist or --equiv REV",
                  file=sys.stderr)
            return 2
        try:
            moved = (rekey(args.same_results, store, args.dry_run, renames)
                     if args.same_results or renames else []) + \
                (rekey_same_netlist(store, args.dry_run) if args.same_netlist else []) + \
                (rekey_equiv(args.equiv, store, args.dry_run, echo=print) if args.equiv else [])
        except ValueError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
        verb = "would re-file" if args.dry_run else "re-filed"
        print(f"{verb} {len(moved)} result(s)")
        for e in moved:
            print(f"  {_describe(e)} -> {e['new_path'].name}  ({', '.join(e['files'])} changed)")
    else:
        gone = prune(store, args.dry_run)
        verb = "would delete" if args.dry_run else "deleted"
        print(f"{verb} {len(gone)} stale result(s)")
        for e in gone:
            print(f"  {_describe(e)}  [{e['stale']}]")
    return 0


if __name__ == "__main__":
    sys.exit(main())
