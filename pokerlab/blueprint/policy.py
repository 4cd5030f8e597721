"""A blueprint as a policy: the average strategy of a trained abstract game, on real hands.

At an observation, the real hand is mapped to the abstract game: its betting history walks
the betting tree (:func:`pokerlab.blueprint.nolimit.abstract_node`; off-menu no-limit raises
translated pseudo-harmonically, the draw seeded by the public history so the same history
always maps to the same node), its cards give the bucket (the card abstraction). The row's
average strategy is then spread over the real legal actions: fold and call to themselves,
an abstract raise to the real raise to the same total (clipped to the legal range; a call
where raising is not legal). Where the abstract hand is already over (an abstract all-in
was called), the policy checks or calls.

:meth:`BlueprintPolicy.action_probabilities_batch` answers many observations of one
public history (LBR asks for every hole-card pair) with one tree walk and one bucket call.
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from pokerlab._types import Action
from pokerlab.blueprint.betting_tree import DECISION, FOLD, RAISE, BettingTree
from pokerlab.blueprint.mccfr import BlueprintTrainer
from pokerlab.blueprint.nolimit import abstract_node
from pokerlab.blueprint.store import load_blueprint
from pokerlab.errors import SpecError
from pokerlab.games import load
from pokerlab.games.base import Game, State
from pokerlab.games.observation import Observation

CALL_ACTION: Action = 1
"""Check or call, in Leduc and Hold'em."""


