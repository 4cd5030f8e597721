"""The game registry: built-ins registered by the package, right-hand games by PROVIDERS."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from pokerlab.games import registered
from pokerlab.games.registry import _LOADERS, PROVIDERS, load

ROOT = Path(__file__).resolve().parents[2]


def _run(code: str) -> subprocess.CompletedProcess[str]:
    """Run ``code`` in a fresh interpreter that imports this checkout's pokerlab."""
    path = os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])
    env = {**os.environ, "PYTHONPATH": path}
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=False,
    )


def test_the_builtin_games_are_registered_by_the_package() -> None:
    names = {entry.name for entry in registered()}
    assert {"kuhn", "leduc", "holdem", "rps", "matrix"} <= names


@pytest.mark.parametrize("name", sorted(PROVIDERS))
def test_every_provider_registers_its_name(name: str) -> None:
    module = importlib.import_module(PROVIDERS[name])
    assert _LOADERS.get(name) is not None, f"{module.__name__} does not register {name!r}"
    assert PROVIDERS[name].split(".")[1] not in ("cards", "games"), "a provider sits right of games"


def test_import_pokerlab_imports_no_abstraction() -> None:
    done = _run(
        """
        import sys
        import pokerlab, pokerlab.games
        pokerlab.games.load("leduc")
        print(sorted(m for m in sys.modules if m.startswith("pokerlab.abstraction")))
        """
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_a_saved_abstract_strategy_loads_in_a_fresh_interpreter(tmp_path: Path) -> None:
    from pokerlab.abstraction import abstract_game, collapse, to_abstract_game
    from pokerlab.solvers import CFRPlus

    game = abstract_game("kuhn(cards=12)", "uniform:4")
    strategy = to_abstract_game(CFRPlus(collapse(game)).run(iterations=50).average_strategy())
    path = strategy.save(tmp_path / "abstract.npz")
    done = _run(
        f"""
        import sys
        from pokerlab.strategy import Strategy
        assert "pokerlab.abstraction" not in sys.modules
        loaded = Strategy.load({str(path)!r})
        print(loaded.game.spec)
        print(repr(loaded.probs.tolist()))
        print("pokerlab.abstraction.abstract_game" in sys.modules)
        """
    )
    assert done.returncode == 0, done.stderr
    spec, probs, imported = done.stdout.strip().splitlines()
    assert spec == str(game.spec)
    assert probs == repr(strategy.probs.tolist())
    assert imported == "True"  # loaded on demand through PROVIDERS


def test_a_collapsed_game_loads_by_name_in_a_fresh_interpreter() -> None:
    done = _run(
        """
        from pokerlab.games import load
        game = load("collapsed(game=\\"abstract(game='kuhn(cards=12)', cards='uniform:4')\\")")
        print(type(game).__name__, game.spec)
        """
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("CollapsedGame collapsed(")


def test_an_unknown_name_is_still_a_spec_error() -> None:
    from pokerlab.errors import SpecError

    with pytest.raises(SpecError, match=r"unknown game 'nope'; known games: .*kuhn"):
        load("nope")


def test_a_spot_loads_by_its_spec_string_in_a_fresh_interpreter() -> None:
    # A saved spot records only its spec: `load` must build it without `subgame` imported.
    done = _run(
        """
        import sys
        from pokerlab.games import load
        assert "pokerlab.subgame" not in sys.modules
        game = load("spot(board='Td9d6hQc2s', oop='AA,KK', ip='QQ,JJ', pot=100, stack=200)")
        print(type(game).__name__, game.spec)
        """
    )
    assert done.returncode == 0, done.stderr
    kind, spec = done.stdout.strip().split(" ", 1)
    assert kind == "SpotGame"
    assert spec.startswith("spot(board='Td9d6hQc2s'")
