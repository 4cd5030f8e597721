"""AIVAT in matches: unbiasedness on games with exact values, and the variance it removes.

For each game (Kuhn, Leduc) and opponent (always-call, random, CFR+10), the equilibrium
bot (CFR+ after 1,000 iterations) plays a duplicate match against the opponent. Recorded
per match, for the bot's result:

- the plain estimate (mean of the deals, its standard error) and the exact value;
- the chance-only control variate of :func:`pokerlab.eval.play_match`;
- AIVAT with the bot's own policy known (chance and the bot's actions corrected): the
  situation of an entrant evaluating its bot against unknown opponents;
- AIVAT with both policies known (then the estimate is the exact value, variance 0);
- the exact expectation of each AIVAT estimator under the true profile, minus the exact
  value: 0 up to round-off, the unbiasedness check.

Variance reduction is ``Var(plain) / Var(corrected)`` over the match's deals: above 1 the
correction helped (that many times fewer hands for the same interval).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from pokerlab.agents.policy_agent import PolicyAgent
from pokerlab.eval.aivat import aivat_corrections, aivat_estimates, exact_aivat_mean
from pokerlab.eval.matches import play_match
from pokerlab.games import Game, kuhn, leduc
from pokerlab.strategy import Strategy
from pokerlab.studies.safe_exploitation import opponent_model
from pokerlab.tree import compile

OPPONENTS = ("always-call", "random", "cfr+10")
"""The opponents of the equilibrium bot."""


@dataclass(frozen=True)
class AivatRow:
    """One match; chips per hand for the equilibrium bot, seats averaged.

    Attributes:
        game: the spec string.
        opponent: the opponent's name.
        hands: hands played (each deal in both seats).
        exact: the exact value of the match's seatings.
        plain_mean: the plain estimate; ``plain_se`` its standard error.
        chance_mean: the chance-only control variate's estimate; ``chance_reduction`` its
            variance reduction.
        aivat_mean: AIVAT with the bot's policy known; ``aivat_se``, ``aivat_reduction``.
        full_mean: AIVAT with both policies known; ``full_reduction``.
        bias_known_bot: exact expectation of the one-side AIVAT estimator minus the exact value.
        bias_both: the same with both sides known.
    """

    game: str
    opponent: str
    hands: int
    exact: float
    plain_mean: float
    plain_se: float
    chance_mean: float
    chance_reduction: float
    aivat_mean: float
    aivat_se: float
    aivat_reduction: float
    full_mean: float
    full_reduction: float
    bias_known_bot: float
    bias_both: float

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return asdict(self)


def _exact_bias(game: Game, bot: Strategy, opponent: Strategy, both: bool) -> float:
    """Seat-averaged exact bias of the AIVAT estimator (bot known; opponent too if ``both``)."""
    tree = compile(game)
    bias = 0.0
    for bot_seat in (0, 1):
        played = bot.probs.copy()
        rows = tree.infosets_of(1 - bot_seat)
        played[rows] = opponent.probs[rows]
        known: list[Any] = [None, None]
        known[bot_seat] = bot.probs
        if both:
            known[1 - bot_seat] = opponent.probs
        corrections = aivat_corrections(tree, bot.probs, known)
        mean = exact_aivat_mean(tree, played, corrections)[bot_seat]
        plain = exact_aivat_mean(tree, played, 0.0 * corrections)[bot_seat]
        bias += (mean - plain) / 2
    return float(bias)


def aivat_study(
    games: Sequence[Game] | None = None,
    *,
    opponents: Sequence[str] = OPPONENTS,
    hands: int = 5000,
    seed: int = 0,
    bot_iterations: int = 1000,
    progress: Callable[[str], None] | None = None,
) -> list[AivatRow]:
    """Run the study (see the module docstring): one row per game and opponent."""
    rows = []
    for game in games if games is not None else (kuhn(), leduc()):
        bot = opponent_model(game, f"cfr+{bot_iterations}")
        for name in opponents:
            if progress is not None:
                progress(f"{game.spec}: equilibrium bot vs {name}")
            opponent = opponent_model(game, name)
            result = play_match(
                game,
                PolicyAgent(bot, name="equilibrium"),
                PolicyAgent(opponent, name=name),
                hands=hands,
                seed=seed,
            )
            mine = aivat_estimates(game, result, [bot, None])[0]
            both = aivat_estimates(game, result, [bot, opponent])[0]
            chance = result.control_variates[0] if result.control_variates else None
            rows.append(
                AivatRow(
                    game=str(game.spec),
                    opponent=name,
                    hands=result.n_hands,
                    exact=float(result.exact_values[0]) if result.exact_values else float("nan"),
                    plain_mean=result.estimates[0].mean,
                    plain_se=result.estimates[0].std_error,
                    chance_mean=chance.estimate.mean if chance else float("nan"),
                    chance_reduction=chance.variance_reduction if chance else float("nan"),
                    aivat_mean=mine.estimate.mean,
                    aivat_se=mine.estimate.std_error,
                    aivat_reduction=mine.variance_reduction,
                    full_mean=both.estimate.mean,
                    full_reduction=both.variance_reduction,
                    bias_known_bot=_exact_bias(game, bot, opponent, both=False),
                    bias_both=_exact_bias(game, bot, opponent, both=True),
                )
            )
    return rows


__all__ = ["OPPONENTS", "AivatRow", "aivat_study"]
