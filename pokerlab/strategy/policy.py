"""The policy contract: probabilities of the legal actions at what a player observes.

Anything with ``action_probabilities(observation) -> {action: probability}`` (and the
``game`` it plays) is a :class:`Policy`: every agent, match, file and evaluator of
pokerlab understands it. Three kinds ship with pokerlab:

- :class:`~pokerlab.strategy.Strategy`: a table aligned with the compiled tree (the file
  format of exact solvers, and the fast path of every exact evaluator);
- :class:`~pokerlab.strategy.InfosetTable`: rows keyed by infoset key, filled by sampling
  solvers on games too big to compile (uniform where never met);
- :class:`FunctionPolicy`: a function of the observation (rule bots, the Easy AI).

Layers to the right add more kinds on the same contract: Hold'em blueprints
(:class:`~pokerlab.blueprint.policy.BlueprintPolicy`) and Deep CFR's networks
(:class:`~pokerlab.solvers.deep_policy.DeepPolicy`).

Exact evaluators need the whole tree: :func:`tabulate` turns any policy into a Strategy
on a game that compiles (asking the policy once per infoset) and says clearly when the
game is too big. :func:`check_distribution` is the one place where an answer is checked.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import numpy as np

from pokerlab._types import Action
from pokerlab.errors import GameTooLargeError, PolicyError, StrategyError, StrategyMismatchError
from pokerlab.games.base import Game
from pokerlab.games.observation import Observation
from pokerlab.strategy.archive import NpzArchive
from pokerlab.strategy.io import read_npz
from pokerlab.strategy.strategy import FORMAT as STRATEGY_FORMAT
from pokerlab.strategy.strategy import Strategy, check_strategy_arrays, strategy_from_file
from pokerlab.strategy.table import FORMAT as TABLE_FORMAT
from pokerlab.strategy.table import InfosetTable, check_table_arrays, table_from_file
from pokerlab.tree import compile

DISTRIBUTION_TOLERANCE = 1e-6
"""How far a policy's probabilities may sum from 1 before the answer is refused."""


@runtime_checkable
class Policy(Protocol):
    """Probabilities of the legal actions at an observation; the contract of every strategy."""

    @property
    def game(self) -> Game:
        """The game the policy plays."""
        ...

    def action_probabilities(self, observation: Observation) -> Mapping[Action, float]:
        """``{action: probability}`` over ``observation.legal_actions``, summing to 1."""
        ...


RawDistribution = Mapping[Action, float] | Sequence[float]
"""What a policy function may return: ``{action: p}``, or one ``p`` per legal action."""


def check_distribution(
    raw: object, legal: Sequence[Action], *, where: str = "the policy"
) -> dict[Action, float]:
    """Check a policy's answer and return it as ``{action: probability}`` summing to 1.

    Args:
        raw: ``{action: probability}`` (absent legal actions get 0), or a sequence with
            one probability per legal action, in order.
        legal: the legal actions.
        where: who answered, for the message.

    Raises:
        PolicyError: an action that is not legal, a probability that is negative, not a
            finite number, or a total that is not 1 (within 1e-6); the message says which.

    Example:
        >>> check_distribution([0.25, 0.75], (0, 1))
        {0: 0.25, 1: 0.75}
        >>> check_distribution({2: 1.0}, (0, 1))
        Traceback (most recent call last):
        ...
        pokerlab.errors.PolicyError: the policy gives probability to 2, which is not legal; ...
    """
    legal_list = [int(a) for a in legal]

    def legal_text() -> str:  # only for a message: a no-limit menu holds ~200 actions
        return ", ".join(str(a) for a in legal_list)

    if isinstance(raw, Mapping):
        pairs = list(raw.items())
    elif isinstance(raw, Sequence | np.ndarray) and not isinstance(raw, str | bytes):
        values = list(raw)
        if len(values) != len(legal_list):
            raise PolicyError(
                f"{where} gives {len(values)} probabilities for {len(legal_list)} legal "
                f"actions ({legal_text()})"
            )
        pairs = list(zip(legal_list, values, strict=True))
    else:
        raise PolicyError(
            f"{where} returned {type(raw).__name__}, not a mapping {{action: probability}} "
            "or one probability per legal action"
        )
    out = dict.fromkeys(legal_list, 0.0)
    for action, prob in pairs:
        if prob.__class__ is float and action.__class__ is int and prob == 0.0 and action in out:
            continue  # the common zero of a no-limit answer over ~200 legal raises: nothing to add
        if isinstance(action, bool) or not isinstance(action, int | np.integer) or (
            int(action) not in out
        ):
            raise PolicyError(
                f"{where} gives probability to {action!r}, which is not legal; legal: "
                f"{legal_text()}"
            )
        if isinstance(prob, bool) or not isinstance(prob, int | float | np.integer | np.floating):
            raise PolicyError(
                f"{where} gives action {action} the probability {prob!r}, not a number"
            )
        value = float(prob)
        if not math.isfinite(value) or value < 0:
            raise PolicyError(
                f"{where} gives action {action} the probability {value!r}; probabilities "
                "must be finite and >= 0"
            )
        out[int(action)] += value
    total = sum(out.values())
    if abs(total - 1.0) > DISTRIBUTION_TOLERANCE:
        raise PolicyError(
            f"{where}'s probabilities sum to {total:.9g}, not 1 (legal: {legal_text()})"
        )
    if total == 1.0:
        return out
    return {a: p / total for a, p in out.items()}