class BlueprintPolicy:
    """The average strategy of a blueprint, for real observations (see the module docstring).

    Args:
        trainer: a trainer holding the blueprint's tables (e.g. from :func:`load_blueprint`).
        game: the game it plays: the blueprint's (default), or the same with other stacks
            or blinds.
        name: a display name.
    """

    def __init__(
        self, trainer: BlueprintTrainer, *, game: Game | None = None, name: str = "blueprint"
    ) -> None:
        from pokerlab.blueprint.deals import HoldemDealer

        if not isinstance(trainer.dealer, HoldemDealer):
            raise SpecError(f"a blueprint policy plays holdem games; got {trainer.game.spec}")
        self.dealer = trainer.dealer
        self.trainer = trainer
        self._game = trainer.game if game is None else game
        check_similar(trainer.game, self._game)
        self.name = name
        self._nodes: dict[tuple[object, ...], tuple[int, State]] = {}
        self._games: dict[str, Game] = {}

    @classmethod
    def from_file(
        cls, path: str | Path, game: Game, *, cache_dir: str | Path | None = None
    ) -> BlueprintPolicy:
        """Load a ``.bp`` file made for ``game``.

        Raises:
            FileFormatError: a missing or damaged file.
            SpecError: a blueprint of another game.
        """
        trainer, _ = load_blueprint(path, game=game, cache_dir=cache_dir)
        return cls(trainer, name=Path(path).stem)

    @property
    def game(self) -> Game:
        """The game it plays."""
        return self._game

    def game_of(self, observation: Observation) -> Game:
        """The game of ``observation``: the blueprint's, or one like it with other chips.

        A session changes the stacks from hand to hand; the blueprint still plays, its tree
        reached by pot fractions (translation) and its raises clipped to the real ranges.

        Raises:
            SpecError: a game with other players, cards or betting than the blueprint's.
        """
        if observation.game == str(self.game.spec):
            return self.game
        other = self._games.get(observation.game)
        if other is None:
            other = load(observation.game)
            check_similar(self.trainer.game, other)
            self._games[observation.game] = other
        return other

    def abstract_state(self, observation: Observation) -> tuple[int, State]:
        """The betting-tree node the observation's history maps to, and the real state.

        Off-menu raises are translated with a draw seeded by the public history, so one
        history always maps to one node (the searching agent builds its subgames from it).
        """
        return self._node(observation)

    def _node(self, observation: Observation) -> tuple[int, State]:
        key = (observation.game, observation.seat, observation.public_history, observation.board)
        found = self._nodes.get(key)
        if found is None:
            game = self.game_of(observation)
            state = game.public_state(observation)  # type: ignore[attr-defined]
            seed = zlib.crc32(repr(observation.public_history).encode())
            found = abstract_node(self.trainer.tree, game, state.history,
                                  np.random.default_rng(seed))
            if len(self._nodes) > 4096:
                self._nodes.clear()
            self._nodes[key] = found
        return found

    def action_probabilities(self, observation: Observation) -> dict[Action, float]:
        """``{action: probability}`` over the legal actions of ``observation``."""
        return self.action_probabilities_batch([observation])[0]

    def action_probabilities_batch(
        self, observations: Sequence[Observation]
    ) -> list[dict[Action, float]]:
        """The probabilities at each observation (one tree walk per public history)."""
        answers: list[dict[Action, float]] = [{} for _ in observations]
        groups: dict[tuple[object, ...], list[int]] = {}
        for i, obs in enumerate(observations):
            key = (obs.game, obs.seat, obs.public_history, obs.board)
            groups.setdefault(key, []).append(i)
        for indices in groups.values():
            first = observations[indices[0]]
            node, state = self._node(first)
            tree = self.trainer.tree
            if tree.kind[node] != DECISION or tree.player[node] != first.seat:
                for i in indices:
                    legal = observations[i].legal_actions
                    answers[i] = {a: float(a == CALL_ACTION) for a in legal}
                    if CALL_ACTION not in legal:
                        answers[i] = {a: 1.0 / len(legal) for a in legal}
                continue
            buckets = self._buckets(state, [observations[i] for i in indices])
            street = int(tree.street[node])
            n = int(tree.n_actions[node])
            targets = self.real_targets(node, state, first.legal_actions, self.game_of(first))
            for i, bucket in zip(indices, buckets[:, street].tolist(), strict=True):
                probs = self.trainer.average_probabilities(self.trainer.row_of(node, bucket), n)
                answer = dict.fromkeys(observations[i].legal_actions, 0.0)
                for j in range(n):
                    answer[targets[j]] += float(probs[j])
                answers[i] = answer
        return answers

    def pair_probabilities(
        self, observation: Observation, pairs: NDArray[np.int64]
    ) -> NDArray[np.float64]:
        """The probabilities at ``observation`` for each hole-card pair of ``pairs`` in its place.

        ``[len(pairs), len(legal)]``, columns in the order of ``observation.legal_actions``:
        what :meth:`action_probabilities_batch` answers for the observations with the private
        cards swapped, in one tree walk, one bucket call and array arithmetic (LBR asks this
        for every pair the opponent may hold, after every action).

        Args:
            observation: the observation of the player to act (its own cards are ignored).
            pairs: ``[n, hole size]`` card ids, none on the board.
        """
        legal = observation.legal_actions
        pairs = np.asarray(pairs, dtype=np.int64).reshape(-1, self.dealer.hole_size)
        table = np.zeros((len(pairs), len(legal)))
        node, state = self._node(observation)
        tree = self.trainer.tree
        if tree.kind[node] != DECISION or tree.player[node] != observation.seat:
            if CALL_ACTION in legal:
                table[:, legal.index(CALL_ACTION)] = 1.0
            else:
                table[:] = 1.0 / len(legal)
            return table
        if not len(pairs):
            return table
        street = int(tree.street[node])
        n = int(tree.n_actions[node])
        buckets = self._pair_buckets(observation, pairs)[:, street]
        probs = self.trainer.average_rows(self.trainer.row_of(node, 0) + buckets, n)
        targets = self.real_targets(node, state, observation.legal_actions,
                                    self.game_of(observation))
        for j, target in enumerate(targets):
            table[:, legal.index(target)] += probs[:, j]
        return table

    def _pair_buckets(
        self, observation: Observation, pairs: NDArray[np.int64]
    ) -> NDArray[np.int32]:
        """``[len(pairs), streets]`` buckets of each pair on the observation's board."""
        from pokerlab.cards import parse_cards

        return self.buckets_on(tuple(int(c) for c in parse_cards(observation.board)), pairs)

    def buckets_on(self, board: tuple[int, ...], pairs: NDArray[np.int64]) -> NDArray[np.int32]:
        """``[len(pairs), streets]`` buckets of each hole-card pair on ``board``.

        Streets past the board's are padded (their buckets mean nothing). Pairs must not
        hold a board card.
        """
        return self.buckets_on_boards([(board, pairs)])[0]

    def buckets_on_boards(
        self, batches: Sequence[tuple[tuple[int, ...], NDArray[np.int64]]]
    ) -> list[NDArray[np.int32]]:
        """:meth:`buckets_on` for several ``(board, pairs)`` at once, in one bucket call.

        A search asks for every river of its turn (48 boards of about a thousand pairs):
        one call runs them on every core instead of one small call a board.
        """
        hole = self.dealer.hole_size
        deck = self.dealer.deck.tolist()
        holes, boards = [], []
        for board, pairs in batches:
            pairs = np.asarray(pairs, dtype=np.int64).reshape(-1, hole)
            missing = self.dealer.board_size - len(board)
            holes.append(pairs)
            if missing == 0:  # a full board (every river of a turn search): no padding
                boards.append(np.broadcast_to(np.array(board, dtype=np.int64),
                                              (len(pairs), len(board))))
                continue
            # The padding (streets not dealt yet; their buckets are never read): the lowest
            # cards of the deck that are neither on the board nor in the pair, as pad_board.
            candidates = np.array([c for c in deck if c not in board][: missing + hole],
                                  dtype=np.int64)
            held = (candidates[None, :, None] == pairs[:, None, :]).any(axis=2)
            pick = np.argsort(held, axis=1, kind="stable")[:, :missing]
            boards.append(np.concatenate(
                [np.broadcast_to(np.array(board, dtype=np.int64), (len(pairs), len(board))),
                 candidates[pick]], axis=1))
        if not holes:
            return []
        found = self.trainer.cards.buckets(np.concatenate(holes)[:, None, :],
                                           np.concatenate(boards))[:, 0, :]
        ends = np.cumsum([len(h) for h in holes])
        return np.split(found, ends[:-1])

    def real_targets(
        self, node: int, state: State, legal: Sequence[Action], game: Game
    ) -> list[Action]:
        """The real legal action each of the abstract ``node``'s actions stands for.

        Fold and call stand for themselves, an abstract raise for the legal raise putting
        in the same total (clipped to the legal range), where raising is not legal for a
        call; ``legal`` are the real state's legal actions.
        """
        p = state.player
        no_limit = bool(getattr(game.rules, "no_limit", False))  # type: ignore[attr-defined]
        bounds = state.raise_range() if no_limit else None  # type: ignore[attr-defined]
        return menu_targets(
            self.trainer.tree, node, legal, committed=state.contributions()[p],
            street_bet=state.bets[p], bounds=bounds,  # type: ignore[attr-defined]
        )  # fmt: skip

    def _buckets(self, state: State, observations: Sequence[Observation]) -> NDArray[np.int32]:
        """``[len(observations), streets]`` buckets of each observer's cards on this board."""
        from pokerlab.cards import parse_cards

        dealer = self.dealer
        holes, boards = [], []
        for obs in observations:
            hole = tuple(int(c) for c in parse_cards(obs.private_cards))
            board = [int(c) for c in parse_cards(obs.board)]
            holes.append(hole)
            boards.append(dealer.pad_board(hole, board))
        seen = self.trainer.cards.buckets(np.array(holes)[:, None, :], np.array(boards))
        return seen[:, 0, :]


