"""Compile a game once into flat numpy arrays: the engine of every exact algorithm.

``compile(game)`` enumerates every history breadth first, so that a node's children are
contiguous, every parent comes before its children, and each depth is one contiguous
range (``level_offsets``). CFR, best response, exact values and the sequence-form LP
are then a few vectorized passes over these arrays, level by level, with no Python
recursion per history. Compiled trees are cached by spec (the 16 used last).

Vocabulary: a *history* is a node of the tree; an *infoset* groups the histories a
player cannot tell apart (same ``infoset_key``); a *slot* is the position of an action in
its infoset's legal-action list; a *sequence* of player p is the empty sequence (id 0)
or an (infoset of p, slot) pair, ids ``seq_offset[infoset] + slot``.
"""

from __future__ import annotations

import gc
import os
import resource
import sys
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from pokerlab._cache import SpecCache
from pokerlab._types import CHANCE, TERMINAL, FloatArray, IntArray
from pokerlab.errors import GameTooLargeError, PokerlabError
from pokerlab.games.base import Game, State

MEMORY_LIMIT_ENV = "POKERLAB_MEMORY_LIMIT"
"""Environment variable that sets the default memory limit: bytes, or ``8G``, ``500M``."""


def _limit_from_environment(default: int = 4 * 1024**3) -> int:
    text = os.environ.get(MEMORY_LIMIT_ENV, "").strip().upper()
    if not text:
        return default
    scale = {"K": 1024, "M": 1024**2, "G": 1024**3, "T": 1024**4}.get(text[-1:], 1)
    number = text[:-1] if scale > 1 else text
    try:
        value = int(float(number) * scale)
    except ValueError:
        raise PokerlabError(
            f"{MEMORY_LIMIT_ENV}={os.environ[MEMORY_LIMIT_ENV]!r} is not a size; write bytes "
            "or a number with K, M, G or T (8G)"
        ) from None
    if value <= 0:
        raise PokerlabError(f"{MEMORY_LIMIT_ENV} must be positive; got {value}")
    return value


DEFAULT_MEMORY_LIMIT = _limit_from_environment()
"""Compiled trees larger than this (bytes) are refused unless a larger limit is given
(4 GiB, or ``POKERLAB_MEMORY_LIMIT``)."""

BYTES_PER_HISTORY = 100
"""Size of one history in the compiled tree: its arrays and its share of the infoset keys
(measured 94-114 bytes on Kuhn and Leduc: ``tree.nbytes`` and the allocations traced
after compiling, tests/tree/test_memory_estimate.py)."""

PEAK_BYTES_PER_HISTORY = 520
"""Memory one history costs the process while the tree is walked (state objects waiting,
lists, keys, and what the allocator keeps of them): the resident memory grew by 330-510
bytes per history at its peak on Kuhn, Leduc and their 3- and 5-player forms
(tests/tree/test_memory_estimate.py), about 300 of them traced allocations. The process
keeps most of that peak after the walk (the allocator does not return it), so this is
also about what it holds once compiled. The walk also reads its real memory use as it
goes (:class:`_MemoryWatch`)."""

_CACHE: SpecCache[CompiledTree] = SpecCache("tree.compile", maxsize=16)
"""Compiled trees by spec; the 16 used last are kept (``pokerlab._cache.clear_caches``)."""


