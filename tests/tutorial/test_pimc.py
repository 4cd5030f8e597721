"""The tutorial's section 5: search on states fails on poker; determinized search is exploitable."""

from __future__ import annotations

import pytest

from pokerlab.eval import expected_value, exploitability
from pokerlab.games import kuhn, leduc
from pokerlab.studies.pimc import compare_with_cfr, perfect_information_value, pimc_strategy

KUHN = kuhn()


def test_perfect_information_kuhn_is_won_by_the_higher_card() -> None:
    # With both cards known, the higher card wins the ante and the lower card folds or checks.
    state = KUHN.initial_state()
    for action, _ in state.chance_outcomes():
        dealt = state.child(action)
        for second, _ in dealt.chance_outcomes():
            deal = dealt.child(second)
            mine, theirs = deal.private_cards(0), deal.private_cards(1)
            higher = "JQKA".index(mine) > "JQKA".index(theirs)
            assert perfect_information_value(deal, 0) == (1.0 if higher else -1.0)


def test_pimc_never_bluffs_and_nobody_bets_so_the_profile_is_worth_zero() -> None:
    pimc = pimc_strategy(KUHN)
    for key in ("Q|", "Q|p", "K|", "K|p"):  # betting the Q or K gains nothing if cards are seen
        assert pimc.probabilities(key)[1] == 0.0
    assert expected_value(KUHN, pimc) == pytest.approx((0.0, 0.0), abs=1e-12)


def test_pimc_is_exploitable_where_cfr_converges_on_kuhn() -> None:
    result = compare_with_cfr(KUHN, cfr_iterations=200)
    assert result.pimc_exploitability == pytest.approx(1 / 6, abs=1e-12)
    assert result.cfr_exploitability < 1e-3
    assert result.cfr_exploitability == pytest.approx(0.0003, abs=5e-5)  # docs/tutorial.md, sec. 5
    assert result.pimc_exploitability > 100 * result.cfr_exploitability
    assert exploitability(KUHN, result.pimc) == result.pimc_exploitability


@pytest.mark.slow
def test_pimc_is_exploitable_where_cfr_converges_on_leduc() -> None:
    result = compare_with_cfr(leduc(), cfr_iterations=200)
    assert result.pimc_exploitability > 0.4
    # docs/tutorial.md section 5: 0.433 for PIMC and 0.005 for CFR+ (200 iterations)
    assert result.pimc_exploitability == pytest.approx(0.433, abs=5e-4)
    assert result.cfr_exploitability == pytest.approx(0.005, abs=5e-4)
