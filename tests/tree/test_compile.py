"""Compiled tree invariants on Kuhn, Leduc, 3-player Kuhn and matrix games."""

from __future__ import annotations

import importlib
import itertools
import time
from collections import defaultdict

import numpy as np
import pytest

from pokerlab._types import CHANCE, TERMINAL
from pokerlab.errors import GameTooLargeError, PokerlabError
from pokerlab.games import Game, State, bimatrix, kuhn, leduc, load
from pokerlab.tree import DEFAULT_MEMORY_LIMIT, CompiledTree, clear_cache, compile

compile_module = importlib.import_module("pokerlab.tree.compile")  # the name is shadowed

GAMES = {
    "kuhn": kuhn,
    "kuhn4": lambda: kuhn(cards=4),
    "kuhn3p": lambda: kuhn(players=3),
    "leduc": leduc,
    "leduc_stack4": lambda: leduc(stack=4),
    "leduc_stack6_nocap": lambda: leduc(stack=6, raise_cap=None),
    "rps": lambda: load("rps"),
    "dominance": lambda: load("dominance"),
    "bimatrix": lambda: bimatrix([[(1, 2), (3, 4), (5, 6)], [(7, 8), (9, 10), (11, 12)]]),
}


@pytest.fixture(params=list(GAMES), scope="module")
def tree(request: pytest.FixtureRequest) -> CompiledTree:
    return compile(GAMES[request.param]())


def _states(game: Game) -> list[State]:
    """Every history, breadth first, by walking the State API."""
    level = [game.initial_state()]
    out: list[State] = []
    while level:
        out.extend(level)
        level = [
            child
            for state in level
            for _, child in (
                [(a, state.child(a)) for a, _ in state.chance_outcomes()]
                if state.is_chance
                else state.children()
            )
        ]
    return out


def test_parents_before_children(tree: CompiledTree) -> None:
    ids = np.arange(tree.n_histories)
    assert tree.parent[0] == -1
    assert tree.action[0] == -1
    assert tree.slot[0] == -1
    assert np.all(tree.parent[1:] < ids[1:])
    assert np.all(tree.parent[1:] >= 0)
    assert np.all(np.diff(tree.parent[1:]) >= 0)  # breadth first: parents in order


def test_children_contiguous(tree: CompiledTree) -> None:
    counts = np.bincount(tree.parent[1:], minlength=tree.n_histories)
    np.testing.assert_array_equal(counts, tree.n_children)
    has = tree.n_children > 0
    assert np.all(tree.first_child[~has] == -1)
    for node in np.flatnonzero(has):
        lo = tree.first_child[node]
        hi = lo + tree.n_children[node]
        assert np.all(tree.parent[lo:hi] == node)
        np.testing.assert_array_equal(tree.slot[lo:hi], np.arange(hi - lo))
    # Terminals are exactly the childless nodes.
    np.testing.assert_array_equal(np.flatnonzero(~has), tree.terminal_ids)
    assert np.all(tree.player[tree.terminal_ids] == TERMINAL)


def test_levels_contiguous(tree: CompiledTree) -> None:
    offsets = tree.level_offsets
    assert offsets[0] == 0
    assert offsets[1] == 1
    assert offsets[-1] == tree.n_histories
    assert np.all(np.diff(offsets) > 0)
    depth = np.zeros(tree.n_histories, dtype=np.int64)
    for node in range(1, tree.n_histories):
        depth[node] = depth[tree.parent[node]] + 1
    for d in range(tree.depth + 1):
        assert np.all(depth[offsets[d] : offsets[d + 1]] == d)
    assert tree.depth == depth.max()


def test_chance_probabilities(tree: CompiledTree) -> None:
    chance = np.flatnonzero(tree.player == CHANCE)
    for node in chance:
        lo = tree.first_child[node]
        assert tree.chance_prob[lo : lo + tree.n_children[node]].sum() == pytest.approx(1.0)
    from_decision = tree.player[tree.parent[1:]] >= 0
    assert np.all(tree.chance_prob[1:][from_decision] == 1.0)
    # Chance reach alone sums to 1 over terminals only without decisions; with any strategy
    # profile multiplied in (here: uniform, and a random one), terminal reach sums to 1.
    rng = np.random.default_rng(0)
    for random in (False, True):
        weights = rng.random(tree.n_histories) + 0.1 if random else np.ones(tree.n_histories)
        edge = tree.chance_prob.copy()
        for node in tree.decision_ids:
            lo = tree.first_child[node]
            hi = lo + tree.n_children[node]
            edge[lo:hi] = weights[lo:hi] / weights[lo:hi].sum()
        reach = edge.copy()
        for node in range(1, tree.n_histories):
            reach[node] *= reach[tree.parent[node]]
        assert reach[tree.terminal_ids].sum() == pytest.approx(1.0, abs=1e-12)
    if not np.any(tree.player >= 0):
        assert tree.reach_chance[tree.terminal_ids].sum() == pytest.approx(1.0)
    # The deal: each level below a level of chance nodes only still sums to 1.
    for d in range(tree.depth):
        lo, hi = tree.level_offsets[d], tree.level_offsets[d + 1]
        if not np.all(tree.player[lo:hi] == CHANCE):
            break
        below = tree.reach_chance[hi : tree.level_offsets[d + 2]]
        assert below.sum() == pytest.approx(1.0)


