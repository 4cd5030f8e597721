"""Size guards that hold: games too big are refused at once, before memory runs out."""

from __future__ import annotations

import subprocess
import sys
import time

import pytest

from pokerlab._types import TERMINAL
from pokerlab.errors import GameTooLargeError, PokerlabError
from pokerlab.games import Game, GameSpec, State, load
from pokerlab.tree import compile
from pokerlab.tree.compile import _limit_from_environment


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("kuhn(players=20)", "has 1,071,454,803,361,485,487,649,040,022 histories"),
        ("leduc(ranks=50)", "has 72,913,601 histories"),
        ("leduc(stack=100000, raise_cap=None)", "has at least"),
    ],
)
def test_big_games_are_refused_at_once(spec: str, message: str) -> None:
    start = time.monotonic()
    with pytest.raises(GameTooLargeError, match=message) as error:
        compile(load(spec))
    assert time.monotonic() - start < 60  # counting, not walking (RecursionError before)
    # each needs far more than any machine has: the advice is what works without a tree
    assert f"pokerlab solve '{spec}' --algorithm es-mccfr" in str(error.value)


def test_counts_match_the_compiled_trees() -> None:
    for spec in ("kuhn", "kuhn(players=3)", "kuhn(players=4, cards=6)", "leduc",
                 "leduc(stack=50, raise_cap=None)"):
        game = load(spec)
        assert game.count_histories() == compile(game).n_histories  # type: ignore[attr-defined]
        assert getattr(game, "history_count_is_exact", True)


class _Wide(Game):
    """A game that announces no size: three actions, twelve deep (800k histories)."""

    n_players = 1

    def __init__(self) -> None:
        self.spec = GameSpec("wide-test")

    def initial_state(self) -> State:
        return _WideState(self, ())

    @property
    def max_actions(self) -> int:
        return 3

    def action_name(self, action: int) -> str:
        return str(action)


class _WideState(State):
    __slots__ = ("_game", "_history")

    def __init__(self, game: _Wide, history: tuple[int, ...]) -> None:
        self._game = game
        self._history = history

    @property
    def game(self) -> Game:
        return self._game

    @property
    def player(self) -> int:
        return TERMINAL if len(self._history) == 12 else 0

    @property
    def history(self) -> tuple[int, ...]:
        return self._history

    def legal_actions(self) -> tuple[int, ...]:
        return () if self.player == TERMINAL else (0, 1, 2)

    def _apply(self, action: int) -> State:
        return _WideState(self._game, (*self._history, action))

    def chance_outcomes(self) -> tuple[tuple[int, float], ...]:
        return ()

    def infoset_key(self, player: int | None = None) -> str:
        return "".join(map(str, self._history))

    def _terminal_returns(self) -> tuple[float, ...]:
        return (0.0,)

    def action_name(self, action: int) -> str:
        return str(action)


def test_a_game_that_announces_no_size_is_refused_during_the_walk() -> None:
    # No count before walking: the walk itself refuses once it would pass the limit.
    with pytest.raises(GameTooLargeError, match=r"wide-test (has at least|needs more than)"):
        compile(_Wide(), memory_limit=30 * 1024**2)


def test_the_walk_reads_its_real_memory() -> None:
    # In a fresh process: a test worker's resident size moves by itself (garbage freed,
    # file pages dropped under load: CI and a loaded clean clone saw the hoard hidden).
    code = (
        "from pokerlab.errors import GameTooLargeError\n"
        "from pokerlab.games import load\n"
        "from pokerlab.tree.compile import _MemoryWatch\n"
        "watch = _MemoryWatch(load('kuhn'), limit=20 * 1024**2)\n"
        "watch.check(0)\n"  # nothing held yet
        "hoard = bytearray(100 * 1024**2)\n"
        "hoard[::4096] = b'x' * len(hoard[::4096])\n"  # every page touched: resident
        "try:\n"
        "    watch.check(123)\n"
        "except GameTooLargeError as error:\n"
        "    print(error)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, check=True)
    assert "needs more than 21 MB to compile" in done.stdout, done.stdout + done.stderr
    assert "after 123 histories" in done.stdout


@pytest.mark.parametrize(
    ("text", "value"), [("", 4 * 1024**3), ("8G", 8 * 1024**3), ("500M", 500 * 1024**2),
                        ("1.5g", int(1.5 * 1024**3)), ("123456", 123456)],
)
def test_the_memory_limit_comes_from_the_environment(
    monkeypatch: pytest.MonkeyPatch, text: str, value: int
) -> None:
    monkeypatch.setenv("POKERLAB_MEMORY_LIMIT", text)
    assert _limit_from_environment() == value


@pytest.mark.parametrize("text", ["lots", "-1G", "0"])
def test_a_bad_memory_limit_is_a_clear_error(monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    monkeypatch.setenv("POKERLAB_MEMORY_LIMIT", text)
    with pytest.raises(PokerlabError, match="POKERLAB_MEMORY_LIMIT"):
        _limit_from_environment()
