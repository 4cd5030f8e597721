"""The slips issue 29 found in the tutorial (section 3, 3.2), each recomputed.

docs/tutorial.md lists every slip with the right figure; these are the ones issue 29,
item 5 added: the regret-matching table's "P2 Profits" column, the dominance example's
"When P2 chooses Action 3" line, the RPS exploitation table's "0.5*1 = 1", and two line
items of section 3.2's Case 1 (whose total is right).
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from pokerlab.games import kuhn, load
from pokerlab.solvers import best_response_to
from pokerlab.strategy import kuhn_equilibrium

ROCK, PAPER, SCISSORS = 0, 1, 2
_PLAYS = {"R": ROCK, "P": PAPER, "S": SCISSORS}

# Section 3, Regret Matching, the table of plays: P1's play, P2's play, and the "P2 Profits"
# column as the tutorial prints it.
PLAYS = [("S", "S"), ("P", "R"), ("S", "P"), ("P", "R"), ("R", "S"),
         ("R", "R"), ("P", "P"), ("S", "P"), ("R", "R"), ("R", "P")]
PRINTED_PROFITS = [0, 1, 0, -1, -2, -2, -2, -3, -3, -2]
RIGHT_PROFITS = [0, -1, -2, -3, -4, -4, -4, -5, -5, -4]


def test_regret_matching_table_p2_profits() -> None:
    # P2's running profit from the plays: row 2 (P1 Paper, P2 Rock) loses 1, not wins 1,
    # and every later row is 2 lower than printed.
    game = load("rps")
    running, profits = 0.0, []
    for p1, p2 in PLAYS:
        running += float(game.B[_PLAYS[p1], _PLAYS[p2]])
        profits.append(running)
    assert profits == RIGHT_PROFITS
    assert profits != PRINTED_PROFITS
    assert [printed - right for printed, right in zip(PRINTED_PROFITS, RIGHT_PROFITS,
                                                      strict=True)][1:] == [2] * 9


def test_dominance_example_p1_payoffs_against_action_3() -> None:
    # "When P2 chooses Action 3, P1 earns 7 with Action 1, 5 with Action 2, and 0 with Action
    # 3": the matrix's column Action 3 gives P1 3, -1 and 0; the printed 7, 5, 0 match no
    # column of the matrix.
    A = np.asarray(load("dominance").A)
    assert A[:, 2].tolist() == [3.0, -1.0, 0.0]
    assert all(A[:, k].tolist() != [7.0, 5.0, 0.0] for k in range(3))
    assert A[:, 0].tolist() == [10.0, 5.0, 7.0]  # the line before it, right as printed


def test_rps_exploitation_table_paper_against_rock() -> None:
    # The table of "Paper 100%" against Rock 50%, Paper 25%, Scissors 25% prints
    # "0.5*1 = 1" in the Rock column: 0.5 * 1 is 0.5, and the row adds up to 0.25 (as the
    # text says) only with 0.5.
    game = load("rps")
    opponent = (0.5, 0.25, 0.25)
    cells = [opponent[k] * float(game.A[PAPER, k]) for k in range(3)]
    assert cells == [0.5, 0.0, -0.25]
    assert sum(cells) == 0.25
    response = best_response_to(game, opponent, 1)
    assert response.action_ids == (PAPER,)
    assert response.payoff == pytest.approx(0.25)


def _case_1_line_items(y: float) -> dict[str, float]:
    """P1 A, P2 K: each line's probability times P1's chips back (net + the 1-chip ante)."""
    strategy = kuhn_equilibrium(y)
    game = kuhn()
    state = game.initial_state().child(2).child(1)  # P1 holds the A, P2 the K
    bet = strategy.probabilities("A|")[1]
    call = strategy.probabilities("K|b")[1]
    back = {  # chips back for the ante, from the game's own returns
        "bet fold": state.child(1).child(0).returns()[0] + 1,
        "bet call": state.child(1).child(1).returns()[0] + 1,
        "check check": state.child(0).child(0).returns()[0] + 1,
    }
    return {
        "bet fold": bet * (1 - call) * back["bet fold"],
        "bet call": bet * call * back["bet call"],
        "check check": (1 - bet) * 1.0 * back["check check"],  # P2's K always checks behind
    }


@pytest.mark.parametrize("y", [0.0, 0.3, 0.5, 1.0])
def test_case_1_line_items(y: float) -> None:
    # Section 3.2, Case 1 (P1 A, P2 K) prints "y * 2/3 * 2 = y/3" and "y * 1/3 * 3 = 2y";
    # they are 4y/3 and y. The printed total y/3 + 2 is right: 4y/3 + y + 2(1 - y).
    items = _case_1_line_items(y)
    assert items["bet fold"] == pytest.approx(4 * y / 3)
    assert items["bet call"] == pytest.approx(y)
    assert items["check check"] == pytest.approx(2 * (1 - y))
    assert sum(items.values()) == pytest.approx(y / 3 + 2)
    if y:
        assert items["bet fold"] != pytest.approx(y / 3)
        assert items["bet call"] != pytest.approx(2 * y)
    assert Fraction(4, 3) + 1 - 2 == Fraction(1, 3)  # the total's y coefficient
