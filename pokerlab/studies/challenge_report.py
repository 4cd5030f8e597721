"""The challenge study's report: markdown tables and matplotlib figures.

:func:`write_report` turns a :class:`~pokerlab.studies.challenge.ChallengeStudy` into
``README.md`` and its PNG figures; the numbers come from :mod:`pokerlab.studies.challenge`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from pokerlab.studies.challenge import CHART_INFOSETS, PLOTS, SECTIONS, ChallengeStudy


# -- the report ---------------------------------------------------------------------------
def _figure(width: float, height: float) -> Any:
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=(width, height), dpi=110)
    FigureCanvasAgg(figure)
    return figure


def _floor(values: list[float], floor: float = 1e-9) -> list[float]:
    return [max(v, floor) for v in values]


def plot_buckets(study: ChallengeStudy, path: Path) -> None:
    """Exploitability against the number of buckets, log scale."""
    figure = _figure(7, 4.5)
    axes = figure.add_subplot()
    counts = [r.n_buckets for r in study.sweep]
    for name, style in (
        ("uniform", "o-"),
        ("percentile", "x--"),
        ("behaviour", "s-."),
        ("optimized", "D-"),
    ):
        axes.plot(counts, _floor([getattr(r, name) for r in study.sweep]), style, label=name)
    axes.set_xscale("log")
    axes.set_yscale("log")
    axes.set_xticks(counts)
    axes.set_xticklabels([str(c) for c in counts])
    axes.set_xlabel("buckets (100-card Kuhn)")
    axes.set_ylabel("exploitability of the lifted strategy (chips/hand)")
    axes.set_title("Card abstraction of 100-card Kuhn (values below 1e-9 drawn at 1e-9)")
    axes.grid(True, which="both", alpha=0.3)
    axes.legend()
    figure.tight_layout()
    figure.savefig(path)


def plot_strategy(study: ChallengeStudy, path: Path) -> None:
    """The four Kuhn decisions: probability of the charted action per card."""
    figure = _figure(11, 7.5)
    cards = np.arange(1, 101)
    for k, (title, _, _) in enumerate(CHART_INFOSETS):
        axes = figure.add_subplot(2, 2, k + 1)
        for name, style in (
            ("equilibrium (LP)", "-"),
            ("uniform 10 buckets", "--"),
            ("optimized 10 buckets", ":"),
        ):
            axes.plot(cards, study.charts[name][title], style, drawstyle="steps-mid", label=name)
        axes.set_title(title)
        axes.set_xlabel("card")
        axes.set_ylabel("probability")
        axes.set_ylim(-0.03, 1.03)
        axes.grid(True, alpha=0.3)
        if k == 0:
            axes.legend(fontsize=8)
    figure.suptitle("100-card Kuhn: strategy per card")
    figure.tight_layout()
    figure.savefig(path)


def plot_betting(study: ChallengeStudy, path: Path) -> None:
    """The lifted exploitability against the raise cap of the betting abstraction."""
    figure = _figure(7, 4.5)
    axes = figure.add_subplot()
    caps = [r.raise_cap for r in study.betting]
    axes.plot(caps, _floor([r.lifted_exploitability for r in study.betting]), "o-")
    axes.set_yscale("log")
    axes.set_xticks(caps)
    axes.set_xlabel("raise cap K of the abstraction (bets + raises per round)")
    axes.set_ylabel("exploitability in 50-chip Leduc (chips/hand)")
    axes.set_title("Betting abstraction of 50-chip Leduc, played by raise translation")
    axes.grid(True, which="both", alpha=0.3)
    figure.tight_layout()
    figure.savefig(path)


def plot_cfr(study: ChallengeStudy, path: Path) -> None:
    """CFR+'s exploitability on the 50-chip variants."""
    figure = _figure(7, 4.5)
    axes = figure.add_subplot()
    for label, history in study.cfr_history.items():
        axes.plot([h[0] for h in history], _floor([h[1] for h in history]), "o-", label=label)
    axes.set_xscale("log")
    axes.set_yscale("log")
    axes.set_xlabel("CFR+ iterations")
    axes.set_ylabel("exploitability (chips/hand)")
    axes.set_title("CFR+ on the 50-chip Leduc variants")
    axes.grid(True, which="both", alpha=0.3)
    axes.legend()
    figure.tight_layout()
    figure.savefig(path)


