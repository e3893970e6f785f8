# SPDX-License-Identifier: Apache-2.0
"""scripts/ws_proxy.py: the ws ring's place-and-route proxy reads the RTL
with the ECP5 DSP primitive and the flow's script, its table is the stored
results', docs/ws_proxy.md holds that table, and bad requests are clear
errors (no tool runs here)."""
from __future__ import annotations

import copy
import json

import pytest

from montmul import resources
from montmul.flows.synth import flows


@pytest.fixture(scope="module")
def script(load_script):
    return load_script("scripts/ws_proxy.py")


def _result(pe: int, w: int, seed: int, fmax: float, variant: str = "base", clear: int | None = None) -> dict:
    params = {"NumPe": pe, "WordWidth": w, "DspRegs": 3, "QuotDelay": 4, "Slots": 2}
    if clear is not None:
        params["ClearMode"] = clear
    return {
        "variant": variant, "seed": seed, "fmax_mhz": fmax,
        "params": params,
        "dsp": 2 * pe, "luts": 150 * pe, "ff": 300 * pe, "ebr": 0,
        "seconds": {"nextpnr": 600.0},
        "trace": {"start": {"src": "mm_ws_pe.sv:1"}, "end": {"src": "mm_ws_pe.sv:2"},
                  "logic_levels": 3, "logic_ns": 2.0, "routing_ns": 3.0},
    }


def test_read_block(script, tmp_path):
    cwd = resources.data_root() / "build" / "ws_proxy" / "x"
    text = script.read_block({"NumPe": 68, "WordWidth": 17}, cwd)
    lines = text.splitlines()
    assert lines[0] == "read_verilog -lib +/ecp5/cells_bb.v"
    assert "-DMM_ECP5_DSP" in lines[1] and "../../../rtl/ws/mm_ws_ring.sv" in lines[1]
    assert "/" + "work" not in text and str(resources.data_root()) not in text  # relative paths only
    assert lines[2] == "chparam -set NumPe 68 -set WordWidth 17 mm_ws_ring"
    assert lines[3] == "hierarchy -check -top mm_ws_ring" and lines[4] == "rename -top mm_ws_ring"
    # the flow's own template around it: critpath can rerun it with src attributes
    full = flows.fill("ecp5.ys.in", READ=text, SYNTH=flows.ecp5_synth("mm_ws_ring", flows.DEFAULTS["ecp5"]))
    assert full.rstrip().endswith("write_json netlist.json")


def test_table_sorted(script):
    rows = [_result(68, 16, 2, 151.25), _result(34, 16, 1, 160.0), _result(68, 17, 1, 140.5),
            _result(68, 16, 1, 155.0)]
    lines = script.table(rows).splitlines()[2:]
    keys = [(line.split("|")[3].strip(), line.split("|")[4].strip(), line.split("|")[10].strip()) for line in lines]
    assert keys == [("34", "16", "1"), ("68", "16", "1"), ("68", "16", "2"), ("68", "17", "1")]
    assert "| 151.2 |" in lines[2] or "| 151.3 |" in lines[2]
    assert "mm_ws_pe.sv:1 → mm_ws_pe.sv:2" in lines[0]
    # results stored before ClearMode existed were made with synchronous resets
    assert all(line.split("|")[9].strip() == "sync reset" for line in lines)
    assert all(line.split("|")[1].strip() == "ring" for line in lines)
    assert lines[0].split("|")[19].strip() == "not recorded" and lines[0].split("|")[20].strip() == "2 slots"


