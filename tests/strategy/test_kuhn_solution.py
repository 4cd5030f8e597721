"""The analytical family of Kuhn equilibria (tutorial section 3.2)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from pokerlab.errors import SpecError
from pokerlab.eval import expected_value, exploitability
from pokerlab.games import kuhn
from pokerlab.solvers import solve_sequence_form
from pokerlab.strategy import kuhn_equilibrium
from pokerlab.strategy.kuhn_solution import equilibrium_parameters, kuhn_value, y_range
from pokerlab.tree import compile

KUHN_VALUE = -1 / 18  # the tutorial: 17/18 - 1


@pytest.mark.parametrize("y", [0.0, 0.5, 1.0, 1 / 3, 0.9])
def test_every_member_is_an_equilibrium(y: float) -> None:
    game = kuhn()
    strategy = kuhn_equilibrium(y)
    assert exploitability(game, strategy) < 1e-12
    p1, p2 = expected_value(game, strategy)
    assert p1 == pytest.approx(KUHN_VALUE, abs=1e-12)
    assert p2 == pytest.approx(-KUHN_VALUE, abs=1e-12)


def test_rows() -> None:
    strategy = kuhn_equilibrium(0.6)

    def bet(key: str) -> float:
        return strategy.probabilities(key)[1]

    assert bet("A|") == pytest.approx(0.6)
    assert bet("Q|") == pytest.approx(0.2)  # x = y / 3
    assert bet("K|") == 0.0
    assert bet("K|pb") == pytest.approx(1.6 / 3)  # z = (y + 1) / 3
    assert bet("A|pb") == 1.0
    assert bet("Q|pb") == 0.0
    assert bet("K|b") == pytest.approx(1 / 3)  # a
    assert bet("Q|p") == pytest.approx(1 / 3)  # b
    assert bet("A|b") == 1.0
    assert bet("A|p") == 1.0
    assert bet("Q|b") == 0.0
    assert bet("K|p") == 0.0
    assert strategy.metadata["algorithm"] == "analytical"
    assert strategy.metadata["y"] == 0.6


def test_default_is_y_one_third() -> None:
    assert kuhn_equilibrium().probabilities("A|")[1] == pytest.approx(1 / 3)


@pytest.mark.parametrize("y", [-0.1, 1.5, float("nan"), float("inf")])
def test_y_out_of_range(y: float) -> None:
    with pytest.raises(SpecError, match=r"\[0, 1\]"):
        kuhn_equilibrium(y)


def test_y_not_a_number() -> None:
    with pytest.raises(SpecError, match=r"\[0, 1\]"):
        kuhn_equilibrium(True)
    with pytest.raises(SpecError, match=r"\[0, 1\]"):
        kuhn_equilibrium("0.5")  # type: ignore[arg-type]


# --- other antes and bets: kuhn(ante=..., bet=...) (issue 29) --------------------------

PAIRS = [(1, 1), (2, 2), (3, 3), (2, 1), (3, 1), (3, 2), (5, 4), (2, 3), (3, 4), (3, 5),
         (1, 2), (2, 4), (1, 3), (2, 5), (1, 5), (4, 1)]


def _closed_form(ante: int, bet: int) -> Fraction:
    # The piecewise value derived in the module docstring, written out again here.
    if bet <= ante:
        return Fraction(-bet * bet, 6 * (2 * ante + bet))
    if bet <= 2 * ante:
        return Fraction(-bet * (2 * ante - bet), 6 * (2 * ante + bet))
    return Fraction(0)


@pytest.mark.parametrize(("ante", "bet"), PAIRS)
def test_lp_value_equals_the_closed_form(ante: int, bet: int) -> None:
    value = solve_sequence_form(kuhn(ante=ante, bet=bet)).value
    assert kuhn_value(ante=ante, bet=bet) == _closed_form(ante, bet)
    assert value == pytest.approx(float(_closed_form(ante, bet)), abs=1e-9)


def test_closed_form_values_exactly() -> None:
    # ante = bet scales the tutorial's game; a smaller bet gives -bet^2 / (6 (2 ante + bet)).
    assert kuhn_value() == Fraction(-1, 18)
    assert kuhn_value(ante=3, bet=3) == Fraction(-3, 18)
    assert kuhn_value(ante=2, bet=1) == Fraction(-1, 30)
    assert kuhn_value(ante=2, bet=3) == Fraction(-1, 14)
    assert kuhn_value(ante=1, bet=2) == 0
    assert kuhn_value(ante=1, bet=5) == 0


@pytest.mark.parametrize(("ante", "bet"), PAIRS)
def test_every_member_of_every_family_is_an_equilibrium(ante: int, bet: int) -> None:
    game = kuhn(ante=ante, bet=bet)
    low, high = y_range(ante=ante, bet=bet)
    for y in (low, (low + high) / 2, high):
        strategy = kuhn_equilibrium(y, ante=ante, bet=bet)
        assert exploitability(game, strategy) < 1e-12
        assert expected_value(game, strategy)[0] == pytest.approx(
            float(kuhn_value(ante=ante, bet=bet)), abs=1e-12
        )
    assert kuhn_equilibrium(ante=ante, bet=bet).game == game


def _with_rows(strategy, rows: dict[str, float]):  # type: ignore[no-untyped-def]
    tree = compile(strategy.game)
    probs = strategy.probs.copy()
    for key, bet in rows.items():
        probs[tree.infoset_id(key)] = [1 - bet, bet]
    return type(strategy)(strategy.game, probs)


@pytest.mark.parametrize(("ante", "bet", "y"), [(2, 1, 0.9), (2, 1, 0.0), (2, 3, 0.1),
                                                (2, 3, 1.0), (1, 4, 0.6), (1, 4, 1.0)])
def test_outside_the_range_p1_is_exploitable(ante: int, bet: int, y: float) -> None:
    # The formulas for x and z at a y outside y_range: a best response gains.
    game = kuhn(ante=ante, bet=bet)
    p = equilibrium_parameters(ante=ante, bet=bet)
    pot_and_bet = 2 * ante + bet
    x = y * bet / pot_and_bet if bet <= 2 * ante else 0.0
    z = max(0.0, (2 * ante - bet + y * bet) / pot_and_bet) if bet <= 2 * ante else 0.0
    strategy = _with_rows(kuhn_equilibrium(ante=ante, bet=bet), {"A|": y, "Q|": x, "K|pb": z})
    assert p.y != y
    assert exploitability(game, strategy) > 1e-4
    with pytest.raises(SpecError, match="y is free only when the ante equals the bet"):
        kuhn_equilibrium(y, ante=ante, bet=bet)


def test_a_bet_below_the_ante_bets_the_a_and_above_checks_it() -> None:
    # Section 3.2: "if the pot did not start at $2, P1 should always bet or always check the A".
    assert y_range(ante=2, bet=1) == (1.0, 1.0)
    assert y_range(ante=2, bet=3) == (0.0, 0.0)
    assert y_range(ante=1, bet=1) == (0.0, 1.0)
    assert y_range(ante=1, bet=4) == (0.0, 0.5)
    p = equilibrium_parameters(ante=2, bet=1)
    assert (p.y, p.x, p.z, p.a, p.b) == pytest.approx((1.0, 0.2, 0.8, 0.6, 0.2))


def test_p2_calling_range_is_an_interval_when_the_bet_exceeds_the_ante() -> None:
    # ante 2, bet 3: any a in [(2 ante - bet) / (2 ante + bet), bet / (2 ante + bet)] = [1/7, 3/7].
    game = kuhn(ante=2, bet=3)
    base = kuhn_equilibrium(ante=2, bet=3)
    assert base.probabilities("K|b")[1] == pytest.approx(1 / 7)
    for a in (1 / 7, 2 / 7, 3 / 7):
        assert exploitability(game, _with_rows(base, {"K|b": a})) < 1e-12
    for a in (0.1, 0.5):
        assert exploitability(game, _with_rows(base, {"K|b": a})) > 1e-4


@pytest.mark.parametrize(("ante", "bet"), [(0, 1), (1, 0), (1.5, 1), (True, 1)])
def test_bad_chips(ante: object, bet: object) -> None:
    with pytest.raises(SpecError, match="whole number of chips"):
        kuhn_equilibrium(ante=ante, bet=bet)  # type: ignore[arg-type]
