"""Regret bounds hold for the measured average regret (issue 29: proofs of regret minimization)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from pokerlab.errors import PokerlabError
from pokerlab.games import kuhn, leduc, load
from pokerlab.solvers import RegretMatching
from pokerlab.studies.regret_bound import (
    cfr_constants,
    cfr_regret,
    checkpoints,
    regret_figure,
    rm_constant,
    rps_regret,
)


def test_the_bound_constants() -> None:
    assert rm_constant() == pytest.approx(2 * math.sqrt(3))
    # Kuhn: payoffs from -2 to 2 (spread 4), 6 infosets per player, 2 actions.
    assert cfr_constants(kuhn()) == pytest.approx((4 * 6 * math.sqrt(2),) * 2)
    # Leduc: payoffs from -13 to 13, 144 infosets per player, 3 actions.
    assert cfr_constants(leduc()) == pytest.approx((26 * 144 * math.sqrt(3),) * 2)


def test_checkpoints() -> None:
    assert checkpoints(1).tolist() == [1]
    assert checkpoints(100, per_decade=2).tolist() == [1, 3, 10, 32, 100]
    assert checkpoints(1000)[-1] == 1000
    with pytest.raises(PokerlabError, match="iterations"):
        checkpoints(0)


def test_regret_matching_against_the_fixed_opponent_regrets_exactly_one_tenth() -> None:
    # Round 1 plays uniform and regrets Paper by 0.1; from then on it plays Paper only, the
    # best response, and no action's regret grows: R_T = 0.1 for every T.
    curve = rps_regret("fixed", 5000)
    assert np.allclose(curve.average_regret[:, 0] * curve.iterations, 0.1)
    solver = RegretMatching(load("rps"), opponent=(0.4, 0.3, 0.3)).run(iterations=5000)
    assert max(solver.regrets()[1]) == pytest.approx(0.1)


@pytest.mark.parametrize("opponent", ["fixed", "best-response"])
def test_regret_matching_obeys_its_bound_at_every_checkpoint(opponent: str) -> None:
    curve = rps_regret(opponent, 20_000)
    assert np.all(curve.average_regret[:, 0] <= curve.bound)
    assert np.allclose(curve.bound, 2 * math.sqrt(3) / np.sqrt(curve.iterations))


def test_regret_against_a_best_responder_falls_like_one_over_root_t() -> None:
    curve = rps_regret("best-response", 20_000)
    r = curve.average_regret[:, 0]
    t = curve.iterations
    late = t >= 100
    slope = np.polyfit(np.log(t[late]), np.log(r[late]), 1)[0]
    assert -0.6 < slope < -0.4


@pytest.mark.parametrize(("game", "iterations"), [(kuhn(), 3000), (leduc(), 100)])
def test_cfr_obeys_its_bound_and_regrets_add_up_to_nash_conv(game, iterations: int) -> None:  # type: ignore[no-untyped-def]
    curve = cfr_regret(game, iterations)
    assert np.all(curve.average_regret <= curve.bound[:, None])
    # Zero-sum: the two players' average regrets add up to the average profile's NashConv.
    assert np.allclose(curve.average_regret.sum(axis=1), curve.nash_conv, atol=1e-12)
    assert curve.average_regret[-1].max() < curve.average_regret[0].max()


def test_cfr_regret_refuses_three_players() -> None:
    with pytest.raises(PokerlabError, match="two-player"):
        cfr_regret(kuhn(players=3), 2)


def test_bad_opponent() -> None:
    with pytest.raises(PokerlabError, match="unknown opponent"):
        rps_regret("mirror", 10)


@pytest.mark.slow
def test_the_figure_is_written(tmp_path) -> None:  # type: ignore[no-untyped-def]
    curves = [rps_regret("fixed", 100), cfr_regret(kuhn(), 20)]
    path = regret_figure(curves, str(tmp_path / "r.png"))
    assert path.endswith("r.png")
    assert (tmp_path / "r.png").stat().st_size > 1000