def test_clear_mode_in_table_tag_and_medians(script):
    rows = [_result(68, 17, 1, 139.0), _result(68, 17, 2, 131.0, clear=0), _result(68, 17, 3, 150.0, clear=0),
            _result(68, 17, 1, 145.0, clear=1), _result(68, 17, 2, 141.0, clear=1)]
    rows[3]["end_hop"] = {"routing_ns": 0.13, "tiles": 0}
    rows[3]["ff_paired"] = 12345
    lines = script.table(rows).splitlines()[2:]
    assert [line.split("|")[9].strip() for line in lines] == ["sync reset"] * 3 + ["zero flags"] * 2
    assert "| 12,345 |" in lines[3] and lines[3].split("|")[19].strip() == "0.13 ns, 0 tiles"
    assert script.tag(rows[1]["params"], 2, "base") == "P68_w17_r3_d4_s2_base_seed2"  # as before ClearMode
    assert script.tag(rows[3]["params"], 1, "base") == "P68_w17_r3_d4_s2_clr1_base_seed1"
    med = script.median_table(rows).splitlines()[2:]
    assert len(med) == 2
    assert med[0].split("|")[8].strip() == "3" and med[0].split("|")[10].strip() == "139.0"
    assert med[1].split("|")[10].strip() == "143.0"
    # the sizes table takes each design's median, then the best design
    sizes = script.sizes_table(rows).splitlines()[2:]
    assert all("143.0 (w 17)" in r for r in sizes)


def test_write_table(script, tmp_path):
    store = tmp_path / "store"
    store.mkdir()
    for r in (_result(34, 16, 1, 160.0), _result(68, 16, 1, 150.0)):
        (store / f"ws_{script.tag(r['params'], r['seed'], r['variant'])}.json").write_text(json.dumps(r))
    doc = tmp_path / "doc.md"
    doc.write_text(f"# t\n\nabove\n\n{script.BEGIN}\nold\n{script.END}\n\nbelow\n")
    script.write_table(doc, store)
    text = doc.read_text()
    assert "old" not in text and text.startswith("# t\n\nabove\n\n") and text.endswith("\n\nbelow\n")
    assert script.table(script.load_store(store)) in text
    bad = tmp_path / "bad.md"
    bad.write_text("no markers\n")
    with pytest.raises(ValueError, match="no table markers"):
        script.write_table(bad, store)


def test_doc_holds_the_stored_table(script):
    """docs/ws_proxy.md's table is the one the stored results give (rerun
    ``python scripts/ws_proxy.py table`` after a run)."""
    results = script.load_store()
    assert results, "no stored proxy results in syn/proxy"
    for r in results:
        p = r["params"]
        bypass = script.top_of(p) != "ring"  # the array's quotient bypass: 2cd = L is legal
        # two MULT18X18D per PE; the engine has a few more (its ALUs' MACR, the sequencer's table addresses)
        assert r["status"] == "ok" and (r["dsp"] == 2 * p["NumPe"] if script.top_of(p) != "pke"
                                        else r["dsp"] > 2 * p["NumPe"])
        assert 2 * p.get("Chunks", 1) * p["QuotDelay"] >= script.latency(p) + (0 if bypass else 1)
    text = script.DOC.read_text()
    assert script.table(results) in text and script.sizes_table(results) in text
    assert script.median_table(results) in text


def test_sizes_table_marks_the_run_it_borrows(script):
    rows = script.sizes_table([_result(68, 16, 1, 120.0)]).splitlines()[2:]
    assert len(rows) == 4  # w = 16 and 17, 1024 and 2048 bits
    w17 = [r for r in rows if r.split("|")[3].strip() == "17"]
    assert all("120.0 (w 16)" in r for r in w17)
    one_lap = next(r for r in w17 if r.split("|")[4].strip() == "1024")
    assert one_lap.split("|")[7].strip() == "1" and one_lap.split("|")[10].strip() == "140"


