"""Small Hold'em games compile and solve exactly: the LP and CFR+ agree, and equal Kuhn's and
Leduc's values where the Hold'em configuration is the same game (as universal_poker's
Kuhn and Leduc game definitions are)."""

from __future__ import annotations

import pytest

from pokerlab.eval import expected_value, exploitability
from pokerlab.games import load
from pokerlab.solvers import CFRPlus
from pokerlab.solvers.lp import solve_sequence_form

KUHN_AS_HOLDEM = (
    'holdem(betting="limit", ranks=3, suits=1, hole=1, board="", seat_blinds=(1, 1), '
    'raises="1", caps="1", first="0", stack=100)'
)
LEDUC_AS_HOLDEM = (
    'holdem(betting="limit", ranks=3, suits=2, hole=1, board="1", seat_blinds=(1, 1), '
    'raises="2,4", caps="2,2", first="0,0", stack=100)'
)


def test_kuhn_as_holdem_lp_equals_cfr_plus_and_kuhn() -> None:
    game = load(KUHN_AS_HOLDEM)
    lp = solve_sequence_form(game)
    assert lp.value == pytest.approx(-1 / 18, abs=1e-9)
    solver = CFRPlus(game).run(iterations=1000, check_every=1000)
    assert solver.history[-1].exploitability < 1e-3
    value = expected_value(game, solver.average_strategy())[0]
    assert value == pytest.approx(lp.value, abs=1e-3)


def test_leduc_as_holdem_lp_equals_cfr_plus_and_leduc() -> None:
    game = load(LEDUC_AS_HOLDEM)
    lp = solve_sequence_form(game)
    assert lp.value == pytest.approx(-0.0856064, abs=1e-6)
    assert exploitability(game, lp.strategy) < 1e-8
    solver = CFRPlus(game).run(iterations=300, check_every=300)
    value = expected_value(game, solver.average_strategy())[0]
    assert value == pytest.approx(lp.value, abs=5e-3)
