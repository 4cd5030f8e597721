"""Bandits, and exploitation against equilibrium on Rock-Paper-Scissors (tutorial section 3).

The tutorial's outline for section 3 ends with "Exploitation vs. equilibrium; Bandits".
This study puts four learners side by side, twice:

1. On a multi-armed bandit (Bernoulli arms with means ``means``; the learner sees only the
   reward of the arm it pulls): epsilon-greedy, UCB1 (Auer, Cesa-Bianchi and Fischer
   2002), Thompson sampling (Beta(1, 1) priors) and regret matching. Regret matching needs
   every arm's reward (what each action *would* have earned, the counterfactual CFR is
   built on); with bandit feedback it estimates them by importance weighting (the pulled
   arm's reward divided by its probability, as outcome sampling does) and mixes in
   ``gamma`` uniform exploration. A fifth learner, regret matching with full information
   (every arm's reward revealed each step), shows what the counterfactuals are worth.
   The measure is the pseudo-regret ``sum_t (mu* - mu[a_t])``, averaged over runs, beside
   UCB1's finite-time bound ``sum_{gap>0} 8 ln n / gap + (1 + pi^2/3) sum gap`` and the
   Lai-Robbins constant ``sum gap / KL(mu_a, mu*)`` (no consistent learner's regret
   grows slower than that constant times ``ln n``).
2. On Rock-Paper-Scissors, as the column player against four opponents: the tutorial's
   fixed (0.4, 0.3, 0.3), the equilibrium (uniform), fictitious play (a best response to
   the learner's action counts so far) and a best responder that knows the learner's
   algorithm and state (a best response to the learner's action probabilities of this
   very game, the worst case). The equilibrium learner (uniform) earns exactly 0 in
   expectation against anyone: it cannot be exploited and exploits no one. Regret matching
   sees the opponent's action each game (so it knows what every action would have earned)
   and has no regret: against any opponent, its average payoff (of its mixed strategy) is
   at least the best fixed action's in hindsight minus ``2 sqrt(3 / T)`` (:func:`rm_bound`),
   so it tends to the best response's 0.1 a game against the fixed opponent and loses at
   most that bound to anyone. The bandit learners (payoff rescaled to [0, 1] as
   ``(u + 1) / 2``) learn to play Paper against the fixed opponent too, but they have no
   such guarantee: the best responder beats them almost every game.

All runs are vectorized over ``runs`` independent runs (numpy arrays ``[runs, arms]``),
seeded by one integer: run set ``(study part, learner, opponent)`` draws from
``numpy.random.default_rng([seed, part, learner index, opponent index])``, so a subset of
learners gives the same numbers as the whole study.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from pokerlab._types import FloatArray, IntArray
from pokerlab.errors import PokerlabError
from pokerlab.strategy.regrets import regret_matching_strategy

BANDIT_LEARNERS = ("epsilon-greedy", "ucb1", "thompson", "regret-matching",
                   "regret-matching-full")
"""The bandit learners, in the study's order (the index seeds each one's runs)."""

RPS_LEARNERS = ("equilibrium", "regret-matching", "epsilon-greedy", "ucb1", "thompson")
"""The Rock-Paper-Scissors learners."""

RPS_OPPONENTS = ("fixed", "equilibrium", "fictitious-play", "best-response")
"""The Rock-Paper-Scissors opponents: the tutorial's fixed mix, uniform, fictitious play,
and a best response to the learner's current action probabilities."""

DEFAULT_MEANS = (0.2, 0.4, 0.5, 0.6)
"""The bandit's arms: Bernoulli rewards with these means (gaps 0.4, 0.2, 0.1)."""

TUTORIAL_OPPONENT = (0.4, 0.3, 0.3)
"""The tutorial's fixed Rock-Paper-Scissors player (section 3, Regret Matching)."""

RPS_PAYOFFS = np.array([[0.0, -1.0, 1.0], [1.0, 0.0, -1.0], [-1.0, 1.0, 0.0]])
"""The learner's payoff, row = its action, column = the opponent's (Rock, Paper, Scissors)."""


# -- bounds ------------------------------------------------------------------------------
def _check_means(means: Sequence[float]) -> FloatArray:
    array = np.asarray(means, dtype=np.float64)
    if array.ndim != 1 or array.size < 2 or not np.all((array >= 0) & (array <= 1)):
        raise PokerlabError(f"means must be at least 2 Bernoulli means in [0, 1]; got {means!r}")
    return array


