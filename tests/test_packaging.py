"""Set-up anywhere: every requirement resolves from the public index, the demo needs no extras.

A requirement pinned to a local version label (``torch==2.13.0+cpu``) is served only by a
machine's own wheel folder: on any other machine pip stops with "No matching distribution".
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _requirements() -> list[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    found = list(project["dependencies"])
    for extra in project["optional-dependencies"].values():
        found += extra
    return found


def test_no_requirement_has_a_local_version_label() -> None:
    requirements = _requirements()
    assert len(requirements) > 10
    local = [r for r in requirements if "+" in r.split(";")[0]]
    assert local == [], f"local version labels are not on the public index: {local}"


def test_every_requirement_names_a_public_package_with_a_range_or_nothing() -> None:
    for requirement in _requirements():
        assert re.fullmatch(r"[A-Za-z0-9_.\-\[\],]+\s*([<>=!~]=?[^,;\s]+(,\s*[<>=!~]=?[^,;\s]+)*)?"
                            r"(\s*;.*)?", requirement), requirement


def test_the_demo_installs_without_extras_and_the_tests_with_dev() -> None:
    makefile = (ROOT / "Makefile").read_text()
    base = makefile.split("$(STAMP): pyproject.toml", 1)[1].split("\n\n", 1)[0]
    assert "pip install --quiet -e .\n" in base
    assert "[dev]" not in base
    assert re.search(r"^demo: \$\(STAMP\)$", makefile, re.M)
    assert re.search(r"^test: \$\(DEV_STAMP\)", makefile, re.M)
    dev = makefile.split("$(DEV_STAMP): pyproject.toml", 1)[1].split("\n\n", 1)[0]
    assert "-e '.[dev]'" in dev


def test_the_license_is_an_spdx_expression() -> None:
    # setuptools >= 77 warns (twice per install) about a license table; the SPDX string
    # is the current form.
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["license"] == "MIT"