@pytest.mark.parametrize("argv,want", [
    (["run", "--pe", "79"], "--pe must be in [2, 78]"),
    (["run", "--pe", "8", "--quot-delay", "3"], "--quot-delay must be in [4, 8] for L = 6"),
    (["run", "--pe", "8", "--loop-regs", "1", "--quot-delay", "3"], "--quot-delay must be in [4, 8] for L = 7"),
    (["run", "--pe", "8", "--loop-regs", "2", "--quot-delay", "4"], "--quot-delay must be in [5, 8] for L = 8"),
    (["run", "--pe", "8", "--slots", "1"], "--slots must be in [2, 16]"),
    (["run", "--pe", "8", "--width", "18"], "invalid choice"),
    (["run", "--pe", "8", "--clear-mode", "2"], "invalid choice"),
    (["run", "--top", "array", "--pe", "8", "--quot-delay", "2"], "--quot-delay must be in [3, 8] for L = 6, c = 1"),
    (["run", "--top", "array", "--pe", "6", "--chunks", "2", "--quot-delay", "1"],
     "--quot-delay must be in [2, 8] for L = 6, c = 2"),
    (["run", "--top", "array", "--pe", "68", "--chunks", "2"], "gcd(P/2, c) = 1"),
    (["run", "--top", "array", "--pe", "9", "--chunks", "2"], "P even"),
    (["run", "--top", "array", "--pe", "66", "--max-words", "66"], "--max-words must be in [5, 65], not 66"),
    (["run", "--top", "array", "--pe", "70", "--chunks", "3", "--max-words", "139"],
     "--max-words must be in [140, 209], not 139"),
    (["run", "--top", "array", "--pe", "66", "--clear-mode", "1"], "--clear-mode is a ring option"),
    (["run", "--top", "tree", "--pe", "66"], "invalid choice"),
])
def test_errors(script, capsys, argv, want):
    with pytest.raises(SystemExit) as exc:
        script.main(argv)
    assert exc.value.code == 2
    assert want in capsys.readouterr().err


def test_tag_names_every_parameter(script):
    r = _result(68, 17, 3, 1.0, "v2")
    t = script.tag(r["params"], r["seed"], r["variant"])
    assert t == "P68_w17_r3_d4_s2_v2_seed3"  # no transport registers: no _t field
    assert script.tag({**r["params"], "LoopRegs": 1}, 3, "v2") == "P68_w17_r3_t1_d4_s2_v2_seed3"
    other = copy.deepcopy(r)
    other["params"]["Slots"] = 4
    assert script.tag(other["params"], 3, "v2") != t


def test_array_tag_read_block_and_table(script):
    """--top array places mm_ws_array (its file after the ring's) under a
    name of its own, and its rows say so."""
    p = {"NumPe": 66, "WordWidth": 17, "DspRegs": 3, "Chunks": 1, "QuotDelay": 3, "MaxWords": 65}
    assert script.top_of(p) == "array"
    assert script.tag(p, 1, "base") == "array_P66_w17_r3_d3_c1_m65_base_seed1"
    pke = {**p, "ProgWords": script.PROG_WORDS}
    assert script.tag(pke, 1, "base") == "pke_P66_w17_r3_d3_c1_m65_base_seed1"
    # another program memory is another build: its own file beside the RSA build's
    assert script.tag({**pke, "ProgWords": 4096}, 1, "base") == "pke_P66_w17_r3_d3_c1_m65_pw4096_base_seed1"
    cwd = resources.data_root() / "build" / "ws_proxy" / "x"
    lines = script.read_block(p, cwd).splitlines()
    assert lines[1].endswith("../../../rtl/ws/mm_ws_ring.sv ../../../rtl/ws/mm_ws_array.sv")
    assert lines[2].endswith(" mm_ws_array") and lines[3] == "hierarchy -check -top mm_ws_array"
    ring = _result(66, 17, 1, 140.0)
    arr = {**copy.deepcopy(ring), "params": p, "design": "mm_ws_array"}
    lines = script.table([arr, ring]).splitlines()[2:]
    assert sorted(line.split("|")[1].strip() for line in lines) == ["array", "ring"]
    assert script._size_text(p) == "chunks=1 MaxWords=65" and script._size_text(ring["params"]) == "slots=2"


