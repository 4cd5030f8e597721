"""Monte Carlo CFR: reproducibility, convergence, unbiased estimates, checkpoints, errors."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from pokerlab.errors import SolverError
from pokerlab.eval import exploitability, exploitability_array
from pokerlab.games import kuhn, leduc, load
from pokerlab.solvers import SOLVERS, Solver
from pokerlab.solvers import _mccfr_kernels as kernels
from pokerlab.solvers.base import Progress
from pokerlab.solvers.mccfr import (
    ChanceSamplingMCCFR,
    ExternalSamplingMCCFR,
    OutcomeSamplingMCCFR,
    kernel_tree,
)
from pokerlab.tree import CompiledTree, compile

MCCFR = [ChanceSamplingMCCFR, ExternalSamplingMCCFR, OutcomeSamplingMCCFR]


def _probs(solver: Solver) -> np.ndarray:
    return solver.average_strategy().probs


# -- reproducibility --------------------------------------------------------------------------
@pytest.mark.parametrize("cls", MCCFR)
def test_same_seed_same_strategy(cls: type[ChanceSamplingMCCFR]) -> None:
    a = cls(kuhn(), seed=7).run(iterations=500, check_every=500)
    b = cls(kuhn(), seed=7).run(iterations=500, check_every=500)
    c = cls(kuhn(), seed=8).run(iterations=500, check_every=500)
    assert np.array_equal(_probs(a), _probs(b))
    assert np.array_equal(a.current_strategy().probs, b.current_strategy().probs)
    assert not np.array_equal(_probs(a), _probs(c))


@pytest.mark.parametrize("cls", MCCFR)
def test_batches_do_not_change_the_result(cls: type[ChanceSamplingMCCFR]) -> None:
    # One seed per iteration, drawn from the Generator: batching is invisible.
    whole = cls(leduc(), seed=3).run(iterations=300, check_every=300)
    split = cls(leduc(), seed=3)
    split.run(iterations=100, check_every=7)
    split.run(iterations=150, check_every=150)
    for _ in range(50):
        split._iterate()
    assert np.array_equal(_probs(whole), _probs(split))
    assert np.array_equal(whole._regrets, split._regrets)


def test_integer_seed_and_generator_agree() -> None:
    a = ExternalSamplingMCCFR(kuhn(), seed=11).run(iterations=200)
    b = ExternalSamplingMCCFR(kuhn(), seed=np.int64(11)).run(iterations=200)
    c = ExternalSamplingMCCFR(kuhn(), seed=np.random.default_rng(11)).run(iterations=200)
    assert np.array_equal(_probs(a), _probs(b))
    assert np.array_equal(_probs(a), _probs(c))
    assert a.hyperparameters() == b.hyperparameters() == {"seed": 11, "compiled": None}
    assert c.hyperparameters() == {"seed": None, "compiled": None}


# -- convergence (budgets measured: see the comments) -------------------------------------------
@pytest.mark.parametrize(
    ("cls", "iterations"),
    [
        # measured over seeds 0-5: 0.0012-0.0034 (ES), 0.0017-0.0042 (CS), 0.0031-0.0069 (OS)
        (ExternalSamplingMCCFR, 100_000),
        (ChanceSamplingMCCFR, 100_000),
        (OutcomeSamplingMCCFR, 300_000),
    ],
)
def test_kuhn_exploitability_below_0_01(cls: type[ChanceSamplingMCCFR], iterations: int) -> None:
    game = kuhn()
    solver = cls(game, seed=0).run(iterations=iterations, check_every=iterations // 4)
    assert solver.history[-1].exploitability < 0.01
    assert solver.history[-1].exploitability == pytest.approx(
        exploitability(game, solver.average_strategy())
    )
    assert [row.iteration for row in solver.history] == [
        iterations // 4 * k for k in range(1, 5)
    ]


@pytest.mark.slow
def test_leduc_external_sampling_below_0_05() -> None:
    # Measured over seeds 0-5 at 200k iterations: 0.026-0.034 chips/hand (about 1 s).
    solver = ExternalSamplingMCCFR(leduc(), seed=0)
    solver.run(target_exploitability=0.05, iterations=400_000, check_every=50_000)
    assert solver.history[-1].exploitability <= 0.05
    assert solver.iterations <= 400_000


@pytest.mark.slow
def test_leduc_chance_sampling_converges() -> None:
    # Measured over seeds 0-5 at 50k iterations: 0.042-0.059 chips/hand.
    solver = ChanceSamplingMCCFR(leduc(), seed=0).run(iterations=50_000, check_every=50_000)
    assert solver.history[-1].exploitability < 0.08


@pytest.mark.slow
@pytest.mark.parametrize("spec", ["leduc(stack=50, raise_cap=None)", "kuhn(cards=100)"])
def test_large_games_run(spec: str) -> None:
    game = load(spec)
    tree = compile(game)
    uniform = exploitability_array(tree, _uniform(tree))
    solver = ExternalSamplingMCCFR(game, seed=0).run(iterations=20_000, check_every=20_000)
    final = solver.history[-1].exploitability
    assert final < 0.5 * uniform
    for cls in (ChanceSamplingMCCFR, OutcomeSamplingMCCFR):
        other = cls(game, seed=0)
        other._advance(200)
        probs = other.average_strategy().probs
        assert np.allclose(probs.sum(axis=1), 1.0)


def _uniform(tree: CompiledTree) -> np.ndarray:
    mask = tree.legal_mask
    return mask / mask.sum(axis=1, keepdims=True)


def test_three_players_run() -> None:
    game = kuhn(players=3)
    for cls in MCCFR:
        solver = cls(game, seed=0)
        solver._advance(2_000)
        probs = solver.average_strategy().probs
        assert np.allclose(probs.sum(axis=1), 1.0)
        assert np.all(solver._strategy_sum.sum(axis=1) > 0)


# -- outcome sampling's estimates are unbiased ---------------------------------------------------
def _exact_counterfactuals(tree: CompiledTree, probs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Full-width counterfactual regrets r(I, a) and own-reach sums, by a plain recursion.

    ``regret[I, a] = sum over h in I of pi_-i(h) * (u_i(ha) - u_i(h))`` (chance in pi_-i);
    ``own[I, a] = sum over h in I of pi_i(h) * sigma(I, a)``, over the histories the other
    players and chance reach (outcome sampling can only sample those).
    """
    regret = np.zeros_like(probs)
    own = np.zeros_like(probs)
    payoff = {int(t): tree.terminal_payoffs[k] for k, t in enumerate(tree.terminal_ids)}

    def value(node: int, reach: np.ndarray, chance: float) -> np.ndarray:
        who = int(tree.player[node])
        if who == -2:
            return payoff[node]
        first, n = int(tree.first_child[node]), int(tree.n_children[node])
        if who == -1:
            return sum(
                tree.chance_prob[first + k]
                * value(first + k, reach, chance * tree.chance_prob[first + k])
                for k in range(n)
            )
        infoset = int(tree.infoset[node])
        sigma = probs[infoset, :n]
        children = []
        for a in range(n):
            child_reach = reach.copy()
            child_reach[who] *= sigma[a]
            children.append(value(first + a, child_reach, chance))
        values = np.array(children)  # [n, n_players]
        here = sigma @ values
        others = chance * np.prod(np.delete(reach, who))
        regret[infoset, :n] += others * (values[:, who] - here[who])
        if others > 0:  # histories the others never reach are never sampled
            own[infoset, :n] += reach[who] * sigma
        return here

    value(0, np.ones(tree.n_players), 1.0)
    return regret, own


