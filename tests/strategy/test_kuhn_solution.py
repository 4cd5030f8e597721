"""The analytical family of Kuhn equilibria (tutorial section 3.2)."""

from __future__ import annotations

import pytest

from pokerlab.errors import SpecError
from pokerlab.eval import expected_value, exploitability
from pokerlab.games import kuhn
from pokerlab.strategy import kuhn_equilibrium

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