def ucb1_bound(means: Sequence[float], n: int) -> float:
    """UCB1's bound on the expected regret after ``n`` pulls (Auer et al. 2002, Theorem 1).

    ``sum over suboptimal arms of 8 ln n / gap + (1 + pi^2 / 3) * sum of gaps``.

    Example:
        >>> round(ucb1_bound((0.5, 0.6), 1000), 3)
        553.049
    """
    mu = _check_means(means)
    gaps = mu.max() - mu
    positive = gaps[gaps > 0]
    return float(np.sum(8.0 * math.log(n) / positive) + (1.0 + math.pi**2 / 3.0) * gaps.sum())


def _kl_bernoulli(p: float, q: float) -> float:
    eps = 1e-15
    p, q = min(max(p, eps), 1 - eps), min(max(q, eps), 1 - eps)
    return p * math.log(p / q) + (1 - p) * math.log((1 - p) / (1 - q))


def lai_robbins_constant(means: Sequence[float]) -> float:
    """``sum over suboptimal arms of gap / KL(mu_a, mu*)`` (Lai and Robbins 1985).

    A consistent learner's expected regret is at least about this times ``ln n`` for large
    ``n``; Thompson sampling reaches it asymptotically (Kaufmann et al. 2012).

    Example:
        >>> round(lai_robbins_constant((0.5, 0.6)), 3)
        4.899
    """
    mu = _check_means(means)
    best = float(mu.max())
    return float(sum((best - m) / _kl_bernoulli(float(m), best) for m in mu if m < best))


def epsilon_greedy_rate(means: Sequence[float], epsilon: float) -> float:
    """Epsilon-greedy's long-run regret per pull once greedy holds the best arm.

    ``epsilon * mean(gaps)``: a uniform pull with probability ``epsilon``; its regret never
    stops growing linearly.
    """
    mu = _check_means(means)
    return float(epsilon * np.mean(mu.max() - mu))


# -- the bandit ----------------------------------------------------------------------------
@dataclass(frozen=True)
class BanditRun:
    """One learner's runs on the bandit.

    Attributes:
        learner: a name of :data:`BANDIT_LEARNERS`.
        means: the arms' means.
        regret: ``[horizon]`` cumulative pseudo-regret after each pull, mean over runs.
        regret_ci95: ``[horizon]`` half-width of its 95% interval (normal approximation).
        final_regrets: ``[runs]`` each run's cumulative pseudo-regret at the end.
        best_arm_share: share of the last tenth of the pulls on the best arm, over runs.
        full_information_regret: ``[runs]`` regret matching with full information only:
            ``max_a sum_t x_t(a) - sum_t sigma_t . x_t`` on the rewards drawn (its bound
            ``sqrt(arms * horizon)`` holds for every run); None for the others.
    """

    learner: str
    means: tuple[float, ...]
    regret: FloatArray
    regret_ci95: FloatArray
    final_regrets: FloatArray
    best_arm_share: float
    full_information_regret: FloatArray | None = None

    @property
    def horizon(self) -> int:
        """Pulls per run."""
        return int(self.regret.shape[0])


def _sample_rows(probs: FloatArray, rng: np.random.Generator) -> IntArray:
    """One action per row of ``probs`` (each row a distribution)."""
    cumulative = np.cumsum(probs, axis=1)
    draws = rng.random((probs.shape[0], 1)) * cumulative[:, -1:]
    chosen: IntArray = np.minimum((draws >= cumulative).sum(axis=1), probs.shape[1] - 1)
    return chosen


def _argmax_random_ties(values: FloatArray, rng: np.random.Generator) -> IntArray:
    """Row-wise argmax, ties broken uniformly at random."""
    noise = rng.random(values.shape) * 1e-9
    best = values.max(axis=1, keepdims=True)
    chosen: IntArray = np.argmax(np.where(values >= best - 1e-12, 1.0 + noise, noise), axis=1)
    return chosen