def menu_targets(
    tree: BettingTree,
    node: int,
    legal: Sequence[Action],
    *,
    committed: float,
    street_bet: float,
    bounds: tuple[int, int] | None,
) -> list[Action]:
    """The real action each of the abstract ``node``'s actions stands for, at a real node.

    Fold and call stand for themselves; an abstract raise for the legal raise putting in
    the same total as the abstract one (no-limit: clipped to the real raise ``bounds``;
    limit: the one raise), a call where raising is not legal.

    Args:
        tree: the blueprint's betting tree.
        node: an abstract decision node.
        legal: the real node's legal actions.
        committed: chips the player to act has put in this hand (antes and blinds in).
        street_bet: chips it has bet on this street.
        bounds: no-limit: the real raise-to range ``(min, max)`` (None in limit).
    """
    raises = [a for a in legal if a >= RAISE]
    out: list[Action] = []
    for j in range(int(tree.n_actions[node])):
        kind = int(tree.action_kind[node, j])
        if kind == FOLD and FOLD in legal:
            out.append(FOLD)
        elif kind == RAISE and raises:
            if bounds is None:
                out.append(raises[0])
            else:
                amount = round(int(tree.raise_to[node, j]) - (committed - street_bet))
                out.append(RAISE + min(max(amount, bounds[0]), bounds[1]))
        else:
            out.append(CALL_ACTION if CALL_ACTION in legal else legal[0])
    return out


def check_similar(game: Game, other: Game) -> None:
    """Refuse ``other`` unless it is ``game`` with other stacks or blinds.

    Raises:
        SpecError: naming what differs.
    """
    mine, theirs = game.rules, other.rules  # type: ignore[attr-defined]
    for name in ("n_players", "no_limit", "deck", "hole_size", "board_sizes"):
        if getattr(mine, name, None) != getattr(theirs, name, None):
            raise SpecError(
                f"the blueprint is for {game.spec}; {other.spec} differs in {name} (a "
                "blueprint plays its game with other stacks or blinds only)"
            )


__all__ = ["BlueprintPolicy", "check_similar", "menu_targets"]