def _f(value: float, digits: int = 6) -> str:
    return f"{value:+.{digits}f}"


def _e(value: float) -> str:
    return "0 (< 1e-12)" if abs(value) < 1e-12 else f"{value:.2e}"


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return [*lines, ""]


def to_markdown(study: ChallengeStudy) -> str:
    """The report as markdown (the plots are referenced by file name)."""
    s = study.settings
    eq = {r.label: r for r in study.equilibria if r.method.startswith("LP")}
    k3, k100 = eq["3-card Kuhn"], eq["100-card Kuhn"]
    uniform10 = study.kuhn_abstractions[0]
    optimized10 = study.kuhn_abstractions[-1]
    mode = "quick preview (small search budgets, few CFR+ iterations)" if s.quick else "full"
    lines = [
        "# The challenge study: 100-card Kuhn and 50-chip Leduc",
        "",
        f"Mode: {mode}. Run time {study.seconds:.1f} s; pokerlab "
        f"{study.environment.get('pokerlab', '?')}, Python "
        f"{study.environment.get('python', '?')}. Regenerate with "
        f"`pokerlab study challenge --out DIR{' --quick' if s.quick else ''}`.",
        "",
        "Values are P1's expected winnings in chips per hand (P2's advantage is minus P1's "
        "value); exploitability is in chips per hand (NashConv / 2: what a best-responding "
        "opponent wins on average over the seats). Every number comes with its "
        "exploitability.",
        "",
        "Answers in one paragraph: P2's advantage is "
        f"{k3.p2_advantage:.6f} in 3-card Kuhn (1/18) and {k100.p2_advantage:.6f} in "
        f"100-card Kuhn; the uniform 10-bucket abstraction claims {-uniform10.abstract_value:.6f} "
        f"and its lifted strategy is exploitable for {uniform10.lifted_exploitability:.2e}; "
        f"the optimized 10-bucket abstraction claims {-optimized10.abstract_value:.6f} and is "
        f"exploitable for {_e(optimized10.lifted_exploitability)}. Leduc's P2 advantage is "
        f"{eq['Leduc (standard)'].p2_advantage:.6f}, and {eq['50-chip Leduc'].p2_advantage:.6f} "
        f"in the 50-chip variant ({eq['50-chip Leduc, no pairs'].p2_advantage:.6f} without "
        "pairs).",
        "",
        SECTIONS[0],
        "",
        "The challenge text's counts, computed from the compiled game trees:",
        "",
    ]
    lines += _table(
        ["question", "the challenge says", "computed"],
        [[f.question, f.stated, f"{f.computed:g}"] for f in study.facts],
    )
    lines += [SECTIONS[1], ""]
    lines += _table(
        [
            "game",
            "method",
            "P1 value",
            "P2 advantage",
            "value bracket",
            "exploitability",
            "infosets",
            "histories",
            "seconds",
        ],
        [
            [
                r.label,
                r.method,
                _f(r.value),
                _f(r.p2_advantage),
                f"[{_f(r.value_low)}, {_f(r.value_high)}]",
                _e(r.exploitability),
                f"{r.n_infosets:,}",
                f"{r.n_histories:,}",
                f"{r.seconds:.2f}",
            ]
            for r in study.equilibria
        ],
    )
    lines += [
        "The value bracket is [-(P2's best-response value), P1's best-response value]: the "
        "true game value lies inside it, and its width is twice the exploitability. For the "
        "LP rows it collapses to the value; the CFR+ rows are an independent check of the "
        "LP's 50-chip values (the hints' averaging advice in action: the CFR+ *average* "
        "strategy is what converges).",
        "",
        f"- P2's advantage grows from {k3.p2_advantage:.6f} (3 cards) to "
        f"{k100.p2_advantage:.6f} (100 cards): "
        f"{k100.p2_advantage / k3.p2_advantage:.3f} times as much: the advantage of acting "
        "second barely depends on the deck size, so 3-card Kuhn is already a good guide to "
        "100-card Kuhn.",
        f"- Leduc's P2 advantage ({eq['Leduc (standard)'].p2_advantage:.6f}) is larger than "
        "either Kuhn's in chips, with bigger bets; the 50-chip variant without the raise "
        f"cap gives P2 {eq['50-chip Leduc'].p2_advantage:.6f}, and without pairs "
        f"{eq['50-chip Leduc, no pairs'].p2_advantage:.6f}.",
        "",
        SECTIONS[2],
        "",
        "Each abstraction is solved exactly (LP on the collapsed abstract game), then lifted: "
        "every card plays its bucket's strategy. *Abstract value* is what the abstract game "
        "claims; *lifted value* is the real game's value when both seats play the lifted "
        "strategy (equal to the abstract value, since the lifted profile plays the real "
        "game exactly as the abstract one); *lifted exploitability* is exact, in 100-card Kuhn.",
        "",
    ]
    lines += _table(
        [
            "buckets",
            "abstract infosets",
            "abstract value (P1)",
            "P2 advantage claimed",
            "lifted value (P1)",
            "lifted exploitability",
            "bucket ranges",
        ],
        [
            [
                r.label,
                f"{r.n_infosets_abstract} of {r.n_infosets_full}",
                _f(r.abstract_value),
                _f(-r.abstract_value),
                _f(r.lifted_value),
                _e(r.lifted_exploitability),
                r.buckets,
            ]
            for r in study.kuhn_abstractions
        ],
    )
    lines += [
        f"The real game's P2 advantage is {k100.p2_advantage:.6f}. The uniform buckets "
        f"misstate it by {abs(-uniform10.abstract_value - k100.p2_advantage):.6f} and leave "
        f"{uniform10.lifted_exploitability:.2e} chips/hand on the table; the searched buckets "
        f"({optimized10.buckets}) misstate it by "
        f"{abs(-optimized10.abstract_value - k100.p2_advantage):.2e} and are exploitable for "
        f"{_e(optimized10.lifted_exploitability)}. Good buckets are narrow where the "
        "equilibrium changes its action (the bluffing range at the bottom, the calling "
        "thresholds in the middle) and wide where every card plays alike.",
        "",
        SECTIONS[3],
        "",
        "![exploitability against buckets](buckets_exploitability.png)",
        "",
    ]
    lines += _table(
        [
            "buckets",
            "uniform",
            "percentile",
            "behaviour",
            "optimized",
            "evaluations",
            "optimized boundaries (first card of each bucket, 0-based)",
        ],
        [
            [
                str(r.n_buckets),
                _e(r.uniform),
                _e(r.percentile),
                _e(r.behaviour),
                _e(r.optimized),
                str(r.evaluations),
                f"`{r.optimized_buckets}`",
            ]
            for r in study.sweep
        ],
    )
    lines += [
        "*uniform*: `bucket = card * B // 100`; *percentile*: equal probability by the "
        "mid-point rule (every card is equally likely, so it differs from uniform only in "
        "where the remainder goes); *behaviour*: the cards clustered by the real "
        "equilibrium's action probabilities (optimal contiguous segmentation by dynamic "
        "programming, weighted by reach); *optimized*: boundary search from the best of the "
        f"three, at most {s.search_evaluations} solved bucketings per count"
        " (exploitabilities are exact; LP solves of the abstract games).",
        "",
        SECTIONS[4],
        "",
        "![strategy per card](kuhn100_strategy.png)",
        "",
        "Probability of betting (P1 opening; P2 after a check) and of calling (P2 facing a "
        "bet; P1 after check-bet) for each card, for the LP equilibrium of 100-card Kuhn and "
        "the lifted 10-bucket strategies (gaps: infosets the profile never reaches). The "
        "equilibrium is not unique: the LP returns one vertex of the equilibrium polytope, "
        "where many cards are indifferent between betting and checking (P1's high cards "
        "alternate between betting and check-calling, P2's calling range has holes); when "
        "the optimized 10-bucket strategy has exploitability 0 it is itself an exact "
        "equilibrium, and a far simpler one: ten ranges of cards, each played alike.",
        "",
    ]
    eq_chart = study.charts["equilibrium (LP)"]
    lines += _table(
        ["decision", "cards with probability > 0.5 (1-based)", "mixed cards (0 < p < 1)"],
        [
            [
                title,
                _ranges([i + 1 for i, p in enumerate(values) if p > 0.5]),
                _ranges([i + 1 for i, p in enumerate(values) if 1e-9 < p < 1 - 1e-9]),
            ]
            for title, values in eq_chart.items()
        ],
    )
    full50 = eq["50-chip Leduc"]
    lines += [
        SECTIONS[5],
        "",
        "The 50-chip variant has no raise cap: its tree has "
        f"{full50.n_histories:,} histories and {full50.n_infosets:,} infosets. The betting "
        "abstraction `leduc(stack=50, raise_cap=K)` allows K bets and raises per round; to "
        "play the real game, a history with more raises in a round is translated to the "
        "abstract one with K (same parity) or K - 1 raises, the last abstract state where "
        "the same player faces a raise (a finished round keeps K raises), and a raise the "
        "abstract row lacks gets probability 0. The lifted strategy is then measured "
        "exactly in the real game.",
        "",
        "![betting abstraction](leduc50_betting.png)",
        "",
    ]
    lines += _table(
        [
            "raise cap K",
            "abstract infosets",
            "abstract histories",
            "abstract value (P1)",
            "abstract exploitability",
            "lifted value (P1)",
            "lifted exploitability",
        ],
        [
            [
                str(r.raise_cap),
                f"{r.n_infosets_abstract:,}",
                f"{r.n_histories_abstract:,}",
                _f(r.abstract_value),
                _e(r.abstract_exploitability),
                _f(r.lifted_value),
                _e(r.lifted_exploitability),
            ]
            for r in study.betting
        ],
    )
    lines += [
        f"The real game's value is {_f(full50.value)} (LP). Raise wars beyond a few raises "
        "are rare at equilibrium, so a small cap loses little once K reaches the number of "
        "raises the equilibrium actually uses; with K = 1 a player facing a re-raise is "
        "translated to a state where nothing is owed and never folds, which a best "
        "response punishes severely.",
        "",
        "A finer abstraction is not guaranteed to lift better: the LP returns one of many "
        "equilibria of each abstract game, and how well it plays the raise wars it never "
        "saw is not monotone in K (abstraction pathologies, Waugh et al. 2009).",
        "",
        "Bet-size translation for no-limit games (not needed by limit Leduc, whose raises "
        "all have one size): with abstract sizes 0.5, 1 and 2 pots, the pseudo-harmonic "
        "mapping sends a bet of x pots to the smaller neighbour A with probability "
        "f(x) = (B - x)(1 + A) / ((B - A)(1 + x)):",
        "",
    ]
    lines += _table(
        ["bet x (pots)", "translated to"],
        [
            [
                f"{x:g}",
                ", ".join(f"{size:g} pot with p = {p:.4f}" for size, p in sorted(probs.items())),
            ]
            for x, probs in study.translation
        ],
    )
    lines += [
        "![CFR+ on 50-chip Leduc](leduc50_cfr.png)",
        "",
        SECTIONS[6],
        "",
        "- Exact equilibria: the sequence-form LP (HiGHS) on the compiled tree; its "
        "exploitability is measured by exact best response and is at rounding level.",
        f"- CFR+ ({s.cfr_iterations:,} iterations, linear averaging) on the 50-chip "
        "variants: exploitability stated in section 2, with the value bracket from the two "
        "best responses.",
        "- Abstractions: the abstract game keeps the real histories and payoffs and buckets "
        "the cards in the infoset keys; it is solved on its *collapsed* form (histories "
        "that differ only in cards no player can tell apart merged, chance dealing buckets "
        "with their probabilities), which has the same equilibria; the solution is lifted "
        "to the real game and its exploitability measured exactly there.",
        "- Step times (seconds): "
        + ", ".join(f"{name} {sec:.1f}" for name, sec in study.step_seconds.items())
        + ".",
        "",
    ]
    return "\n".join(lines)


def _ranges(cards: list[int]) -> str:
    if not cards:
        return "none"
    parts: list[str] = []
    start = previous = cards[0]
    for card in [*cards[1:], -1]:
        if card == previous + 1:
            previous = card
            continue
        parts.append(str(start) if start == previous else f"{start}-{previous}")
        start = previous = card
    return ", ".join(parts)


def write_report(study: ChallengeStudy, out: str | Path) -> Path:
    """Write ``README.md`` and the plots into the folder ``out``; return the README's path."""
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    plot_buckets(study, folder / PLOTS[0])
    plot_strategy(study, folder / PLOTS[1])
    plot_betting(study, folder / PLOTS[2])
    plot_cfr(study, folder / PLOTS[3])
    readme = folder / "README.md"
    readme.write_text(to_markdown(study), encoding="utf-8")
    return readme


__all__ = [
    "plot_betting",
    "plot_buckets",
    "plot_cfr",
    "plot_strategy",
    "to_markdown",
    "write_report",
]
