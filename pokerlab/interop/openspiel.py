"""pokerlab strategies as OpenSpiel policies and back: Kuhn and Leduc, any number of players.

pokerlab's Kuhn and Leduc are OpenSpiel's ``kuhn_poker`` and ``leduc_poker`` with their
default parameters (``kuhn(players=n)``, ``leduc(players=n)``): the same action ids, the
same chance outcomes (card ids), the same returns (tests/differential walks both trees in
lockstep). Variants OpenSpiel does not have (more cards, stacks, raise caps) are refused.

The correspondence. An OpenSpiel information state names the player's card by its id; a
pokerlab infoset key names its rank (Leduc suits never matter), so in Leduc one pokerlab
infoset is several OpenSpiel information states (the suits of the private and the board
card), in Kuhn exactly one. :func:`infostate_map` lists OpenSpiel's information states
without walking OpenSpiel's tree: for each pokerlab infoset and each choice of suits it
builds one OpenSpiel history (the player's cards and the betting as in the infoset, the
other players' cards the smallest unused ones), which is the first history of that
information state in OpenSpiel's order (histories sorted as strings). Handing those
states to ``TabularPolicy`` therefore gives the rows OpenSpiel itself would build
(``TabularPolicy(game)``), in the same order, without its walk of every history (21 s for
three-player Leduc).

- :func:`to_tabular_policy`: a pokerlab :class:`~pokerlab.strategy.Strategy` as an
  OpenSpiel ``TabularPolicy`` (each information state gets its infoset's row);
- :func:`from_openspiel_policy`: an OpenSpiel policy (a ``TabularPolicy``, or any policy
  with ``action_probabilities(state)``) as a pokerlab strategy. Where the suits of one
  pokerlab infoset get different rows, the infoset's row is their average weighted by the
  player's own probability of reaching each (the realization weights): the suit-blind
  strategy that earns what the policy earns against every suit-blind opponent. Where the
  rows agree (any policy pokerlab made, and OpenSpiel's full-width CFR), that is the row.

OpenSpiel is the optional extra ``pokerlab[openspiel]``; importing this module without it
raises :class:`~pokerlab.errors.MissingExtraError` naming it.

Example:
    >>> from pokerlab.games import kuhn
    >>> from pokerlab.strategy import Strategy
    >>> from open_spiel.python.algorithms.exploitability import exploitability
    >>> policy = to_tabular_policy(Strategy.uniform(kuhn()))
    >>> round(float(exploitability(openspiel_game(kuhn()), policy)), 6)  # 11/24
    0.458333
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from pokerlab._cache import SpecCache
from pokerlab.errors import MissingExtraError, SpecError, StrategyError
from pokerlab.games import Game, KuhnGame, KuhnState, LeducGame, LeducState
from pokerlab.games.leduc import SUITS
from pokerlab.strategy import Strategy
from pokerlab.tree import compile

EXTRA = "pokerlab[openspiel]"
"""The optional extra that installs OpenSpiel."""

try:
    import pyspiel
    from open_spiel.python.policy import TabularPolicy
except ImportError:
    raise MissingExtraError(
        "pokerlab.interop.openspiel needs OpenSpiel, which is not installed; install the "
        f"extra: pip install '{EXTRA}'"
    ) from None

_MAPS: SpecCache[InfostateMap] = SpecCache("interop.openspiel", maxsize=8)
"""Information-state maps by spec (building one costs a compile and a walk of infosets)."""


def openspiel_game(game: Game) -> pyspiel.Game:
    """The OpenSpiel game with ``game``'s rules: ``kuhn_poker`` or ``leduc_poker``.

    Raises:
        SpecError: a game or variant OpenSpiel does not have (the message says which
            pokerlab games it has).
    """
    n = game.n_players
    if isinstance(game, KuhnGame) and game.cards == n + 1:
        return pyspiel.load_game(f"kuhn_poker(players={n})")
    if isinstance(game, LeducGame) and game.spec == _default_leduc(game):
        return pyspiel.load_game(f"leduc_poker(players={n})")
    raise SpecError(
        f"OpenSpiel has no game with the rules of {game.spec}; it has kuhn(players=n) "
        "(kuhn_poker) and leduc(players=n) (leduc_poker) with their default parameters"
    )


def _default_leduc(game: LeducGame) -> object:
    from pokerlab.games import load

    return load("leduc", players=game.n_players).spec


@dataclass(frozen=True)
class InfostateMap:
    """OpenSpiel's information states of a game, each with its pokerlab infoset.

    Attributes:
        game: the pokerlab game.
        os_game: the OpenSpiel game.
        infostates: OpenSpiel's information-state strings, in ``TabularPolicy`` row order.
        infoset_ids: ``[K]`` the pokerlab infoset id of each.
        states: a pyspiel state of each (the first history of it in OpenSpiel's order).
        own_moves: for each, the player's own earlier decisions on the way there, as
            ``(index into infostates, action)`` pairs: what its reach probability is made of.
    """

    game: Game
    os_game: pyspiel.Game
    infostates: tuple[str, ...]
    infoset_ids: NDArray[np.int64]
    states: tuple[pyspiel.State, ...]
    own_moves: tuple[tuple[tuple[int, int], ...], ...]

    def tabular_policy(self) -> TabularPolicy:
        """A uniform ``TabularPolicy`` with exactly these rows (built from ``states``)."""
        by_history = {state.history_str(): state for state in self.states}
        policy = TabularPolicy(self.os_game, states=by_history)
        if tuple(policy.state_lookup) != self.infostates:  # pragma: no cover - an invariant
            raise AssertionError("TabularPolicy ordered the information states differently")
        return policy


def infostate_map(game: Game) -> InfostateMap:
    """The map of ``game``'s OpenSpiel information states (see the module; cached by spec).

    Raises:
        SpecError: a game OpenSpiel does not have.
        GameTooLargeError: a game too large to compile.
    """
    cached = _MAPS.get(game.spec)
    if cached is None:
        cached = _build_map(game)
        _MAPS.put(game.spec, cached)
    return cached


def _build_map(game: Game) -> InfostateMap:
    os_game = openspiel_game(game)
    tree = compile(game)
    found: list[tuple[str, int, str, int, pyspiel.State, list[tuple[str, int]]]] = []
    for infoset in range(tree.n_infosets):
        ours = tree.history_state(int(tree.infoset_history[infoset]))
        player = ours.player
        for actions, chance_at in _histories(game, ours, player):
            state = os_game.new_initial_state()
            moves: list[tuple[str, int]] = []
            for position, action in enumerate(actions):
                if position not in chance_at and state.current_player() == player:
                    moves.append((state.information_state_string(player), action))
                state.apply_action(action)
            assert state.current_player() == player
            found.append((state.history_str(), player, state.information_state_string(player),
                          infoset, state, moves))
    # TabularPolicy's order: by player, then by the first history of each information state.
    found.sort(key=lambda item: (item[1], item[0]))
    index: dict[str, int] = {}
    rows: list[tuple[str, int, pyspiel.State, list[tuple[str, int]]]] = []
    for _, _, key, infoset, state, moves in found:
        if key not in index:
            index[key] = len(rows)
            rows.append((key, infoset, state, moves))
    return InfostateMap(
        game=game,
        os_game=os_game,
        infostates=tuple(key for key, _, _, _ in rows),
        infoset_ids=np.array([i for _, i, _, _ in rows], dtype=np.int64),
        states=tuple(state for _, _, state, _ in rows),
        own_moves=tuple(tuple((index[k], a) for k, a in moves) for _, _, _, moves in rows),
    )


def _histories(
    game: Game, ours: Any, player: int
) -> list[tuple[list[int], set[int]]]:
    """The first OpenSpiel history of each information state of ``ours``'s infoset.

    Returns ``(actions, positions of the chance actions)`` per choice of suits.
    """
    n = game.n_players
    if isinstance(game, KuhnGame):
        assert isinstance(ours, KuhnState)
        deal = _deal(game.cards, n, player, ours.cards[player], ())
        return [(deal + list(ours.bets), set(range(n)))]
    assert isinstance(ours, LeducState)
    assert isinstance(game, LeducGame)
    own_rank = ours.private[player] // SUITS
    board_rank = None if ours.board < 0 else ours.board // SUITS
    first, second = ours.sequences
    out = []
    for own in range(own_rank * SUITS, own_rank * SUITS + SUITS):
        boards = [-1] if board_rank is None else [
            b for b in range(board_rank * SUITS, board_rank * SUITS + SUITS) if b != own
        ]
        for board in boards:
            deal = _deal(game.n_cards, n, player, own, () if board < 0 else (board,))
            actions = deal + list(first)
            chance = set(range(n))
            if board >= 0:
                chance.add(len(actions))
                actions += [board, *second]
            out.append((actions, chance))
    return out


def _deal(cards: int, n: int, player: int, own: int, reserved: Sequence[int]) -> list[int]:
    """The private cards: ``own`` to ``player``, to each other seat the smallest unused card.

    Smallest as a string, in seat order: OpenSpiel sorts histories as strings.
    """
    free = sorted((c for c in range(cards) if c != own and c not in reserved), key=str)
    deal = []
    for seat in range(n):
        if seat == player:
            deal.append(own)
        else:
            deal.append(free.pop(0))
    return deal


def to_tabular_policy(strategy: Strategy) -> TabularPolicy:
    """``strategy`` as an OpenSpiel ``TabularPolicy`` of :func:`openspiel_game`.

    Every information state gets the row of its pokerlab infoset; illegal actions get 0.

    Raises:
        SpecError: a strategy of a game OpenSpiel does not have.
    """
    mapping = infostate_map(strategy.game)
    policy = mapping.tabular_policy()
    tree = strategy.tree
    array = np.zeros_like(policy.action_probability_array)
    ids = mapping.infoset_ids
    n_actions = tree.infoset_n_actions[ids]
    for slot in range(tree.max_actions):
        rows = np.flatnonzero(n_actions > slot)
        array[rows, tree.infoset_actions[ids[rows], slot]] = strategy.probs[ids[rows], slot]
    policy.action_probability_array[:] = array
    return policy


def from_openspiel_policy(policy: Any, game: Game) -> Strategy:
    """An OpenSpiel policy of :func:`openspiel_game` as a pokerlab strategy of ``game``.

    ``policy`` is a ``TabularPolicy`` of the game (its rows are read directly), or any
    OpenSpiel policy with ``action_probabilities(state)``. Rows of one pokerlab infoset are
    combined by the player's reach probabilities (see the module docstring).

    Raises:
        SpecError: a game OpenSpiel does not have.
        StrategyError: a policy of another game, one that misses an information state, or
            whose probabilities are negative, not finite, or all zero on the legal
            actions of one.
    """
    mapping = infostate_map(game)
    tree = compile(game)
    rows = _policy_rows(policy, mapping)
    ids = mapping.infoset_ids
    legal = tree.infoset_actions[ids]  # [K, A], -1 padded
    n_actions = tree.infoset_n_actions[ids]
    count = len(ids)
    probs = np.zeros((count, tree.max_actions))
    for slot in range(tree.max_actions):
        live = np.flatnonzero(n_actions > slot)
        probs[live, slot] = rows[live, legal[live, slot]]
    if not np.isfinite(probs).all() or (probs < 0).any():
        bad = int(np.flatnonzero(~np.isfinite(probs).all(axis=1) | (probs < 0).any(axis=1))[0])
        raise StrategyError(
            f"the policy's row at {mapping.infostates[bad]!r} is not a distribution: "
            f"{rows[bad].tolist()}"
        )
    sums = probs.sum(axis=1)
    if (sums <= 0).any():
        bad = int(np.flatnonzero(sums <= 0)[0])
        raise StrategyError(
            f"the policy gives no probability to any legal action at "
            f"{mapping.infostates[bad]!r}: {rows[bad].tolist()}"
        )
    probs /= sums[:, None]
    reach = np.ones(count)
    for k, moves in enumerate(mapping.own_moves):
        for row, action in moves:
            reach[k] *= rows[row, action] / sums[row]
    weights = np.zeros(tree.n_infosets)
    np.add.at(weights, ids, reach)
    combined = np.zeros((tree.n_infosets, tree.max_actions))
    np.add.at(combined, ids, probs * reach[:, None])
    unreached = weights <= 0
    if unreached.any():  # no suit is ever reached: the plain mean of the rows
        plain = np.zeros_like(combined)
        np.add.at(plain, ids, probs)
        combined[unreached] = plain[unreached]
    return Strategy.from_array(game, combined, normalize=True,
                               metadata={"algorithm": "openspiel"})


def _policy_rows(policy: Any, mapping: InfostateMap) -> NDArray[np.float64]:
    """``[K, num_distinct_actions]`` the policy's probabilities at each information state."""
    width = mapping.os_game.num_distinct_actions()
    its_game = getattr(policy, "game", None)
    if its_game is not None and str(its_game) != str(mapping.os_game):
        raise StrategyError(f"the policy is of {its_game}, not of {mapping.os_game}")
    lookup = getattr(policy, "state_lookup", None)
    array = getattr(policy, "action_probability_array", None)
    if isinstance(lookup, dict) and isinstance(array, np.ndarray):
        missing = [s for s in mapping.infostates if s not in lookup]
        if missing:
            raise StrategyError(
                f"the TabularPolicy has no row for {missing[0]!r} ({len(missing)} missing): "
                f"is it a policy of {mapping.os_game}?"
            )
        return np.asarray(array, dtype=np.float64)[[lookup[s] for s in mapping.infostates]]
    if not callable(getattr(policy, "action_probabilities", None)):
        raise StrategyError(
            f"expected an OpenSpiel TabularPolicy or a policy with action_probabilities(state); "
            f"got {type(policy).__name__}"
        )
    out = np.zeros((len(mapping.states), width))
    for k, state in enumerate(mapping.states):
        for action, probability in dict(policy.action_probabilities(state)).items():
            out[k, int(action)] = float(probability)
    return out


__all__ = [
    "EXTRA",
    "InfostateMap",
    "from_openspiel_policy",
    "infostate_map",
    "openspiel_game",
    "to_tabular_policy",
]
