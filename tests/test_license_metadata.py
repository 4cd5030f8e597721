"""The license is an SPDX expression, as setuptools >= 77 wants it (issue 26 item 6).

A ``license = {text = ...}`` table or a ``License ::`` classifier makes setuptools print
its license deprecation warning at every install; the build requires a setuptools that
reads the expression.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

PYPROJECT = tomllib.loads((Path(__file__).resolve().parents[1] / "pyproject.toml").read_text())


def test_the_license_is_an_spdx_expression_without_a_classifier() -> None:
    project = PYPROJECT["project"]
    assert project["license"] == "MIT"
    assert not any(c.startswith("License ::") for c in project.get("classifiers", []))
    requires = PYPROJECT["build-system"]["requires"]
    assert any(r.replace(" ", "").startswith("setuptools>=") and
               int(r.split(">=")[1].split(".")[0]) >= 77 for r in requires)
