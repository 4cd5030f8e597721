"""Monte Carlo CFR walks over a game's states, for games too big to compile.

The same three samplers as the compiled kernels (:mod:`pokerlab.solvers._mccfr_kernels`),
written over the State API instead of the compiled tree's arrays: ``state.player``,
``state.infoset_key(player)``, ``state.legal_actions()`` (only the first time an infoset
is met), ``state.chance_outcomes()``, ``state._apply(action)`` (the walk applies only
legal actions, so the check of ``child`` is skipped) and ``state.returns()``. Regrets and
strategy sums live in an :class:`~pokerlab.solvers.infoset_store.InfosetStore`, one row
per infoset met.

They consume the random stream exactly as the kernels do: each iteration reseeds a
SplitMix64 generator (:mod:`pokerlab.cards.splitmix`) with its seed, and the walks draw
from it in the same order (children in legal-action order, chance outcomes in
``chance_outcomes()`` order, one draw per sampled node), with the same regret matching
and the same floating-point operations in the same order. On a game that compiles, the two
paths therefore give the same regrets, seed for seed (the tests compare them on Kuhn and
Leduc).

Vocabulary as in the kernels: ``sigma`` the current strategy (regret matching), ``q``
outcome sampling's sampling distribution, ``off``/``n`` a row's position and length.
"""

from __future__ import annotations

from collections.abc import Sequence

from pokerlab._types import CHANCE, TERMINAL
from pokerlab.games.base import Game, State
from pokerlab.solvers.infoset_store import InfosetStore

_MASK = (1 << 64) - 1


class SplitMix64:
    """The kernels' random stream held in a Python int: the same floats from the same seed."""

    __slots__ = ("_gamma", "_unit", "state")

    def __init__(self, seed: int = 0) -> None:
        # imported here: the compiled SplitMix64 loads numba's cache (most of a second)
        from pokerlab.cards.splitmix import GAMMA, unit

        self.state = int(seed) & _MASK
        self._gamma = int(GAMMA)
        self._unit = unit

    def uniform(self) -> float:
        """Advance the stream; a float in [0, 1) with 53 random bits."""
        self.state = (self.state + self._gamma) & _MASK
        return self._unit(self.state)


def _sample(dist: Sequence[float], u: float) -> int:
    """The index whose cumulative probability passes ``u`` (the kernels' ``_sample``)."""
    total = 0.0
    last = 0
    for k, p in enumerate(dist):
        if p > 0.0:
            last = k
            total += p
            if u < total:
                return k
    return last


def _sample_chance(state: State, rng: SplitMix64) -> tuple[State, float]:
    """Sample a chance outcome as :func:`_sample` does; return the child and its probability."""
    outcomes = state.chance_outcomes()
    u = rng.uniform()
    total = 0.0
    pick = outcomes[0]
    for outcome in outcomes:
        p = outcome[1]
        if p > 0.0:
            pick = outcome
            total += p
            if u < total:
                break
    return state._apply(pick[0]), pick[1]


def _row(store: InfosetStore, state: State, who: int) -> tuple[int, int]:
    """The store row of the infoset ``who`` is in at ``state``: ``(offset, n_actions)``."""
    key = state.infoset_key(who)
    row = store.index.get(key)
    if row is None:
        row = store.add(key, state.legal_actions())
    off = store.offsets[row]
    return off, store.offsets[row + 1] - off


def _regret_matching(regrets: Sequence[float], off: int, n: int) -> list[float]:
    """Positive regrets normalised; uniform when none is positive (the kernels' arithmetic).

    :func:`pokerlab.strategy.regrets.regret_matching_strategy` on Python lists: this walk
    never builds arrays (a NumPy call per node would cost more than the node's work).
    """
    total = 0.0
    for a in range(off, off + n):
        r = regrets[a]
        if r > 0.0:
            total += r
    if total > 0.0:
        return [r / total if r > 0.0 else 0.0 for r in regrets[off : off + n]]
    return [1.0 / n] * n