def sample_action(probabilities: Mapping[Action, float], rng: np.random.Generator) -> Action:
    """Draw one action from ``{action: probability}`` with ``rng`` (what an agent plays).

    One draw of ``rng.choice`` over the actions in the mapping's order (actions of
    probability 0 are never drawn); the first action where the probabilities sum to 0.

    Example:
        >>> sample_action({0: 0.0, 1: 1.0}, np.random.default_rng(0))
        1
    """
    actions = list(probabilities)
    weights = np.array([probabilities[a] for a in actions], dtype=np.float64)
    total = float(weights.sum())
    if total <= 0:
        return actions[0]
    return actions[int(rng.choice(len(actions), p=weights / total))]


class FunctionPolicy:
    """A policy computed by a function of the observation.

    Args:
        game: the game it plays.
        function: ``observation -> {action: probability}`` (or one probability per legal
            action, in order); its answers are checked by :func:`check_distribution`.
        name: a display name.

    Example:
        >>> from pokerlab.games import kuhn
        >>> always_bet = FunctionPolicy(kuhn(), lambda obs: {obs.legal_actions[-1]: 1.0})
        >>> state = kuhn().initial_state().child(0).child(1)
        >>> always_bet.action_probabilities(state.observation())
        {0: 0.0, 1: 1.0}
    """

    def __init__(
        self, game: Game, function: Callable[[Observation], RawDistribution], *, name: str = ""
    ) -> None:
        self._game = game
        self.function = function
        self.name = name or getattr(function, "__name__", "function")

    @property
    def game(self) -> Game:
        """The game it plays."""
        return self._game

    def action_probabilities(self, observation: Observation) -> dict[Action, float]:
        """The function's answer, checked.

        Raises:
            PolicyError: if the answer is not a distribution over the legal actions.
        """
        raw = self.function(observation)
        return check_distribution(raw, observation.legal_actions, where=f"policy {self.name}")

    def __repr__(self) -> str:
        return f"<FunctionPolicy {self.name} for {self.game.spec}>"


def tabulate(policy: Policy, game: Game | None = None, *, purpose: str = "") -> Strategy:
    """The policy as a :class:`Strategy` on ``game``'s compiled tree (exact evaluators' input).

    A Strategy is returned as it is; an :class:`InfosetTable` is aligned by key (uniform
    where it has no row); any other policy is asked once per infoset, at the
    infoset's first history.

    Args:
        policy: any policy.
        game: the game (default: the policy's).
        purpose: what the table is for, named in the error when the game is too big
            (``"exploitability"``).

    Raises:
        StrategyMismatchError: if the policy was made for another game.
        GameTooLargeError: if the game is too big to compile; the message says so.
        PolicyError: if the policy's answer at some infoset is not a distribution.
    """
    game = policy.game if game is None else game
    if policy.game != game:
        raise StrategyMismatchError(
            f"this policy was made for {policy.game.spec}, not for {game.spec}"
        )
    if isinstance(policy, Strategy):
        return policy
    try:
        tree = compile(game)
    except GameTooLargeError as exc:
        what = purpose or "an exact evaluation"
        raise GameTooLargeError(
            f"{what} needs the whole game tree, and {exc}", found=exc.found, limit=exc.limit
        ) from None
    probs = np.zeros((tree.n_infosets, tree.max_actions))
    metadata: dict[str, Any] = {"algorithm": "tabulated", "source": repr(policy)}
    if isinstance(policy, InfosetTable):
        metadata = {**policy.metadata, "tabulated_from": "table"}
        for i, key in enumerate(tree.infoset_keys):
            n = int(tree.infoset_n_actions[i])
            legal = tree.infoset_actions[i, :n].tolist()
            row = policy.get(key)
            if row is None:
                probs[i, :n] = 1.0 / n
                continue
            if list(row) != legal:
                raise StrategyError(
                    f"the table's row {key!r} has actions {tuple(row)}, but the legal actions "
                    f"are {tuple(legal)}"
                )
            probs[i, :n] = list(row.values())
        return Strategy.from_array(game, probs, metadata=metadata)
    for i in range(tree.n_infosets):
        state = tree.history_state(int(tree.infoset_history[i]))
        observation = state.observation(state.player)
        row = check_distribution(
            policy.action_probabilities(observation), observation.legal_actions,
            where=f"{policy!r} at {observation.infoset_key!r}",
        )
        probs[i, : len(row)] = list(row.values())
    return Strategy.from_array(game, probs, metadata=metadata)


def load_policy(path: str | Path, *, game: Game | None = None) -> Strategy | InfosetTable:
    """Read any policy file pokerlab writes (a strategy or an infoset table).

    Raises:
        StrategyMismatchError: if ``game`` is given and the file was made for another.
        FileFormatError: if the file is missing, damaged, or of another format.
    """
    def check(header: dict[str, object], archive: NpzArchive) -> None:
        if header.get("format") == TABLE_FORMAT:
            check_table_arrays(header, archive, path)
        else:
            check_strategy_arrays(header, archive, path, game)

    header, arrays = read_npz(path, (STRATEGY_FORMAT, TABLE_FORMAT), check=check)
    if header.get("format") == TABLE_FORMAT:
        return table_from_file(header, arrays, path, game)
    return strategy_from_file(header, arrays, path, game)


__all__ = [
    "DISTRIBUTION_TOLERANCE",
    "FunctionPolicy",
    "Policy",
    "RawDistribution",
    "check_distribution",
    "load_policy",
    "sample_action",
    "tabulate",
]
