"""The challenge study: the numbers the challenge asks for, computed, and its report.

The challenge (100-card Kuhn and 50-chip Leduc) asks for the equilibrium value and the P2
advantage of 3-card Kuhn, 100-card Kuhn, 10-bucket abstractions of 100-card Kuhn (uniform
and better), and Leduc; its hints suggest card buckets and a smaller betting tree.
:func:`run_challenge_study` computes, in order:

1. the challenge text's counts (infosets, histories per infoset, deal probabilities),
   from the compiled trees;
2. exact equilibria by the sequence-form LP of 3-card Kuhn, 100-card Kuhn, standard Leduc
   and the 50-chip Leduc variant with and without pairs (the LP takes under a second on
   each), and CFR+ on the 50-chip variants to a stated exploitability as a cross-check;
3. 100-card Kuhn with 10 buckets: uniform, behaviour (clustered by the equilibrium), and
   optimized (boundary search), each solved exactly and lifted to the real game;
4. the lifted strategies' exploitability against the number of buckets (3 to 50);
5. the 50-chip variant's betting abstraction (``raise_cap`` K) played through raise
   translation, and the pseudo-harmonic mapping's probabilities;
6. the strategy charts of 100-card Kuhn.

:func:`pokerlab.studies.challenge_report.write_report` writes ``README.md`` with the
tables and the PNG plots (matplotlib, Agg, no global state). Every number states its
exploitability: exact LP solutions have exploitability at rounding level (reported),
CFR+ values carry the bracket that the two best responses put around the true game value.
"""

from __future__ import annotations

import platform
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from pokerlab import __version__
from pokerlab._types import CHANCE, FloatArray, IntArray
from pokerlab.abstraction.betting import translation_probabilities
from pokerlab.abstraction.buckets import uniform_buckets
from pokerlab.abstraction.lifting import AbstractionResult, solve_abstraction
from pokerlab.abstraction.optimize import (
    BucketEvaluator,
    behaviour_buckets,
    infoset_reach,
    optimize_buckets,
)
from pokerlab.eval import best_response_values_array, expected_values_array
from pokerlab.games import load
from pokerlab.games.base import Game
from pokerlab.games.kuhn import KuhnGame
from pokerlab.games.leduc import LeducGame
from pokerlab.solvers import CFRPlus, SequenceFormLP
from pokerlab.strategy import Strategy
from pokerlab.tree import compile

ProgressCallback = Callable[[str, float, float], None]
"""``progress(step, completed, total)``: the study is at ``completed`` of ``total`` in a step."""

KUHN3 = "kuhn"
KUHN100 = "kuhn(cards=100)"
LEDUC = "leduc"
LEDUC50 = "leduc(stack=50, raise_cap=None)"
LEDUC50_NO_PAIRS = "leduc(stack=50, raise_cap=None, pair_counts=False)"

SECTIONS = (
    "## 1. The games in numbers",
    "## 2. Equilibrium values and the P2 advantage",
    "## 3. 100-card Kuhn with 10 buckets",
    "## 4. Exploitability against the number of buckets",
    "## 5. Strategy charts of 100-card Kuhn",
    "## 6. Betting abstraction of 50-chip Leduc",
    "## 7. How the numbers were computed",
)
"""The report's section headings, in order."""

PLOTS = (
    "buckets_exploitability.png",
    "kuhn100_strategy.png",
    "leduc50_betting.png",
    "leduc50_cfr.png",
)
"""The plots the report embeds."""


@dataclass(frozen=True)
class StudySettings:
    """How much work the study does (``quick`` for tests and previews).

    Attributes:
        quick: the preview mode's flag, recorded in the report.
        bucket_counts: the numbers of buckets of the sweep.
        search_evaluations: the boundary search's budget (solved bucketings) per count.
        headline_evaluations: the budget of the 10-bucket search of section 3.
        cfr_iterations: CFR+ iterations on each 50-chip variant.
        raise_caps: the betting abstractions of the 50-chip variant.
    """

    quick: bool
    bucket_counts: tuple[int, ...] = (3, 5, 10, 25, 50)
    search_evaluations: int = 300
    headline_evaluations: int = 200
    cfr_iterations: int = 2000
    raise_caps: tuple[int, ...] = (1, 2, 3, 4, 6)

    @staticmethod
    def for_mode(quick: bool) -> StudySettings:
        """The full study, or the quick preview (same sections, smaller budgets)."""
        if not quick:
            return StudySettings(quick=False)
        return StudySettings(
            quick=True,
            search_evaluations=8,
            headline_evaluations=40,
            cfr_iterations=200,
            raise_caps=(1, 2, 3, 4),
        )


