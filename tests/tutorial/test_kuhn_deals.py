"""The Kuhn value of each of the 6 deals (tutorial, Kuhn section, Cases 1-6) and its command."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from pokerlab.cli import main
from pokerlab.errors import PokerlabError
from pokerlab.studies.kuhn_deals import deal_values

# The tutorial's closed forms, chips back for the ante, in Cases 1-6 order.
FORMULAS: tuple[Callable[[float], float], ...] = (
    lambda y: y / 3 + 2,
    lambda y: (7 - y) / 3,
    lambda y: -(y + 1) / 3,
    lambda y: (y + 5) / 3,
    lambda y: -y / 3,
    lambda y: y / 3,
)


@pytest.mark.parametrize("y", [0.0, 0.25, 1 / 3, 1.0])
def test_each_deal_matches_the_tutorial_formula_and_they_average_17_18(y: float) -> None:
    deals = deal_values(y)
    assert [d.cards for d in deals] == [
        ("A", "K"), ("A", "Q"), ("K", "A"), ("K", "Q"), ("Q", "A"), ("Q", "K")
    ]  # fmt: skip
    for deal, formula in zip(deals, FORMULAS, strict=True):
        assert deal.total == pytest.approx(formula(y), abs=1e-12)
    assert sum(d.total for d in deals) / 6 == pytest.approx(17 / 18, abs=1e-12)


def test_bad_y_is_refused() -> None:
    with pytest.raises(PokerlabError, match=r"y .* must be in \[0, 1\]"):
        deal_values(1.5)


def test_kuhn_deals_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["study", "kuhn-deals", "--y", "0.5", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [d["total"] for d in data["deals"]] == pytest.approx([f(0.5) for f in FORMULAS])
    assert data["average_total"] == pytest.approx(17 / 18)
    assert main(["study", "kuhn-deals"]) == 0
    assert "0.944444" in capsys.readouterr().out