def test_sizes(script):
    """Word counts from the arithmetic's formulas: m = ceil((l + w(d+1) + 2) / w),
    V = m + 1, the least d with 2cd >= L + 1, c laps of the ring."""
    z = script.sizes(1024, 17, 6, 68)
    assert (z["m"], z["V"], z["c"], z["d"], z["s"], z["pair_cycles"]) == (66, 67, 1, 4, 70, 140)
    z = script.sizes(1024, 16, 6, 68)  # 71 virtual PEs with d = 4 do not fit 68: two laps, then d = 2
    assert (z["m"], z["V"], z["c"], z["d"]) == (68, 69, 2, 2)
    z = script.sizes(1024, 16, 5, 72)
    assert (z["m"], z["c"], z["d"], z["s"]) == (69, 1, 3, 72)
    for ell, w, lat, pe in ((1024, 16, 6, 72), (2048, 17, 6, 68), (512, 16, 5, 34)):
        z = script.sizes(ell, w, lat, pe)
        assert 2 * z["c"] * z["d"] >= lat + 1 and z["V"] <= z["c"] * pe
        assert z["m"] * w >= ell + w * (z["d"] + 1) + 2
    assert script.crt_products(1024) == 1024 + 256 + 16


def test_pack_and_end_hop_readers(script, tmp_path):
    log = tmp_path / "nextpnr.log"
    log.write_text("Info: Packing FFs...\nInfo:     7048 FFs paired with LUTs.\n")
    assert script.ff_paired(log) == 7048
    log.write_text("Info: nothing\n")
    assert script.ff_paired(log) is None
    step = lambda kind, delay, a, b: {"type": kind, "delay": delay, "from": {"loc": a}, "to": {"loc": b}}  # noqa: E731
    path = [step("clk-to-q", 0.5, [1, 1], [1, 1]), step("routing", 1.0, [1, 1], [5, 2]),
            step("logic", 0.2, [5, 2], [5, 2]), step("routing", 0.9, [5, 2], [9, 6]), step("setup", 0.0, [9, 6], [9, 6])]
    rep = tmp_path / "report.json"
    rep.write_text(json.dumps({"critical_paths": [{"from": "x.clk_i", "to": "y.clk_i", "path": path}]}))
    assert script.end_hop(rep) == {"routing_ns": 0.9, "tiles": 8}


def test_reread_bad_result(script, tmp_path, capsys):
    bad = tmp_path / "ws_x.json"
    bad.write_text("{}")
    assert script.main(["reread", str(bad)]) == 1
    assert "error:" in capsys.readouterr().err


def test_loop_paths(script, tmp_path):
    """Paths from the registers PE 1's add reads to the carry chain, by cell type."""
    def cell(kind, conns, dirs):
        return {"type": kind, "connections": conns, "port_directions": dirs}
    cells = {
        "ff_h": cell("TRELLIS_FF", {"Q": [2], "DI": [9]}, {"Q": "output", "DI": "input"}),
        "ff_z": cell("TRELLIS_FF", {"Q": [5], "DI": [9]}, {"Q": "output", "DI": "input"}),
        "ff_x": cell("TRELLIS_FF", {"Q": [7], "DI": [9]}, {"Q": "output", "DI": "input"}),
        "lut": cell("LUT4", {"A": [2], "B": [5], "Z": [3]}, {"A": "input", "B": "input", "Z": "output"}),
        "mux": cell("PFUMX", {"ALUT": [3], "Z": [4]}, {"ALUT": "input", "Z": "output"}),
        "lut2": cell("LUT4", {"A": [5], "Z": [6]}, {"A": "input", "Z": "output"}),
        "cc": cell("CCU2C", {"A0": [4], "B0": [6], "C0": [7]}, {"A0": "input", "B0": "input", "C0": "input"}),
    }
    nets = {"gen_pe[2].u_pe.h_o": {"bits": [2]}, "gen_pe[1].u_pe.gen_clear_flags.hz_q": {"bits": [5]},
            "gen_pe[0].u_pe.tok_b_q": {"bits": [7]}}
    nl = tmp_path / "netlist.json"
    nl.write_text(json.dumps({"modules": {"mm_ws_ring": {"cells": cells, "netnames": nets}}}))
    assert script.loop_paths(nl, 1) == {"h flag: LUT4": 1, "h flag: LUT4>PFUMX": 1, "h: LUT4>PFUMX": 1}
    assert script.loop_paths(nl, 5) == {}