@pytest.mark.parametrize("epsilon", [0.6, 1.0])
def test_outcome_sampling_estimates_are_unbiased(epsilon: float) -> None:
    game = kuhn()
    tree = compile(game)
    rng = np.random.default_rng(5)
    probs = rng.dirichlet(np.ones(tree.max_actions), size=tree.n_infosets) * tree.legal_mask
    probs[3] = [1.0, 0.0]  # a pure row: its other action is never sampled by the opponent
    probs /= probs.sum(axis=1, keepdims=True)
    exact_regret, exact_own = _exact_counterfactuals(tree, probs)

    packed = kernel_tree(tree)
    batches, per_batch = 200, 2_000
    regret_means = np.empty((batches, *probs.shape))
    own_means = np.empty((batches, *probs.shape))
    for b in range(batches):
        regret_out = np.zeros_like(probs)
        strategy_sum = np.zeros_like(probs)
        seeds = rng.integers(0, 2**63, size=per_batch).astype(np.uint64)
        # regrets = probs: regret matching of positive rows that sum to 1 gives probs back.
        kernels.outcome_sampling(packed.nodes, packed.probs, packed.payoffs, probs.copy(),
                                 regret_out, strategy_sum, seeds, packed.depth, epsilon)
        regret_means[b] = regret_out / per_batch
        own_means[b] = strategy_sum / per_batch
    for means, exact in ((regret_means, exact_regret), (own_means, exact_own)):
        estimate = means.mean(axis=0)
        standard_error = means.std(axis=0, ddof=1) / math.sqrt(batches)
        assert np.all(np.abs(estimate - exact) <= 5 * standard_error + 1e-12)
    # Not vacuous: the estimates are precise enough to tell the regrets apart.
    assert np.max(np.abs(exact_regret)) > 20 * np.max(
        regret_means.std(axis=0, ddof=1) / math.sqrt(batches)
    )


