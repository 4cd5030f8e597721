"""check_agent: the checks a challenge entry should pass before it enters a tournament.

``check_agent("my_bot.py", game)`` starts the file in a sandbox exactly as the arena
does (its own process, the same limits, a new one for each leg), plays a few hundred
hands against random agents in every seat, and reports in plain words whatever went
wrong: an import error, a missing class, exceptions, illegal actions, slow decisions, a
crashing process, and what it printed.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pokerlab.agents.simple import RandomAgent
from pokerlab.errors import PokerlabError
from pokerlab.eval.matches import FaultEvent, play_match
from pokerlab.games import Game
from pokerlab.play.deals import check_seed, fresh_seed
from pokerlab.play.sandbox import EntrantSource, SandboxedAgent, SandboxLimits, check_loads


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
        log: what the agent printed (bounded, as the arena keeps it).
        seed: the seed of the deals played (None when none was played): ``check_agent``
            with it replays them.
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
    log: str = ""
    seed: int | None = None

    def __str__(self) -> str:
        replay = ("" if self.seed is None
                  else f"\ndeal seed {self.seed} (replay with --seed {self.seed})")
        if not self.ok:
            lines = [f"{self.path}: {len(self.problems)} problem(s) on {self.game}"]
            lines += [f"  - {problem}" for problem in self.problems]
            return "\n".join(lines) + replay
        return (
            f"{self.path}: ok on {self.game}: {self.hands} hands, {self.decisions} decisions, "
            f"{self.mean_seconds * 1e3:.3f} ms per decision, {self.mean_chips:+.3f} chips/hand "
            "against random" + replay
        )


def check_agent(
    path: str | Path,
    game: Game,
    *,
    hands: int = 300,
    seed: int | None = None,
    time_limit: float = 1.0,
    trust: bool = False,
) -> AgentCheckReport:
    """Import an entrant's file, play it against a random agent, and report the problems.

    Args:
        path: a Python file defining class ``Agent``.
        game: the game to play (two players).
        hands: hands to play (as many in each seat; rounded up to a multiple of the seats).
        seed: seeds the deals; None (the default) draws a fresh secret one
            (:func:`~pokerlab.play.deals.fresh_seed`), given back in the report. A seed the
            entrant knows lets it predict the cards.
        time_limit: seconds allowed per decision; slower decisions are problems.
        trust: run it even where the machine cannot isolate it (``--trust-entrants``).

    Returns:
        The report; ``report.ok`` is True when nothing went wrong.
    """
    file = Path(path)
    game_text = str(game.spec)
    limits = SandboxLimits(decision_seconds=time_limit, trusted=trust)
    try:
        source = EntrantSource.read(file)
    except PokerlabError as exc:
        return AgentCheckReport(str(file), game_text, False, (str(exc),))
    error = check_loads(source, game, limits=limits)
    if error is not None:
        return AgentCheckReport(str(file), game_text, False,
                                (f"cannot load an agent from {str(file)!r}: {error}",))
    seed = fresh_seed() if seed is None else check_seed(seed)
    n = game.n_players
    per_seat = -(-hands // n)
    others = [RandomAgent() for _ in range(n - 1)]
    agent = SandboxedAgent(source, game, limits=limits)
    later: list[SandboxedAgent] = []  # a fresh process for each later leg, as in the arena

    def rebuild(game: Game) -> object:
        later.append(SandboxedAgent(source, game, limits=limits))
        return later[-1]

    try:
        # An author checking their own bot against built-ins: no contest, no cache drops.
        result = play_match(game, agent, *others, hands=per_seat, seed=seed, fast=False,
                            fresh=[rebuild, *[None] * len(others)], drop_caches=False)
    finally:
        for process in (agent, *later):
            process.close()
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
        log="\n".join(process.log for process in (agent, *later) if process.log),
        seed=seed,
    )


def _describe(events: list[FaultEvent], hands: int) -> list[str]:
    """One readable line per kind of fault, with a count and the first example."""
    problems: list[str] = []
    wording = {
        "exception": "raised an exception",
        "illegal": "returned an illegal action",
        "timeout": "exceeded the time limit",
        "policy": "gave probabilities that are not a distribution",
        "crash": "ended its process",
        "protocol": "broke the protocol",
        "disqualified": "was disqualified after too many faults",
        "budget": "used up its time budget for the match",
        "stray-process": "left a process running after its call",
    }
    for kind in wording:
        found = [e for e in events if e.kind == kind]
        if found:
            first = found[0]
            problems.append(
                f"{wording[kind]} {len(found)} time(s) in {hands} hands; first in hand "
                f"{first.hand} (seat {first.seat}): {first.detail}"
            )
    return problems


__all__ = ["AgentCheckReport", "check_agent"]
