"""External-sampling MCCFR with linear weighting over the betting tree's arrays (Leduc first).

One iteration samples one deal (numpy, in batches), gives every player their bucket at every
street and a showdown strength, then lets each player in turn traverse the betting tree in a
numba kernel: all of the traverser's actions are explored, one action of every other player
is sampled from its current strategy (regret matching). Regrets and strategy sums are dense
float64 arrays indexed [row, action], a row being (decision node, bucket). Updates of
iteration ``t`` are weighted by ``t`` (Linear CFR). Nothing in the kernel assumes two players.

Not yet here (see the helper's report): negative-regret pruning, prange over deals, Hold'em
deals and strengths, checkpoints.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numpy.typing import NDArray

from pokerlab.abstraction.lossless_cards import lossless_for
from pokerlab.blueprint.betting_tree import DECISION, FOLDED_OUT, build_tree, rules_from_leduc
from pokerlab.errors import SpecError
from pokerlab.games.base import Game
from pokerlab.strategy.strategy import Strategy
from pokerlab.tree import compile


@njit(cache=True)
def _utility(node, p, kind, contributions, active, strength):  # type: ignore[no-untyped-def]
    pot = 0.0
    n_players = contributions.shape[1]
    for q in range(n_players):
        pot += contributions[node, q]
    mine = contributions[node, p]
    if not active[node, p]:
        return -mine
    if kind[node] == FOLDED_OUT:
        return pot - mine
    best = -1
    for q in range(n_players):
        if active[node, q] and strength[q] > best:
            best = strength[q]
    if strength[p] < best:
        return -mine
    winners = 0
    for q in range(n_players):
        if active[node, q] and strength[q] == best:
            winners += 1
    return pot / winners - mine


@njit(cache=True)
def _regret_matching(regrets, row, n, out):  # type: ignore[no-untyped-def]
    total = 0.0
    for a in range(n):
        r = regrets[row, a]
        out[a] = r if r > 0.0 else 0.0
        total += out[a]
    for a in range(n):
        out[a] = out[a] / total if total > 0.0 else 1.0 / n


@njit(cache=True)
def _descend(node, p, weight, kind, player, street, n_actions, children, row_offset,  # type: ignore[no-untyped-def]
             decision_index, buckets, regrets, strategy_sum, sigma):
    """Follow sampled actions of the other players until ``p`` acts or the hand ends."""
    while kind[node] == DECISION and player[node] != p:
        q = player[node]
        n = n_actions[node]
        row = row_offset[decision_index[node]] + buckets[q, street[node]]
        _regret_matching(regrets, row, n, sigma)
        for a in range(n):
            strategy_sum[row, a] += weight * sigma[a]
        u = np.random.random()  # noqa: NPY002 (numba's per-thread generator, seeded)
        chosen = n - 1
        for a in range(n):
            u -= sigma[a]
            if u < 0.0:
                chosen = a
                break
        node = children[node, chosen]
    return node


@njit(cache=True)
def _traverse(p, weight, kind, player, street, n_actions, children, contributions, active,  # type: ignore[no-untyped-def]
              row_offset, decision_index, buckets, strength, regrets, strategy_sum,
              frame_node, frame_row, frame_next, frame_sigma, frame_values, scratch):
    """One external-sampling traversal for player ``p``, iterative (an explicit stack)."""
    node = _descend(0, p, weight, kind, player, street, n_actions, children, row_offset,
                    decision_index, buckets, regrets, strategy_sum, scratch)
    if kind[node] != DECISION:
        return
    top = 0
    frame_node[0] = node
    frame_row[0] = row_offset[decision_index[node]] + buckets[p, street[node]]
    frame_next[0] = 0
    _regret_matching(regrets, frame_row[0], n_actions[node], frame_sigma[0])
    while top >= 0:
        here = frame_node[top]
        n = n_actions[here]
        a = frame_next[top]
        if a == n:
            row = frame_row[top]
            value = 0.0
            for b in range(n):
                value += frame_sigma[top, b] * frame_values[top, b]
            for b in range(n):
                regrets[row, b] += weight * (frame_values[top, b] - value)
            top -= 1
            if top >= 0:
                frame_values[top, frame_next[top]] = value
                frame_next[top] += 1
            continue
        child = _descend(children[here, a], p, weight, kind, player, street, n_actions,
                         children, row_offset, decision_index, buckets, regrets,
                         strategy_sum, scratch)
        if kind[child] != DECISION:
            frame_values[top, a] = _utility(child, p, kind, contributions, active, strength)
            frame_next[top] = a + 1
            continue
        top += 1
        frame_node[top] = child
        frame_row[top] = row_offset[decision_index[child]] + buckets[p, street[child]]
        frame_next[top] = 0
        _regret_matching(regrets, frame_row[top], n_actions[child], frame_sigma[top])


@njit(cache=True)
def _run_batch(first, seed, depth, kind, player, street, n_actions, children, contributions,  # type: ignore[no-untyped-def]
               active, row_offset, decision_index, buckets, strength, regrets, strategy_sum):
    np.random.seed(seed)  # noqa: NPY002 (numba's generator: the only one a kernel can use)
    n_players = contributions.shape[1]
    width = children.shape[1]
    frame_node = np.zeros(depth, dtype=np.int64)
    frame_row = np.zeros(depth, dtype=np.int64)
    frame_next = np.zeros(depth, dtype=np.int64)
    frame_sigma = np.zeros((depth, width))
    frame_values = np.zeros((depth, width))
    scratch = np.zeros(width)
    for i in range(buckets.shape[0]):
        weight = float(first + i + 1)
        for p in range(n_players):
            _traverse(p, weight, kind, player, street, n_actions, children, contributions,
                      active, row_offset, decision_index, buckets[i], strength[i], regrets,
                      strategy_sum, frame_node, frame_row, frame_next, frame_sigma,
                      frame_values, scratch)


class LeducBlueprintTrainer:
    """ES-MCCFR with linear weighting on a Leduc game, lossless cards (exact check target).

    Args:
        game: a Leduc game (2 or 3 players).
        seed: the seed of every random draw: two trainers with the same seed and the same
            calls give the same arrays (single-threaded kernel).
    """

    def __init__(self, game: Game, *, seed: int = 0) -> None:
        self.game = game
        self.tree = build_tree(rules_from_leduc(game))
        self.cards = lossless_for(game)
        counts = np.array(self.cards.bucket_counts, dtype=np.int64)
        decisions = np.flatnonzero(self.tree.kind == DECISION)
        rows = counts[self.tree.street[decisions]]
        self.row_offset = np.concatenate(([0], np.cumsum(rows)[:-1])).astype(np.int64)
        shape = (int(rows.sum()), self.tree.max_actions)
        self.regrets = np.zeros(shape)
        self.strategy_sum = np.zeros(shape)
        depth = np.zeros(self.tree.n_nodes, dtype=np.int64)
        for i in range(1, self.tree.n_nodes):  # parents come before their children
            depth[i] = depth[self.tree.parent[i]] + 1
        self.depth = int(depth.max()) + 1
        self.iterations = 0
        self.rng = np.random.default_rng(seed)

    def _deals(self, count: int) -> tuple[NDArray[np.int32], NDArray[np.int64]]:
        game = self.game
        n = int(game.n_players)
        deals = np.argsort(self.rng.random((count, int(game.n_cards))), axis=1)[:, : n + 1]  # type: ignore[attr-defined]
        buckets = self.cards.buckets(deals[:, :n, None], deals[:, n:])
        ranks = deals // 2
        paired = ranks[:, :n] == ranks[:, n:]
        if not bool(game.pair_counts):  # type: ignore[attr-defined]
            paired[:] = False
        strength = np.where(paired, 1000 + ranks[:, :n], ranks[:, :n]).astype(np.int64)
        return buckets, strength

    def run(self, iterations: int, *, batch: int = 4096) -> None:
        """Run ``iterations`` more iterations (one deal each, every player traversing)."""
        if iterations < 0:
            raise SpecError(f"iterations must be >= 0; got {iterations}")
        t = self.tree
        done = 0
        while done < iterations:
            count = min(batch, iterations - done)
            buckets, strength = self._deals(count)
            _run_batch(self.iterations, int(self.rng.integers(2**31)), self.depth, t.kind,
                       t.player,
                       t.street, t.n_actions, t.children, t.contributions.astype(np.float64),
                       t.active, self.row_offset, t.decision_index, buckets, strength,
                       self.regrets, self.strategy_sum)
            self.iterations += count
            done += count

    def average_strategy(self) -> Strategy:
        """The average strategy as a Strategy on the game's compiled tree (exact evaluators)."""
        compiled = compile(self.game)
        probs = np.zeros((compiled.n_infosets, compiled.max_actions))
        for i in range(compiled.n_infosets):
            state = compiled.history_state(int(compiled.infoset_history[i]))
            p = state.player
            node = 0
            for action in (*state.sequences[0], *state.sequences[1]):  # type: ignore[attr-defined]
                kinds = self.tree.action_kind[node, : self.tree.n_actions[node]].tolist()
                node = int(self.tree.children[node, kinds.index(action)])
            board = max(state.board, 0)  # type: ignore[attr-defined]
            hole = np.array([[[state.private[p]]]])  # type: ignore[attr-defined]
            seen = self.cards.buckets(hole, np.array([[board]]))
            bucket = int(seen[0, 0, self.tree.street[node]])
            row = int(self.row_offset[self.tree.decision_index[node]]) + bucket
            n = int(self.tree.n_actions[node])
            total = self.strategy_sum[row, :n].sum()
            probs[i, :n] = self.strategy_sum[row, :n] / total if total > 0 else 1.0 / n
        return Strategy.from_array(self.game, probs, metadata={
            "algorithm": "es-mccfr-linear (blueprint)", "iterations": self.iterations})


__all__ = ["LeducBlueprintTrainer"]