class _Learner:
    """A learner over ``arms`` actions, vectorized over runs; rewards are in [0, 1].

    Each step: :meth:`strategy` (the distribution of this step's action, computed once and
    kept until :meth:`learn`), :meth:`act`, then :meth:`learn`.
    """

    def __init__(self, name: str, runs: int, arms: int, rng: np.random.Generator, *,
                 epsilon: float, gamma: float, draws: int = 32) -> None:
        self.name, self.rng = name, rng
        self.epsilon, self.gamma, self.draws = epsilon, gamma, draws
        self.counts = np.zeros((runs, arms))
        self.sums = np.zeros((runs, arms))
        self.regrets = np.zeros((runs, arms))
        self.alpha = np.ones((runs, arms))
        self.beta = np.ones((runs, arms))
        self.t = 1  # the step being played, 1-based
        self.sigma: FloatArray | None = None

    def _ties(self, values: FloatArray) -> FloatArray:
        """Uniform over each row's maxima."""
        top = (values >= values.max(axis=1, keepdims=True) - 1e-12).astype(np.float64)
        uniform: FloatArray = top / top.sum(axis=1, keepdims=True)
        return uniform

    def strategy(self) -> FloatArray:
        """``[runs, arms]``: the probability of each action this step.

        Thompson sampling's is estimated from ``draws`` posterior samples per run (asked
        for only by the best-response opponent); the others' are exact.
        """
        if self.sigma is not None:
            return self.sigma
        runs, arms = self.counts.shape
        if self.name == "equilibrium":
            sigma = np.full((runs, arms), 1.0 / arms)
        elif self.name.startswith("regret-matching"):
            sigma = regret_matching_strategy(self.regrets, check=False)
            if self.name == "regret-matching":  # bandit feedback: explore to estimate
                sigma = (1.0 - self.gamma) * sigma + self.gamma / arms
        elif self.name == "thompson":
            samples = self.rng.beta(self.alpha[:, None, :], self.beta[:, None, :],
                                    size=(runs, self.draws, arms))
            winners = np.argmax(samples, axis=2)
            sigma = np.stack([(winners == a).mean(axis=1) for a in range(arms)], axis=1)
        elif self.t <= arms:  # epsilon-greedy and UCB1 pull every arm once first
            sigma = np.zeros((runs, arms))
            sigma[:, self.t - 1] = 1.0
        elif self.name == "ucb1":
            means = self.sums / self.counts
            sigma = self._ties(means + np.sqrt(2.0 * math.log(self.t) / self.counts))
        else:  # epsilon-greedy
            sigma = (1.0 - self.epsilon) * self._ties(self.sums / self.counts)
            sigma += self.epsilon / arms
        self.sigma = sigma
        return sigma

    def act(self) -> IntArray:
        """This step's actions, one per run."""
        if self.name == "thompson":  # one posterior sample per run: the algorithm itself
            return _argmax_random_ties(self.rng.beta(self.alpha, self.beta), self.rng)
        return _sample_rows(self.strategy(), self.rng)

    def learn(self, action: IntArray, reward: FloatArray, all_rewards: FloatArray | None) -> None:
        """Update from this step's actions and rewards (``all_rewards``: full information)."""
        rows = np.arange(action.shape[0])
        self.counts[rows, action] += 1
        self.sums[rows, action] += reward
        if self.name == "thompson":  # the Bernoulli trick keeps Beta posteriors for [0, 1]
            success = self.rng.random(action.shape[0]) < reward
            self.alpha[rows, action] += success
            self.beta[rows, action] += ~success
        elif self.name.startswith("regret-matching"):
            sigma = self.strategy()
            if all_rewards is None:  # importance-weighted estimate of every arm's reward
                estimate = np.zeros_like(self.regrets)
                estimate[rows, action] = reward / sigma[rows, action]
                earned = reward
            else:
                estimate = all_rewards
                earned = (sigma * all_rewards).sum(axis=1)
            self.regrets += estimate - earned[:, None]
        self.sigma = None
        self.t += 1


