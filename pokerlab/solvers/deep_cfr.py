"""Deep CFR (Brown, Lerer, Gross and Sandholm, ICML 2019): CFR with neural networks.

Needs PyTorch, the optional extra ``pokerlab[deep]``; torch is imported when a Deep CFR
object is built, never by ``import pokerlab``, and a missing torch is a one-line
:class:`MissingExtraError` naming the extra.

Each iteration ``t`` does, for each player ``p`` in turn (the paper's algorithm 1):

1. ``traversals`` external-sampling traversals for ``p``. The strategy at every infoset is
   regret matching on the advantages that player's network predicts (all actions walked
   at ``p``'s infosets, one sampled at the others' and at chance). At ``p``'s infosets the
   sampled regrets are added to ``p``'s advantage memory; at the others' the strategy
   played is added to the strategy memory; each row records ``t``.
2. ``p``'s advantage network is trained on its memory (by default continuing from its
   last weights, each step on the whole memory: ``full_batch``), each row weighted by
   its ``t`` (Linear CFR's weighting): it learns the average regret, whose regret
   matching is the next strategy.

The memories are reservoir samples (uniform over every row ever offered), so they hold a
fair sample of all iterations in bounded memory. The average strategy, the one that
converges, is a strategy network trained (again weighted by ``t``) on the strategy memory;
it is trained when the average strategy is asked for, and cached until the next iteration.
A second average, :meth:`DeepCFR.played_average_strategy`, is exact: each iteration's
strategy tabulated at every infoset and averaged (Single Deep CFR's idea).

The infoset a network sees is encoded from the player's :class:`Observation` (the State
API, nothing game-specific: see :class:`InfosetEncoder`), and the learned strategy is a
:class:`DeepPolicy`, a pokerlab policy: agents play it and :func:`tabulate` turns it into
a :class:`Strategy` whose exploitability is exact.

Speed without changing the algorithm: the game is compiled (Kuhn, Leduc) and, since the
networks are fixed during a player's traversals, their strategy at every infoset is
computed in one batch and the traversals (numba, :mod:`._deep_cfr_kernels`) look it up.
Memories store the infoset id, whose encoding is computed once. Games too big to compile
are refused with a clear error.

All randomness (network initialisation, traversals, reservoir, minibatches) comes from
the solver's numpy Generator, so a checkpoint (the networks, memories and Generator
state) resumes the same run.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from pokerlab._types import FloatArray
from pokerlab.errors import (
    GameTooLargeError,
    SolverError,
)
from pokerlab.games import Game
from pokerlab.solvers.base import (
    Seed,
    Solver,
    generator_from_state,
    make_generator,
    register_solver,
    seed_value,
    strategy_metadata,
)
from pokerlab.solvers.deep_networks import (
    InfosetEncoder,
    ReservoirMemory,
    TorchThreads,
    Weights,
    advantage_strategy,
    build_network,
    check_layers,
    initial_weights,
    require_torch,
    tree_observations,
    weights_of,
)
from pokerlab.solvers.deep_policy import (
    DeepPolicy,
    strategy_from_logits,
)
from pokerlab.solvers.mccfr import kernel_tree
from pokerlab.strategy import Strategy
from pokerlab.strategy.io import keys_fingerprint
from pokerlab.tree import CompiledTree, compile


# -- the solver ------------------------------------------------------------------------------
def _positive_int(name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < 1:
        raise SolverError(f"{name} must be an integer >= 1; got {value!r}")
    return int(value)


@register_solver
class DeepCFR(Solver):
    """Deep CFR on a game that compiles (Kuhn, Leduc); see the module docstring.

    One iteration is, for each player, ``traversals`` traversals and the training of that
    player's advantage network. The average strategy is the strategy network, trained on
    demand (:meth:`average_strategy`, :meth:`policy`).

    Args:
        game: the game (it must compile).
        traversals: external-sampling traversals per player per iteration.
        advantage_layers: hidden-layer widths of the advantage networks.
        policy_layers: hidden-layer widths of the strategy network.
        advantage_steps: training steps per advantage network per iteration.
        policy_steps: training steps of the strategy network (from scratch).
        batch_size: rows per minibatch (used when ``full_batch`` is False).
        learning_rate: Adam's step size.
        memory_capacity: rows each reservoir memory holds (one per player, one strategy).
        reinitialize: True trains each advantage network from scratch every iteration
            (the paper); False (default) continues from the last iteration's weights
            (OpenSpiel's option), so that fewer steps per iteration keep the fit.
        full_batch: True (default) makes every training step the exact gradient of the loss over
            the whole memory (rows of one infoset, which share their input, grouped into
            their weighted mean: the same loss up to a constant) instead of a minibatch of
            ``batch_size`` rows; on a game that compiles this removes the minibatch noise
            that otherwise dominates the fit once the memory is large. False: minibatches
            of ``batch_size`` rows (the paper's, and the only option where inputs rarely
            repeat).
        threads: torch threads while training.
        seed: the seed (an integer or a numpy Generator).

    Raises:
        MissingExtraError: torch is not installed.
        GameTooLargeError: the game is too big to compile.
        SolverError: a hyper-parameter out of range (the message says which).

    Example:
        >>> from pokerlab.games import kuhn
        >>> solver = DeepCFR(kuhn(), traversals=50, advantage_steps=20, policy_steps=50, seed=0)
        >>> solver.run(iterations=2).iterations
        2
    """

    algorithm = "deep-cfr"
    sampling = True

    def __init__(
        self,
        game: Game,
        *,
        traversals: int = 1000,
        advantage_layers: Sequence[int] = (64, 64),
        policy_layers: Sequence[int] = (64, 64),
        advantage_steps: int = 30,
        policy_steps: int = 2000,
        batch_size: int = 512,
        learning_rate: float = 3e-3,
        memory_capacity: int = 1_000_000,
        reinitialize: bool = False,
        full_batch: bool = True,
        threads: int = 1,
        seed: Seed = None,
    ) -> None:
        super().__init__(game)
        self.traversals = _positive_int("traversals", traversals)
        self.advantage_layers = check_layers("advantage_layers", advantage_layers)
        self.policy_layers = check_layers("policy_layers", policy_layers)
        self.advantage_steps = _positive_int("advantage_steps", advantage_steps)
        self.policy_steps = _positive_int("policy_steps", policy_steps)
        self.batch_size = _positive_int("batch_size", batch_size)
        if (
            isinstance(learning_rate, bool)
            or not isinstance(learning_rate, int | float)
            or not 0 < learning_rate < math.inf
        ):
            raise SolverError(f"learning_rate must be a number > 0; got {learning_rate!r}")
        self.learning_rate = float(learning_rate)
        self.memory_capacity = _positive_int("memory_capacity", memory_capacity)
        if not isinstance(reinitialize, bool):
            raise SolverError(f"reinitialize must be True or False; got {reinitialize!r}")
        self.reinitialize = reinitialize
        if not isinstance(full_batch, bool):
            raise SolverError(f"full_batch must be True or False; got {full_batch!r}")
        self.full_batch = full_batch
        self.threads = _positive_int("threads", threads)
        self.seed = seed_value(seed)
        self._rng = make_generator(seed)
        self._policy_entropy = int(self._rng.integers(0, 2**63))
        self._torch = require_torch()
        try:
            self._tree = compile(game)
        except GameTooLargeError as exc:
            raise GameTooLargeError(
                f"Deep CFR in pokerlab traverses the compiled tree, and {exc}",
                found=exc.found,
                limit=exc.limit,
            ) from None
        tree = self._tree
        self._kernel = kernel_tree(tree)
        self.encoder = InfosetEncoder.from_tree(tree)
        self._features = np.stack([self.encoder.encode(o) for o in tree_observations(tree)])
        self._legal = tree.legal_mask.astype(bool)
        n_players = game.n_players
        width = tree.max_actions
        self._advantage_memories = [
            ReservoirMemory(self.memory_capacity, width) for _ in range(n_players)
        ]
        self._strategy_memory = ReservoirMemory(self.memory_capacity, width)
        self._advantage_weights: list[Weights | None] = [None] * n_players
        self._policy_weights: Weights | None = None
        self._policy_iteration = -1
        self.policy_seconds = 0.0
        """Seconds spent training the strategy network (not in :attr:`seconds`)."""
        self._advantage_bound, self._strategy_bound = _row_bounds(tree)
        self._played_sums = np.zeros(self._legal.shape, dtype=np.float64)
        self._frames = np.zeros((tree.depth + 1, 4), dtype=np.int64)
        self._values = np.zeros((tree.depth + 1, width), dtype=np.float64)

    # -- hyper-parameters and reports --------------------------------------------------
    def hyperparameters(self) -> dict[str, Any]:
        """The hyper-parameters as given, JSON-ready."""
        return {
            "traversals": self.traversals,
            "advantage_layers": list(self.advantage_layers),
            "policy_layers": list(self.policy_layers),
            "advantage_steps": self.advantage_steps,
            "policy_steps": self.policy_steps,
            "batch_size": self.batch_size,
            "learning_rate": self.learning_rate,
            "memory_capacity": self.memory_capacity,
            "reinitialize": self.reinitialize,
            "full_batch": self.full_batch,
            "threads": self.threads,
            "seed": self.seed,
        }

    def infosets_touched(self) -> int | None:
        """The compiled tree's infosets (the networks answer at every one)."""
        return self._tree.n_infosets

    def memory_bytes(self) -> int | None:
        """Bytes of the memories' arrays (the networks are small beside them)."""
        memories = [*self._advantage_memories, self._strategy_memory]
        return sum(m.nbytes for m in memories)

    def _keys_fingerprint(self) -> str | None:
        return keys_fingerprint(self._tree)

    def memory_sizes(self) -> dict[str, int]:
        """Rows held by each memory (``advantage_0``, ..., ``strategy``)."""
        sizes = {f"advantage_{p}": m.size for p, m in enumerate(self._advantage_memories)}
        sizes["strategy"] = self._strategy_memory.size
        return sizes

    def __repr__(self) -> str:
        return f"<DeepCFR {self.game.spec}, after {self.iterations} iterations>"

    # -- the iteration -----------------------------------------------------------------
    def _sigma(self) -> FloatArray:
        """The current strategy at every infoset: regret matching on predicted advantages."""
        tree = self._tree
        sigma = np.where(self._legal, 1.0, 0.0)
        sigma /= sigma.sum(axis=1, keepdims=True)
        for player, weights in enumerate(self._advantage_weights):
            if weights is None:
                continue  # untrained: uniform
            rows = np.flatnonzero(tree.infoset_player == player)
            advantages = self._predict(weights, rows)
            sigma[rows] = advantage_strategy(advantages, self._legal[rows])
        return np.ascontiguousarray(sigma)

    def _predict(self, weights: Weights, rows: NDArray[np.intp]) -> FloatArray:
        torch = self._torch
        net = build_network(torch, weights)
        with torch.no_grad(), TorchThreads(torch, self.threads):
            out = net(torch.from_numpy(self._features[rows]))
        return np.asarray(out.numpy(), dtype=np.float64)

    def _iterate(self) -> None:
        from pokerlab.solvers._deep_cfr_kernels import traverse

        t = self.iterations + 1
        kernel = self._kernel
        n_players = self.game.n_players
        for player in range(n_players):
            sigma = self._sigma()
            # The strategy the strategy memory records at the next player's infosets now:
            # its exact average, weighted by t and that player's own reach.
            self._accumulate_played(sigma, (player + 1) % n_players, t)
            bound_a = int(self._advantage_bound[player])
            bound_s = int(self._strategy_bound[player])
            chunk = max(1, min(self.traversals, 4096))
            advantage_ids = np.zeros(chunk * bound_a, dtype=np.int32)
            advantage_rows = np.zeros((chunk * bound_a, sigma.shape[1]), dtype=np.float32)
            strategy_ids = np.zeros(max(1, chunk * bound_s), dtype=np.int32)
            strategy_rows = np.zeros((max(1, chunk * bound_s), sigma.shape[1]), dtype=np.float32)
            left = self.traversals
            while left > 0:
                seed = int(self._rng.integers(0, 2**63))
                counts = traverse(
                    player, min(left, chunk), kernel.nodes, kernel.probs, kernel.payoffs, sigma,
                    self._frames, self._values, advantage_ids, advantage_rows, strategy_ids,
                    strategy_rows, bound_a, bound_s, seed,
                )
                n_adv, n_strat, done = (int(c) for c in counts)
                self._advantage_memories[player].add(
                    advantage_ids[:n_adv], t, advantage_rows[:n_adv], self._rng
                )
                self._strategy_memory.add(
                    strategy_ids[:n_strat], t, strategy_rows[:n_strat], self._rng
                )
                left -= done
            self._advantage_weights[player] = self._train(
                self._advantage_memories[player], self.advantage_layers, self.advantage_steps,
                loss="advantage",
                start=None if self.reinitialize else self._advantage_weights[player],
            )

    def _accumulate_played(self, sigma: FloatArray, owner: int, t: int) -> None:
        tree = self._tree
        reach = np.ones(tree.n_histories)
        offsets = tree.level_offsets
        for d in range(1, offsets.shape[0] - 1):
            lo, hi = int(offsets[d]), int(offsets[d + 1])
            parent = tree.parent[lo:hi]
            edge = np.ones(hi - lo)
            mine = np.flatnonzero(tree.player[parent] == owner)
            edge[mine] = sigma[tree.infoset[parent[mine]], tree.slot[mine + lo]]
            reach[lo:hi] = reach[parent] * edge
        rows = np.flatnonzero(tree.infoset_player == owner)
        own = reach[tree.infoset_history[rows]]
        self._played_sums[rows] += t * own[:, None] * sigma[rows]

    def _train(
        self,
        memory: ReservoirMemory,
        hidden: tuple[int, ...],
        steps: int,
        *,
        loss: str,
        start: Weights | None = None,
        rng: np.random.Generator | None = None,
    ) -> Weights:
        """A network trained on ``memory``, each row weighted by its iteration.

        It starts from ``start`` if given, else from fresh random weights; randomness
        comes from ``rng`` (default: the solver's Generator).

        ``loss="advantage"``: squared error on the legal slots (it learns the weighted
        mean of the sampled regrets). ``loss="policy"``: cross-entropy of the softmax over
        legal slots against the stored strategies (it learns their weighted mean, the
        average strategy), the learning rate falling linearly to 0 over the steps.
        """
        torch = self._torch
        rng = self._rng if rng is None else rng
        width = self._tree.max_actions
        weights = start if start is not None else initial_weights(
            rng, self._features.shape[1], hidden, width
        )
        if memory.size == 0:
            return weights
        net = build_network(torch, weights)
        optimizer = torch.optim.Adam(net.parameters(), lr=self.learning_rate, foreach=True)
        # The strategy network, trained from scratch, ends with a learning rate falling
        # linearly to 0, so that it settles in a minimum (a constant rate sometimes left
        # it 0.04 to 0.08 chips worse than its target, the memory average).
        decay = loss == "policy"
        features = torch.from_numpy(self._features)
        legal = torch.from_numpy(self._legal)
        if self.full_batch:
            # Every step is the exact gradient of the loss over the whole memory. Rows of
            # one infoset have the same input, and both losses are, per infoset, the
            # weighted loss against the rows' weighted mean plus a constant: so the
            # memory is grouped by input (weights summed, targets averaged) first.
            ids_np, rows_np, weight_np = _grouped(memory, len(self._features))
            ids = torch.from_numpy(ids_np)
            rows = torch.from_numpy(rows_np)
            weight = torch.from_numpy(weight_np)
            picks = torch.arange(len(ids_np)).expand(steps, len(ids_np))
        else:
            ids = torch.from_numpy(memory.ids[: memory.size].astype(np.int64))
            rows = torch.from_numpy(memory.rows[: memory.size])
            weight_np = memory.iterations[: memory.size].astype(np.float32)
            weight = torch.from_numpy(weight_np / weight_np.mean())
            picks = torch.from_numpy(rng.integers(0, memory.size, (steps, self.batch_size)))
        with TorchThreads(torch, self.threads):
            for step in range(steps):
                pick = picks[step]
                infosets = ids[pick]
                mask = legal[infosets]
                out = net(features[infosets])
                target = rows[pick]
                w = weight[pick]
                if loss == "advantage":
                    per_row = ((out - target) ** 2 * mask).sum(dim=1)
                else:
                    logp = torch.log_softmax(out.masked_fill(~mask, -1e9), dim=1)
                    per_row = -(target * logp.masked_fill(~mask, 0.0)).sum(dim=1)
                value = (w * per_row).sum() / w.sum()
                optimizer.zero_grad()
                value.backward()
                if decay:  # the learning rate falls linearly to 0 over the steps
                    for group in optimizer.param_groups:
                        group["lr"] = self.learning_rate * (1.0 - step / steps)
                optimizer.step()
        return weights_of(net)

    # -- strategies --------------------------------------------------------------------
    def policy(self) -> DeepPolicy:
        """The average strategy as a :class:`DeepPolicy`.

        The strategy network is trained first if the memories changed since it last was.
        """
        if self._policy_weights is None or self._policy_iteration != self.iterations:
            tick = time.perf_counter()
            # Its own Generator, a function of the run's seed and the iteration: asking
            # for the average strategy (a measurement) never changes the run.
            rng = np.random.default_rng([self._policy_entropy, self.iterations])
            self._policy_weights = self._train(
                self._strategy_memory, self.policy_layers, self.policy_steps, loss="policy",
                rng=rng,
            )
            self._policy_iteration = self.iterations
            self.policy_seconds += time.perf_counter() - tick
        metadata = strategy_metadata(self, "average")
        metadata["traversals_done"] = self.traversals * self.iterations * self.game.n_players
        return DeepPolicy(self.game, self.encoder, self._policy_weights, metadata)

    def average_strategy(self) -> Strategy:
        """The strategy network's strategy at every infoset (the one that converges)."""
        policy = self.policy()
        logits = policy.logits(self._features)
        return strategy_from_logits(self.game, self._tree, logits, policy.metadata)

    def current_strategy(self) -> Strategy:
        """The strategy the next iteration plays (regret matching on the advantages)."""
        return Strategy.from_array(
            self.game, self._sigma(), metadata=strategy_metadata(self, "current")
        )

    def memory_average_strategy(self) -> Strategy:
        """The exact iteration-weighted average of the strategy memory, per infoset.

        What the strategy network is trained to approximate: the gap between the two
        strategies' exploitability is the network's error (uniform where no row is held).
        """
        memory = self._strategy_memory
        sums = np.zeros(self._legal.shape)
        weight = memory.iterations[: memory.size].astype(np.float64)
        np.add.at(sums, memory.ids[: memory.size], memory.rows[: memory.size] * weight[:, None])
        return self._normalized(sums, "memory average")

    def _normalized(self, sums: FloatArray, name: str) -> Strategy:
        """``sums`` per infoset made probabilities (uniform over legal actions where all 0)."""
        totals = sums.sum(axis=1, keepdims=True)
        uniform = self._legal / self._legal.sum(axis=1, keepdims=True)
        probs = np.where(totals > 0, sums / np.where(totals > 0, totals, 1.0), uniform)
        probs = np.where(self._legal, probs, 0.0)
        return Strategy.from_array(self.game, probs, metadata=strategy_metadata(self, name))

    def played_average_strategy(self) -> Strategy:
        """The exact average of the strategies played, weighted by iteration and own reach.

        Single Deep CFR's average (Steinberger 2019) made exact: each iteration's
        advantage-network strategy is tabulated at every infoset (cheap on a compiled
        game) and summed, weighted by ``t`` (Linear CFR) and the owner's probability of
        reaching the infoset. The strategy memory and the strategy network estimate this
        same average from samples; this policy has neither's error.
        """
        return self._normalized(self._played_sums, "played average")

    # -- checkpoints -------------------------------------------------------------------
    def _state(self) -> dict[str, Any]:
        state: dict[str, Any] = {
            "rng_state": self._rng.bit_generator.state,
            "policy_entropy": self._policy_entropy,
        }
        for p, memory in enumerate(self._advantage_memories):
            state.update(memory.state(f"advantage{p}"))
        state.update(self._strategy_memory.state("strategy"))
        state["trained"] = [w is not None for w in self._advantage_weights]
        for p, weights in enumerate(self._advantage_weights):
            for name, value in (weights or {}).items():
                state[f"net{p}:{name}"] = value
        state["policy_seconds"] = self.policy_seconds
        state["played_sums"] = self._played_sums.copy()
        return state

    def _restore(self, state: dict[str, Any]) -> None:
        self._rng = generator_from_state(state.get("rng_state"))
        entropy = state.get("policy_entropy")
        if isinstance(entropy, bool) or not isinstance(entropy, int | np.integer):
            raise SolverError(f"checkpoint state 'policy_entropy' is damaged: {entropy!r}")
        self._policy_entropy = int(entropy)
        for p, memory in enumerate(self._advantage_memories):
            memory.restore(state, f"advantage{p}")
        self._strategy_memory.restore(state, "strategy")
        trained = state.get("trained")
        if not isinstance(trained, list) or len(trained) != self.game.n_players:
            raise SolverError(f"checkpoint state 'trained' is damaged: {trained!r}")
        for p, was_trained in enumerate(trained):
            if not was_trained:
                self._advantage_weights[p] = None
                continue
            prefix = f"net{p}:"
            weights = {
                k[len(prefix):]: np.asarray(v, dtype=np.float32)
                for k, v in state.items()
                if k.startswith(prefix)
            }
            expected = initial_weights(
                np.random.default_rng(0), self._features.shape[1], self.advantage_layers,
                self._tree.max_actions,
            )
            if {k: v.shape for k, v in weights.items()} != {
                k: v.shape for k, v in expected.items()
            }:
                raise SolverError(
                    f"checkpoint advantage network {p} does not match advantage_layers "
                    f"{self.advantage_layers}"
                )
            self._advantage_weights[p] = weights
        self.policy_seconds = float(state.get("policy_seconds", 0.0))
        played = state.get("played_sums")
        if played is not None:
            played = np.asarray(played, dtype=np.float64)
            if played.shape != self._played_sums.shape:
                raise SolverError(
                    f"checkpoint 'played_sums' has shape {played.shape}; this game's is "
                    f"{self._played_sums.shape}"
                )
            self._played_sums = played.copy()


def _grouped(
    memory: ReservoirMemory, n_infosets: int
) -> tuple[NDArray[np.int64], NDArray[np.float32], NDArray[np.float32]]:
    """The memory grouped by infoset: ids held, weighted-mean rows, summed weights.

    Weights are the rows' iterations (Linear CFR), divided by their mean over the groups so
    that the loss's scale does not grow with the iteration.
    """
    ids = memory.ids[: memory.size].astype(np.int64)
    weight = memory.iterations[: memory.size].astype(np.float64)
    totals = np.bincount(ids, weights=weight, minlength=n_infosets)
    width = memory.rows.shape[1]
    sums = np.stack(
        [
            np.bincount(ids, weights=weight * memory.rows[: memory.size, a], minlength=n_infosets)
            for a in range(width)
        ],
        axis=1,
    )
    held = np.flatnonzero(totals > 0)
    means = (sums[held] / totals[held, None]).astype(np.float32)
    summed = totals[held] / totals[held].mean()
    return held.astype(np.int64), means, summed.astype(np.float32)


def _row_bounds(tree: CompiledTree) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """For each player, the most advantage rows and strategy rows one traversal writes.

    Children come after their parents, so one pass from the last history to the root
    fills both bounds: at the traverser's histories every child is walked (sums), at
    chance and the others' one child is (maxima).
    """
    n_players = tree.n_players
    size = tree.n_histories
    advantage = np.zeros((n_players, size), dtype=np.int64)
    strategy = np.zeros((n_players, size), dtype=np.int64)
    first = tree.first_child
    count = tree.n_children
    who = tree.player
    for h in range(size - 1, -1, -1):
        n = int(count[h])
        if n == 0:
            continue
        lo = int(first[h])
        kids = slice(lo, lo + n)
        for p in range(n_players):
            if who[h] == p:
                advantage[p, h] = 1 + advantage[p, kids].sum()
                strategy[p, h] = strategy[p, kids].sum()
            else:
                advantage[p, h] = advantage[p, kids].max()
                strategy[p, h] = strategy[p, kids].max() + (1 if who[h] >= 0 else 0)
    return advantage[:, 0], strategy[:, 0]


__all__ = ["DeepCFR"]
