"""Item 2 of issue 17: sampled determinized MCTS on Kuhn converges to an exploitable strategy."""

from __future__ import annotations

import json

import numpy as np
import pytest

from pokerlab.cli import main
from pokerlab.errors import PokerlabError
from pokerlab.eval import exploitability
from pokerlab.games import kuhn
from pokerlab.games.base import State
from pokerlab.studies.determinized_mcts import (
    compare_mcts,
    determinized_mcts_strategy,
    uct_visits,
)
from pokerlab.studies.pimc import perfect_information_value

KUHN = kuhn()


def _deal(p1: str, p2: str) -> State:
    state: State = KUHN.initial_state()
    for seat, card in enumerate((p1, p2)):
        state = next(
            child for child in (state.child(a) for a, _ in state.chance_outcomes())
            if child.private_cards(seat) == card
        )  # fmt: skip
    return state


def test_uct_finds_the_perfect_information_best_move() -> None:
    # With the cards seen, the A facing a bet calls (wins 2) and the Q facing a bet folds.
    rng = np.random.default_rng(0)
    facing_bet_with_a = _deal("K", "A").child(1)  # P1 bets a K, P2 holds the A
    visits = uct_visits(facing_bet_with_a, 300, rng)
    assert max(visits, key=visits.__getitem__) == 1  # call
    facing_bet_with_q = _deal("K", "Q").child(1)
    visits = uct_visits(facing_bet_with_q, 300, rng)
    assert max(visits, key=visits.__getitem__) == 0  # fold
    assert perfect_information_value(facing_bet_with_q.child(0), 1) == -1.0


def test_mcts_converges_to_an_exploitable_strategy_where_cfr_does_not() -> None:
    # Bounded budget: 20 deals an infoset, 200 UCT iterations a deal (about a second).
    result = compare_mcts(KUHN, determinizations=20, simulations=200, seed=0, cfr_iterations=200)
    assert result.pimc_exploitability == pytest.approx(1 / 6, abs=1e-12)
    assert result.mcts_exploitability == pytest.approx(1 / 6, abs=1e-9)  # reaches exact PIMC's
    assert result.cfr_exploitability < 1e-3
    assert result.mcts_exploitability > 100 * result.cfr_exploitability


@pytest.mark.parametrize(("simulations", "printed"), [(10, 0.333), (50, 0.250)])
def test_smaller_budgets_are_worse_still_as_the_doc_says(simulations: int, printed: float) -> None:
    # docs/tutorial.md section 5 (seed 0, 20 deals an infoset): 0.333 and 0.250
    small = determinized_mcts_strategy(KUHN, determinizations=20, simulations=simulations, seed=0)
    assert exploitability(KUHN, small) == pytest.approx(printed, abs=5e-4)
    assert exploitability(KUHN, small) > 1 / 6 + 0.05


def test_bad_budgets_are_refused() -> None:
    with pytest.raises(PokerlabError, match="at least 1"):
        determinized_mcts_strategy(KUHN, determinizations=0)
    with pytest.raises(PokerlabError, match="simulations must be at least 1"):
        uct_visits(KUHN.initial_state(), 0, np.random.default_rng(0))


def test_determinized_mcts_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["study", "determinized-mcts", "--simulations", "200", "--json"]) == 0
    (row,) = json.loads(capsys.readouterr().out)
    assert row["mcts_exploitability"] == pytest.approx(1 / 6, abs=1e-9)
    assert row["cfr_exploitability"] < 1e-3