# -- external sampling --------------------------------------------------------------------
def external_sampling(game: Game, store: InfosetStore, seeds: Sequence[int]) -> None:
    """Run ``len(seeds)`` iterations of external sampling (one walk per player each).

    The updating player walks all its actions; chance and the others are sampled (the
    others from their current strategies); the player after the updating one adds its
    current strategy, unweighted, to its strategy sums where sampled.
    """
    regrets = store.regrets
    strategy_sum = store.strategy_sum
    actions = store.actions
    n_players = game.n_players
    root = game.initial_state()
    rng = SplitMix64()

    def walk(state: State, player: int, averaging: int) -> float:
        who = state.player
        while who != player:
            if who == TERMINAL:
                return state.returns()[player]
            if who == CHANCE:
                state = _sample_chance(state, rng)[0]
            else:
                off, n = _row(store, state, who)
                sigma = _regret_matching(regrets, off, n)
                k = _sample(sigma, rng.uniform())
                if who == averaging:
                    for a in range(n):
                        strategy_sum[off + a] += sigma[a]
                state = state._apply(actions[off + k])
            who = state.player
        off, n = _row(store, state, who)
        sigma = _regret_matching(regrets, off, n)
        values = [walk(state._apply(actions[off + a]), player, averaging) for a in range(n)]
        value = 0.0
        for a in range(n):
            value += sigma[a] * values[a]
        for a in range(n):
            regrets[off + a] += values[a] - value
        return value

    for seed in seeds:
        rng.state = int(seed)
        for player in range(n_players):
            walk(root, player, (player + 1) % n_players)


# -- chance sampling ----------------------------------------------------------------------
def chance_sampling(game: Game, store: InfosetStore, seeds: Sequence[int]) -> None:
    """Run ``len(seeds)`` iterations of chance sampling (one walk per player each).

    Chance is sampled; every action of every player is walked, except children that
    neither the updating player nor the others reach (nothing in them would change).
    """
    regrets = store.regrets
    strategy_sum = store.strategy_sum
    actions = store.actions
    n_players = game.n_players
    root = game.initial_state()
    rng = SplitMix64()

    def walk(state: State, player: int, my_reach: float, other_reach: float) -> float:
        who = state.player
        while who == CHANCE:
            state = _sample_chance(state, rng)[0]
            who = state.player
        if who == TERMINAL:
            return state.returns()[player]
        off, n = _row(store, state, who)
        sigma = _regret_matching(regrets, off, n)
        mine = who == player
        cfv = [0.0] * n
        value = 0.0
        for a in range(n):
            p = sigma[a]
            if mine:
                child_mine, child_other = my_reach * p, other_reach
            else:
                child_mine, child_other = my_reach, other_reach * p
            if child_mine == 0.0 and child_other == 0.0:
                continue
            ret = walk(state._apply(actions[off + a]), player, child_mine, child_other)
            cfv[a] = ret
            value += sigma[a] * ret
        if mine:
            for a in range(n):
                regrets[off + a] += other_reach * (cfv[a] - value)
                strategy_sum[off + a] += my_reach * sigma[a]
        return value

    for seed in seeds:
        rng.state = int(seed)
        for player in range(n_players):
            walk(root, player, 1.0, 1.0)


# -- outcome sampling ---------------------------------------------------------------------
def outcome_sampling(
    game: Game, store: InfosetStore, seeds: Sequence[int], epsilon: float
) -> None:
    """Run ``len(seeds)`` iterations of outcome sampling (one trajectory per player each).

    At the updating player's histories the action is sampled from ``epsilon * uniform +
    (1 - epsilon) * sigma``, elsewhere from the current strategies and chance; the
    updates are made from the leaf up, importance weighted by the sampling reach.
    """
    regrets = store.regrets
    strategy_sum = store.strategy_sum
    actions = store.actions
    n_players = game.n_players
    root = game.initial_state()
    rng = SplitMix64()

    for seed in seeds:
        rng.state = int(seed)
        for player in range(n_players):
            state = root
            my_reach = other_reach = sample_reach = 1.0
            path: list[tuple[int, int, int, bool, float, float, float, list[float],
                             list[float]]] = []
            while True:
                who = state.player
                if who == TERMINAL:
                    break
                if who == CHANCE:
                    state, p = _sample_chance(state, rng)
                    other_reach *= p
                    sample_reach *= p
                    continue
                off, n = _row(store, state, who)
                sigma = _regret_matching(regrets, off, n)
                mine = who == player
                q = [epsilon / n + (1.0 - epsilon) * s for s in sigma] if mine else sigma
                k = _sample(q, rng.uniform())
                path.append((off, n, k, mine, my_reach, other_reach, sample_reach, sigma, q))
                if mine:
                    my_reach *= sigma[k]
                else:
                    other_reach *= sigma[k]
                sample_reach *= q[k]
                state = state._apply(actions[off + k])
            value = state.returns()[player]
            for off, n, k, mine, own_reach, others_reach, sampled_reach, sigma, q in reversed(
                path
            ):
                sampled_value = value / q[k]  # the unsampled actions' estimates are 0
                value = sigma[k] * sampled_value
                if mine:
                    weight = others_reach / sampled_reach
                    own = own_reach / sampled_reach
                    for a in range(n):
                        action_value = sampled_value if a == k else 0.0
                        regrets[off + a] += weight * (action_value - value)
                        strategy_sum[off + a] += own * sigma[a]


__all__ = ["SplitMix64", "chance_sampling", "external_sampling", "outcome_sampling"]