@dataclass(frozen=True)
class Fact:
    """A number the challenge text states, and the one computed from the game."""

    question: str
    stated: str
    computed: float


@dataclass(frozen=True)
class EquilibriumRow:
    """An equilibrium of a game (values are P1's, chips per hand).

    Attributes:
        label: the game, readable.
        game: its spec.
        method: how it was solved.
        value: P1's value of the solution when both play it.
        value_low: P1's guaranteed value (minus P2's best-response value).
        value_high: what P1 wins by best-responding to P2's part.
        exploitability: chips per hand ((high - low) / 2).
        n_infosets: infosets of the game.
        n_histories: histories of the game.
        seconds: solving and measuring time.
    """

    label: str
    game: str
    method: str
    value: float
    value_low: float
    value_high: float
    exploitability: float
    n_infosets: int
    n_histories: int
    seconds: float

    @property
    def p2_advantage(self) -> float:
        """P2's value, chips per hand (minus P1's)."""
        return -self.value


@dataclass(frozen=True)
class AbstractionRow:
    """An abstraction solved exactly and lifted to the real game.

    Attributes:
        label: readable name.
        abstraction: the abstract game's spec.
        buckets: the buckets, readable.
        n_infosets_full: the real game's infosets.
        n_infosets_abstract: the abstract game's infosets.
        abstract_value: P1's equilibrium value of the abstract game.
        abstract_exploitability: the solution's exploitability in the abstract game.
        lifted_value: P1's value in the real game when both play the lifted strategy.
        lifted_exploitability: the lifted strategy's exploitability in the real game.
        seconds: solving, lifting and measuring time (the search excluded).
    """

    label: str
    abstraction: str
    buckets: str
    n_infosets_full: int
    n_infosets_abstract: int
    abstract_value: float
    abstract_exploitability: float
    lifted_value: float
    lifted_exploitability: float
    seconds: float


@dataclass(frozen=True)
class SweepRow:
    """The lifted exploitability (chips/hand) of each kind of buckets, for one count."""

    n_buckets: int
    uniform: float
    percentile: float
    behaviour: float
    optimized: float
    optimized_buckets: str
    evaluations: int


@dataclass(frozen=True)
class BettingRow:
    """A raise cap K solved as the 50-chip variant's abstraction and played by translation."""

    raise_cap: int
    n_infosets_abstract: int
    n_histories_abstract: int
    abstract_value: float
    abstract_exploitability: float
    lifted_value: float
    lifted_exploitability: float
    iterations: int


@dataclass(frozen=True)
class ChallengeStudy:
    """Everything the challenge study computed (see the module docstring).

    Values are P1's in chips per hand; exploitabilities in chips per hand.
    """

    settings: StudySettings
    facts: list[Fact]
    equilibria: list[EquilibriumRow]
    kuhn_abstractions: list[AbstractionRow]
    sweep: list[SweepRow]
    betting: list[BettingRow]
    translation: list[tuple[float, dict[float, float]]]
    cfr_history: dict[str, list[tuple[int, float]]]
    charts: dict[str, dict[str, list[float]]]
    step_seconds: dict[str, float]
    seconds: float
    environment: dict[str, str] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """The numbers, JSON-ready (the charts' probabilities left out)."""
        return {
            "quick": self.settings.quick,
            "seconds": self.seconds,
            "facts": [asdict(f) for f in self.facts],
            "equilibria": [{**asdict(r), "p2_advantage": r.p2_advantage} for r in self.equilibria],
            "kuhn_abstractions": [asdict(r) for r in self.kuhn_abstractions],
            "sweep": [asdict(r) for r in self.sweep],
            "betting": [asdict(r) for r in self.betting],
            "step_seconds": self.step_seconds,
        }

    def equilibrium(self, game: str) -> EquilibriumRow:
        """The first equilibrium row of ``game`` (a spec string)."""
        return next(r for r in self.equilibria if r.game == str(load(game).spec))


# -- the challenge text's numbers -----------------------------------------------------
def histories_per_infoset(game: Game) -> dict[str, int]:
    """How many histories (game states) each infoset of ``game`` holds."""
    tree = compile(game)
    counts = np.bincount(tree.infoset[tree.decision_ids], minlength=tree.n_infosets)
    return {key: int(c) for key, c in zip(tree.infoset_keys, counts, strict=True)}


