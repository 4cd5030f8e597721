"""Tabular Q-learning in self-play, through the State API: the RL baseline beside CFR.

Each player is a Q-learner that sees its own infoset keys (its observation) and treats
chance and the other players as its environment. One iteration is one hand (an episode):

1. chance is sampled from ``state.chance_outcomes()``; at each decision the acting player
   looks up its row ``Q[key]`` (created at 0 on first sight) and plays epsilon-greedily:
   a uniformly random legal action with probability ``epsilon``, else one of largest
   ``Q`` (ties broken at random);
2. when a player acts again, its previous decision ``(key, action)`` moves toward the
   best value of the new row: ``Q[key, a] += alpha (max_b Q[key', b] - Q[key, a])``
   (no reward before the end, no discount: a hand is short);
3. at the end each player's last decision moves toward its return, in chips:
   ``Q[key, a] += alpha (returns[p] - Q[key, a])``.

What it learns: ``Q[key, a]`` tracks the chips action ``a`` wins from that infoset,
averaged over the histories the current play reaches it by, when the player then plays
greedily: the counterfactual value of the action divided by the chance of reaching the
infoset (the quantity CFR's regrets accumulate, there weighted by that chance and summed
over iterations; docs/tutorial.md, sections 5 and 7, compares them). The greedy policy is
a best response to the recent past; with the opponent learning too it chases a moving
target, and a pure policy cannot play the mixed strategies poker's equilibria need.

Three strategies come out: :meth:`QLearning.current_strategy` (the epsilon-greedy policy
it plays), :meth:`QLearning.greedy_strategy` (the argmax of ``Q``, its learned policy)
and :meth:`QLearning.average_strategy` (the frequencies of the actions it played at each
infoset, over the whole run: a fictitious-play-like average). Each is a
:class:`~pokerlab.strategy.Strategy` (uniform at infosets never met) where the game
compiles, and an :class:`~pokerlab.strategy.InfosetTable` over the keys met otherwise.

References:
    C. Watkins and P. Dayan, "Q-learning", Machine Learning 8, 1992. J. Heinrich and
    D. Silver, "Deep reinforcement learning from self-play in imperfect-information games",
    2016 (why the average, not the greedy policy).
"""

from __future__ import annotations

import json
from typing import Any, ClassVar

import numpy as np

from pokerlab._types import CHANCE, TERMINAL, Action, FloatArray, IntArray
from pokerlab.errors import SolverError
from pokerlab.games.base import Game, State
from pokerlab.solvers.base import (
    Seed,
    Solver,
    compiled_or_none,
    generator_from_state,
    make_generator,
    register_solver,
    seed_value,
    strategy_metadata,
)
from pokerlab.strategy import InfosetTable, Strategy, tabulate

NODE_CACHE_LIMIT = 50_000
"""The most game states a learner remembers (what the State API answered at each)."""


class _Node:
    """A state met during play, with the State API's answers kept (a lazily grown tree).

    Hands revisit the same states over and over (Kuhn has 58, Leduc 9,457); remembering
    who acts, the infoset key, the legal actions, chance's outcomes, the returns and the
    children already built saves asking the State API again. Past
    :data:`NODE_CACHE_LIMIT` states (large games), new states are not remembered.
    """

    __slots__ = ("children", "key", "legal", "outcomes", "player", "returns", "state")

    def __init__(self, state: State) -> None:
        self.state = state
        self.player = state.player
        self.children: dict[Action, _Node] = {}
        self.key = ""
        self.legal: tuple[Action, ...] = ()
        self.outcomes: tuple[tuple[Action, float], ...] = ()
        self.returns: tuple[float, ...] = ()
        if state.is_terminal:
            self.returns = tuple(state.returns())
        elif state.is_chance:
            self.outcomes = tuple(state.chance_outcomes())
        else:
            self.key = state.infoset_key(self.player)
            self.legal = tuple(state.legal_actions())


