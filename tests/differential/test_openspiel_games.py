"""Our Kuhn and Leduc rules against OpenSpiel's, walked in lockstep.

Full walks (every history) for Kuhn with 2 and 3 players and 2-player Leduc; seeded random
playouts for 3-player Leduc (1.8M histories: too many to walk in Python quickly) and
3-player Kuhn. Action ids and chance outcomes (card ids) are OpenSpiel's.
"""

from __future__ import annotations

import re
from collections import Counter

import numpy as np
import pyspiel
import pytest

from pokerlab._types import CHANCE, TERMINAL
from pokerlab.games import Game, kuhn, leduc
from pokerlab.interop.openspiel import openspiel_game
from pokerlab.tree import compile
from tests.differential.lockstep import walk


def test_kuhn_two_players() -> None:
    game = kuhn()
    correspondence = walk(game)
    tree = compile(game)
    assert correspondence.histories == tree.n_histories == 58
    # OpenSpiel's Kuhn info states are one to one with our keys.
    assert len(correspondence.to_ours) == 12
    assert set(correspondence.to_ours.values()) == set(tree.infoset_keys)
    for theirs, ours in correspondence.to_ours.items():
        card = int(theirs[0])  # OpenSpiel writes the card id, then the betting as p/b
        assert ours == "QKA"[card] + "|" + theirs[1:]


def test_kuhn_three_players() -> None:
    game = kuhn(players=3)
    correspondence = walk(game)
    tree = compile(game)
    assert correspondence.histories == tree.n_histories == 617
    assert len(correspondence.to_ours) == tree.n_infosets == 48
    assert set(correspondence.to_ours.values()) == set(tree.infoset_keys)
    for theirs, ours in correspondence.to_ours.items():
        assert ours == "JQKA"[int(theirs[0])] + "|" + theirs[1:]


def test_leduc_two_players() -> None:
    game = leduc()
    correspondence = walk(game)
    tree = compile(game)
    assert correspondence.histories == tree.n_histories == 9_457
    # OpenSpiel's info states name suits: 936 strings map onto our 288 rank keys.
    assert len(correspondence.to_ours) == 936
    assert set(correspondence.to_ours.values()) == set(tree.infoset_keys)
    assert len(set(correspondence.to_ours.values())) == 288
    names = game.rank_names
    for theirs, ours in correspondence.to_ours.items():
        private = int(re.search(r"\[Private: (\d+)\]", theirs).group(1))  # type: ignore[union-attr]
        parts = ours.split("|")
        assert parts[0] == names[private // 2]
        public = re.search(r"\[Public: (\d+)\]", theirs)
        if public is None:
            assert len(parts) == 2
        else:
            assert len(parts) == 4
            assert parts[1] == names[int(public.group(1)) // 2]
    # Each key gathers the same number of OpenSpiel strings: 2 suits of the private card,
    # times 2 suits of the board in round 2 (a pair leaves one board suit: 2 x 1).
    fan_in = Counter(correspondence.to_ours.values())
    for key, count in fan_in.items():
        parts = key.split("|")
        if len(parts) == 2:
            assert count == 2
        else:
            assert count == (2 if parts[0] == parts[1] else 4)


def _lockstep_playouts(game: Game, playouts: int, seed: int) -> Counter[tuple[float, ...]]:
    os_game = openspiel_game(game)
    rng = np.random.default_rng(seed)
    outcomes: Counter[tuple[float, ...]] = Counter()
    for _ in range(playouts):
        ours = game.initial_state()
        theirs = os_game.new_initial_state()
        while not theirs.is_terminal():
            legal = tuple(theirs.legal_actions())
            if theirs.is_chance_node():
                assert ours.player == CHANCE
                mine = dict(ours.chance_outcomes())
                other = dict(theirs.chance_outcomes())
                assert mine.keys() == other.keys()
                for a, p in other.items():
                    assert mine[a] == pytest.approx(p, abs=1e-12)
            else:
                assert ours.player == theirs.current_player()
                assert ours.legal_actions() == legal
            action = legal[int(rng.integers(len(legal)))]
            ours = ours.child(action)
            theirs.apply_action(action)
        assert ours.player == TERMINAL
        returns = tuple(float(r) for r in theirs.returns())
        assert ours.returns() == pytest.approx(returns, abs=1e-12)
        outcomes[returns] += 1
    return outcomes


def test_leduc_three_players_random_playouts() -> None:
    outcomes = _lockstep_playouts(leduc(players=3), playouts=3_000, seed=11)
    assert len(outcomes) > 30  # many different endings were reached


def test_kuhn_three_players_random_playouts() -> None:
    outcomes = _lockstep_playouts(kuhn(players=3), playouts=3_000, seed=12)
    assert len(outcomes) >= 10


def test_leduc_two_players_random_playouts() -> None:
    _lockstep_playouts(leduc(), playouts=500, seed=13)


def test_openspiel_names() -> None:
    assert openspiel_game(leduc(players=3)).num_players() == 3
    assert isinstance(openspiel_game(kuhn()), pyspiel.Game)