def _deal_reach(game: LeducGame) -> tuple[FloatArray, IntArray, IntArray]:
    """For each history after the private deal: its chance probability and both cards."""
    tree = compile(game)
    n = game.n_players
    offsets = tree.level_offsets
    level = np.arange(int(offsets[n]), int(offsets[n + 1]))
    second = tree.action[level]
    first = tree.action[tree.parent[level]]
    return tree.reach_chance[level], first, second


def same_card_probability(game: LeducGame) -> float:
    """The probability that both players are dealt the same rank (Leduc, two players)."""
    reach, first, second = _deal_reach(game)
    return float(reach[first // 2 == second // 2].sum())


def pair_probability(game: LeducGame, rank: int) -> float:
    """The probability that the board pairs P1's ``rank``, given P1 holds it and sees it.

    From the compiled tree: over every board dealt after P1 was dealt ``rank`` (whatever
    the round-1 betting), the chance-weighted share of boards of that rank.
    """
    tree = compile(game)
    offsets = tree.level_offsets
    depth = np.repeat(np.arange(offsets.shape[0] - 1), np.diff(offsets))
    p1_card = np.full(tree.n_histories, -1, dtype=np.int64)
    for d in range(1, offsets.shape[0] - 1):
        lo, hi = int(offsets[d]), int(offsets[d + 1])
        p1_card[lo:hi] = tree.action[lo:hi] if d == 1 else p1_card[tree.parent[lo:hi]]
    parent = tree.parent[1:]
    board = np.flatnonzero((tree.player[parent] == CHANCE) & (depth[parent] >= game.n_players))
    board += 1
    mine = p1_card[board] // 2 == rank
    paired = tree.action[board] // 2 == rank
    reach = tree.reach_chance[board]
    return float(reach[mine & paired].sum() / reach[mine].sum())


def challenge_facts() -> list[Fact]:
    """The counts and probabilities the challenge text states, computed from the games."""
    kuhn3 = load(KUHN3)
    kuhn100 = load(KUHN100)
    leduc = load(LEDUC)
    assert isinstance(leduc, LeducGame)
    per3 = set(histories_per_infoset(kuhn3).values())
    per100 = set(histories_per_infoset(kuhn100).values())
    king = leduc.rank_names.index("K")
    return [
        Fact("infosets of 3-card Kuhn", "12 (6 per player)", compile(kuhn3).n_infosets),
        Fact(
            "game states per infoset, 3-card Kuhn",
            "2",
            float(min(per3)) if len(per3) == 1 else float("nan"),
        ),
        Fact("infosets of 100-card Kuhn", "400", compile(kuhn100).n_infosets),
        Fact(
            "game states per infoset, 100-card Kuhn",
            "99",
            float(min(per100)) if len(per100) == 1 else float("nan"),
        ),
        Fact("Leduc: both players dealt the same card", "3/15 = 0.2", same_card_probability(leduc)),
        Fact(
            "Leduc: P(pair | holding a K, see the flop)", "1/5 = 0.2", pair_probability(leduc, king)
        ),
    ]


# -- equilibria ---------------------------------------------------------------------------
def _row(label: str, game: Game, strategy: Strategy, method: str, seconds: float) -> EquilibriumRow:
    tree = compile(game)
    values = expected_values_array(tree, strategy.probs)
    br = best_response_values_array(tree, strategy.probs)
    return EquilibriumRow(
        label=label,
        game=str(game.spec),
        method=method,
        value=float(values[0]),
        value_low=float(-br[1]),
        value_high=float(br[0]),
        exploitability=float((br[0] + br[1]) / 2),
        n_infosets=tree.n_infosets,
        n_histories=tree.n_histories,
        seconds=seconds,
    )


def solve_exact(label: str, spec: str) -> tuple[EquilibriumRow, Strategy]:
    """Solve ``spec`` by the sequence-form LP; return its row and strategy."""
    tick = time.perf_counter()
    game = load(spec)
    strategy = SequenceFormLP(game).run().average_strategy()
    return _row(label, game, strategy, "LP (exact)", time.perf_counter() - tick), strategy


def solve_cfr_plus(
    label: str, spec: str, iterations: int, *, progress: Callable[[float], None] | None = None
) -> tuple[EquilibriumRow, list[tuple[int, float]]]:
    """Run CFR+ on ``spec``; return its row and its (iteration, exploitability) history."""
    tick = time.perf_counter()
    game = load(spec)
    solver = CFRPlus(game)
    step = max(1, iterations // 10)
    while solver.iterations < iterations:
        solver.run(iterations=min(step, iterations - solver.iterations), check_every=step)
        if progress is not None:
            progress(solver.iterations / iterations)
    method = f"CFR+, {solver.iterations:,} iterations"
    row = _row(label, game, solver.average_strategy(), method, time.perf_counter() - tick)
    return row, [(h.iteration, h.exploitability) for h in solver.history
                 if h.exploitability is not None]


# -- abstractions ---------------------------------------------------------------------------
def _abstraction_row(label: str, result: AbstractionResult) -> AbstractionRow:
    names = load(KUHN100)
    assert isinstance(names, KuhnGame)
    return AbstractionRow(
        label=label,
        abstraction=str(result.abstract.spec),
        buckets=result.abstract.cards.describe(names.card_names),
        n_infosets_full=result.n_infosets_full,
        n_infosets_abstract=result.n_infosets_abstract,
        abstract_value=result.abstract_value,
        abstract_exploitability=result.abstract_exploitability,
        lifted_value=result.lifted_value,
        lifted_exploitability=result.lifted_exploitability,
        seconds=result.seconds,
    )


CHART_INFOSETS = (
    ("P1 opens: bet", "", 1),
    ("P2 after a check: bet", "p", 1),
    ("P2 facing a bet: call", "b", 1),
    ("P1 after check-bet: call", "pb", 1),
)
"""The strategy charts: (title, betting before the decision, action charted)."""


def strategy_chart(strategy: Strategy) -> dict[str, list[float]]:
    """The probability of the charted action per card (1..N) at each Kuhn decision.

    NaN where the profile never reaches the infoset (a card P1 always bets never meets
    check-bet), since any row there is an equilibrium row.
    """
    game = strategy.game
    assert isinstance(game, KuhnGame)
    tree = compile(game)
    reach = infoset_reach(tree, strategy.probs)
    out: dict[str, list[float]] = {}
    for title, betting, action in CHART_INFOSETS:
        values = []
        for name in game.card_names:
            key = f"{name}|{betting}"
            reached = reach[tree.infoset_id(key)] > 1e-12
            values.append(strategy.probabilities(key)[action] if reached else float("nan"))
        out[title] = values
    return out


def run_challenge_study(
    *, quick: bool = False, progress: ProgressCallback | None = None
) -> ChallengeStudy:
    """Compute every number of the challenge study (see the module docstring).

    Args:
        quick: smaller budgets (same sections): a few evaluations per bucket search and
            200 CFR+ iterations; for tests and previews.
        progress: called as ``progress(step, completed, total)`` while each step runs.

    Returns:
        The study's numbers; :func:`~pokerlab.studies.challenge_report.write_report` turns
        them into the report.
    """
    settings = StudySettings.for_mode(quick)
    start = time.perf_counter()
    step_seconds: dict[str, float] = {}

    def report(step: str, completed: float, total: float = 1.0) -> None:
        if progress is not None:
            progress(step, completed, total)

    def timed(step: str) -> Callable[[], None]:
        tick = time.perf_counter()
        report(step, 0.0)

        def done() -> None:
            step_seconds[step] = time.perf_counter() - tick
            report(step, 1.0)

        return done

    done = timed("challenge counts")
    facts = challenge_facts()
    done()

    done = timed("exact equilibria (LP)")
    equilibria: list[EquilibriumRow] = []
    exact: dict[str, Strategy] = {}
    cases = (
        ("3-card Kuhn", KUHN3),
        ("100-card Kuhn", KUHN100),
        ("Leduc (standard)", LEDUC),
        ("50-chip Leduc", LEDUC50),
        ("50-chip Leduc, no pairs", LEDUC50_NO_PAIRS),
    )
    for i, (label, spec) in enumerate(cases):
        row, strategy = solve_exact(label, spec)
        equilibria.append(row)
        exact[spec] = strategy
        report("exact equilibria (LP)", (i + 1) / len(cases))
    done()

    cfr_history: dict[str, list[tuple[int, float]]] = {}
    for label, spec in (("50-chip Leduc", LEDUC50), ("50-chip Leduc, no pairs", LEDUC50_NO_PAIRS)):
        step = f"CFR+ on {label}"
        done = timed(step)
        row, history = solve_cfr_plus(
            label,
            spec,
            settings.cfr_iterations,
            progress=lambda f, s=step: report(s, f),  # type: ignore[misc]
        )
        equilibria.append(row)
        cfr_history[label] = history
        done()

    kuhn100 = load(KUHN100)
    equilibrium100 = exact[str(kuhn100.spec)]
    evaluator = BucketEvaluator(kuhn100)

    step = "100-card Kuhn, 10 buckets"
    done = timed(step)
    uniform10 = solve_abstraction(kuhn100, uniform_buckets(100, 10), algorithm="lp")
    behaviour10 = solve_abstraction(
        kuhn100, behaviour_buckets(kuhn100, 10, strategy=equilibrium100), algorithm="lp"
    )
    search = optimize_buckets(
        kuhn100,
        10,
        evaluator=evaluator,
        max_evaluations=settings.headline_evaluations,
        equilibrium=equilibrium100,
        progress=lambda n, best: report(step, n, settings.headline_evaluations),
    )
    optimized10 = solve_abstraction(kuhn100, search.bucketing, algorithm="lp")
    kuhn_abstractions = [
        _abstraction_row("uniform", uniform10),
        _abstraction_row("behaviour (clustered)", behaviour10),
        _abstraction_row("optimized (searched)", optimized10),
    ]
    done()

    step = "exploitability against buckets"
    done = timed(step)
    sweep: list[SweepRow] = []
    counts = settings.bucket_counts
    for i, count in enumerate(counts):
        found = optimize_buckets(
            kuhn100,
            count,
            evaluator=evaluator,
            max_evaluations=settings.search_evaluations,
            equilibrium=equilibrium100,
            progress=lambda n, best, i=i: report(  # type: ignore[misc]
                step,
                i + min(n, settings.search_evaluations) / settings.search_evaluations,
                len(counts),
            ),
        )
        sweep.append(
            SweepRow(
                n_buckets=count,
                uniform=found.candidates["uniform"],
                percentile=found.candidates["percentile"],
                behaviour=found.candidates["behaviour"],
                optimized=found.exploitability,
                optimized_buckets=found.bucketing.to_text(),
                evaluations=found.evaluations,
            )
        )
        report(step, i + 1, len(counts))
    done()

    step = "betting abstraction of 50-chip Leduc"
    done = timed(step)
    leduc50 = load(LEDUC50)
    betting: list[BettingRow] = []
    for i, cap in enumerate(settings.raise_caps):
        result = solve_abstraction(leduc50, raise_cap=cap, algorithm="lp")
        betting.append(
            BettingRow(
                raise_cap=cap,
                n_infosets_abstract=result.n_infosets_abstract,
                n_histories_abstract=compile(result.abstract.base).n_histories,
                abstract_value=result.abstract_value,
                abstract_exploitability=result.abstract_exploitability,
                lifted_value=result.lifted_value,
                lifted_exploitability=result.lifted_exploitability,
                iterations=result.iterations,
            )
        )
        report(step, i + 1, len(settings.raise_caps))
    translation = [
        (x, translation_probabilities(x, (0.5, 1.0, 2.0), "pseudo_harmonic"))
        for x in (0.5, 0.6, 0.75, 0.9, 1.0, 1.25, 1.5, 2.0)
    ]
    done()

    done = timed("strategy charts")
    charts = {
        "equilibrium (LP)": strategy_chart(equilibrium100),
        "uniform 10 buckets": strategy_chart(uniform10.lifted),
        "optimized 10 buckets": strategy_chart(optimized10.lifted),
    }
    done()

    return ChallengeStudy(
        settings=settings,
        facts=facts,
        equilibria=equilibria,
        kuhn_abstractions=kuhn_abstractions,
        sweep=sweep,
        betting=betting,
        translation=translation,
        cfr_history=cfr_history,
        charts=charts,
        step_seconds=step_seconds,
        seconds=time.perf_counter() - start,
        environment={
            "pokerlab": __version__,
            "python": platform.python_version(),
            "machine": platform.machine(),
        },
    )


__all__ = [
    "PLOTS",
    "SECTIONS",
    "AbstractionRow",
    "BettingRow",
    "ChallengeStudy",
    "EquilibriumRow",
    "Fact",
    "StudySettings",
    "SweepRow",
    "challenge_facts",
    "histories_per_infoset",
    "pair_probability",
    "run_challenge_study",
    "same_card_probability",
]
