"""Section 3.2's remark on betting the A, and its TODO list's deviations (docs/tutorial.md).

Every figure docs/tutorial.md states for ``pokerlab study kuhn-ante-bet`` and
``pokerlab study kuhn-deviations``, recomputed.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from pokerlab.studies.kuhn_deviations import deviations, x_gain, z_gain
from pokerlab.studies.kuhn_parameters import study

F = Fraction

# ante, bet: value, (y_low, y_high), always check the A, always bet it, bet A - check A
ANTE_BET_TABLE = {
    (1, 1): (F(-1, 18), (0.0, 1.0), F(-1, 18), F(-1, 18), F(0)),
    (2, 2): (F(-1, 9), (0.0, 1.0), F(-1, 9), F(-1, 9), F(0)),
    (2, 1): (F(-1, 30), (1.0, 1.0), F(-1, 10), F(-1, 30), F(1, 5)),
    (3, 2): (F(-1, 12), (1.0, 1.0), F(-1, 6), F(-1, 12), F(1, 4)),
    (2, 3): (F(-1, 14), (0.0, 0.0), F(-1, 14), F(-3, 14), F(-3, 7)),
    (1, 2): (F(0), (0.0, 0.0), F(0), F(-1, 6), F(-1, 2)),
    (1, 3): (F(0), (0.0, 1 / 3), F(0), F(-1, 5), F(0)),
}


def test_the_ante_bet_table() -> None:
    # Section 3.2: "if the pot did not start at $2, P1 should always bet or always check the A".
    rows = {(r.ante, r.bet): r for r in study(list(ANTE_BET_TABLE))}
    for pair, (value, y_range, check, bet, gain) in ANTE_BET_TABLE.items():
        row = rows[pair]
        assert row.closed_form == value
        assert row.lp_value == pytest.approx(float(value), abs=1e-9)
        assert (row.y_low, row.y_high) == pytest.approx(y_range)
        assert row.value_y0 == pytest.approx(float(check), abs=1e-9)
        assert row.value_y1 == pytest.approx(float(bet), abs=1e-9)
        assert row.a_bet_gain == pytest.approx(float(gain), abs=1e-12)


# name: (value against the equilibrium, against a best response, the best response's gain,
# exploitability), y = 1/3
DEVIATIONS = {
    "P1 never bluffs": (F(-1, 18), F(-2, 27), F(1, 54), F(1, 108)),
    "P1 always bluffs": (F(-1, 18), F(-19, 54), F(8, 27), F(4, 27)),
    "P1 never calls with the K": (F(-1, 18), F(-11, 54), F(4, 27), F(2, 27)),
    "P1 always calls with the K": (F(-1, 18), F(-4, 27), F(5, 54), F(5, 108)),
    "P2 never bluffs": (F(1, 18), F(-1, 18), F(1, 9), F(1, 18)),
    "P2 always bluffs": (F(1, 18), F(-1, 6), F(2, 9), F(1, 9)),
    "P2 never calls with the K": (F(1, 18), F(-1, 9), F(1, 6), F(1, 12)),
    "P2 always calls with the K": (F(1, 18), F(-1, 18), F(1, 9), F(1, 18)),
}


def test_the_deviations_table() -> None:
    found = {d.name: d for d in deviations()}
    assert set(found) == set(DEVIATIONS)
    for name, (against_eq, against_br, gain, exploit) in DEVIATIONS.items():
        d = found[name]
        assert d.value_against_equilibrium == pytest.approx(float(against_eq), abs=1e-12)
        assert d.value_against_best_response == pytest.approx(float(against_br), abs=1e-12)
        assert d.best_response_gain == pytest.approx(float(gain), abs=1e-12)
        assert d.exploitability == pytest.approx(float(exploit), abs=1e-12)


def test_the_best_responses_moves_named_in_the_text() -> None:
    moves = {d.name: {(k, a) for k, a, _ in d.exploiting_moves} for d in deviations()}
    assert moves["P1 never bluffs"] == {("K|b", "fold")}
    assert moves["P1 always bluffs"] == {("K|b", "call")}
    assert moves["P1 never calls with the K"] == {("Q|p", "bet")}
    assert moves["P1 always calls with the K"] == {("Q|p", "check")}
    assert moves["P2 never bluffs"] == {("A|", "bet"), ("K|pb", "fold")}
    assert moves["P2 always bluffs"] == {("A|", "check"), ("K|pb", "call")}
    assert moves["P2 never calls with the K"] == {("Q|", "bet"), ("A|", "check")}
    assert moves["P2 always calls with the K"] == {("Q|", "check"), ("A|", "bet")}


@pytest.mark.parametrize(("y", "x", "gain"), [(1 / 3, 0.0, F(1, 54)), (1.0, 0.0, F(1, 18)),
                                              (0.0, 1.0, F(1, 3)), (1 / 2, 1 / 6, F(0))])
def test_x_against_y(y: float, x: float, gain: Fraction) -> None:
    # (3x - y)/9 when 3x > y, else (y - 3x)/18: never bluffing costs y/18.
    assert x_gain(y, x) == pytest.approx(float(gain), abs=1e-12)


@pytest.mark.parametrize(("y", "z", "gain"), [(0.0, 0.0, F(1, 9)), (1.0, 0.0, F(2, 9)),
                                              (0.0, 1.0, F(1, 9)), (1.0, 2 / 3, F(0))])
def test_z_against_y(y: float, z: float, gain: Fraction) -> None:
    # (1 + y - 3z)/9 when 3z < 1 + y, else (3z - 1 - y)/18.
    assert z_gain(y, z) == pytest.approx(float(gain), abs=1e-12)
