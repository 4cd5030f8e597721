"""The other seats of a single-agent environment: agents, from objects or from text.

An opponent is any agent (an object with ``act(observation)``; its ``reset``, ``seed``
and ``observe`` hooks are called as the dealer calls them), a dealer connection (such as
a sandboxed entrant, :class:`~pokerlab.arena.sandbox.SandboxedAgent`), or text naming
one: a built-in name (``"random"``, ``"cfr+1000"``, ``"hard"``: :func:`pokerlab.agents.make_agent`),
a strategy or infoset-table file (``.npz``: :meth:`pokerlab.agents.PolicyAgent.from_file`)
or a blueprint (``.bp``: :meth:`pokerlab.blueprint.policy.BlueprintPolicy.from_file`).
Text is handed to those public loaders as it is; this module adds no way of its own to
build an agent.
"""

from __future__ import annotations

from pathlib import Path

from pokerlab.agents import PolicyAgent, make_agent
from pokerlab.blueprint.policy import BlueprintPolicy
from pokerlab.errors import PokerlabError, SpecError
from pokerlab.eval.dealer import AgentConnection
from pokerlab.games import Game

Opponent = str | Path | object
"""What a user may give for an opponent: text (a name or a file) or an agent."""


def opponent_agent(
    opponent: Opponent,
    game: Game,
    *,
    seed: int | None = None,
    cache_dir: str | Path | None = None,
) -> object:
    """The agent ``opponent`` stands for, to play ``game``.

    Args:
        opponent: an agent, a dealer connection, a built-in name, or a ``.npz`` / ``.bp`` file.
        game: the game it will play.
        seed: the seed of a built-in or file agent's generator.
        cache_dir: where built-ins that train or solve keep their results.

    Raises:
        SpecError: a missing file, or an object that is not an agent.
        PokerlabError: an unknown built-in name (lists the known ones), or one that cannot
            play ``game``.
        StrategyMismatchError: a file made for another game.
    """
    if isinstance(opponent, AgentConnection):
        return opponent
    if not isinstance(opponent, str | Path):
        if not callable(getattr(opponent, "act", None)):
            raise SpecError(
                f"an opponent must be an agent (with act(observation)), a built-in name or "
                f"a .npz / .bp file; got {type(opponent).__name__}"
            )
        return opponent
    text = str(opponent)
    if text.endswith((".npz", ".bp")):
        path = Path(text)
        if not path.is_file():
            raise SpecError(f"opponent {text!r}: the file does not exist")
        if text.endswith(".npz"):
            return PolicyAgent.from_file(path, game, seed=seed)
        policy = BlueprintPolicy.from_file(path, game, cache_dir=cache_dir)
        return PolicyAgent(policy, seed=seed, name=path.stem)
    if text.endswith(".py"):
        raise SpecError(
            f"opponent {text!r}: an entrant's file runs sandboxed; pass "
            "pokerlab.arena.sandbox.SandboxedAgent(EntrantSource.read(path), game)"
        )
    try:
        return make_agent(text, game, seed=seed, cache_dir=cache_dir)
    except PokerlabError as exc:
        raise PokerlabError(f"opponent {text!r}: {exc}; or give a .npz or .bp file") from None


__all__ = ["Opponent", "opponent_agent"]
