"""check_agent: the checks a challenge entry should pass before it enters a tournament.

``check_agent("my_bot.py", game)`` imports the file, builds its ``Agent``, plays a few
hundred hands against a random agent in both seats, and reports in plain words whatever
went wrong: an import error, a missing class, exceptions, illegal actions, slow decisions.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pokerlab.agents.loader import AgentLoadError, load_agent
from pokerlab.agents.simple import RandomAgent
from pokerlab.eval.matches import FaultEvent, play_match
from pokerlab.games import Game


@dataclass(frozen=True)
class AgentCheckReport:
    """What :func:`check_agent` found.

    Attributes:
        path: the entrant's file.
        game: the game's spec string.
        ok: True when no problem was found.
        problems: each problem in plain words (empty when ``ok``).
        hands: hands played (0 when the agent could not be built).
        decisions: decisions the agent took.
        mean_seconds: mean thinking time per decision, in seconds.
        max_seconds: the largest thinking time of one hand divided by its decisions.
        mean_chips: the agent's mean winnings against the random agent, chips per hand.
    """

    path: str
    game: str
    ok: bool
    problems: tuple[str, ...]
    hands: int = 0
    decisions: int = 0
    mean_seconds: float = 0.0
    max_seconds: float = 0.0
    mean_chips: float = 0.0

    def __str__(self) -> str:
        if not self.ok:
            lines = [f"{self.path}: {len(self.problems)} problem(s) on {self.game}"]
            lines += [f"  - {problem}" for problem in self.problems]
            return "\n".join(lines)
        return (
            f"{self.path}: ok on {self.game}: {self.hands} hands, {self.decisions} decisions, "
            f"{self.mean_seconds * 1e3:.3f} ms per decision, {self.mean_chips:+.3f} chips/hand "
            "against random"
        )


def check_agent(
    path: str | Path,
    game: Game,
    *,
    hands: int = 300,
    seed: int = 0,
    time_limit: float = 1.0,
) -> AgentCheckReport:
    """Import an entrant's file, play it against a random agent, and report the problems.

    Args:
        path: a Python file defining class ``Agent``.
        game: the game to play (two players).
        hands: hands to play (half in each seat; rounded up to even).
        seed: seeds the deals.
        time_limit: seconds allowed per decision; slower decisions are problems.

    Returns:
        The report; ``report.ok`` is True when nothing went wrong.
    """
    file = Path(path)
    game_text = str(game.spec)
    try:
        agent = load_agent(file, game)
    except AgentLoadError as exc:
        return AgentCheckReport(str(file), game_text, False, (str(exc),))
    hands += hands % 2
    per_seat = hands // 2
    others = [RandomAgent() for _ in range(game.n_players - 1)]
    result = play_match(
        game, agent, *others, hands=per_seat, seed=seed, time_limit=time_limit, fast=False
    )
    mine = [e for e in result.events if e.agent == 0]
    problems = _describe(mine, hands)
    decisions = sum(r.decisions[0] for r in result.hands)
    seconds = sum(r.seconds[0] for r in result.hands)
    per_hand = [r.seconds[0] / r.decisions[0] for r in result.hands if r.decisions[0]]
    if decisions == 0:
        problems.append("the agent never had to act (is the game two-player?)")
    return AgentCheckReport(
        path=str(file),
        game=game_text,
        ok=not problems,
        problems=tuple(problems),
        hands=result.n_hands,
        decisions=decisions,
        mean_seconds=seconds / decisions if decisions else 0.0,
        max_seconds=max(per_hand, default=0.0),
        mean_chips=result.estimate.mean,
    )


def _describe(events: list[FaultEvent], hands: int) -> list[str]:
    """One readable line per kind of fault, with a count and the first example."""
    problems: list[str] = []
    wording = {
        "exception": "raised an exception",
        "illegal": "returned an illegal action",
        "timeout": "exceeded the time limit",
    }
    for kind in ("exception", "illegal", "timeout"):
        found = [e for e in events if e.kind == kind]
        if found:
            first = found[0]
            problems.append(
                f"{wording[kind]} {len(found)} time(s) in {hands} hands; first in hand "
                f"{first.hand} (seat {first.seat}): {first.detail}"
            )
    return problems


__all__ = ["AgentCheckReport", "check_agent"]
