"""Property tests (hypothesis) over random games, playouts, specs and strategy files."""

from __future__ import annotations

import math
import tempfile
from pathlib import Path

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pokerlab.games import Game, GameSpec, State, bimatrix, kuhn, leduc, load
from pokerlab.strategy import Strategy
from pokerlab.tree import compile

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def kuhn_games(draw: st.DrawFn) -> Game:
    players = draw(st.integers(2, 4))
    cards = draw(st.integers(players + 1, players + 30))
    return kuhn(cards=cards, players=players)


@st.composite
def leduc_games(draw: st.DrawFn) -> Game:
    players = draw(st.sampled_from([2, 3]))
    ranks = draw(st.integers(2, 13))
    stack = draw(st.none() | st.integers(2, 60)) if players == 2 else None
    raise_cap = draw(st.integers(0, 5)) if stack is None else draw(st.none() | st.integers(0, 5))
    ante = 1
    bets = draw(st.tuples(st.integers(1, 6), st.integers(1, 12)))
    return load(
        "leduc",
        players=players,
        ranks=ranks,
        stack=stack,
        raise_cap=raise_cap,
        pair_counts=draw(st.booleans()),
        ante=ante,
        bets=bets,
    )


finite = st.floats(-1e6, 1e6, allow_nan=False, allow_infinity=False)


@st.composite
def matrix_games(draw: st.DrawFn) -> Game:
    rows = draw(st.integers(1, 4))
    cols = draw(st.integers(1, 4))
    payoffs = [[(draw(finite), draw(finite)) for _ in range(cols)] for _ in range(rows)]
    names = st.text(min_size=0, max_size=6)
    row_names = draw(st.none() | st.lists(names, min_size=rows, max_size=rows))
    col_names = draw(st.none() | st.lists(names, min_size=cols, max_size=cols))
    return bimatrix(payoffs, rows=row_names, cols=col_names, title=draw(names))


any_game = (
    kuhn_games()
    | leduc_games()
    | matrix_games()
    | st.sampled_from([load("rps"), load("dominance"), load("battle_of_sexes")])
)


def _playout(game: Game, rng: np.random.Generator) -> list[State]:
    """A uniformly random playout from the root; every state along it."""
    state = game.initial_state()
    states = [state]
    while not state.is_terminal:
        if state.is_chance:
            outcomes = state.chance_outcomes()
            probs = np.array([p for _, p in outcomes])
            action = outcomes[int(rng.choice(len(outcomes), p=probs / probs.sum()))][0]
        else:
            legal = state.legal_actions()
            action = legal[int(rng.integers(len(legal)))]
        state = state.child(action)
        states.append(state)
    return states


@SETTINGS
@given(game=kuhn_games() | leduc_games(), seed=st.integers(0, 2**32 - 1))
def test_chance_sums_to_one_and_returns_to_zero(game: Game, seed: int) -> None:
    rng = np.random.default_rng(seed)
    legal_by_key: dict[str, tuple[int, ...]] = {}
    for _ in range(20):
        states = _playout(game, rng)
        for state in states:
            if state.is_chance:
                outcomes = state.chance_outcomes()
                assert math.isclose(sum(p for _, p in outcomes), 1.0, rel_tol=1e-12)
                assert all(p > 0 for _, p in outcomes)
                assert tuple(a for a, _ in outcomes) == state.legal_actions()
            elif state.player >= 0:
                legal = state.legal_actions()
                assert legal == tuple(sorted(set(legal)))
                key = state.infoset_key()
                assert legal_by_key.setdefault(key, legal) == legal
        end = states[-1]
        returns = end.returns()
        assert len(returns) == game.n_players
        assert math.isclose(sum(returns), 0.0, abs_tol=1e-9)
        assert max(returns) > 0 or all(r == 0 for r in returns)
        contributions = end.contributions()
        assert all(c >= 0 for c in contributions)
        assert max(returns) <= sum(contributions)
        stacks = end.stacks()
        if stacks is not None:
            assert all(s >= 0 for s in stacks)


@settings(max_examples=25, deadline=None)
@given(
    game=st.sampled_from(
        [kuhn(), kuhn(cards=5), kuhn(players=3), leduc(stack=4), leduc(stack=6, raise_cap=None)]
    ),
    seed=st.integers(0, 1000),
)
def test_infoset_histories_share_legal_actions(game: Game, seed: int) -> None:
    tree = compile(game)
    rng = np.random.default_rng(seed)
    for node in rng.choice(tree.decision_ids, size=min(200, len(tree.decision_ids))):
        i = tree.infoset[node]
        lo = tree.first_child[node]
        n = tree.n_children[node]
        assert n == tree.infoset_n_actions[i]
        np.testing.assert_array_equal(tree.action[lo : lo + n], tree.infoset_actions[i, :n])


@SETTINGS
@given(game=any_game)
def test_spec_strings_round_trip(game: Game) -> None:
    text = str(game.spec)
    assert load(text) == game
    assert str(load(text).spec) == text
    assert GameSpec.from_dict(game.spec.to_dict()) == game.spec
    assert load(GameSpec.from_dict(game.spec.to_dict())) == game


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**53), 2**53) | finite | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=8,
)


@settings(max_examples=40, deadline=None)
@given(
    game=st.sampled_from([kuhn(), kuhn(cards=4), kuhn(players=3), leduc(stack=4), load("rps")]),
    seed=st.integers(0, 2**32 - 1),
    metadata=st.dictionaries(st.text(min_size=1, max_size=8), json_values, max_size=4),
)
def test_strategy_files_round_trip(game: Game, seed: int, metadata: dict[str, object]) -> None:
    from tests.differential.lockstep import random_strategy

    strategy = random_strategy(game, np.random.default_rng(seed)).with_metadata(**metadata)
    with tempfile.TemporaryDirectory() as folder:
        path = strategy.save(Path(folder) / "s.npz")
        again = Strategy.load(path, game=game)
    np.testing.assert_array_equal(again.probs, strategy.probs)
    assert dict(again.metadata) == dict(strategy.metadata)
    assert again.game == game