@dataclass(frozen=True, eq=False)
class CompiledTree:
    """A game tree as flat arrays; history ids are breadth-first order.

    Attributes are read-only numpy arrays; shapes in the trailing comments
    (``H`` histories, ``T`` terminals, ``I`` infosets, ``A`` = ``max_actions`` slots).
    """

    game: Game
    n_players: int
    # -- histories
    parent: IntArray  # [H] parent id, -1 at the root
    action: IntArray  # [H] action taken from the parent (-1 at the root)
    player: IntArray  # [H] 0..n-1, CHANCE (-1) or TERMINAL (-2)
    slot: IntArray  # [H] slot of `action` in the parent's legal actions (-1 at the root)
    chance_prob: FloatArray  # [H] probability of the edge from a chance parent, else 1
    reach_chance: FloatArray  # [H] product of chance probabilities from the root
    first_child: IntArray  # [H] id of the first child (children are contiguous), -1 if none
    n_children: IntArray  # [H]
    infoset: IntArray  # [H] infoset id at decision nodes, -1 elsewhere
    level_offsets: IntArray  # [depth + 2] histories of depth d are offsets[d]:offsets[d+1]
    # -- terminals
    terminal_ids: IntArray  # [T] history ids of the terminal histories, increasing
    terminal_payoffs: FloatArray  # [T, n_players] chips won at each terminal
    # -- infosets
    infoset_keys: tuple[str, ...]  # [I]
    infoset_player: IntArray  # [I]
    infoset_n_actions: IntArray  # [I]
    infoset_actions: IntArray  # [I, A] legal action ids, -1 padded
    infoset_parent_seq: IntArray  # [I] the owner's sequence leading to the infoset
    seq_offset: IntArray  # [I] the infoset's first sequence id (of its owner)
    n_sequences: tuple[int, ...]  # per player, the empty sequence included
    terminal_seqs: IntArray  # [T, n_players] each player's sequence leading to the terminal
    max_actions: int
    _key_index: dict[str, int] = field(repr=False, default_factory=dict)

    @property
    def n_histories(self) -> int:
        """Number of histories (nodes), terminals and chance nodes included."""
        return int(self.parent.shape[0])

    @property
    def n_terminals(self) -> int:
        """Number of terminal histories."""
        return int(self.terminal_ids.shape[0])

    @property
    def n_infosets(self) -> int:
        """Number of infosets, all players together."""
        return len(self.infoset_keys)

    @property
    def depth(self) -> int:
        """The largest depth of a history (the root has depth 0)."""
        return int(self.level_offsets.shape[0]) - 2

    def infosets_of(self, player: int) -> IntArray:
        """The infoset ids of ``player``."""
        return np.flatnonzero(self.infoset_player == player)

    def infoset_id(self, key: str) -> int:
        """The id of the infoset with this key.

        Raises:
            PokerlabError: if no infoset has that key.
        """
        try:
            return self._key_index[key]
        except KeyError:
            sample = ", ".join(repr(k) for k in self.infoset_keys[:5])
            raise PokerlabError(
                f"{self.game.spec} has no infoset {key!r}; keys look like {sample}, ..."
            ) from None

    @cached_property
    def legal_mask(self) -> np.ndarray:
        """[I, A] True where a slot holds a legal action."""
        return np.arange(self.max_actions)[None, :] < self.infoset_n_actions[:, None]

    @cached_property
    def decision_ids(self) -> IntArray:
        """History ids of decision nodes."""
        return np.flatnonzero(self.player >= 0)

    @cached_property
    def infoset_history(self) -> IntArray:
        """[I] the first history (breadth-first) of each infoset: a representative of it."""
        decisions = self.decision_ids
        first = np.full(self.n_infosets, -1, dtype=np.int64)
        # Reversed assignment leaves the smallest id of each infoset in place.
        first[self.infoset[decisions[::-1]]] = decisions[::-1]
        return first

    def history_actions(self, node: int) -> tuple[int, ...]:
        """The actions (chance outcomes included) from the root to history ``node``."""
        path = []
        while node > 0:
            path.append(int(self.action[node]))
            node = int(self.parent[node])
        return tuple(reversed(path))

    def history_state(self, node: int) -> State:
        """The game state of history ``node``, rebuilt by replaying its actions."""
        state = self.game.initial_state()
        for action in self.history_actions(node):
            state = state._apply(action)
        return state

    @property
    def nbytes(self) -> int:
        """Memory used by the arrays, in bytes."""
        total = 0
        for value in vars(self).values():
            if isinstance(value, np.ndarray):
                total += value.nbytes
        return total

    def sequence_counts(self) -> list[int]:
        """Number of sequences of each player, the empty sequence included."""
        return list(self.n_sequences)