def test_chance_sampling_regrets_are_unbiased() -> None:
    # One CS iteration from zero regrets (uniform play): E[regret increment] is the
    # full-width counterfactual regret with chance's reach included.
    game = kuhn()
    tree = compile(game)
    uniform = _uniform(tree)
    exact_regret, _ = _exact_counterfactuals(tree, uniform)
    exact_player0 = exact_regret * (tree.infoset_player == 0)[:, None]
    packed = kernel_tree(tree)
    rng = np.random.default_rng(1)
    total = np.zeros_like(uniform)
    count = 4_000
    for _ in range(count):
        regrets = np.zeros_like(uniform)
        seeds = rng.integers(0, 2**63, size=1).astype(np.uint64)
        kernels.chance_sampling(packed.nodes, packed.probs, packed.payoffs, regrets,
                                np.zeros_like(uniform), seeds, packed.depth)
        total += regrets * (tree.infoset_player == 0)[:, None]
    np.testing.assert_allclose(total / count, exact_player0, atol=0.03)


# -- the run loop ----------------------------------------------------------------------------------
def test_run_contract() -> None:
    seen: list[Progress] = []
    solver = ExternalSamplingMCCFR(kuhn(), seed=0)
    solver.run(iterations=1_000, check_every=300, callback=seen.append)
    assert solver.iterations == 1_000
    assert [row.iteration for row in solver.history] == [300, 600, 900, 1_000]
    assert [p.iteration for p in seen] == [300, 600, 900, 1_000]
    assert all(p.target_iterations == 1_000 for p in seen)
    solver.run(iterations=200, check_every=250)  # checks on the global count: 1,250 is next
    assert [row.iteration for row in solver.history][-1] == 1_200
    assert solver.seconds > 0
    solver.run(seconds=0.05, check_every=100_000)
    assert solver.iterations > 1_200
    stopped = ExternalSamplingMCCFR(kuhn(), seed=0).run(
        target_exploitability=0.05, check_every=500
    )
    assert stopped.history[-1].exploitability <= 0.05
    assert stopped.iterations % 500 == 0


def test_strategies_are_copies_and_start_uniform() -> None:
    game = leduc()
    solver = OutcomeSamplingMCCFR(game, seed=0)
    uniform = _uniform(compile(game))
    assert np.array_equal(solver.average_strategy().probs, uniform)
    assert np.array_equal(solver.current_strategy().probs, uniform)
    before = solver.average_strategy()
    solver.run(iterations=100)
    assert np.array_equal(before.probs, uniform)
    assert solver.average_strategy().metadata["algorithm"] == "os-mccfr"
    assert solver.average_strategy().metadata["iterations"] == 100


