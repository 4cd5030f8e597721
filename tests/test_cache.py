"""Spec-keyed caches: bounded (least recently used goes first) and cleared all at once."""

from __future__ import annotations

from pathlib import Path

import pytest

from pokerlab._cache import (
    CACHE_ENV,
    CACHE_KINDS,
    SpecCache,
    cache_folder,
    cache_root,
    clear_caches,
    registered_caches,
)
from pokerlab.abstraction import abstract_game, collapse, lifting_map
from pokerlab.games import kuhn, leduc
from pokerlab.tree import clear_cache, compile


def test_inserting_more_than_the_bound_evicts_the_oldest() -> None:
    cache: SpecCache[int] = SpecCache("test.bounded", maxsize=3)
    for k in range(3):
        cache.put(f"kuhn(cards={k + 3})", k)
    assert cache.get("kuhn(cards=3)") == 0  # now the most recently used
    cache.put("kuhn(cards=6)", 3)
    assert len(cache) == 3
    assert "kuhn(cards=4)" not in cache  # the least recently used went
    assert [cache.get(f"kuhn(cards={k})") for k in (3, 5, 6)] == [0, 2, 3]
    cache.put("kuhn(cards=5)", 20)  # replacing a value does not grow the cache
    assert len(cache) == 3
    assert cache.get("kuhn(cards=5)") == 20


def test_a_cache_needs_room_for_one_entry() -> None:
    with pytest.raises(ValueError, match="at least 1 entry"):
        SpecCache("test.empty", maxsize=0)


def test_clear_caches_empties_every_registered_cache() -> None:
    mine: SpecCache[str] = SpecCache("test.cleared", maxsize=4)
    mine.put("leduc", "tree")
    compile(kuhn())
    game = abstract_game(kuhn(cards=12), "uniform:4")
    lifting_map(game, collapse(game))
    names = registered_caches()
    for expected in ("tree.compile", "abstraction.collapse", "abstraction.lifting_map",
                     "test.cleared"):
        assert len(names[expected]) > 0, expected
    clear_caches()
    assert {name: len(cache) for name, cache in registered_caches().items()} == dict.fromkeys(
        names, 0
    )


def test_compile_cache_is_bounded_and_clear_cache_still_works() -> None:
    clear_cache()
    trees = registered_caches()["tree.compile"]
    first = compile(kuhn(cards=3))
    assert compile(kuhn(cards=3)) is first  # cached
    for cards in range(4, 4 + trees.maxsize):
        compile(kuhn(cards=cards))
    assert len(trees) == trees.maxsize
    assert kuhn(cards=3).spec not in trees  # evicted: the oldest
    again = compile(kuhn(cards=3))
    assert again is not first
    assert again.n_histories == first.n_histories
    compile(leduc())
    clear_cache()
    assert len(trees) == 0


def test_the_match_and_agent_caches_are_registered_and_cleared() -> None:
    from pokerlab.agents import ExploitativeAgent, RandomAgent, RuleBased
    from pokerlab.eval.matches import play_match
    from pokerlab.games import leduc

    game = kuhn()
    play_match(game, ExploitativeAgent(game), RuleBased(), hands=2)
    from pokerlab.agents import PolicyAgent
    from pokerlab.strategy import Strategy

    play_match(leduc(), PolicyAgent(Strategy.uniform(leduc())), RandomAgent(leduc()), hands=2)
    names = registered_caches()
    for expected in ("eval.sampler", "agents.exploitative_index", "agents.rank_order"):
        assert len(names[expected]) > 0, expected
    clear_caches()
    assert all(len(cache) == 0 for cache in registered_caches().values())


def test_every_kind_of_cached_file_has_a_folder_under_one_root(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "env"))
    assert {kind: cache_folder(kind) for kind in CACHE_KINDS} == {
        kind: tmp_path / "env" / kind for kind in CACHE_KINDS}
    assert cache_folder("bots", tmp_path / "arg") == tmp_path / "arg" / "bots"
    monkeypatch.delenv(CACHE_ENV)
    assert cache_root() == Path.home() / ".cache" / "pokerlab"
    with pytest.raises(ValueError, match="cache kind must be one of bots"):
        cache_folder("tables")


def test_only_the_cache_module_reads_the_cache_variable() -> None:
    package = Path(__file__).resolve().parents[1] / "pokerlab"
    readers = sorted(str(path.relative_to(package)) for path in package.rglob("*.py")
                     if '"POKERLAB_CACHE"' in path.read_text())
    assert readers == ["_cache.py"]