def compile(game: Game, *, memory_limit: int = DEFAULT_MEMORY_LIMIT) -> CompiledTree:
    """Enumerate every history of ``game`` into a :class:`CompiledTree` (cached by spec).

    The cache keeps the 16 trees used last; ``clear_cache()`` empties it.

    Args:
        game: any game of pokerlab.
        memory_limit: the largest compiled size accepted, in bytes.

    Raises:
        GameTooLargeError: if the tree would exceed ``memory_limit``; the size found is in
            the message and in ``error.found``. Nothing large is allocated before the check.

    Example:
        >>> from pokerlab.games import kuhn
        >>> tree = compile(kuhn())
        >>> tree.n_histories, tree.n_terminals, tree.n_infosets
        (58, 30, 12)
    """
    cached = _CACHE.get(game.spec)
    if cached is not None:
        _check_size(game, cached.n_histories, memory_limit, exact=True)
        return cached
    _check_announced_size(game, memory_limit)
    # The walk allocates millions of small state objects and no reference cycles: pausing
    # the cyclic garbage collector (which would rescan them all, again and again) saves a
    # fifth of the time on Leduc and more on the largest Kuhn decks.
    collecting = gc.isenabled()
    gc.disable()
    try:
        tree = _build(game, memory_limit)
    finally:
        if collecting:
            gc.enable()
    _CACHE.put(game.spec, tree)
    return tree


def clear_cache() -> None:
    """Forget every compiled tree (``pokerlab._cache.clear_caches()`` clears every cache)."""
    _CACHE.clear()


def _check_announced_size(game: Game, memory_limit: int) -> None:
    """Refuse, before walking, a game whose own count says it is too large.

    A game may announce its size: ``min_histories()``, a lower bound found at once
    (checked first, so Hold'em is refused without counting), and ``count_histories()``,
    the number of histories (a lower bound where ``history_count_is_exact`` is False).
    """
    quick = getattr(game, "min_histories", None)
    if quick is not None:
        _check_size(game, int(quick()), memory_limit, exact=False)
    count = getattr(game, "count_histories", None)
    value = None if count is None else count()
    if value is not None:
        exact = bool(getattr(game, "history_count_is_exact", True))
        _check_size(game, int(value), memory_limit, exact=exact)


def _check_size(game: Game, histories: int, limit: int, *, exact: bool) -> None:
    size = histories * PEAK_BYTES_PER_HISTORY
    if size > limit:
        which = "" if exact else "at least "
        raise GameTooLargeError(
            f"{game.spec} has {which}{histories:,} histories: compiling them needs about "
            f"{_megabytes(size)} at its peak ({_megabytes(histories * BYTES_PER_HISTORY)} "
            f"kept), over the memory limit of {_megabytes(limit)}; {_advice(game, size)}",
            found=size,
            limit=limit,
        )


def _megabytes(size: int) -> str:
    """A size in MB, or in powers of ten of MB once it is too long to read."""
    megabytes = size / 1e6
    return f"{megabytes:,.0f} MB" if megabytes < 1e9 else f"{megabytes:.1e} MB"


def _machine_memory() -> int | None:
    """This machine's physical memory in bytes, if the system says."""
    try:
        return int(os.sysconf("SC_PHYS_PAGES")) * int(os.sysconf("SC_PAGE_SIZE"))
    except (OSError, ValueError, AttributeError):
        return None


def _advice(game: Game, size: int) -> str:
    """What to do about a game that needs ``size`` bytes to compile, as a CLI user types it.

    A larger limit is suggested only when this machine has the memory for it; beyond
    that, the ways that need no compiled tree: a sampling solver that walks states, a
    smaller game, an abstraction.
    """
    spec = f"'{game.spec}'"
    walk = (f"a sampling solver that walks states without compiling (pokerlab solve {spec} "
            "--algorithm es-mccfr)")
    machine = _machine_memory()
    if machine is None or size <= machine:
        return (f"raise the limit with {MEMORY_LIMIT_ENV}={_suggested(size)} (memory_limit= "
                f"in Python), or use {walk} or an abstraction (pokerlab abstract)")
    return (f"that is more than this machine's {machine / 1e9:,.0f} GB of memory, so no "
            f"memory limit will do: use {walk}, a smaller game (fewer players, cards or "
            "ranks, a lower stack or raise cap), or an abstraction (pokerlab abstract)")


def _suggested(size: int) -> str:
    """A memory limit above ``size``, as users write it (``12G``)."""
    return f"{size // 1024**3 + 2}G"


def _resident_bytes() -> int:
    """The process's resident memory now (Linux: /proc/self/statm), else its peak so far."""
    try:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return int(peak) * (1 if sys.platform == "darwin" else 1024)