def test_registered_by_name() -> None:
    assert SOLVERS["cs-mccfr"] is ChanceSamplingMCCFR
    assert SOLVERS["es-mccfr"] is ExternalSamplingMCCFR
    assert SOLVERS["os-mccfr"] is OutcomeSamplingMCCFR


# -- checkpoints -----------------------------------------------------------------------------------
@pytest.mark.parametrize("cls", MCCFR)
def test_checkpoint_resumes_bit_for_bit(cls: type[ChanceSamplingMCCFR], tmp_path: Path) -> None:
    game = leduc()
    kwargs = {"epsilon": 0.4} if cls is OutcomeSamplingMCCFR else {}
    whole = cls(game, seed=5, **kwargs).run(iterations=2_000, check_every=1_000)
    first = cls(game, seed=5, **kwargs).run(iterations=1_000, check_every=1_000)
    path = first.save_checkpoint(tmp_path / "mccfr.npz")
    resumed = Solver.load_checkpoint(path)
    assert type(resumed) is cls
    assert resumed.iterations == 1_000
    assert resumed.hyperparameters() == first.hyperparameters()
    resumed.run(iterations=1_000, check_every=1_000)
    assert np.array_equal(_probs(resumed), _probs(whole))
    assert np.array_equal(resumed.current_strategy().probs, whole.current_strategy().probs)
    assert [r.exploitability for r in resumed.history] == [r.exploitability for r in whole.history]


def test_checkpoint_with_a_generator_resumes(tmp_path: Path) -> None:
    game = kuhn()
    whole = ExternalSamplingMCCFR(game, seed=np.random.default_rng(9)).run(iterations=400)
    first = ExternalSamplingMCCFR(game, seed=np.random.default_rng(9)).run(iterations=200)
    resumed = ExternalSamplingMCCFR.load_checkpoint(first.save_checkpoint(tmp_path / "c.npz"))
    resumed.run(iterations=200)
    assert np.array_equal(resumed.average_strategy().probs, whole.average_strategy().probs)


def test_restore_rejects_bad_state() -> None:
    solver = ExternalSamplingMCCFR(kuhn(), seed=0)
    state = solver._state()
    with pytest.raises(SolverError, match="regrets"):
        solver._restore({**state, "regrets": np.zeros((2, 2))})
    with pytest.raises(SolverError, match="rng_state"):
        solver._restore({**state, "rng_state": "pcg"})
    with pytest.raises(SolverError, match="bit generator"):
        solver._restore({**state, "rng_state": {"bit_generator": "Nope"}})


# -- bad hyper-parameters -----------------------------------------------------------------------
@pytest.mark.parametrize("epsilon", [0.0, -0.1, 1.5, math.nan, math.inf, True, "0.5", None])
def test_bad_epsilon(epsilon: object) -> None:
    with pytest.raises(SolverError, match="epsilon"):
        OutcomeSamplingMCCFR(kuhn(), epsilon=epsilon)  # type: ignore[arg-type]


def test_epsilon_one_is_accepted() -> None:
    assert OutcomeSamplingMCCFR(kuhn(), epsilon=1).hyperparameters()["epsilon"] == 1.0


@pytest.mark.parametrize("cls", MCCFR)
def test_bad_seeds(cls: type[ChanceSamplingMCCFR]) -> None:
    for bad in ("one", 1.5, True, -1):
        with pytest.raises(SolverError, match="seed must be an integer >= 0 or a numpy Generator"):
            cls(kuhn(), seed=bad)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        cls(kuhn(), rng=2)  # type: ignore[call-arg]  # one way to seed: seed=


@pytest.mark.parametrize(
    "kwargs",
    [{}, {"iterations": 0}, {"iterations": 1.5}, {"seconds": -1}, {"target_exploitability": 0},
     {"iterations": 10, "check_every": 0}],
)
def test_bad_run_arguments(kwargs: dict[str, object]) -> None:
    with pytest.raises(SolverError):
        ExternalSamplingMCCFR(kuhn(), seed=0).run(**kwargs)  # type: ignore[arg-type]