def test_terminal_payoffs(tree: CompiledTree) -> None:
    assert tree.terminal_payoffs.shape == (tree.n_terminals, tree.n_players)
    if tree.game.is_zero_sum:
        np.testing.assert_allclose(tree.terminal_payoffs.sum(axis=1), 0.0, atol=1e-12)


def test_infosets(tree: CompiledTree) -> None:
    decision = tree.player >= 0
    assert np.all(tree.infoset[decision] >= 0)
    assert np.all(tree.infoset[~decision] == -1)
    np.testing.assert_array_equal(
        tree.infoset_player[tree.infoset[decision]], tree.player[decision]
    )
    assert len(set(tree.infoset_keys)) == tree.n_infosets
    for i, key in enumerate(tree.infoset_keys):
        assert tree.infoset_id(key) == i
    np.testing.assert_array_equal(np.unique(tree.infoset[decision]), np.arange(tree.n_infosets))
    np.testing.assert_array_equal(
        tree.n_children[decision], tree.infoset_n_actions[tree.infoset[decision]]
    )
    assert tree.legal_mask.shape == (tree.n_infosets, tree.max_actions)
    np.testing.assert_array_equal(tree.legal_mask, tree.infoset_actions >= 0)
    np.testing.assert_array_equal(tree.legal_mask.sum(axis=1), tree.infoset_n_actions)
    # Children of a decision node carry the infoset's actions, slot by slot.
    for node in np.flatnonzero(decision):
        lo = tree.first_child[node]
        n = tree.n_children[node]
        np.testing.assert_array_equal(
            tree.action[lo : lo + n], tree.infoset_actions[tree.infoset[node], :n]
        )
    np.testing.assert_array_equal(tree.decision_ids, np.flatnonzero(decision))
    with pytest.raises(PokerlabError, match="no infoset"):
        tree.infoset_id("no such key")


def test_sequences(tree: CompiledTree) -> None:
    for p in range(tree.n_players):
        mine = tree.infosets_of(p)
        blocks = sorted(
            (int(tree.seq_offset[i]), int(tree.seq_offset[i] + tree.infoset_n_actions[i]))
            for i in mine
        )
        # Blocks tile 1..n_sequences-1 exactly; 0 is the empty sequence.
        assert blocks[0][0] == 1
        assert blocks[-1][1] == tree.n_sequences[p]
        for (_, hi), (lo, _) in itertools.pairwise(blocks):
            assert hi == lo
    assert tree.sequence_counts() == list(tree.n_sequences)
    # Recompute each history's sequences by walking up, and compare at terminals and infosets.
    seqs = np.zeros((tree.n_histories, tree.n_players), dtype=np.int64)
    for node in range(1, tree.n_histories):
        par = tree.parent[node]
        seqs[node] = seqs[par]
        owner = tree.player[par]
        if owner >= 0:
            seqs[node, owner] = tree.seq_offset[tree.infoset[par]] + tree.slot[node]
    np.testing.assert_array_equal(tree.terminal_seqs, seqs[tree.terminal_ids])
    for node in tree.decision_ids:
        i = tree.infoset[node]
        assert tree.infoset_parent_seq[i] == seqs[node, tree.player[node]]  # perfect recall
    # Every parent sequence belongs to its player: 0 or a sequence of one of their infosets.
    for i in range(tree.n_infosets):
        parent_seq = tree.infoset_parent_seq[i]
        assert 0 <= parent_seq < tree.n_sequences[tree.infoset_player[i]]


def test_arrays_are_read_only(tree: CompiledTree) -> None:
    with pytest.raises(ValueError, match="read-only"):
        tree.parent[0] = 5
    assert tree.nbytes > 0


