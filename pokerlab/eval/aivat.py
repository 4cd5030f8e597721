"""AIVAT: the action term as well as the chance term, for every agent whose policy is known.

AIVAT (Burch, Schmid, Moravčík, Morrill and Bowling, "AIVAT: a new variance reduction
technique for agent evaluation in imperfect information games", AAAI 2018) corrects each
hand's result by terms whose expectation is exactly zero:

- at a chance node ``h`` with outcome ``a``: ``V(h a) - sum_b P(b) V(h b)``;
- at a decision of a seat whose policy ``sigma`` is known (our own bot, or any agent that
  exposes its policy): ``V(h a) - sum_b sigma(b | I) V(h b)``;
- at a decision of an unknown agent: nothing (its choice is the signal being measured).

``V`` is any value function; here the exact values of every history under a profile that
plays the known policies where they are known and a reference elsewhere, computed on the
compiled tree. Each term has mean zero whatever ``V`` is, as long as the known policies are
the ones actually played, so ``u - sum(terms)`` is an unbiased estimate of ``u``'s mean;
the better ``V``, the smaller the variance (with every policy known it is exactly the
expected value, variance 0). The chance-only control variate of :func:`play_match` is the
first bullet alone.

:func:`aivat_corrections` gives the summed terms at every history for one seating;
:func:`aivat_estimates` applies them to a played match (any :class:`MatchResult` on a game
that compiles). :func:`match_aivat` picks the method for any match: exact values on games
that compile, the all-in-equity value function of :mod:`pokerlab.eval.aivat_holdem` on
Texas Hold'em with 2 to 6 seats. This module adds to the evaluation layer; it changes nothing in it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from pokerlab._types import CHANCE, FloatArray
from pokerlab.errors import GameTooLargeError, PokerlabError
from pokerlab.eval.aivat_holdem import (
    check_holdem_aivat,
    holdem_aivat_corrections,
    holdem_aivat_estimates,
)
from pokerlab.eval.match_result import MatchResult
from pokerlab.eval.matches import agent_policy
from pokerlab.eval.sampling import _history_values, _sampler, _terminal_of, deal_units
from pokerlab.eval.statistics import ControlVariateEstimate, control_variate_estimate
from pokerlab.games.base import Game
from pokerlab.play.dealer import agent_name
from pokerlab.play.records import HandRecord
from pokerlab.strategy import Policy, Strategy, tabulate
from pokerlab.tree import CompiledTree, compile


def _profile(
    tree: CompiledTree, reference: FloatArray, known: Sequence[FloatArray | None]
) -> FloatArray:
    """The reference profile with each known seat's rows replaced by that seat's policy."""
    probs = reference.copy()
    for seat, policy in enumerate(known):
        if policy is not None:
            rows = tree.infosets_of(seat)
            probs[rows] = policy[rows]
    return probs


def aivat_corrections(
    tree: CompiledTree,
    reference: FloatArray,
    known: Sequence[FloatArray | None],
    *,
    chance: bool = True,
    actions: bool = True,
) -> FloatArray:
    """``[H, n_players]``: the sum of AIVAT's terms on the path to every history.

    Args:
        tree: the compiled game.
        reference: ``[n_infosets, max_actions]`` a profile for the seats whose policy is
            unknown (it shapes ``V`` only; any profile keeps the estimate unbiased).
        known: per seat, the policy array that seat plays, or None if unknown.
        chance: include the chance terms.
        actions: include the known seats' action terms.

    Raises:
        PokerlabError: if ``known`` does not have one entry per seat.
    """
    if len(known) != tree.n_players:
        raise PokerlabError(f"known needs one entry per seat ({tree.n_players}); got {len(known)}")
    probs = _profile(tree, reference, known)
    values = _history_values(tree, probs)
    # sum_b p(b) V(h b) at every node: the expectation of the next value under the actor.
    known_player = np.zeros(tree.n_players + 1, dtype=bool)
    for seat, policy in enumerate(known):
        known_player[seat] = policy is not None
    edge = tree.chance_prob.copy()
    rows = np.flatnonzero(tree.player[tree.parent[1:]] >= 0) + 1
    edge[rows] = probs[tree.infoset[tree.parent[rows]], tree.slot[rows]]
    expected_next = np.zeros_like(values)
    np.add.at(expected_next, tree.parent[1:], values[1:] * edge[1:, None])
    corrections = np.zeros_like(values)
    offsets = tree.level_offsets
    for d in range(1, len(offsets) - 1):
        lo, hi = int(offsets[d]), int(offsets[d + 1])
        parent = tree.parent[lo:hi]
        actor = tree.player[parent]
        use = np.zeros(hi - lo, dtype=bool)
        if chance:
            use |= actor == CHANCE
        if actions:
            use |= (actor >= 0) & known_player[np.maximum(actor, 0)]
        step = values[lo:hi] - expected_next[parent]
        step[~use] = 0.0
        corrections[lo:hi] = corrections[parent] + step
    return corrections


def _policy_of(game: Game, item: Policy | object | None) -> Strategy | None:
    """A policy, or an agent exposing one, as a Strategy on ``game``; None stays None."""
    if item is None:
        return None
    if isinstance(item, Policy):
        return tabulate(item, game)
    strategy = agent_policy(item, game)
    if strategy is None:
        raise PokerlabError(
            f"{agent_name(item)} exposes no policy on {game.spec}; give its policy or None"
        )
    return strategy


def _known_reach(tree: CompiledTree, known: Sequence[FloatArray | None]) -> FloatArray:
    """``[H]`` the product of the known seats' probabilities of their actions on each path."""
    edge = np.ones(tree.n_histories)
    rows = np.flatnonzero(tree.player[tree.parent[1:]] >= 0) + 1
    actor = tree.player[tree.parent[rows]]
    for seat, table in enumerate(known):
        if table is not None:
            mine = rows[actor == seat]
            edge[mine] = table[tree.infoset[tree.parent[mine]], tree.slot[mine]]
    reach = np.ones(tree.n_histories)
    offsets = tree.level_offsets
    for d in range(1, len(offsets) - 1):
        lo, hi = int(offsets[d]), int(offsets[d + 1])
        reach[lo:hi] = reach[tree.parent[lo:hi]] * edge[lo:hi]
    return reach


