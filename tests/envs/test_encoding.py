"""The observation tensor: its documented layout, read back from states of every family.

On games that compile the whole tree is walked: at every decision the vector is a function
of the acting player's infoset (equal within an infoset, different between infosets), so
a policy over vectors is a strategy. On Hold'em, random hands check each block against
the state's own fields.
"""

from __future__ import annotations

import numpy as np
import pytest

from pokerlab._types import TERMINAL
from pokerlab.envs.encoding import (
    NO_LIMIT_HISTORY,
    HoldemEncoder,
    observation_encoder,
)
from pokerlab.errors import SpecError
from pokerlab.games import Game, HoldemState, State, load
from pokerlab.games.holdem_rules import RAISE


def _decisions(game: Game) -> list[State]:
    out = []
    stack = [game.initial_state()]
    while stack:
        state = stack.pop()
        if state.player == TERMINAL:
            continue
        if state.player >= 0:
            out.append(state)
        stack.extend(state.child(a) for a in state.legal_actions())
    return out


@pytest.mark.parametrize(
    "spec",
    ["kuhn", "kuhn(players=3)", "kuhn(cards=6)", "leduc", "leduc(stack=8, raise_cap=None)",
     "leduc(ranks=4, raise_cap=3)"],
)
def test_the_vector_is_a_function_of_the_infoset_and_tells_infosets_apart(spec: str) -> None:
    game = load(spec)
    encoder = observation_encoder(game)
    by_key: dict[str, bytes] = {}
    by_vector: dict[bytes, str] = {}
    for state in _decisions(game):
        vector = encoder.encode(state, state.player)
        assert vector.shape == (encoder.size,)
        assert vector.dtype == np.float32
        assert vector.min() >= 0.0
        assert vector.max() <= 1.0
        key = f"{state.player}:{state.infoset_key()}"
        raw = vector.tobytes()
        assert by_key.setdefault(key, raw) == raw, key
        assert by_vector.setdefault(raw, key) == key, (key, by_vector[raw])
    assert len(by_key) == len(by_vector) > 10


def test_the_layout_blocks_tile_the_vector_and_are_named() -> None:
    encoder = observation_encoder(load("holdem(players=6)"))
    offset = 0
    for block in encoder.layout:
        assert block.offset == offset
        offset += block.size
    assert offset == encoder.size
    assert [b.name for b in encoder.layout] == [
        "seat", "hand", "board", "street", "committed", "behind", "folded", "to_call", "history",
    ]
    assert encoder.block("history").size == 4 * NO_LIMIT_HISTORY * 4
    with pytest.raises(SpecError, match="blocks: seat, hand"):
        encoder.block("pot")


def test_kuhn_blocks_hold_the_card_the_chips_and_the_betting() -> None:
    game = load("kuhn(players=3)")
    encoder = observation_encoder(game)
    # P1 holds the K (card 2 of J Q K A), checks; P2 bets; P3 folds; P1 to act.
    state = game.initial_state().apply_sequence([2, 0, 3, 0, 1, 0])
    assert state.player == 0
    vector = encoder.encode(state, 0)

    def block(name: str) -> list[float]:
        b = encoder.block(name)
        return vector[b.offset : b.offset + b.size].tolist()

    assert block("seat") == [1, 0, 0]
    assert block("hand") == [0, 0, 1, 0]
    assert block("committed") == [0.5, 1.0, 0.5]  # P1, then P2 (bet), then P3; / chip_scale 2
    assert block("folded") == [0, 0, 1]
    assert block("to_call") == [0.5]
    history = np.array(block("history")).reshape(-1, 3)
    assert history[:3].tolist() == [[0, 1, 0], [0, 0, 1], [1, 0, 0]]  # check, bet, fold
    assert not history[3:].any()


def test_leduc_blocks_name_ranks_and_both_rounds() -> None:
    game = load("leduc")
    encoder = observation_encoder(game)
    # Ranks Q K A: P1 holds a K (card 2), P2 a Q (card 0); raise, call; board K (card
    # 3); P1 checks; P2 to act.
    state = game.initial_state().apply_sequence([2, 0, 2, 1, 3, 1])
    assert state.player == 1
    vector = encoder.encode(state, 1)
    b = encoder.block
    assert vector[b("hand").offset : b("hand").offset + 3].tolist() == [1, 0, 0]  # Q
    assert vector[b("board").offset : b("board").offset + 3].tolist() == [0, 1, 0]  # K
    assert vector[b("street").offset + 1] == 1
    slots = vector[b("history").offset :].reshape(2, -1, 3)
    assert slots[0, :2].tolist() == [[0, 0, 1], [0, 1, 0]]
    assert slots[1, :1].tolist() == [[0, 1, 0]]
    committed = vector[b("committed").offset : b("committed").offset + 2]
    assert committed.tolist() == pytest.approx([3 / encoder.chip_scale] * 2)