@pytest.mark.parametrize("name", ["kuhn", "kuhn3p", "leduc_stack4", "rps", "bimatrix"])
def test_matches_a_walk_of_the_state_api(name: str) -> None:
    game = GAMES[name]()
    tree = compile(game)
    states = _states(game)
    assert len(states) == tree.n_histories
    for node, state in enumerate(states):
        assert tree.player[node] == state.player
        if state.player >= 0:
            assert tree.infoset_keys[tree.infoset[node]] == state.infoset_key()
    for t, node in enumerate(tree.terminal_ids):
        assert tuple(tree.terminal_payoffs[t]) == states[node].returns()
    # History actions: walking down from the root with `action` rebuilds the state.
    for node in tree.terminal_ids[:: max(1, tree.n_terminals // 20)]:
        path = []
        at = node
        while at > 0:
            path.append(int(tree.action[at]))
            at = tree.parent[at]
        assert game.initial_state().apply_sequence(path[::-1]).history == states[node].history


def test_known_sizes() -> None:
    assert (compile(kuhn()).n_histories, compile(kuhn()).n_infosets) == (58, 12)
    assert compile(kuhn()).n_terminals == 30
    tree = compile(leduc())
    assert (tree.n_histories, tree.n_infosets, tree.n_sequences) == (9_457, 288, (337, 337))
    rps = compile(load("rps"))
    assert (rps.n_histories, rps.n_terminals, rps.n_infosets, rps.n_sequences) == (13, 9, 2, (4, 4))


def test_cache() -> None:
    first = compile(kuhn())
    assert compile(kuhn(cards=3)) is first
    clear_cache()
    second = compile(kuhn())
    assert second is not first
    np.testing.assert_array_equal(second.parent, first.parent)
    assert compile(kuhn()) is second


def test_too_large_before_allocating(monkeypatch: pytest.MonkeyPatch) -> None:
    # The size is counted, not built: the walk is never started.
    def no_build(*args: object, **kwargs: object) -> None:
        raise AssertionError("compile started building a tree that is too large")

    monkeypatch.setattr(compile_module, "_build", no_build)
    start = time.perf_counter()
    with pytest.raises(GameTooLargeError) as caught:
        compile(kuhn(cards=20000))
    assert time.perf_counter() - start < 5.0  # generous: well under a second when idle
    error = caught.value
    assert error.limit == DEFAULT_MEMORY_LIMIT
    assert error.found > error.limit
    assert "kuhn(cards=20000)" in str(error)
    assert "histories" in str(error)
    assert isinstance(error, PokerlabError)
    assert isinstance(error, MemoryError)


def test_small_memory_limit() -> None:
    with pytest.raises(GameTooLargeError) as caught:
        compile(leduc(ranks=4), memory_limit=100_000)
    assert caught.value.limit == 100_000
    assert caught.value.found > 100_000
    # A cached tree obeys the limit too.
    compile(leduc())
    with pytest.raises(GameTooLargeError):
        compile(leduc(), memory_limit=100_000)
    assert compile(leduc(), memory_limit=10**9).n_histories == 9_457


def test_too_large_without_a_count() -> None:
    # A game without count_histories is stopped level by level during the walk.
    class Uncounted(type(leduc())):  # type: ignore[misc]
        count_histories = None

    game = Uncounted(leduc(ranks=5).spec)
    with pytest.raises(GameTooLargeError, match="at least"):
        compile(game, memory_limit=200_000)
    clear_cache()


def test_inconsistent_infoset_is_refused() -> None:
    # An infoset key that forgets what the player knows merges histories with different
    # legal actions: compile refuses it.
    class Forgetful(type(leduc())):  # type: ignore[misc]
        def initial_state(self):  # type: ignore[no-untyped-def]
            state = super().initial_state()
            return _ForgetState(*[getattr(state, f) for f in state.__dataclass_fields__])

    from dataclasses import dataclass

    from pokerlab.games.leduc import LeducState

    @dataclass(frozen=True, slots=True)
    class _ForgetState(LeducState):
        def infoset_key(self, player: int | None = None) -> str:
            return "same"

        def _apply(self, action: int) -> LeducState:
            child = LeducState._apply(self, action)
            return _ForgetState(*[getattr(child, f) for f in child.__dataclass_fields__])

    game = Forgetful(
        leduc(ranks=2).spec.__class__.make("leduc", {**leduc().spec.as_kwargs(), "ranks": 2})
    )
    with pytest.raises(PokerlabError, match="disagree"):
        compile(game)
    clear_cache()


def test_direct_infoset_legal_actions_agree() -> None:
    for game in (kuhn(), kuhn(players=3), leduc(), leduc(stack=4)):
        legal: dict[str, tuple[int, ...]] = {}
        owners: dict[str, set[int]] = defaultdict(set)
        for state in _states(game):
            if state.player >= 0:
                key = state.infoset_key()
                assert legal.setdefault(key, state.legal_actions()) == state.legal_actions()
                owners[key].add(state.player)
        assert all(len(o) == 1 for o in owners.values())