def _exact_corrections(
    game: Game,
    hands: Sequence[HandRecord],
    policies: Sequence[Policy | object | None],
    *,
    reference: Policy | None,
    chance: bool,
    actions: bool,
) -> FloatArray:
    """``[hands, n_agents]`` the summed terms of each hand, with exact values on the tree."""
    tree = compile(game)
    resolved = [_policy_of(game, p) for p in policies]
    tables = [None if p is None else p.probs for p in resolved]
    base = reference if reference is not None else next((p for p in resolved if p), None)
    reference_probs = tabulate(base if base is not None else Strategy.uniform(game), game).probs
    sampler = _sampler(game)
    by_seating: dict[tuple[int, ...], FloatArray] = {}
    possible: dict[tuple[int, ...], FloatArray] = {}
    corrections = np.zeros((len(hands), len(policies)))
    for i, record in enumerate(hands):
        seating = tuple(record.seats)
        if seating not in by_seating:
            seat_tables = [tables[agent] for agent in seating]
            by_seating[seating] = aivat_corrections(
                tree, reference_probs, seat_tables, chance=chance, actions=actions
            )
            possible[seating] = _known_reach(tree, seat_tables)
        terminal = _terminal_of(sampler, record.history)
        if actions and possible[seating][terminal] <= 0.0:
            raise PokerlabError(
                f"hand {record.hand}: a recorded action has probability 0 under the policy "
                "claimed for its seat; give only the policy the agent truly played"
            )
        for seat, agent in enumerate(seating):
            corrections[i, agent] = by_seating[seating][terminal, seat]
    return corrections


