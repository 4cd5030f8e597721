"""Safe re-solving never raises Leduc's exploitability beyond its measured bound; unsafe
re-solving can; the Rock-Paper-Scissors illustration; the gadget's value terminals."""

from __future__ import annotations

import numpy as np
import pytest

from pokerlab.eval import exploitability
from pokerlab.games import leduc
from pokerlab.solvers import CFRPlus, solve_sequence_form
from pokerlab.subgame import evaluate_profile, from_strategy, public_game, to_strategy
from pokerlab.subgame.public_tree import CHANCE_NODE, DECISION
from pokerlab.subgame.range_solver import evaluate_profile as evaluate
from pokerlab.subgame.resolve import (
    best_response_values,
    blueprint_reach,
    leduc_resolving,
    resolve_all,
    subgame,
)
from pokerlab.subgame.rps import rock_paper_scissors


def test_rock_paper_scissors_unsafe_is_exploitable_safe_is_not() -> None:
    result = rock_paper_scissors()
    assert result.blueprint_exploitability == pytest.approx(0.0, abs=1e-12)
    assert result.unsafe_exploitability == pytest.approx(0.5)  # a pure strategy; NashConv 1
    assert max(result.unsafe) == pytest.approx(1.0)
    assert result.safe_exploitability == pytest.approx(0.0, abs=1e-9)
    np.testing.assert_allclose(result.safe, [1 / 3] * 3, atol=1e-9)


@pytest.mark.slow
def test_leduc_safe_resolving_never_raises_exploitability_and_unsafe_can() -> None:
    blueprint = CFRPlus(leduc()).run(iterations=30, check_every=30).average_strategy()
    rows = leduc_resolving(blueprint, iterations=1500)
    for row in rows:
        assert row.safe <= row.blueprint + row.safe_bound, row
        assert row.safe_bound < 1e-6, row
    everything = rows[-1]
    assert everything.subgame == "all"
    assert everything.safe < everything.blueprint - 0.01
    assert max(row.unsafe - row.blueprint for row in rows) > 0.05  # after 'kbrc'


@pytest.mark.slow
def test_resolving_an_equilibrium_unsafely_makes_it_exploitable() -> None:
    game = leduc()
    classic = public_game(game)
    arrays = from_strategy(classic, solve_sequence_form(game).strategy)
    roots = [n for n in range(classic.public.tree.n_nodes)
             if classic.public.tree.kind(n) == CHANCE_NODE]
    safe = resolve_all(classic.public, arrays, roots, safe=True, iterations=1500)
    unsafe = resolve_all(classic.public, arrays, roots, safe=False, iterations=1500)
    safe_value = evaluate_profile(classic.public, safe.strategies).exploitability
    assert safe_value <= 1e-9 + safe.bound
    assert evaluate_profile(classic.public, unsafe.strategies).exploitability > 0.01
    # The re-solved profile is a Leduc strategy; the compiled-tree evaluator agrees.
    reach = [_own_reach(classic.public, safe.strategies, p) for p in (0, 1)]
    sums = (safe.strategies[0] * reach[0], safe.strategies[1] * reach[1])
    strategy = to_strategy(classic, sums)
    assert exploitability(game, strategy) == pytest.approx(
        evaluate_profile(classic.public, from_strategy(classic, strategy)).exploitability,
        abs=1e-9)


def _own_reach(public, strategies, p):  # type: ignore[no-untyped-def]
    """p's own reach of every (decision row, hand): rows [rows, hands]."""
    tree = public.tree
    out = np.zeros_like(strategies[p])
    for node in tree.decision_nodes(p):
        reach = blueprint_reach(public, strategies, int(node))[p]
        row = tree.row(int(node))
        out[row : row + len(tree.children(int(node)))] = reach
    return out


def test_the_gadget_values_the_blueprint_at_the_opponents_best_response_values() -> None:
    # With q playing the blueprint in the gadget, the opponent's best response takes
    # max(v(h), CBV(h)) = v(h) for each hand: its value is sum(v) over the gadget's weight.
    game = leduc()
    classic = public_game(game)
    public = classic.public
    blueprint = from_strategy(classic, CFRPlus(game).run(iterations=20).average_strategy())
    node = next(n for n in range(public.tree.n_nodes) if public.tree.kind(n) == CHANCE_NODE)
    q, o = 0, 1
    values = best_response_values(public, blueprint, node, o)
    reach = blueprint_reach(public, blueprint, node)
    weights = [np.ones(public.n_hands[0]), np.ones(public.n_hands[1])]
    weights[q] = reach[q]
    sub = subgame(public, node, (weights[0], weights[1]), gadget=(o, values))
    # q's rows in the gadget: the blueprint's; o's rows: anything (uniform).
    rows = [np.full((sub.game.tree.n_rows[p], sub.game.n_hands[p]), 0.5) for p in (0, 1)]
    for old, new in sub.nodes.items():
        if public.tree.kind(old) == DECISION:
            p = public.tree.player(old)
            count = len(public.tree.children(old))
            rows[p][sub.game.tree.row(new) : sub.game.tree.row(new) + count] = blueprint[p][
                public.tree.row(old) : public.tree.row(old) + count]
    for p in (0, 1):  # normalize the placeholder rows of o's nodes with three actions
        tree = sub.game.tree
        for n in tree.decision_nodes(p):
            count = len(tree.children(int(n)))
            block = rows[p][tree.row(int(n)) : tree.row(int(n)) + count]
            block /= block.sum(axis=0, keepdims=True)
    result = evaluate(sub.game, (rows[0], rows[1]))
    expected = values.sum() / sub.game.normalizer
    assert result.best_response_values[o] == pytest.approx(expected, rel=1e-12, abs=1e-12)
