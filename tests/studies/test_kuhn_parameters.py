"""Section 3.2's remark: with another pot than $2, P1 always bets or always checks the A."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from pokerlab.errors import PokerlabError
from pokerlab.games import kuhn
from pokerlab.strategy.kuhn_solution import kuhn_value
from pokerlab.studies.kuhn_parameters import (
    a_bet_gain,
    a_bet_gain_closed_form,
    ante_bet_row,
    curves_figure,
    value_curves,
    value_given_y,
)


def test_the_tutorials_game_does_not_care_about_y() -> None:
    game = kuhn()
    for y in (0.0, 0.25, 0.5, 1.0):
        assert value_given_y(game, y) == pytest.approx(-1 / 18, abs=1e-9)


@pytest.mark.parametrize(("ante", "bet"), [(2, 1), (3, 2), (3, 1)])
def test_a_bet_below_the_ante_always_bets_the_a(ante: int, bet: int) -> None:
    game = kuhn(ante=ante, bet=bet)
    values = [value_given_y(game, y) for y in (0.0, 0.5, 1.0)]
    assert values[0] < values[1] < values[2]
    assert values[2] == pytest.approx(float(kuhn_value(ante=ante, bet=bet)), abs=1e-9)


@pytest.mark.parametrize(("ante", "bet"), [(2, 3), (1, 2), (3, 5)])
def test_a_bet_above_the_ante_always_checks_the_a(ante: int, bet: int) -> None:
    game = kuhn(ante=ante, bet=bet)
    values = [value_given_y(game, y) for y in (0.0, 0.5, 1.0)]
    assert values[0] > values[1] > values[2]
    assert values[0] == pytest.approx(float(kuhn_value(ante=ante, bet=bet)), abs=1e-9)


def test_committed_values_exactly() -> None:
    # ante 2, bet 1: P1's value is linear in y, from -1/10 (always check) to -1/30 (always bet).
    game = kuhn(ante=2, bet=1)
    assert value_given_y(game, 0.0) == pytest.approx(-1 / 10, abs=1e-9)
    assert value_given_y(game, 1.0) == pytest.approx(-1 / 30, abs=1e-9)
    assert value_given_y(game, 0.5) == pytest.approx((-1 / 10 - 1 / 30) / 2, abs=1e-9)
    # ante 1, bet 3: flat at 0 up to y = 1 - 2/3, then falling.
    wide = kuhn(ante=1, bet=3)
    assert value_given_y(wide, 1 / 3) == pytest.approx(0.0, abs=1e-9)
    assert value_given_y(wide, 0.5) < -1e-3


@pytest.mark.parametrize(("ante", "bet"), [(1, 1), (2, 1), (3, 2), (2, 3), (1, 2), (1, 3), (4, 3)])
def test_betting_the_a_gains_the_closed_form(ante: int, bet: int) -> None:
    closed = a_bet_gain_closed_form(ante, bet)
    assert a_bet_gain(ante, bet) == pytest.approx(float(closed), abs=1e-12)
    if bet <= 2 * ante:
        assert closed == Fraction(bet * (ante - bet), 2 * ante + bet)


def test_rows_agree_with_the_lp() -> None:
    row = ante_bet_row(2, 1)
    assert row.lp_value == pytest.approx(-1 / 30, abs=1e-9)
    assert row.closed_form == Fraction(-1, 30)
    assert (row.y_low, row.y_high) == (1.0, 1.0)
    assert row.lp_y == pytest.approx(1.0, abs=1e-9)
    assert row.a_bet_gain == pytest.approx(0.2, abs=1e-12)
    assert ante_bet_row(2, 3).lp_y == pytest.approx(0.0, abs=1e-9)


def test_value_given_y_refuses_bad_input() -> None:
    with pytest.raises(PokerlabError, match=r"\[0, 1\]"):
        value_given_y(kuhn(), 1.5)
    with pytest.raises(PokerlabError, match="2-player"):
        value_given_y(kuhn(players=3), 0.5)


def test_the_figure_is_written(tmp_path) -> None:  # type: ignore[no-untyped-def]
    ys, curves = value_curves([(1, 1), (2, 1)], points=3)
    assert ys.tolist() == [0.0, 0.5, 1.0]
    assert np.allclose(curves[(1, 1)], -1 / 18)
    path = curves_figure(ys, curves, str(tmp_path / "v.png"))
    assert (tmp_path / "v.png").stat().st_size > 1000
    assert path.endswith("v.png")
