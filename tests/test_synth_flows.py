# SPDX-License-Identifier: Apache-2.0
"""montmul.flows.synth.flows: where the ASIC flow finds its liberty when montmul
runs from an installed wheel (no checkout, no ``make setup``; issue 47), and
``montmul setup-asic``, which unpacks it from Debian's qflow-tech-osu018."""
from __future__ import annotations

import shutil
import subprocess

import pytest

from montmul import cli, resources
from montmul.flows.synth import flows, tools

LIB = "osu018_stdcells.lib"
DEFAULT = flows.DEFAULTS["asic"]


@pytest.fixture
def wheel_user(tmp_path, monkeypatch):
    """As a pip user: no source checkout, an empty working folder and data home."""
    monkeypatch.setattr(resources, "source_root", lambda: None)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.delenv(flows.LIBERTY_ENV, raising=False)
    return tmp_path


def test_missing_liberty_names_the_ways_to_get_it(wheel_user):
    with pytest.raises(tools.ToolError) as exc:
        flows.liberty_path(DEFAULT)
    msg = str(exc.value)
    assert "montmul setup-asic" in msg and flows.LIBERTY_ENV in msg and "--option liberty=" in msg
    assert "make setup" not in msg


def test_liberty_from_the_environment_and_the_data_folder(wheel_user, monkeypatch):
    lib = wheel_user / "mine.lib"
    lib.write_text("library (x) { }\n")
    monkeypatch.setenv(flows.LIBERTY_ENV, str(lib))
    assert flows.liberty_path(DEFAULT) == lib
    monkeypatch.delenv(flows.LIBERTY_ENV)
    home = flows.user_liberty_dir()
    assert home == wheel_user / "data" / "montmul" / "osu018"
    home.mkdir(parents=True)
    (home / LIB).write_text("library (y) { }\n")
    assert flows.liberty_path(DEFAULT) == home / LIB
    # an explicit option is taken as given
    assert flows.liberty_path({**DEFAULT, "liberty": str(lib)}) == lib


@pytest.mark.skipif(shutil.which("dpkg-deb") is None, reason="needs dpkg-deb (Debian)")
def test_setup_asic_unpacks_the_liberty_from_a_deb(wheel_user, capsys):
    pkg = wheel_user / "pkg"
    (pkg / "DEBIAN").mkdir(parents=True)
    (pkg / "DEBIAN" / "control").write_text("Package: qflow-tech-osu018\nVersion: 1.0\nArchitecture: all\n"
                                            "Maintainer: test <t@example.org>\nDescription: test\n")
    tech = pkg / "usr" / "share" / "qflow" / "tech" / "osu018"
    tech.mkdir(parents=True)
    (tech / LIB).write_text("library (osu018) { }\n")
    (tech / "osu018.par").write_text("x\n")
    deb = wheel_user / "q.deb"
    subprocess.run(["dpkg-deb", "-b", str(pkg), str(deb)], check=True, capture_output=True)
    assert cli.main(["setup-asic", "--deb", str(deb)]) == 0
    out = capsys.readouterr().out
    got = flows.user_liberty_dir() / LIB
    assert got.read_text() == "library (osu018) { }\n" and (got.parent / "osu018.par").is_file()
    assert str(got) in out
    assert flows.liberty_path(DEFAULT) == got
    # a deb without the liberty: a tool failure saying so
    assert cli.main(["setup-asic", "--deb", str(wheel_user / "nope.deb"), "--dir", str(wheel_user / "d")]) == 4