@register_solver
class QLearning(Solver):
    """Tabular epsilon-greedy Q-learning, every player learning in self-play.

    A :class:`~pokerlab.solvers.base.Solver`: ``run(iterations=...)`` plays that many
    hands (cumulative; split runs equal one run, seed for seed), measures the exploitability
    of :meth:`average_strategy` every ``check_every`` hands where the game compiles, and
    checkpoints resume exactly. It is not an equilibrium solver: in poker none of its
    strategies need converge to an equilibrium (``pokerlab study q-learning`` measures how
    far each stays).

    Args:
        game: any game with the State API (Kuhn, Leduc, Hold'em...).
        learning_rate: ``alpha`` in ``(0, 1]``, the step of every update.
        epsilon: the exploration probability in ``[0, 1]``.
        seed: an integer seed or a numpy Generator (None: fresh entropy).

    Raises:
        SolverError: a learning rate or epsilon out of range, or a bad seed.

    Example:
        >>> from pokerlab.games import kuhn
        >>> solver = QLearning(kuhn(), seed=0).run(iterations=2000, check_every=2000)
        >>> solver.iterations, solver.infosets_touched()
        (2000, 12)
    """

    algorithm: ClassVar[str] = "q-learning"
    sampling: ClassVar[bool] = True

    def __init__(
        self,
        game: Game,
        *,
        learning_rate: float = 0.1,
        epsilon: float = 0.1,
        seed: Seed = None,
    ) -> None:
        for name, value, low_open in (("learning_rate", learning_rate, True),
                                      ("epsilon", epsilon, False)):
            if isinstance(value, bool) or not isinstance(value, int | float) or not (
                (0.0 < value <= 1.0) if low_open else (0.0 <= value <= 1.0)
            ):
                interval = "(0, 1]" if low_open else "[0, 1]"
                raise SolverError(f"{name} must be a number in {interval}; got {value!r}")
        generator = make_generator(seed)
        super().__init__(game)
        self.learning_rate = float(learning_rate)
        self.epsilon = float(epsilon)
        self.seed = seed
        self._generator = generator
        self._rows: dict[str, int] = {}
        self._keys: list[str] = []
        self._legal: list[tuple[Action, ...]] = []  # per row, the legal actions in order
        self._q_rows: list[list[float]] = []  # per row, Q of each legal action
        self._count_rows: list[list[float]] = []  # per row, how often each was played
        self._width = game.max_actions
        self._can_measure: bool | None = None
        self.states_visited = 0
        """States of the game the hands have passed through so far (chance and terminal too)."""
        self._root: _Node | None = None
        self._cached = 0

    def hyperparameters(self) -> dict[str, Any]:
        """The hyper-parameters, JSON-ready (the integer seed; None for a Generator)."""
        return {
            "learning_rate": self.learning_rate,
            "epsilon": self.epsilon,
            "seed": seed_value(self.seed),
        }

    # -- the table --------------------------------------------------------------------------
    def _row(self, key: str, legal: tuple[Action, ...]) -> int:
        """The row of ``key``, created with Q = 0 on first sight."""
        row = self._rows.get(key)
        if row is None:
            row = len(self._keys)
            self._rows[key] = row
            self._keys.append(key)
            self._legal.append(tuple(int(a) for a in legal))
            self._q_rows.append([0.0] * len(legal))
            self._count_rows.append([0.0] * len(legal))
        return row

    def _arrays(self, rows: list[list[float]]) -> tuple[FloatArray, IntArray, IntArray]:
        """``[rows, max_actions]`` values, ``[rows, max_actions]`` actions, ``[rows]`` sizes."""
        n_rows = len(self._keys)
        values = np.zeros((n_rows, self._width))
        actions = np.zeros((n_rows, self._width), dtype=np.int64)
        sizes = np.zeros(n_rows, dtype=np.int64)
        for row in range(n_rows):
            n = len(self._legal[row])
            values[row, :n] = rows[row]
            actions[row, :n] = self._legal[row]
            sizes[row] = n
        return values, actions, sizes

    # -- one hand ---------------------------------------------------------------------------
    def _child(self, node: _Node, action: Action) -> _Node:
        child = node.children.get(action)
        if child is None:
            child = _Node(node.state.child(action))
            if self._cached < NODE_CACHE_LIMIT:
                node.children[action] = child
                self._cached += 1
        return child

    def _iterate(self) -> None:
        # Rows are Python lists while a hand is played (small rows: faster than numpy).
        alpha, epsilon = self.learning_rate, self.epsilon
        rng = self._generator
        q_rows, count_rows = self._q_rows, self._count_rows
        pending: dict[int, tuple[list[float], int]] = {}
        if self._root is None:
            self._root = _Node(self.game.initial_state())
        node = self._root
        visited = 1
        while node.player != TERMINAL:
            visited += 1
            player = node.player
            if player == CHANCE:
                outcomes = node.outcomes
                draw = rng.random()
                chosen = outcomes[-1][0]
                for action, probability in outcomes:
                    draw -= probability
                    if draw < 0.0:
                        chosen = action
                        break
                node = self._child(node, chosen)
                continue
            row = self._rows.get(node.key)
            if row is None:
                row = self._row(node.key, node.legal)
            values = q_rows[row]
            best = max(values)
            previous = pending.get(player)
            if previous is not None:
                old_values, old_slot = previous
                old_values[old_slot] += alpha * (best - old_values[old_slot])
            n = len(values)
            if rng.random() < epsilon:
                slot = int(rng.integers(n))
            else:
                top = [k for k in range(n) if values[k] >= best]
                slot = top[0] if len(top) == 1 else top[int(rng.integers(len(top)))]
            count_rows[row][slot] += 1.0
            pending[player] = (values, slot)
            node = self._child(node, self._legal[row][slot])
        self.states_visited += visited
        returns = node.returns
        for player, (values, slot) in pending.items():
            values[slot] += alpha * (returns[player] - values[slot])

    # -- strategies -------------------------------------------------------------------------
    def _table(self, weights: FloatArray, kind: str) -> Strategy | InfosetTable:
        """Rows from ``[rows, max_actions]`` weights (normalised per row).

        A :class:`Strategy` (uniform at infosets never met) where the game compiles, so
        every evaluator and ``pokerlab exploit`` take it; an InfosetTable otherwise.
        """
        _, actions, sizes = self._arrays(self._q_rows)
        offsets = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
        mask = np.arange(self._width)[None, :] < sizes[:, None]
        table = InfosetTable.from_arrays(
            self.game,
            self._keys,
            offsets,
            actions[mask],
            weights[mask],
            normalize=True,
            metadata=strategy_metadata(self, kind),
        )
        return tabulate(table, self.game) if self.can_measure else table

    def _greedy_rows(self) -> tuple[FloatArray, FloatArray]:
        """Rows with 1 on each maximum of Q (0 elsewhere), and the legal mask."""
        q, _, sizes = self._arrays(self._q_rows)
        legal = np.arange(self._width)[None, :] < sizes[:, None]
        masked = np.where(legal, q, -np.inf)
        top = legal & (masked >= masked.max(axis=1, keepdims=True))
        return top.astype(np.float64), legal.astype(np.float64)

    def greedy_strategy(self) -> Strategy | InfosetTable:
        """The argmax of ``Q`` at every infoset met (ties split evenly): the learned policy."""
        return self._table(self._greedy_rows()[0], "greedy")

    def current_strategy(self) -> Strategy | InfosetTable:
        """The epsilon-greedy policy the next hand will play (a copy)."""
        greedy, legal = self._greedy_rows()
        greedy /= np.maximum(greedy.sum(axis=1, keepdims=True), 1.0)
        sizes = np.maximum(legal.sum(axis=1, keepdims=True), 1.0)
        rows = legal * ((1.0 - self.epsilon) * greedy + self.epsilon / sizes)
        return self._table(rows, "current")

    def average_strategy(self) -> Strategy | InfosetTable:
        """The frequencies of the actions played at each infoset so far (uniform if never)."""
        return self._table(self._arrays(self._count_rows)[0], "average")

    def q_values(self) -> dict[str, dict[Action, float]]:
        """A copy of the table: ``{infoset key: {action id: Q}}``."""
        return {
            key: dict(zip(self._legal[row], self._q_rows[row], strict=True))
            for key, row in self._rows.items()
        }

    @property
    def can_measure(self) -> bool:
        """Whether the exploitability can be measured: the game compiles."""
        if self._can_measure is None:
            self._can_measure = compiled_or_none(self.game) is not None
        return self._can_measure

    def infosets_touched(self) -> int | None:
        """The infosets met so far."""
        return len(self._keys)

    def memory_bytes(self) -> int | None:
        """Bytes of the tables' numbers, as numpy arrays would hold them."""
        return 3 * 8 * sum(len(legal) for legal in self._legal)

    # -- checkpoints ------------------------------------------------------------------------
    def _state(self) -> dict[str, Any]:
        q, actions, sizes = self._arrays(self._q_rows)
        return {
            "rng_state": self._generator.bit_generator.state,
            "keys": json.dumps(self._keys),
            "q": q,
            "counts": self._arrays(self._count_rows)[0],
            "actions": actions,
            "n_actions": sizes,
            "states_visited": self.states_visited,
        }

    def _restore(self, state: dict[str, Any]) -> None:
        generator = generator_from_state(state.get("rng_state"))
        try:
            keys = json.loads(state["keys"])
        except (KeyError, TypeError, ValueError) as exc:
            raise SolverError(f"checkpoint state 'keys' must be a JSON list: {exc}") from None
        if not isinstance(keys, list) or not all(isinstance(k, str) for k in keys):
            raise SolverError("checkpoint state 'keys' must be a JSON list of infoset keys")
        arrays = {}
        for name, shape in (("q", (len(keys), self._width)), ("counts", (len(keys), self._width)),
                            ("actions", (len(keys), self._width)), ("n_actions", (len(keys),))):
            value = state.get(name)
            if not isinstance(value, np.ndarray) or value.shape != shape:
                raise SolverError(f"checkpoint state {name!r} must be an array of shape {shape}; "
                                  f"got {getattr(value, 'shape', None)}")
            arrays[name] = value
        sizes = [int(n) for n in arrays["n_actions"]]
        self._keys = list(keys)
        self._rows = {key: row for row, key in enumerate(keys)}
        self._legal = [tuple(int(a) for a in arrays["actions"][row, :n])
                       for row, n in enumerate(sizes)]
        self._q_rows = [[float(v) for v in arrays["q"][row, :n]] for row, n in enumerate(sizes)]
        self._count_rows = [[float(v) for v in arrays["counts"][row, :n]]
                            for row, n in enumerate(sizes)]
        self._generator = generator
        visited = state.get("states_visited", 0)
        if isinstance(visited, bool) or not isinstance(visited, int) or visited < 0:
            raise SolverError(f"checkpoint state 'states_visited' must be an integer >= 0; "
                              f"got {visited!r}")
        self.states_visited = visited

    def __repr__(self) -> str:
        return (f"<QLearning {self.game.spec}, {len(self._keys)} infosets, after "
                f"{self.iterations} hands>")


__all__ = ["QLearning"]