def _check_run_sizes(horizon: int, runs: int) -> None:
    for name, value in (("horizon", horizon), ("runs", runs)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise PokerlabError(f"{name} must be an integer >= 1; got {value!r}")


def _check_learner(name: str, known: Sequence[str]) -> int:
    if name not in known:
        raise PokerlabError(f"unknown learner {name!r}; known: {', '.join(known)}")
    return list(known).index(name)


def run_bandit(
    learner: str,
    means: Sequence[float] = DEFAULT_MEANS,
    *,
    horizon: int = 10_000,
    runs: int = 200,
    seed: int = 0,
    epsilon: float = 0.1,
    gamma: float = 0.1,
) -> BanditRun:
    """Run one learner ``runs`` times for ``horizon`` pulls on Bernoulli arms ``means``.

    Args:
        learner: a name of :data:`BANDIT_LEARNERS`.
        means: the arms' reward probabilities.
        horizon: pulls per run.
        runs: independent runs (vectorized).
        seed: the study's seed (see the module docstring).
        epsilon: epsilon-greedy's exploration probability.
        gamma: bandit regret matching's uniform exploration share.

    Raises:
        PokerlabError: an unknown learner, bad means, sizes or rates.
    """
    index = _check_learner(learner, BANDIT_LEARNERS)
    mu = _check_means(means)
    _check_run_sizes(horizon, runs)
    for name, value in (("epsilon", epsilon), ("gamma", gamma)):
        if not 0.0 < value <= 1.0:
            raise PokerlabError(f"{name} must be in (0, 1]; got {value}")
    rng = np.random.default_rng([seed, 0, index])
    agent = _Learner(learner, runs, mu.size, rng, epsilon=epsilon, gamma=gamma)
    gaps = mu.max() - mu
    best = int(np.argmax(mu))
    cumulative = np.zeros(runs)
    mean = np.empty(horizon)
    ci = np.empty(horizon)
    on_best = np.zeros(runs)
    tail = horizon - max(1, horizon // 10)
    full = learner == "regret-matching-full"
    drawn_sums = np.zeros((runs, mu.size))
    earned_sum = np.zeros(runs)
    for t in range(horizon):
        action = agent.act()
        rewards = (rng.random((runs, mu.size)) < mu).astype(np.float64)
        reward = rewards[np.arange(runs), action]
        if full:
            drawn_sums += rewards
            earned_sum += (agent.strategy() * rewards).sum(axis=1)
        agent.learn(action, reward, rewards if full else None)
        cumulative += gaps[action]
        mean[t] = cumulative.mean()
        ci[t] = 1.96 * cumulative.std(ddof=1) / math.sqrt(runs) if runs > 1 else 0.0
        if t >= tail:
            on_best += action == best
    return BanditRun(
        learner=learner,
        means=tuple(float(m) for m in mu),
        regret=mean,
        regret_ci95=ci,
        final_regrets=cumulative.copy(),
        best_arm_share=float(on_best.sum() / (runs * (horizon - tail))),
        full_information_regret=(drawn_sums.max(axis=1) - earned_sum) if full else None,
    )


# -- Rock-Paper-Scissors --------------------------------------------------------------------
@dataclass(frozen=True)
class RpsRun:
    """One learner against one opponent on Rock-Paper-Scissors, over many runs.

    Attributes:
        learner: a name of :data:`RPS_LEARNERS`.
        opponent: a name of :data:`RPS_OPPONENTS`.
        average_payoff: ``[horizon]`` the learner's average payoff per game so far, mean
            over runs (what it actually won: its sampled action against the opponent's).
        final_payoffs: ``[runs]`` each run's average payoff per game at the end.
        paper_share: share of the learner's last tenth of plays that were Paper.
        mixed_payoffs: ``[runs]`` regret matching only: average of ``u(sigma_t, b_t)``,
            its mixed strategy's payoff against the opponent's actual action; else None.
        hindsight_payoffs: ``[runs]`` regret matching only: the best fixed action's
            average payoff against the opponent's actual actions; else None.
    """

    learner: str
    opponent: str
    average_payoff: FloatArray
    final_payoffs: FloatArray
    paper_share: float
    mixed_payoffs: FloatArray | None = None
    hindsight_payoffs: FloatArray | None = None

    @property
    def horizon(self) -> int:
        """Games per run."""
        return int(self.average_payoff.shape[0])

    @property
    def ci95(self) -> float:
        """Half-width of the 95% interval of the final mean payoff (normal approximation)."""
        n = self.final_payoffs.shape[0]
        return 1.96 * float(self.final_payoffs.std(ddof=1)) / math.sqrt(n) if n > 1 else 0.0


def run_rps(
    learner: str,
    opponent: str,
    *,
    horizon: int = 5_000,
    runs: int = 200,
    seed: int = 0,
    epsilon: float = 0.1,
    fixed: Sequence[float] = TUTORIAL_OPPONENT,
) -> RpsRun:
    """Play ``learner`` (the column player) against ``opponent`` at Rock-Paper-Scissors.

    Args:
        learner: a name of :data:`RPS_LEARNERS`.
        opponent: ``"fixed"`` (``fixed``'s mix), ``"equilibrium"`` (uniform),
            ``"fictitious-play"`` (a best response to the learner's action counts so far)
            or ``"best-response"`` (a best response to the learner's action probabilities
            this game; Thompson sampling's estimated from 32 posterior draws); ties are
            broken at random.
        horizon: games per run.
        runs: independent runs (vectorized).
        seed: the study's seed.
        epsilon: epsilon-greedy's exploration probability.
        fixed: the fixed opponent's probabilities of Rock, Paper, Scissors.

    Raises:
        PokerlabError: an unknown learner or opponent, bad sizes or a bad mix.
    """
    index = _check_learner(learner, RPS_LEARNERS)
    if opponent not in RPS_OPPONENTS:
        raise PokerlabError(f"unknown opponent {opponent!r}; known: {', '.join(RPS_OPPONENTS)}")
    _check_run_sizes(horizon, runs)
    mix = np.asarray(fixed, dtype=np.float64)
    if mix.shape != (3,) or np.any(mix < 0) or not math.isclose(float(mix.sum()), 1.0):
        raise PokerlabError(f"fixed must be probabilities of Rock, Paper, Scissors; got {fixed!r}")
    rng = np.random.default_rng([seed, 1, index, RPS_OPPONENTS.index(opponent)])
    agent = _Learner(learner, runs, 3, rng, epsilon=epsilon, gamma=0.1)
    rows = np.arange(runs)
    learner_counts = np.zeros((runs, 3))
    total = np.zeros(runs)
    average = np.empty(horizon)
    paper = 0.0
    tail = horizon - max(1, horizon // 10)
    is_rm = learner == "regret-matching"
    mixed_total = np.zeros(runs)
    hindsight = np.zeros((runs, 3))
    for t in range(horizon):
        action = agent.act()
        if opponent == "fixed":
            other = _sample_rows(np.broadcast_to(mix, (runs, 3)), rng)
        elif opponent == "equilibrium":
            other = rng.integers(0, 3, runs)
        elif opponent == "fictitious-play":  # its payoffs against the learner's counts
            other = _argmax_random_ties(-(learner_counts @ RPS_PAYOFFS), rng)
        else:  # its payoffs against the learner's action probabilities of this game
            other = _argmax_random_ties(-(agent.strategy() @ RPS_PAYOFFS), rng)
        payoffs = RPS_PAYOFFS[:, other].T  # [runs, 3]: each of the learner's actions
        won = payoffs[rows, action]
        if is_rm:  # full information: the opponent's action reveals every action's payoff
            earned = (agent.strategy() * payoffs).sum(axis=1)
            mixed_total += earned
            hindsight += payoffs
            agent.learn(action, (won + 1.0) / 2.0, (payoffs + 1.0) / 2.0)
        else:
            agent.learn(action, (won + 1.0) / 2.0, None)
        learner_counts[rows, action] += 1
        total += won
        average[t] = total.mean() / (t + 1)
        if t >= tail:
            paper += float(np.mean(action == 1))
    return RpsRun(
        learner=learner,
        opponent=opponent,
        average_payoff=average,
        final_payoffs=total / horizon,
        paper_share=paper / (horizon - tail),
        mixed_payoffs=mixed_total / horizon if is_rm else None,
        hindsight_payoffs=hindsight.max(axis=1) / horizon if is_rm else None,
    )


def rm_bound(horizon: int, actions: int = 3, payoff_range: float = 2.0) -> float:
    """Regret matching's bound on the average regret: ``payoff_range * sqrt(actions / T)``.

    With ``r_t`` the regret vector of round ``t`` (every entry within ``payoff_range``),
    regret matching keeps ``R_{t-1}^+ . r_t = 0``, so ``|R_T^+|^2 <= sum_t |r_t|^2 <=
    T * actions * payoff_range^2`` and the largest regret is at most its square root.
    """
    return payoff_range * math.sqrt(actions / horizon)


# -- figure ---------------------------------------------------------------------------------
def study_figure(bandit_runs: Sequence[BanditRun], rps_runs: Sequence[RpsRun], path: str) -> str:
    """Draw the bandit regrets (with UCB1's bound and Lai-Robbins) and the RPS payoffs."""
    from pokerlab.studies._figures import pyplot, save_figure

    if not bandit_runs and not rps_runs:
        raise PokerlabError("study_figure needs runs to draw")
    plt = pyplot()
    figure, axes = plt.subplots(2, 3, figsize=(18, 9))
    left = axes[0, 0]
    for run in bandit_runs:
        steps = np.arange(1, run.horizon + 1)
        left.plot(steps, run.regret, label=run.learner)
        left.fill_between(steps, run.regret - run.regret_ci95, run.regret + run.regret_ci95,
                          alpha=0.2)
    if bandit_runs:
        means = bandit_runs[0].means
        steps = np.arange(2, bandit_runs[0].horizon + 1)
        left.plot(steps, [ucb1_bound(means, int(n)) for n in steps], "k--", linewidth=1,
                  label="UCB1 bound")
        left.plot(steps, lai_robbins_constant(means) * np.log(steps), "k:", linewidth=1,
                  label="Lai-Robbins C ln n")
        left.set_title(f"bandit {tuple(round(m, 3) for m in means)}: regret (mean, 95% CI)")
        left.set_xscale("log")
        left.set_yscale("log")
        left.set_xlabel("pulls")
        left.set_ylabel("cumulative pseudo-regret")
        left.legend(fontsize=8)
        left.grid(True, which="major", alpha=0.3)
    panels = {"fixed": axes[0, 1], "equilibrium": axes[0, 2], "fictitious-play": axes[1, 0],
              "best-response": axes[1, 1]}
    titles = {"fixed": "RPS against (0.4, 0.3, 0.3)", "equilibrium": "RPS against uniform",
              "fictitious-play": "RPS against fictitious play (best response to your counts)",
              "best-response": "RPS against a best response to your current strategy"}
    for game_run in rps_runs:
        axis = panels[game_run.opponent]
        axis.plot(np.arange(1, game_run.horizon + 1), game_run.average_payoff,
                  label=game_run.learner)
    for opponent, axis in panels.items():
        axis.axhline(0.0, color="k", linewidth=0.8)
        axis.set_title(titles[opponent])
        axis.set_xscale("log")
        axis.set_xlabel("games")
        axis.set_ylabel("average payoff per game")
        axis.grid(True, which="major", alpha=0.3)
        if axis.lines[:-1]:
            axis.legend(fontsize=8)
    bars = axes[1, 2]
    learners = list(dict.fromkeys(run.learner for run in rps_runs))
    opponents = list(dict.fromkeys(run.opponent for run in rps_runs))
    width = 0.8 / max(1, len(opponents))
    for k, opponent in enumerate(opponents):
        finals = {run.learner: run for run in rps_runs if run.opponent == opponent}
        xs = [i + k * width for i, name in enumerate(learners) if name in finals]
        heights = [float(finals[name].final_payoffs.mean()) for name in learners if name in finals]
        errors = [finals[name].ci95 for name in learners if name in finals]
        bars.bar(xs, heights, width, yerr=errors, label=opponent)
    bars.set_xticks([i + 0.4 - width / 2 for i in range(len(learners))], learners, fontsize=8)
    bars.axhline(0.0, color="k", linewidth=0.8)
    bars.set_title("RPS: final average payoff per game (95% CI)")
    if opponents:
        bars.legend(fontsize=8)
    figure.tight_layout()
    return str(save_figure(figure, path))


__all__ = [
    "BANDIT_LEARNERS",
    "DEFAULT_MEANS",
    "RPS_LEARNERS",
    "RPS_OPPONENTS",
    "RPS_PAYOFFS",
    "TUTORIAL_OPPONENT",
    "BanditRun",
    "RpsRun",
    "epsilon_greedy_rate",
    "lai_robbins_constant",
    "rm_bound",
    "run_bandit",
    "run_rps",
    "study_figure",
    "ucb1_bound",
]
