"""The tables of docs/tutorial.md sections 9, 13 and 14 that reproduce in seconds, pinned.

Each figure is checked to the digits the doc prints. The rest of those sections (3-player
Leduc) take minutes; the doc states the exact command instead.
"""

from __future__ import annotations

import pytest

from pokerlab.games import kuhn, leduc, load
from pokerlab.studies.aivat_study import aivat_study
from pokerlab.studies.safe_exploitation import frontier, learned_frontier, opponent_model
from pokerlab.studies.three_player import DEFAULT_ITERATIONS, three_player_study


def _digits(printed: str) -> float:
    """Half a unit of the last printed digit: the tolerance of a figure printed that way."""
    decimals = len(printed.split(".")[1]) if "." in printed else 0
    return 0.5 * 10.0**-decimals + 1e-12


# Section 14, first table: (game, model) -> {p: (gain, exploitability)} as printed.
RNR_TABLE = {
    ("kuhn", "always-call"):
        {0.1: ("0.111", "0.000"), 0.3: ("0.278", "0.028"), 1.0: ("0.889", "0.833")},
    ("kuhn", "random"):
        {0.1: ("0.056", "0.000"), 0.3: ("0.167", "0.028"), 1.0: ("0.347", "0.417")},
    ("leduc", "always-call"):
        {0.1: ("0.459", "0.010"), 0.3: ("0.651", "0.054"), 1.0: ("0.848", "3.100")},
    ("leduc", "random"):
        {0.1: ("0.310", "0.015"), 0.3: ("0.688", "0.113"), 1.0: ("1.676", "3.417")},
    ("leduc", "cfr+10"):
        {0.1: ("0.122", "0.004"), 0.3: ("0.249", "0.039"), 1.0: ("0.442", "0.717")},
}  # fmt: skip


@pytest.mark.parametrize(("game_name", "model"), list(RNR_TABLE))
def test_safe_exploitation_table(game_name: str, model: str) -> None:
    game = kuhn() if game_name == "kuhn" else leduc()
    points = frontier(game, opponent_model(game, model), (0.0, 0.1, 0.3, 1.0))
    measured = {point.weight: point for point in points}
    for p, (gain, exploitable) in RNR_TABLE[(game_name, model)].items():
        assert measured[p].gain == pytest.approx(float(gain), abs=_digits(gain))
        assert measured[p].exploitability == pytest.approx(
            float(exploitable), abs=_digits(exploitable)
        )


def test_safe_exploitation_p_08_against_always_call_on_leduc() -> None:
    # "p = 0.8 already wins all a best response wins (0.848) with exploitability 0.33"
    game = leduc()
    point = frontier(game, opponent_model(game, "always-call"), (0.8,))[0]
    assert point.gain == pytest.approx(0.848, abs=5e-4)
    assert point.exploitability == pytest.approx(0.33, abs=5e-3)


# Section 13: 3-player Kuhn's NashConv with the study's default iterations.
KUHN3_NASH_CONV = {"cfr": "0.0019", "cfr+": "0.0000", "es-mccfr": "0.0216", "uniform": "2.0625"}


@pytest.mark.slow
def test_three_player_kuhn_nash_conv_and_head_to_head() -> None:
    result = three_player_study(load("kuhn", players=3), DEFAULT_ITERATIONS["kuhn"], seed=0)
    for name, printed in KUHN3_NASH_CONV.items():
        assert result.final_nash_conv[name] == pytest.approx(float(printed), abs=_digits(printed))
    # "On 3-player Kuhn the solvers' strategies are within 0.004 of each other."
    solvers = [k for k, n in enumerate(result.names) if n != "uniform"]
    assert max(abs(result.one_vs_two[a][b]) for a in solvers for b in solvers) < 0.004
    assert max(abs(v) for v in result.together.values()) < 0.004


# Section 9: variance reductions (chance only, AIVAT with the bot known) and exact bias.
AIVAT_TABLE = {
    ("kuhn", "always-call"): ("1.00", "0.75"),
    ("kuhn", "random"): ("1.00", "1.33"),
    ("kuhn", "cfr+10"): ("1.00", "1.99"),
    ("leduc", "always-call"): ("1.40", "1.16"),
    ("leduc", "random"): ("1.47", "1.82"),
    ("leduc", "cfr+10"): ("1.85", "2.82"),
}


@pytest.mark.slow
def test_aivat_table() -> None:
    rows = aivat_study([kuhn(), leduc()], hands=5000, seed=0)
    assert len(rows) == len(AIVAT_TABLE)
    for row in rows:
        chance, known = AIVAT_TABLE[(row.game.split("(")[0], row.opponent)]
        assert row.chance_reduction == pytest.approx(float(chance), abs=_digits(chance))
        assert row.aivat_reduction == pytest.approx(float(known), abs=_digits(known))
        assert abs(row.bias_known_bot) < 1e-14  # the table's "exact bias" column: 0 to 2e-15


# Section 14, second table: the bot learns from 2,000 hands (seed 0); (gain, exploitability)
# of the model-and-BR bot, then of the RNR to its learned model at p = 0.3 and p = 0.5.
LEARNED_TABLE = {
    ("kuhn", "always-call"): (("0.889", "0.417"), ("0.278", "0.028"), ("0.889", "0.333")),
    ("kuhn", "random"): (("0.347", "0.333"), ("0.167", "0.028"), ("0.250", "0.083")),
    ("kuhn", "cfr+10"): (("-0.032", "0.250"), ("-0.005", "0.000"), ("-0.005", "0.000")),
    ("leduc", "always-call"): (("0.848", "3.217"), ("0.651", "0.054"), ("0.733", "0.117")),
    ("leduc", "random"): (("1.602", "3.517"), ("0.660", "0.112"), ("1.088", "0.444")),
    ("leduc", "cfr+10"): (("0.260", "1.433"), ("0.190", "0.041"), ("0.228", "0.091")),
}


@pytest.mark.slow
@pytest.mark.parametrize(("game_name", "name"), list(LEARNED_TABLE))
def test_learned_model_table(game_name: str, name: str) -> None:
    game = kuhn() if game_name == "kuhn" else leduc()
    truth = opponent_model(game, name)
    baseline = frontier(game, truth, (0.0,))[0].value_vs_model
    learned = learned_frontier(game, truth, 2000, (0.3, 0.5), seed=0, baseline=baseline)
    measured = [learned.model_and_best_response, *learned.rnr]
    for point, (gain, exploitable) in zip(measured, LEARNED_TABLE[(game_name, name)], strict=True):
        assert point.gain == pytest.approx(float(gain), abs=_digits(gain))
        assert point.exploitability == pytest.approx(float(exploitable), abs=_digits(exploitable))
