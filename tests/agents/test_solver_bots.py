from __future__ import annotations

import numpy as np
import pytest

from pokerlab.agents import SOLVER_BOT_ITERATIONS, solver_bot, solver_strategy
from pokerlab.agents.solver_bots import cache_path
from pokerlab.errors import PokerlabError
from pokerlab.eval import exploitability
from pokerlab.games import kuhn


def test_iterations_of_the_standard_bots() -> None:
    assert SOLVER_BOT_ITERATIONS == (1, 10, 100, 1000, 10000)


def test_bots_are_cached_on_disk(tmp_path) -> None:
    game = kuhn()
    strategy = solver_strategy(game, 100, cache_dir=tmp_path)
    path = cache_path(game, 100, tmp_path)
    assert path.exists()
    assert path.parent == tmp_path / "bots"  # cache_dir is the cache root
    assert [p.name for p in path.parent.iterdir()] == [path.name]  # no temporary file left
    again = solver_strategy(game, 100, cache_dir=tmp_path)
    assert np.array_equal(strategy.probs, again.probs)
    assert again.metadata["iterations"] == 100
    assert cache_path(game, 10, tmp_path) != path


def test_more_iterations_are_less_exploitable(tmp_path) -> None:
    game = kuhn()
    values = [exploitability(game, solver_strategy(game, n, cache_dir=tmp_path))
              for n in (1, 10, 100, 1000)]
    assert values == sorted(values, reverse=True)
    assert values[-1] < 0.01


def test_bots_are_cached_under_the_environments_root(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("POKERLAB_CACHE", str(tmp_path / "env"))
    bot = solver_bot(kuhn(), 10)
    assert bot.name == "cfr+10"
    assert [p.name for p in (tmp_path / "env" / "bots").iterdir()] == [
        cache_path(kuhn(), 10).name]


def test_a_damaged_cache_file_is_rebuilt(tmp_path) -> None:
    game = kuhn()
    path = cache_path(game, 10, tmp_path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"not a strategy")
    strategy = solver_strategy(game, 10, cache_dir=tmp_path)
    assert strategy.metadata["iterations"] == 10


def test_bad_iterations() -> None:
    with pytest.raises(PokerlabError, match="iterations"):
        solver_strategy(kuhn(), 0)