def hand_corrections(
    game: Game,
    hands: Sequence[HandRecord],
    policies: Sequence[Policy | object | None],
    *,
    reference: Policy | None = None,
    chance: bool = True,
    actions: bool = True,
    progress: Callable[[int], None] | None = None,
) -> FloatArray:
    """``[hands, n_agents]`` AIVAT's summed terms for each stored hand, by agent index.

    Subtract them from each agent's chips to get its AIVAT-corrected result per hand. On a
    game that compiles, ``V`` is exact (unknown seats play ``reference``, default the first
    known policy, else uniform); on Texas Hold'em (2 to 6 seats) the all-in equity value.

    Args:
        game: the game the hands were played on.
        hands: the hands (``record.seats`` gives the agent in each seat).
        policies: per agent index: its policy, an agent exposing it, or None if unknown.
        reference: the unknown seats' profile in ``V`` (compiled games).
        chance: include chance terms.
        actions: include the known agents' action terms.
        progress: called with the hands done (every 100 hands on Hold'em, once at the end
            on compiled games, which take milliseconds).

    Raises:
        PokerlabError: a game AIVAT cannot value (:func:`aivat_method` is None), or a
            policy that is not what was played (where that shows).
    """
    method = aivat_method(game)
    if method == "exact":
        out = _exact_corrections(game, hands, policies, reference=reference, chance=chance,
                                 actions=actions)
        if progress is not None:
            progress(len(hands))
        return out
    if method == "equity":
        return holdem_aivat_corrections(game, hands, policies, chance=chance, actions=actions,
                                        progress=progress)
    raise PokerlabError(
        f"no AIVAT on {game.spec}: it needs a game that compiles or Texas Hold'em with 2 "
        "to 6 seats"
    )


def aivat_estimates(
    game: Game,
    result: MatchResult,
    policies: Sequence[Policy | object | None],
    *,
    reference: Policy | None = None,
    chance: bool = True,
    actions: bool = True,
    coefficient: float | None = 1.0,
) -> tuple[ControlVariateEstimate, ...]:
    """Each agent's AIVAT estimate of chips per hand in a played match.

    Args:
        game: the match's game (it must compile).
        result: the match (:func:`pokerlab.eval.play_match`).
        policies: per agent (match order), the policy it played, or the agent itself when
            it exposes its policy (``agent.policy``), or None where unknown. A wrong policy
            here biases the estimate: give only what is truly known.
        reference: the profile of the unknown seats in ``V`` (default: the first known policy).
        chance: include chance terms.
        actions: include the known agents' action terms.
        coefficient: 1.0 (plain AIVAT, exactly unbiased) or None to estimate the best one.

    Returns:
        One :class:`ControlVariateEstimate` per agent; on duplicate matches the units are
        the deals, as for the match's own estimates.

    Raises:
        PokerlabError: on a policy count that is not one per agent, no known policy and no
            reference, or a match of another game.
    """
    if len(policies) != len(result.agent_names):
        raise PokerlabError(
            f"policies needs one entry per agent ({len(result.agent_names)}); got {len(policies)}"
        )
    if result.game != str(game.spec):
        raise PokerlabError(f"the match was played on {result.game}, not {game.spec}")
    if reference is None and all(p is None for p in policies):
        raise PokerlabError("AIVAT needs a known policy or a reference profile for V")
    corrections = _exact_corrections(game, result.hands, policies, reference=reference,
                                     chance=chance, actions=actions)
    deals = np.array([r.deal for r in result.hands], dtype=np.int64)
    values = np.asarray(result.agent_returns, dtype=np.float64)
    if result.duplicate:
        values, corrections = deal_units(values, deals), deal_units(corrections, deals)
    return tuple(
        control_variate_estimate(values[:, k], corrections[:, k], coefficient=coefficient)
        for k in range(len(policies))
    )