def _random_hand(game: Game, rng: np.random.Generator) -> list[State]:
    states = []
    state = game.initial_state()
    while state.player != TERMINAL:
        legal = state.legal_actions()
        if state.player >= 0:
            states.append(state)
            if len(legal) > 3 and rng.random() < 0.7:  # no-limit: mostly fold/call/min raise
                legal = legal[:3]
        state = state.child(legal[int(rng.integers(len(legal)))])
    states.append(state)
    return states


@pytest.mark.parametrize(
    "spec",
    ['holdem(betting="limit")', "holdem", "holdem(players=6)", 'holdem(players=9, betting="limit")',
     "holdem(players=3, stack=(50, 200, 100))", 'holdem(betting="limit", hole=1, board="1,1")'],
)
def test_holdem_blocks_match_the_state(spec: str) -> None:
    game = load(spec)
    encoder = observation_encoder(game)
    assert isinstance(encoder, HoldemEncoder)
    rng = np.random.default_rng(5)
    n = game.n_players
    deck = list(game.rules.deck)
    checked = 0
    for _ in range(40):
        for state in _random_hand(game, rng):
            assert isinstance(state, HoldemState)
            first = max(state.player, 0)
            for player in (first, (first + 1) % n):  # the actor and one other
                vector = encoder.encode(state, player)
                assert vector.min() >= 0.0
                assert vector.max() <= 1.0
                b = {block.name: vector[block.offset : block.offset + block.size]
                     for block in encoder.layout}
                assert np.flatnonzero(b["seat"]).tolist() == [player]
                assert sorted(np.flatnonzero(b["hand"]).tolist()) == sorted(
                    deck.index(c) for c in state.hole_cards(player))
                assert sorted(np.flatnonzero(b["board"]).tolist()) == sorted(
                    deck.index(c) for c in state.board)
                assert np.flatnonzero(b["street"]).tolist() == [state.street]
                order = [(player + k) % n for k in range(n)]
                scale = encoder.chip_scale
                assert b["committed"] * scale == pytest.approx([state.committed[p] for p in order])
                assert b["behind"] * scale == pytest.approx([state.behind[p] for p in order])
                assert b["folded"].tolist() == [float(state.folded[p]) for p in order]
                slots = b["history"].reshape(encoder.n_streets, encoder.history_length, -1)
                for street, actions in enumerate(state.betting):
                    kept = actions[-encoder.history_length :]
                    kinds = np.argmax(slots[street, : len(kept), :3], axis=1).tolist()
                    assert kinds == [min(a, RAISE) for a in kept]
                    assert not slots[street, len(kept) :].any()
                    if game.no_limit:
                        amounts = slots[street, : len(kept), 3] * scale
                        assert amounts == pytest.approx(
                            [a - RAISE if a >= RAISE else 0 for a in kept])
                checked += 1
    assert checked > 200


def test_holdem_vectors_ignore_the_other_players_cards() -> None:
    game = load("holdem(players=3)")
    encoder = observation_encoder(game)
    betting = [RAISE + 6, 1, 1]  # the button raises to 6, both blinds call
    # Hole cards are dealt round robin: player p gets deals p and p + 3.
    first = game.initial_state().apply_sequence([0, 10, 20, 1, 11, 21, *betting, 30, 31, 32])
    second = game.initial_state().apply_sequence([0, 40, 44, 1, 41, 45, *betting, 30, 31, 32])
    assert first.infoset_key(0) == second.infoset_key(0)
    assert first.infoset_key(1) != second.infoset_key(1)
    assert np.array_equal(encoder.encode(first, 0), encoder.encode(second, 0))
    assert not np.array_equal(encoder.encode(first, 1), encoder.encode(second, 1))


def test_a_long_no_limit_round_keeps_its_last_actions() -> None:
    game = load("holdem(stack=1000)")
    encoder = observation_encoder(game, history_length=2)
    state = game.initial_state().apply_sequence([0, 1, 2, 3])
    for amount in (4, 8, 16, 32):
        state = state.child(state.action_for_raise_to(amount))  # type: ignore[attr-defined]
    vector = encoder.encode(state, state.player)
    slots = vector[encoder.block("history").offset :].reshape(4, 2, 4)
    assert (slots[0, :, 3] * encoder.chip_scale).tolist() == [16, 32]


def test_the_cached_betting_part_is_not_shared_with_callers() -> None:
    game = load("leduc")
    encoder = observation_encoder(game)
    state = game.initial_state().apply_sequence([0, 2])
    first = encoder.encode(state, 0)
    first[:] = 7.0
    assert encoder.encode(state, 0).max() <= 1.0


def test_games_without_an_encoder_are_refused() -> None:
    with pytest.raises(SpecError, match="environments play kuhn, leduc, holdem"):
        observation_encoder(load("rps"))
    with pytest.raises(SpecError, match="history_length must be an int >= 1"):
        observation_encoder(load("holdem"), history_length=0)

