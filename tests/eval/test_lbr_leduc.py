from __future__ import annotations

import pytest

from pokerlab.eval import best_response
from pokerlab.eval.lbr_leduc import leduc_lbr_value
from pokerlab.games.leduc import leduc
from pokerlab.solvers import CFRPlus
from pokerlab.strategy import Strategy
from pokerlab.strategy.policy import FunctionPolicy


def policies(game):  # type: ignore[no-untyped-def]
    call = FunctionPolicy(game, lambda o: {1: 1.0}, name="always-call")
    raise_ = FunctionPolicy(
        game, lambda o: {2 if 2 in o.legal_actions else 1: 1.0}, name="always-raise"
    )
    return {"uniform": Strategy.uniform(game), "call": call, "raise": raise_}


@pytest.mark.parametrize("name", ["uniform", "call", "raise"])
def test_lbr_value_is_at_most_the_best_response(name: str) -> None:
    game = leduc()
    policy = policies(game)[name]
    for seat in (0, 1):
        lbr = leduc_lbr_value(game, policy, seat)
        br = best_response(game, policy, seat).value
        assert lbr <= br + 1e-9
        assert lbr > 0  # these weak policies lose to LBR too


def test_lbr_near_equilibrium_stays_below_best_response() -> None:
    game = leduc()
    strategy = CFRPlus(game).run(iterations=30, check_every=30).average_strategy()
    for seat in (0, 1):
        assert leduc_lbr_value(game, strategy, seat) <= best_response(game, strategy, seat).value
