"""No-limit blueprints: the bet-menu tree plays legally in the engine; menus are checked."""

from __future__ import annotations

import numpy as np
import pytest

from pokerlab._types import CHANCE, TERMINAL
from pokerlab.blueprint.betting_tree import CALL, DECISION, FOLD, RAISE, build_tree
from pokerlab.blueprint.nolimit import parse_pot_fractions, rules_for
from pokerlab.errors import SpecError
from pokerlab.games import load


@pytest.mark.parametrize("game_text", ["holdem(stack=200)", "holdem(stack=(20, 35))"])
def test_every_tree_action_is_legal_in_the_engine(game_text: str) -> None:
    game = load(game_text)
    tree = build_tree(rules_for(game, "50%,100%,a"))
    rng = np.random.default_rng(0)
    for _ in range(300):
        state = game.initial_state()
        node = 0
        while True:
            while state.player == CHANCE:
                state = state.child(int(rng.choice(state.legal_actions())))
            if state.player == TERMINAL:
                assert tree.kind[node] != DECISION
                break
            assert tree.kind[node] == DECISION
            p = int(tree.player[node])
            assert state.player == p
            n = int(tree.n_actions[node])
            actions = []
            for j in range(n):
                kind = int(tree.action_kind[node, j])
                if kind == RAISE:
                    before = state.contributions()[p] - state.bets[p]  # type: ignore[attr-defined]
                    actions.append(state.action_for_raise_to(  # type: ignore[attr-defined]
                        int(tree.raise_to[node, j] - before)))
                else:
                    assert kind in (FOLD, CALL)
                    actions.append(kind)
                assert actions[-1] in state.legal_actions()
            j = int(rng.integers(n))
            state = state.child(actions[j])
            node = int(tree.children[node, j])
            if state.player >= 0:
                assert tuple(tree.contributions[node].tolist()) == state.contributions()


def test_uncalled_chips_do_not_count_in_the_payoffs() -> None:
    from pokerlab.blueprint.mccfr import BlueprintTrainer

    game = load('holdem(stack=(20, 35), ranks=4, suits=2, board="1")')
    trainer = BlueprintTrainer(game, rules=rules_for(game, "100%,a"))
    tree = trainer.tree
    terminal = tree.kind != DECISION
    settled = trainer._contributions[terminal]
    assert (tree.contributions[terminal].max(axis=1) == 35).any()  # an all-in over 20
    assert settled.max() == 20


def test_menus_are_checked() -> None:
    assert parse_pot_fractions("100%,50%,a") == (0.5, 1.0)
    with pytest.raises(SpecError, match="pot percentages like"):
        parse_pot_fractions("2.5x,a")
    with pytest.raises(SpecError, match="for no-limit games"):
        rules_for(load('holdem(betting="limit")'), "50%,a")
