"""The Hold'em bots (easy, hard-seed, ehs) in play holdem, the arena, and long mixed matches."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from pokerlab.agents.registry import make_agent
from pokerlab.agents.simple import AlwaysRaise, RandomAgent
from pokerlab.cli import main
from pokerlab.eval.matches import play_match
from pokerlab.games import holdem

HOLDEM_BOTS = ("easy", "hard-seed", "ehs")


@pytest.mark.parametrize("name", HOLDEM_BOTS)
def test_play_holdem_against_each_bot(
    name: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("c\n" * 400))
    rc = main(["play", "holdem", "--players", "3", "--seed", "2", "--hands", "3",
               "--opponent", name])
    out = capsys.readouterr().out
    assert rc == 0
    assert "After 3 hands:" in out
    label = {"easy": "Easy AIs", "hard-seed": "seed Hard AIs", "ehs": "EHS bots"}[name]
    assert f"seats 1-2 are {label}" in out


def test_arena_run_on_holdem(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "arena.db"
    rc = main(["arena", "run", 'holdem(betting="limit")', "--builtins",
               ",".join((*HOLDEM_BOTS, "random")), "--hands", "20", "--db", str(db)])
    assert rc == 0
    capsys.readouterr()
    assert main(["arena", "leaderboard", "--db", str(db), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert {s["name"] for s in data["standings"]} == {*HOLDEM_BOTS, "random"}
    assert all(s["faults"] == 0 for s in data["standings"])


@pytest.mark.slow
def test_no_crash_over_thousands_of_hands_of_2_to_9_players() -> None:
    # Every table mixes the Hold'em bots with random and always-raise players.
    hands = 0
    for players in range(2, 10):
        for betting in ("limit", "nolimit"):
            game = holdem(players=players, betting=betting, stack=60 + 20 * players)
            pool = [make_agent(name, game, seed=players) for name in HOLDEM_BOTS]
            pool += [RandomAgent(game, seed=players), AlwaysRaise(game)]
            agents = [pool[seat % len(pool)] if seat < len(pool) else
                      make_agent(HOLDEM_BOTS[seat % 2], game, seed=seat)
                      for seat in range(players)]
            per_seat = max(8, 160 // players)
            result = play_match(game, *agents, hands=per_seat, seed=players, duplicate=False)
            assert result.events == (), result.events[:3]
            assert abs(result.agent_returns.sum()) < 1e-6 * result.n_hands + 1e-9
            hands += result.n_hands
    assert hands >= 2500


def test_always_raise_raises_in_nolimit_holdem() -> None:
    # No-limit names its sizes ("raise to 4", "bet 2"): always-raise once only called there.
    game = holdem(players=2)
    state = game.initial_state()
    for card in range(4):
        state = state.child(card)
    agent = AlwaysRaise(game)
    observation = state.observation()
    assert observation.action_names[observation.legal_actions.index(agent.act(observation))] \
        == "raise to 4"
    state = state.child(1)  # the small blind calls; the big blind may check or raise
    observation = state.observation()
    assert observation.action_names[observation.legal_actions.index(agent.act(observation))] \
        == "raise to 4"


def test_always_raise_min_raises_every_nolimit_decision() -> None:
    # Its no-limit size is documented as the minimum raise (or bet): check it at every
    # decision of hands between two of them, through act and through the policy LBR queries,
    # and on an unopened flop, where no-limit names the action "bet 2".
    from pokerlab.games.holdem import CALL
    from pokerlab.games.holdem_state import HoldemState

    game = holdem(players=2, stack=40)
    agent = AlwaysRaise(game)
    assert agent.policy is not None
    flop = game.initial_state().apply_sequence([0, 1, 2, 3, CALL, CALL, 10, 11, 12])
    starts = [game.initial_state().apply_sequence([0, 1, 2, 3]), flop]
    decisions = raises = 0
    for state in starts:
        while not state.is_terminal:
            assert isinstance(state, HoldemState)
            if state.player < 0:
                state = state.child(state.legal_actions()[0])
                continue
            observation = state.observation()
            bounds = state.raise_range()
            wanted = CALL if bounds is None else state.action_for_raise_to(bounds[0])
            assert agent.act(observation) == wanted
            assert agent.policy.action_probabilities(observation)[wanted] == 1.0
            decisions += 1
            raises += bounds is not None
            state = state.child(wanted)
    assert decisions >= 10
    assert raises >= 8
    observation = flop.observation()
    chosen = agent.act(observation)
    assert observation.action_names[observation.legal_actions.index(chosen)] == "bet 2"
