"""Kuhn deviations and the x/z-against-y tables (issue 29, 001's TODOs), checked exactly.

An independent evaluator in exact fractions (the 6 deals, every pure strategy of the
responder) recomputes what the study measures on the compiled tree.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from pokerlab.studies.kuhn_deviations import (
    deviation,
    deviations,
    gain_table,
    x_gain,
    x_gain_closed_form,
    z_gain,
    z_gain_closed_form,
)

F = Fraction
CARDS = "QKA"
P1_KEYS = [c + h for c in CARDS for h in ("|", "|pb")]
P2_KEYS = [c + h for c in CARDS for h in ("|p", "|b")]


def equilibrium(y: Fraction) -> dict[str, Fraction]:
    """Bet (or call) probability per infoset: the tutorial's family, in fractions."""
    x, z, a, b = y / 3, (y + 1) / 3, F(1, 3), F(1, 3)
    return {"Q|": x, "K|": F(0), "A|": y, "Q|pb": F(0), "K|pb": z, "A|pb": F(1),
            "Q|b": F(0), "K|b": a, "A|b": F(1), "Q|p": b, "K|p": F(0), "A|p": F(1)}


def p1_value(bet: dict[str, Fraction]) -> Fraction:
    """P1's exact expected chips over the 6 deals (ante 1, bet 1)."""
    total = F(0)
    for c1, c2 in itertools.permutations(range(3), 2):
        k1, k2 = CARDS[c1], CARDS[c2]
        win = 1 if c1 > c2 else -1
        b1, pb1 = bet[k1 + "|"], bet[k1 + "|pb"]
        call2, bet2 = bet[k2 + "|b"], bet[k2 + "|p"]
        value = b1 * (call2 * 2 * win + (1 - call2) * 1)
        value += (1 - b1) * ((1 - bet2) * win + bet2 * (pb1 * 2 * win + (1 - pb1) * -1))
        total += value / 6
    return total


def best_response_value(bet: dict[str, Fraction], responder: int) -> Fraction:
    """The responder's best value over all 64 of its pure strategies."""
    keys = P2_KEYS if responder == 1 else P1_KEYS
    best = None
    for choice in itertools.product((F(0), F(1)), repeat=len(keys)):
        profile = dict(bet) | dict(zip(keys, choice, strict=True))
        value = p1_value(profile) * (1 if responder == 0 else -1)
        best = value if best is None else max(best, value)
    assert best is not None
    return best


EXACT_GAINS = {
    # name: (variable, probability, the best response's gain over 1/18, y = 1/3)
    "P1 never bluffs": ("x", F(0), F(1, 54)),
    "P1 always bluffs": ("x", F(1), F(8, 27)),
    "P1 never calls with the K": ("z", F(0), F(4, 27)),
    "P1 always calls with the K": ("z", F(1), F(5, 54)),
    "P2 never bluffs": ("b", F(0), F(1, 9)),
    "P2 always bluffs": ("b", F(1), F(2, 9)),
    "P2 never calls with the K": ("a", F(0), F(1, 6)),
    "P2 always calls with the K": ("a", F(1), F(1, 9)),
}


def test_the_exact_evaluator_knows_the_game_value() -> None:
    for y in (F(0), F(1, 3), F(1)):
        assert p1_value(equilibrium(y)) == F(-1, 18)
        assert best_response_value(equilibrium(y), 1) == F(1, 18)
        assert best_response_value(equilibrium(y), 0) == F(-1, 18)


@pytest.mark.parametrize("name", list(EXACT_GAINS))
def test_each_deviation_matches_the_exact_evaluator(name: str) -> None:
    variable, probability, gain = EXACT_GAINS[name]
    keys = {"x": "Q|", "z": "K|pb", "a": "K|b", "b": "Q|p"}
    profile = equilibrium(F(1, 3)) | {keys[variable]: probability}
    responder = 1 if variable in "xz" else 0
    exact = best_response_value(profile, responder) - F(1, 18) * (1 if responder else -1)
    assert exact == gain
    measured = deviation(name, variable, float(probability))
    assert measured.best_response_gain == pytest.approx(float(gain), abs=1e-12)
    assert measured.exploitability == pytest.approx(float(gain) / 2, abs=1e-12)
    # Against the equilibrium the deviation costs nothing: its actions were indifferent.
    seat_value = F(-1, 18) if responder == 1 else F(1, 18)
    assert measured.value_against_equilibrium == pytest.approx(float(seat_value), abs=1e-12)
    assert measured.value_against_best_response == pytest.approx(
        float(seat_value - gain), abs=1e-12
    )
    assert sum(g for _, _, g in measured.exploiting_moves) == pytest.approx(float(gain))


def test_the_best_responses_exploiting_moves() -> None:
    found = {d.name: d for d in deviations()}
    assert [(k, a) for k, a, _ in found["P1 never bluffs"].exploiting_moves] == [("K|b", "fold")]
    assert [(k, a) for k, a, _ in found["P1 always bluffs"].exploiting_moves] == [("K|b", "call")]
    assert [(k, a) for k, a, _ in found["P1 never calls with the K"].exploiting_moves] == [
        ("Q|p", "bet")
    ]
    assert {k for k, _, _ in found["P2 never bluffs"].exploiting_moves} == {"A|", "K|pb"}


@pytest.mark.parametrize("y", [0.0, 1 / 6, 1 / 3, 0.5, 2 / 3, 1.0])
def test_never_bluffing_costs_y_over_18(y: float) -> None:
    # Against x = 0, P2's K folds to every bet: it saves 1 chip on 1/3 of P1's A-bets.
    assert x_gain(y, 0.0) == pytest.approx(y / 18, abs=1e-12)


def test_x_and_z_tables_match_the_closed_forms_and_the_exact_evaluator() -> None:
    for variable, measure, closed in (("x", x_gain, x_gain_closed_form),
                                      ("z", z_gain, z_gain_closed_form)):
        table = gain_table(variable)
        for i, y in enumerate(table.ys):
            for j, v in enumerate(table.values):
                assert table.gains[i, j] == pytest.approx(closed(y, v), abs=1e-12)
                assert table.gains[i, j] == pytest.approx(measure(y, v), abs=1e-15)
    # Spot checks in exact fractions.
    for y, x in ((F(1, 2), F(1, 9)), (F(1, 6), F(1)), (F(1), F(1, 3))):
        profile = equilibrium(y) | {"Q|": x}
        exact = best_response_value(profile, 1) - F(1, 18)
        assert x_gain(float(y), float(x)) == pytest.approx(float(exact), abs=1e-12)
        assert exact == F(x_gain_closed_form(float(y), float(x))).limit_denominator(1000)
    for y, z in ((F(0), F(0)), (F(1, 2), F(1)), (F(2, 3), F(7, 18))):
        profile = equilibrium(y) | {"K|pb": z}
        exact = best_response_value(profile, 1) - F(1, 18)
        assert z_gain(float(y), float(z)) == pytest.approx(float(exact), abs=1e-12)


def test_the_tables_are_zero_exactly_on_the_equilibrium_lines() -> None:
    for variable, line in (("x", lambda y: y / 3), ("z", lambda y: (y + 1) / 3)):
        table = gain_table(variable)
        for i, y in enumerate(table.ys):
            for j, v in enumerate(table.values):
                on_line = abs(v - line(y)) < 1e-12
                assert (abs(table.gains[i, j]) < 1e-12) == on_line
