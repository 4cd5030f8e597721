"""Optional dependencies stay optional: without them pokerlab imports, and what needs them
raises one pokerlab error naming the extra to install."""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest

from pokerlab.errors import MissingExtraError

ENV_MODULES = ("pokerlab.envs.aec", "pokerlab.envs.single", "pokerlab.envs.spaces")


def _forget(monkeypatch: pytest.MonkeyPatch, names: tuple[str, ...]) -> None:
    for name in names:
        monkeypatch.delitem(sys.modules, name, raising=False)


@pytest.mark.parametrize(
    ("missing", "failing"), [("pettingzoo", ("env",)), ("gymnasium", ("env", "gym_env"))]
)
def test_environments_without_their_extra_name_it(
    monkeypatch: pytest.MonkeyPatch, missing: str, failing: tuple[str, ...]
) -> None:
    monkeypatch.setitem(sys.modules, missing, None)  # `import pettingzoo` now fails
    _forget(monkeypatch, ENV_MODULES)
    import pokerlab.envs as envs

    table = envs.PokerTable("leduc")  # the table, the encoding and the actions still work
    assert table.encoder.size > 0
    if "gym_env" not in failing:  # the Gymnasium environment needs no PettingZoo
        assert envs.gym_env("leduc").reset(seed=0)[0]["action_mask"].any()
    for name in failing:
        with pytest.raises(MissingExtraError) as info:
            getattr(envs, name)("leduc")
        message = str(info.value)
        assert "pip install 'pokerlab[envs]'" in message
        assert "\n" not in message
        assert isinstance(info.value, ImportError)


def test_openspiel_bridge_without_open_spiel_names_its_extra(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "pyspiel", None)
    _forget(monkeypatch, ("pokerlab.interop.openspiel",))
    importlib.import_module("pokerlab.interop")
    with pytest.raises(MissingExtraError, match=r"pip install 'pokerlab\[openspiel\]'"):
        importlib.import_module("pokerlab.interop.openspiel")


def test_pokerlab_imports_none_of_the_optional_tools() -> None:
    code = (
        "import sys, pokerlab, pokerlab.envs, pokerlab.interop, pokerlab.agents; "
        "print(sorted(m for m in ('pettingzoo', 'gymnasium', 'pyspiel', 'rlcard') "
        "if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "[]"


def test_the_extras_are_declared() -> None:
    import tomllib
    from pathlib import Path

    pyproject = tomllib.loads(
        (Path(__file__).resolve().parents[2] / "pyproject.toml").read_text(encoding="utf-8")
    )
    extras = pyproject["project"]["optional-dependencies"]
    assert {e.split(">")[0] for e in extras["envs"]} == {"pettingzoo", "gymnasium"}
    assert [e.split(">")[0] for e in extras["openspiel"]] == ["open_spiel"]
    dev = {e.split(">")[0].split("=")[0] for e in extras["dev"]}
    assert {"pettingzoo", "gymnasium", "rlcard", "open_spiel"} <= dev
