"""An entrant that remembers its cards learns nothing of its opponent's in a duplicate match.

A duplicate match deals every deal again with the seats swapped. Played by one process,
an entrant would know its opponent's card in the replay (its own from the first time):
``play_match`` with ``fresh``, ``pokerlab match`` and ``check_agent`` play each leg
(seating) with a fresh agent, as the arena does, so its guesses are no better than chance.

The hostile agent guesses, every hand, that the opponent holds the card it held itself in
the previous hand. In Kuhn poker a guess from another deal is right about 1/3 of the time;
with the leak every replayed hand is right, about 2/3 in all.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from pokerlab.agents.simple import AlwaysCall, RandomAgent
from pokerlab.cli import main
from pokerlab.eval import play_match
from pokerlab.games import Game, kuhn
from pokerlab.play.containment import containment_available
from pokerlab.testing import check_agent

HOSTILE = '''
import sys
from pokerlab.games import HandResult

RANKS = "JQKA"


class Agent:
    """Guesses the opponent holds its own card of the previous hand; bets on a guess made
    across seats (the replay of a deal), else checks and calls (so every hand shows down)."""

    def __init__(self):
        self.last = None  # (seat, cards) of the previous hand
        self.mine = None
        self.guess = None
        self.hits = 0
        self.tests = 0

    def reset(self):
        self.mine = None

    def act(self, observation):
        if self.mine is None:
            self.mine = (observation.seat, observation.private_cards)
            self.guess = self.last
        names = observation.action_names
        guess = self.guess
        if guess is not None and guess[0] != observation.seat:  # the replay, other seat
            if RANKS.index(observation.private_cards[0]) > RANKS.index(guess[1][0]):
                for name in ("bet", "call"):
                    if name in names:
                        return observation.action_named(name)
            return observation.action_named("check" if "check" in names else "fold")
        return observation.action_named("call" if "call" in names else "check")

    def observe(self, update):
        if isinstance(update, HandResult) and self.mine is not None:
            shown = update.showdown[1 - update.seat]
            if shown and self.guess is not None:
                self.tests += 1
                self.hits += self.guess[1] == shown
            self.last = self.mine
            sys.stderr.write(f"acc={self.hits}/{self.tests}\\n")
'''


def _hostile_class() -> type:
    space: dict[str, object] = {}
    exec(compile(HOSTILE, "hostile.py", "exec"), space)
    agent = space["Agent"]
    assert isinstance(agent, type)
    return agent


def _counts(agents: list[object]) -> tuple[int, int]:
    return (sum(int(getattr(a, "hits", 0)) for a in agents),
            sum(int(getattr(a, "tests", 0)) for a in agents))


def test_play_match_with_fresh_agents_leaves_only_chance() -> None:
    game = kuhn()
    hostile = _hostile_class()
    built: list[object] = []

    def rebuild(game: Game) -> object:
        built.append(hostile())
        return built[-1]

    first = hostile()
    play_match(game, first, RandomAgent(), hands=100, seed=3, fresh=[rebuild, None])
    hits, tests = _counts([first, *built])
    assert len(built) == 1  # one more agent for the second leg
    assert tests >= 190  # every hand shows down (the hostile agent never folds first)
    assert 2 * hits <= tests  # chance is about 1/3

    # The same agent kept across both seatings of a deal knows its opponent's card.
    leaky = hostile()
    play_match(game, leaky, RandomAgent(), hands=100, seed=3)
    hits, tests = _counts([leaky])
    assert 2 * hits > tests


@pytest.mark.skipif(not containment_available(), reason="needs the sandbox's namespaces")
def test_check_agent_plays_each_leg_in_a_fresh_process(tmp_path: Path) -> None:
    path = tmp_path / "hostile.py"
    path.write_text(HOSTILE)
    report = check_agent(path, kuhn(), hands=120, seed=1)
    assert report.ok, report.problems
    finals = [(int(h), int(t)) for h, t in re.findall(r"acc=(\d+)/(\d+)\s*$", report.log,
                                                      flags=re.MULTILINE)]
    assert len(finals) == 120  # one line per hand, from the two processes
    # Each process counts from zero: its last line is its total; a reset marks the second.
    restart = next(i for i in range(1, len(finals)) if finals[i][1] < finals[i - 1][1])
    hits = finals[restart - 1][0] + finals[-1][0]
    tests = finals[restart - 1][1] + finals[-1][1]
    assert tests >= 110
    assert 2 * hits <= tests


@pytest.mark.skipif(not containment_available(), reason="needs the sandbox's namespaces")
def test_pokerlab_match_gives_an_entrant_no_memory_of_the_replayed_deal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "hostile.py"
    path.write_text(HOSTILE)
    capsys.readouterr()
    assert main(["match", "kuhn", str(path), "always-call", "--hands", "60", "--no-aivat",
                 "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["agents"]
    # Without a memory from the other seat it only checks and calls, as always-call does:
    # every deal is a check-down won once from each seat, exactly 0 (with the leak, > 0.2).
    assert rows[0]["agent"] == "hostile"
    assert rows[0]["mean"] == 0.0
    assert rows[1]["mean"] == 0.0


def test_fresh_needs_one_entry_per_agent() -> None:
    from pokerlab.errors import PokerlabError

    with pytest.raises(PokerlabError, match="one entry"):
        play_match(kuhn(), AlwaysCall(), AlwaysCall(), hands=5, fresh=[None])