class _MemoryWatch:
    """Measures what the walk really holds (states waiting, keys, arrays) as it goes.

    The walk's peak is several times the compiled tree (hundreds of bytes per waiting
    state object); the count checked before walking cannot see it, so the resident
    memory is read every few tens of thousands of states and the walk refuses the game
    as soon as it has grown by more than the limit.
    """

    STEP = 1 << 15

    def __init__(self, game: Game, limit: int) -> None:
        self.game = game
        self.limit = limit
        self.start = _resident_bytes()

    def check(self, histories: int) -> None:
        """Refuse the game if the walk has grown past the limit."""
        used = _resident_bytes() - self.start
        if used > self.limit:
            raise GameTooLargeError(
                f"{self.game.spec} needs more than {self.limit / 1e6:,.0f} MB to compile: "
                f"{used / 1e6:,.0f} MB were in use after {histories:,} histories; raise the "
                f"limit with {MEMORY_LIMIT_ENV} (memory_limit= in Python), or use a "
                "sampling solver (pokerlab solve GAME --algorithm es-mccfr) or an "
                "abstraction (pokerlab abstract)",
                found=used,
                limit=self.limit,
            )


def _build(game: Game, memory_limit: int) -> CompiledTree:
    n_players = game.n_players
    max_actions = game.max_actions
    key_index: dict[str, int] = {}
    keys: list[str] = []
    infoset_player: list[int] = []
    infoset_actions: list[tuple[int, ...]] = []

    parents: list[IntArray] = []
    actions: list[IntArray] = []
    slots: list[IntArray] = []
    players: list[IntArray] = []
    probs: list[FloatArray] = []
    infosets: list[IntArray] = []
    n_children_levels: list[IntArray] = []
    terminal_ids: list[int] = []
    terminal_payoffs: list[tuple[float, ...]] = []
    level_offsets = [0]

    watch = _MemoryWatch(game, memory_limit)
    level: list[State] = [game.initial_state()]
    level_parent = [-1]
    level_action = [-1]
    level_slot = [-1]
    level_prob = [1.0]
    offset = 0
    while level:
        size = len(level)
        level_player = np.empty(size, dtype=np.int64)
        level_infoset = np.full(size, -1, dtype=np.int64)
        level_n_children = np.zeros(size, dtype=np.int64)
        next_level: list[State] = []
        next_parent: list[int] = []
        next_action: list[int] = []
        next_slot: list[int] = []
        next_prob: list[float] = []
        check_at = _MemoryWatch.STEP
        for i, state in enumerate(level):
            who = state.player
            level_player[i] = who
            node = offset + i
            if who == TERMINAL:
                terminal_ids.append(node)
                terminal_payoffs.append(state.returns())
                continue
            if who == CHANCE:
                outcomes = state.chance_outcomes()
                level_n_children[i] = len(outcomes)
                for k, (outcome, prob) in enumerate(outcomes):
                    next_level.append(state._apply(outcome))
                    next_parent.append(node)
                    next_action.append(outcome)
                    next_slot.append(k)
                    next_prob.append(prob)
                if len(next_level) >= check_at:
                    watch.check(offset + size + len(next_level))
                    check_at += _MemoryWatch.STEP
                continue
            key = state.infoset_key(who)
            legal = state.legal_actions()
            infoset_id = key_index.get(key)
            if infoset_id is None:
                infoset_id = len(keys)
                key_index[key] = infoset_id
                keys.append(key)
                infoset_player.append(who)
                infoset_actions.append(legal)
            elif infoset_actions[infoset_id] != legal or infoset_player[infoset_id] != who:
                raise PokerlabError(
                    f"{game.spec}: histories of infoset {key!r} disagree on the player or "
                    f"the legal actions ({infoset_actions[infoset_id]} vs {legal}); the "
                    "game's infoset_key must identify what the player knows"
                )
            level_infoset[i] = infoset_id
            level_n_children[i] = len(legal)
            for k, a in enumerate(legal):
                next_level.append(state._apply(a))
                next_parent.append(node)
                next_action.append(a)
                next_slot.append(k)
                next_prob.append(1.0)
            if len(next_level) >= check_at:
                watch.check(offset + size + len(next_level))
                check_at += _MemoryWatch.STEP
        players.append(level_player)
        infosets.append(level_infoset)
        n_children_levels.append(level_n_children)
        parents.append(np.asarray(level_parent, dtype=np.int64))
        actions.append(np.asarray(level_action, dtype=np.int64))
        slots.append(np.asarray(level_slot, dtype=np.int64))
        probs.append(np.asarray(level_prob, dtype=np.float64))
        offset += size
        level_offsets.append(offset)
        _check_size(game, offset + len(next_level), memory_limit, exact=False)
        watch.check(offset + len(next_level))
        level, level_parent, level_action = next_level, next_parent, next_action
        level_slot, level_prob = next_slot, next_prob

    parent = np.concatenate(parents)
    n_children = np.concatenate(n_children_levels)
    player = np.concatenate(players)
    infoset = np.concatenate(infosets)
    chance_prob = np.concatenate(probs)
    # Children are appended in parent order, so each parent's children are contiguous.
    first_child = np.full(parent.shape[0], -1, dtype=np.int64)
    has_children = n_children > 0
    starts = np.cumsum(n_children) - n_children + 1  # root is 0, its children start at 1
    first_child[has_children] = starts[has_children]
    reach_chance = chance_prob.copy()
    offsets = np.asarray(level_offsets, dtype=np.int64)
    for d in range(1, len(offsets) - 1):
        lo, hi = offsets[d], offsets[d + 1]
        reach_chance[lo:hi] *= reach_chance[parent[lo:hi]]

    n_infosets = len(keys)
    infoset_player_arr = np.asarray(infoset_player, dtype=np.int64).reshape(n_infosets)
    infoset_n_actions = np.asarray([len(a) for a in infoset_actions], dtype=np.int64)
    infoset_actions_arr = np.full((n_infosets, max_actions), -1, dtype=np.int64)
    for i, legal in enumerate(infoset_actions):
        infoset_actions_arr[i, : len(legal)] = legal

    # Sequences: per player, infosets in id order get consecutive blocks after the empty one.
    seq_offset = np.zeros(n_infosets, dtype=np.int64)
    n_sequences = []
    for p in range(n_players):
        mine = np.flatnonzero(infoset_player_arr == p)
        sizes = infoset_n_actions[mine]
        seq_offset[mine] = 1 + np.cumsum(sizes) - sizes
        n_sequences.append(1 + int(sizes.sum()))

    # Each history's sequence for each player, level by level.
    node_seq = np.zeros((parent.shape[0], n_players), dtype=np.int64)
    slot = np.concatenate(slots)
    action = np.concatenate(actions)
    for d in range(1, len(offsets) - 1):
        lo, hi = offsets[d], offsets[d + 1]
        par = parent[lo:hi]
        node_seq[lo:hi] = node_seq[par]
        owner = player[par]
        decided = owner >= 0
        rows = np.flatnonzero(decided) + lo
        node_seq[rows, owner[decided]] = seq_offset[infoset[par[decided]]] + slot[rows]
    infoset_parent_seq = np.zeros(n_infosets, dtype=np.int64)
    decision = np.flatnonzero(infoset >= 0)
    infoset_parent_seq[infoset[decision]] = node_seq[decision, player[decision]]

    terminal_arr = np.asarray(terminal_ids, dtype=np.int64)
    payoffs = np.asarray(terminal_payoffs, dtype=np.float64).reshape(len(terminal_ids), n_players)
    tree = CompiledTree(
        game=game,
        n_players=n_players,
        parent=parent,
        action=action,
        player=player,
        slot=slot,
        chance_prob=chance_prob,
        reach_chance=reach_chance,
        first_child=first_child,
        n_children=n_children,
        infoset=infoset,
        level_offsets=offsets,
        terminal_ids=terminal_arr,
        terminal_payoffs=payoffs,
        infoset_keys=tuple(keys),
        infoset_player=infoset_player_arr,
        infoset_n_actions=infoset_n_actions,
        infoset_actions=infoset_actions_arr,
        infoset_parent_seq=infoset_parent_seq,
        seq_offset=seq_offset,
        n_sequences=tuple(n_sequences),
        terminal_seqs=node_seq[terminal_arr],
        max_actions=max_actions,
        _key_index=key_index,
    )
    for value in vars(tree).values():
        if isinstance(value, np.ndarray):
            value.setflags(write=False)
    return tree