def exact_aivat_mean(tree: CompiledTree, played: FloatArray, corrections: FloatArray) -> FloatArray:
    """``[n_players]`` exact expectation of ``u - corrections`` when ``played`` is played.

    Sums over the terminals weighted by their reach under ``played`` (the true profile).
    Equal to the exact expected value exactly when the corrections have mean zero: the
    unbiasedness check of AIVAT on games small enough to enumerate.
    """
    edge = tree.chance_prob.copy()
    rows = np.flatnonzero(tree.player[tree.parent[1:]] >= 0) + 1
    edge[rows] = played[tree.infoset[tree.parent[rows]], tree.slot[rows]]
    reach = np.ones(tree.n_histories)
    offsets = tree.level_offsets
    for d in range(1, len(offsets) - 1):
        lo, hi = int(offsets[d]), int(offsets[d + 1])
        reach[lo:hi] = reach[tree.parent[lo:hi]] * edge[lo:hi]
    terminals = tree.terminal_ids
    adjusted = tree.terminal_payoffs - corrections[terminals]
    total: FloatArray = (reach[terminals, None] * adjusted).sum(axis=0)
    return total


LEARNING_AGENTS = frozenset({"hard-seed", "exploitative"})
"""Built-in agents whose policy changes during a match: the policy they expose at the end is
not the one they played, so AIVAT treats them as unknown."""


def known_policy(game: Game, agent: object) -> object | None:
    """``agent`` when AIVAT may use its exposed policy on ``game``, else None.

    An agent qualifies when it exposes a :class:`~pokerlab.strategy.Policy` for ``game``
    (compiled games: one that tabulates) and does not learn during a match (its ``name`` is
    not in :data:`LEARNING_AGENTS` and it has no true ``learns`` attribute).
    """
    policy = getattr(agent, "policy", None)
    if not isinstance(policy, Policy) or policy.game != game:
        return None
    if getattr(agent, "learns", False) or getattr(agent, "name", None) in LEARNING_AGENTS:
        return None
    if aivat_method(game) == "exact" and agent_policy(agent, game) is None:
        return None
    return agent


def aivat_method(game: Game) -> str | None:
    """How AIVAT values the histories of ``game``, or None where it cannot.

    ``"exact"``: the game compiles (exact history values); ``"equity"``: Texas
    Hold'em with 2 to 6 seats (all-in equity times the pot); None: neither.
    """
    try:
        compile(game)
        return "exact"
    except GameTooLargeError:
        pass
    try:
        check_holdem_aivat(game)
    except PokerlabError:
        return None
    return "equity"


def match_aivat(
    game: Game,
    result: MatchResult,
    agents: Sequence[object | None],
    *,
    reference: Policy | None = None,
    progress: Callable[[int], None] | None = None,
) -> tuple[ControlVariateEstimate, ...] | None:
    """AIVAT estimates of a played match, using every policy the agents truly expose.

    Chance terms always; action terms for the agents :func:`known_policy` accepts. On a game
    that compiles, ``V`` is exact under the known policies (the unknown seats play
    ``reference``, default the first known policy, else uniform); on Texas Hold'em (2 to 6 seats)
    ``V`` is all-in equity times the pot (:mod:`pokerlab.eval.aivat_holdem`).

    Args:
        game: the match's game.
        result: the match.
        agents: the match's agents in order (None for one whose policy must not be used).
        reference: the unknown seats' profile in ``V`` on compiled games.
        progress: called with the hands done (Hold'em: every 100 hands and at the end).

    Returns:
        One estimate per agent, or None when AIVAT cannot value this game's histories.
    """
    method = aivat_method(game)
    known = [None if a is None else known_policy(game, a) for a in agents]
    if method == "exact":
        if reference is None and all(k is None for k in known):
            reference = Strategy.uniform(game)
        estimates = aivat_estimates(game, result, known, reference=reference)
        if progress is not None:
            progress(len(result.hands))
        return estimates
    if method == "equity":
        return holdem_aivat_estimates(game, result, known, progress=progress)
    return None


__all__ = [
    "LEARNING_AGENTS",
    "aivat_corrections",
    "aivat_estimates",
    "aivat_method",
    "exact_aivat_mean",
    "hand_corrections",
    "known_policy",
    "match_aivat",
]
