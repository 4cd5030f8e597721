"""The abstract game: the real game's histories and payoffs, with bucketed infoset keys.

``abstract_game(kuhn(cards=100), "uniform:10")`` plays exactly like 100-card Kuhn (same
deals, same betting, same chips), but a player sees only the *bucket* of their card:
the infoset key ``"37|pb"`` becomes ``"31-40|pb"``, so the compiled tree has 40 infosets
instead of 400, and a strategy of it plays every card of a bucket alike. Since the betting
is still observed and a player's bucket never changes, the abstract game keeps perfect
recall, so every exact algorithm (LP, CFR, best response) applies to it.

Leduc buckets ranks (suits never matter); the board card is bucketed too (by default with
the same buckets), and when ``pair_counts`` is on and a bucket holds several ranks the
round-2 key says whether the private card pairs the board (``"Q-A|Q-A(pair)|rc|"``),
since a pair is worth far more than anything a bucket could tell apart. With
``raise_cap=K`` the abstract game of ``leduc(stack=50, raise_cap=None)`` is played with
at most ``K`` bets and raises per round (the betting abstraction; :mod:`.betting` maps
the real game's longer raise wars onto it).

Abstract games live outside the game registry (``games`` cannot import ``abstraction``)
but load by name: this module registers a loader for ``"abstract"`` (and ``"collapsed"``)
when it is imported, and the registry's ``PROVIDERS`` table names this module, so
``games.load("abstract(game='kuhn(cards=100)', cards='uniform:10')")`` works and
strategy files of abstract games load again, even when nothing imported this package.

Solving is done on the *collapsed* game (:func:`collapse`): histories that differ only
in cards the abstraction cannot see (the card inside a bucket, the suit) are merged, with
chance dealing buckets with their probabilities and each merged terminal paying the
chance-weighted mean payoff. For every strategy of the abstract game its values in the
two games are equal, so their equilibria are the same; 100-card Kuhn with 10 buckets
collapses from 89,201 histories to about a thousand.
"""

from __future__ import annotations

import bisect
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from pokerlab._cache import SpecCache
from pokerlab._types import CHANCE, Action, FloatArray, IntArray, Player
from pokerlab.abstraction.betting import translate_leduc_key
from pokerlab.abstraction.buckets import Bucketing, parse_bucketing
from pokerlab.errors import PokerlabError, SpecError
from pokerlab.games import load
from pokerlab.games.base import Game, State
from pokerlab.games.kuhn import KuhnGame
from pokerlab.games.leduc import LeducGame
from pokerlab.games.registry import register_loader
from pokerlab.games.spec import GameSpec
from pokerlab.tree import CompiledTree, compile

ABSTRACT_PARAMETERS = ("game", "cards", "board", "raise_cap")
"""The parameters of an ``abstract(...)`` spec."""


# -- cards ------------------------------------------------------------------------------
class CardAbstraction:
    """Maps the infoset keys of a Kuhn or Leduc game to bucketed keys.

    Args:
        game: the game whose keys are mapped (a :class:`KuhnGame` or :class:`LeducGame`).
        cards: the buckets of the private card (Kuhn cards, Leduc ranks).
        board: the buckets of the Leduc board rank (default: ``cards``).

    Raises:
        SpecError: another game, or buckets for the wrong number of cards.
    """

    def __init__(self, game: Game, cards: Bucketing, board: Bucketing | None = None) -> None:
        if isinstance(game, KuhnGame):
            names: tuple[str, ...] = game.card_names
            self.is_leduc = False
            self.pair_counts = False
        elif isinstance(game, LeducGame):
            names = game.rank_names
            self.is_leduc = True
            self.pair_counts = game.pair_counts
        else:
            raise SpecError(
                f"card abstraction supports kuhn and leduc games; got {game.spec}"
            )
        self.game = game
        self.names = names
        self.n_items = len(names)
        for what, bucketing in (("cards", cards), ("board", board)):
            if bucketing is not None and bucketing.n_items != self.n_items:
                unit = "ranks" if self.is_leduc else "cards"
                raise SpecError(
                    f"{what} buckets are for {bucketing.n_items} items, but {game.spec} has "
                    f"{self.n_items} {unit}"
                )
        if board is not None and not self.is_leduc:
            raise SpecError(f"{game.spec} has no board card; board buckets apply to leduc only")
        self.cards = cards
        self.board = board if board is not None else cards
        self._index = {name: i for i, name in enumerate(names)}

    @cached_property
    def _private_names(self) -> tuple[str, ...]:
        return tuple(_bucket_name(self.cards, b, self.names) for b in range(self.cards.n_buckets))

    @cached_property
    def _board_names(self) -> tuple[str, ...]:
        return tuple(_bucket_name(self.board, b, self.names) for b in range(self.board.n_buckets))

    def item(self, name: str) -> int:
        """The index of a card (Kuhn) or rank (Leduc) from its name in a key."""
        try:
            return self._index[name]
        except KeyError:
            raise PokerlabError(
                f"{name!r} is not a card of {self.game.spec}; cards: {', '.join(self.names)}"
            ) from None

    def map_key(self, key: str) -> str:
        """The abstract key of an infoset key of :attr:`game`: ``"37|pb"`` -> ``"31-40|pb"``."""
        fields = key.split("|")
        private = self.item(fields[0])
        fields[0] = self._private_names[self.cards.bucket_of(private)]
        if self.is_leduc and len(fields) == 4:
            board = self.item(fields[1])
            name = self._board_names[self.board.bucket_of(board)]
            exact = len(self.cards.members(self.cards.bucket_of(private))) == 1 and len(
                self.board.members(self.board.bucket_of(board))
            ) == 1
            if self.pair_counts and private == board and not exact:
                name += "(pair)"
            fields[1] = name
        return "|".join(fields)

    def chance_labels(self, tree: CompiledTree) -> IntArray:
        """``[H]`` what the abstraction sees of each chance outcome (-1 off chance edges).

        Private deals become the dealt card's bucket; the Leduc board becomes its bucket
        and whether it pairs each player's card. Histories whose chance labels and actions
        agree are indistinguishable to every player of the abstract game.
        """
        n = tree.n_players
        events = n + (1 if self.is_leduc else 0)
        deals = np.full((tree.n_histories, events), -1, dtype=np.int64)
        labels = np.full(tree.n_histories, -1, dtype=np.int64)
        count = np.zeros(tree.n_histories, dtype=np.int64)
        offsets = tree.level_offsets
        private = np.asarray(self.cards.assignment)
        board = np.asarray(self.board.assignment)
        for d in range(1, offsets.shape[0] - 1):
            lo, hi = int(offsets[d]), int(offsets[d + 1])
            parent = tree.parent[lo:hi]
            deals[lo:hi] = deals[parent]
            count[lo:hi] = count[parent]
            dealt = np.flatnonzero(tree.player[parent] == CHANCE)
            if dealt.shape[0] == 0:
                continue
            rows = dealt + lo
            item = tree.action[rows] // (2 if self.is_leduc else 1)
            slot = count[rows]
            deals[rows, slot] = item
            count[rows] += 1
            is_private = slot < n
            labels[rows[is_private]] = private[item[is_private]]
            board_rows = rows[~is_private]
            if board_rows.shape[0]:
                board_item = item[~is_private]
                code = board[board_item] << n
                if self.pair_counts:
                    for p in range(n):
                        code |= (deals[board_rows, p] == board_item).astype(np.int64) << p
                labels[board_rows] = code
        return labels

    def label_name(self, event: int, label: int) -> str:
        """A readable name for chance label ``label`` of the ``event``-th chance event."""
        if event < self.game.n_players:
            return f"deal {self._private_names[label]}"
        n = self.game.n_players
        name = f"board {self._board_names[label >> n]}"
        pairs = [str(p + 1) for p in range(n) if label >> p & 1]
        return name + (f" (pairs P{', P'.join(pairs)})" if pairs else "")


def _bucket_name(bucketing: Bucketing, bucket: int, names: tuple[str, ...]) -> str:
    members = bucketing.members(bucket)
    if len(members) == 1:
        return names[members[0]]
    return f"{names[members[0]]}-{names[members[-1]]}"


def item_names(game: Game) -> tuple[str, ...]:
    """The names of the items a bucketing of ``game`` groups (Kuhn cards, Leduc ranks)."""
    if isinstance(game, AbstractGame):
        game = game.full
    if isinstance(game, KuhnGame):
        return game.card_names
    if isinstance(game, LeducGame):
        return game.rank_names
    raise SpecError(f"card abstraction supports kuhn and leduc games; got {game.spec}")


def item_weights(game: Game) -> FloatArray:
    """The probability of each item being a player's private card (all equal in both games)."""
    names = item_names(game)
    return np.full(len(names), 1.0 / len(names))


def _as_bucketing(value: str | Bucketing | None, game: Game, what: str) -> Bucketing | None:
    if value is None or isinstance(value, Bucketing):
        return value
    n_items = len(item_names(game))
    try:
        return parse_bucketing(value, n_items, weights=item_weights(game))
    except SpecError as exc:
        raise SpecError(f"{what}: {exc}") from None


def _bucketing_text(value: str | Bucketing, bucketing: Bucketing) -> str:
    if isinstance(value, str):
        name = value.strip().lower().replace(" ", "")
        if name.startswith(("uniform:", "percentile:")) or name == "identity":
            return name
    return bucketing.to_text()


# -- the abstract game -----------------------------------------------------------------
class AbstractGame(Game):
    """A Kuhn or Leduc game seen through card buckets (and, for Leduc, a raise cap).

    Build it with :func:`abstract_game`. Its states are the states of :attr:`base` (the
    real game, with ``raise_cap`` replaced when one is given) and only the infoset keys
    differ. :meth:`abstract_key` maps a key of the *real* game :attr:`full` to the
    abstract key that plays it (bucketing, after translating raises beyond the cap).

    Attributes:
        full: the real game the abstraction is of.
        base: the game whose histories the abstract game has (``full``, or ``full`` with
            the raise cap of the betting abstraction).
        cards: the private card buckets.
        board: the Leduc board buckets (None: the same as ``cards``).
        raise_cap: the betting abstraction's bets + raises per round (None: none).
    """

    def __init__(
        self,
        full: Game,
        cards: Bucketing,
        board: Bucketing | None = None,
        raise_cap: int | None = None,
        *,
        cards_text: str | None = None,
        board_text: str | None = None,
    ) -> None:
        self.full = full
        self.cards = cards
        self.board = board
        self.raise_cap = raise_cap
        self.base = _capped(full, raise_cap)
        self.mapping = CardAbstraction(self.base, cards, board)
        self.n_players = full.n_players
        params: dict[str, object] = {
            "game": str(full.spec),
            "cards": cards_text or cards.to_text(),
            "board": board_text if board is not None else None,
            "raise_cap": raise_cap,
        }
        if board is not None and board_text is None:
            params["board"] = board.to_text()
        defaults = {"cards": "identity", "board": None, "raise_cap": None}
        self.spec = GameSpec.make("abstract", params, defaults)

    @property
    def max_actions(self) -> int:
        """The real game's action ids."""
        return self.base.max_actions

    def action_name(self, action: Action) -> str:
        """The real game's action names."""
        return self.base.action_name(action)

    @property
    def is_zero_sum(self) -> bool:
        """Zero-sum exactly when the real game is."""
        return self.base.is_zero_sum

    def initial_state(self) -> AbstractState:
        """The real game's initial state, seen through the buckets."""
        return AbstractState(self, self.base.initial_state())

    def count_histories(self) -> int | None:
        """The number of histories (those of :attr:`base`), for compile's size check."""
        count = getattr(self.base, "count_histories", None)
        return None if count is None else int(count())

    def abstract_key(self, full_key: str) -> str:
        """The abstract infoset key that plays the real game's infoset ``full_key``."""
        if self.raise_cap is not None:
            full_key = translate_leduc_key(full_key, self.raise_cap)
        return self.mapping.map_key(full_key)

    def describe(self) -> str:
        """One line: the real game and the abstraction."""
        names = item_names(self.full)
        text = f"{self.full.spec} with card buckets {self.cards.describe(names)}"
        if self.board is not None:
            text += f", board buckets {self.board.describe(names)}"
        if self.raise_cap is not None:
            text += f", at most {self.raise_cap} bets and raises per round"
        return text


def _capped(full: Game, raise_cap: int | None) -> Game:
    if raise_cap is None:
        return full
    if isinstance(raise_cap, bool) or not isinstance(raise_cap, int):
        raise SpecError(f"raise_cap must be an integer >= 1 or None; got {raise_cap!r}")
    if not isinstance(full, LeducGame) or full.n_players != 2:
        raise SpecError(
            f"raise_cap (a betting abstraction) applies to two-player leduc only; got {full.spec}"
        )
    if raise_cap < 1 or (full.raise_cap is not None and raise_cap >= full.raise_cap):
        upper = "" if full.raise_cap is None else f" and below the game's own cap {full.raise_cap}"
        raise SpecError(f"raise_cap must be at least 1{upper}; got {raise_cap}")
    return load(GameSpec.make("leduc", {**full.spec.as_kwargs(), "raise_cap": raise_cap}))


@dataclass(frozen=True, slots=True)
class AbstractState(State):
    """A state of the real game (:attr:`inner`) whose infoset keys are bucketed."""

    abstract: AbstractGame
    inner: State

    @property
    def game(self) -> AbstractGame:
        """The abstract game."""
        return self.abstract

    @property
    def player(self) -> Player:
        """The real state's player."""
        return self.inner.player

    @property
    def history(self) -> tuple[Action, ...]:
        """The real state's history."""
        return self.inner.history

    def legal_actions(self) -> tuple[Action, ...]:
        """The real state's legal actions."""
        return self.inner.legal_actions()

    def _apply(self, action: Action) -> AbstractState:
        return AbstractState(self.abstract, self.inner._apply(action))

    def chance_outcomes(self) -> tuple[tuple[Action, float], ...]:
        """The real state's chance outcomes."""
        return self.inner.chance_outcomes()

    def infoset_key(self, player: Player | None = None) -> str:
        """The bucketed key of what ``player`` knows."""
        if player is None:
            player = self.inner.player
        return self.abstract.mapping.map_key(self.inner.infoset_key(player))

    def _terminal_returns(self) -> tuple[float, ...]:
        return self.inner.returns()

    def action_name(self, action: Action) -> str:
        """The real state's action name."""
        return self.inner.action_name(action)

    def public_event(self, action: Action, child: State) -> tuple[Player, str] | None:
        """The real state's public event."""
        assert isinstance(child, type(self))
        return self.inner.public_event(action, child.inner)

    def public_history(self) -> tuple[tuple[Player, str], ...]:
        """The real state's public history."""
        return self.inner.public_history()

    def private_cards(self, player: Player) -> str:
        """The real state's private cards."""
        return self.inner.private_cards(player)

    def board_cards(self) -> str:
        """The real state's board."""
        return self.inner.board_cards()

    def contributions(self) -> tuple[float, ...]:
        """The real state's contributions."""
        return self.inner.contributions()

    def stacks(self) -> tuple[float, ...] | None:
        """The real state's stacks."""
        return self.inner.stacks()


def abstract_game(
    game: Game | str,
    cards: str | Bucketing = "identity",
    *,
    board: str | Bucketing | None = None,
    raise_cap: int | None = None,
) -> AbstractGame:
    """Return the abstract game of ``game`` with card buckets (and, for Leduc, a raise cap).

    Args:
        game: the real game (a Game or a spec string): Kuhn with any number of cards, or
            Leduc with any number of ranks.
        cards: the private card buckets: a :class:`Bucketing` or its text
            (``"uniform:10"``, ``"percentile:10"``, ``"boundaries:0,5,17"``, ``"identity"``).
        board: Leduc's board buckets (default: the same as ``cards``).
        raise_cap: bets + raises per round of the betting abstraction (two-player Leduc).

    Raises:
        SpecError: an unknown bucketing, a number of buckets outside ``1..N``, boundaries
            out of order or range, another game, or a bad raise cap; the message says what
            is allowed.

    Example:
        >>> from pokerlab.games import kuhn
        >>> small = abstract_game(kuhn(cards=100), "uniform:10")
        >>> small.abstract_key("37|pb"), str(small.spec)
        ('31-40|pb', "abstract(game='kuhn(cards=100)', cards='uniform:10')")
    """
    full = load(game) if isinstance(game, str) else game
    if isinstance(full, AbstractGame):
        raise SpecError(f"{full.spec} is already abstract; abstract the real game instead")
    card_buckets = _as_bucketing(cards, full, "cards")
    board_buckets = _as_bucketing(board, full, "board")
    assert card_buckets is not None
    return AbstractGame(
        full,
        card_buckets,
        board_buckets,
        raise_cap,
        cards_text=_bucketing_text(cards, card_buckets),
        board_text=None if board is None or board_buckets is None
        else _bucketing_text(board, board_buckets),
    )


def _load_abstract(params: Mapping[str, object]) -> Game:
    unknown = sorted(set(params) - set(ABSTRACT_PARAMETERS))
    if unknown:
        raise SpecError(
            f"abstract has no parameter {', '.join(unknown)}; its parameters: "
            "game (the real game's spec), cards (e.g. 'uniform:10'), board, raise_cap"
        )
    game = params.get("game")
    if not isinstance(game, str):
        raise SpecError(f"abstract needs game='<the real game's spec>'; got {game!r}")
    cards = params.get("cards", "identity")
    board = params.get("board")
    raise_cap = params.get("raise_cap")
    if not isinstance(cards, str) or not (board is None or isinstance(board, str)):
        raise SpecError("abstract: cards and board are bucketing texts such as 'uniform:10'")
    if raise_cap is not None and not isinstance(raise_cap, int):
        raise SpecError(f"abstract: raise_cap must be an integer or None; got {raise_cap!r}")
    return abstract_game(game, cards, board=board, raise_cap=raise_cap)


# -- the collapsed game ----------------------------------------------------------------
@dataclass(frozen=True)
class _Nodes:
    """The collapsed game's nodes, as lists (read per state, so plain Python is fastest)."""

    player: list[int]
    parent: list[int]
    label: list[int]  # the edge from the parent: action id, or chance label
    probability: list[float]  # of the edge from a chance parent, else 1
    first_child: list[int]
    n_children: list[int]
    key: list[str]  # the mover's abstract infoset key ("" elsewhere)
    returns: dict[int, tuple[float, ...]]
    event: list[int]  # index of the chance event at chance nodes, else -1


class CollapsedGame(Game):
    """The abstract game with indistinguishable histories merged (what solvers run on).

    Chance deals what the abstraction sees (buckets, and for the Leduc board whether it
    pairs); terminal payoffs are the chance-weighted means over the merged histories.
    Its infoset keys and legal actions are the abstract game's, so a strategy of either
    is a strategy of the other (:func:`pokerlab.abstraction.lift` takes both). Only the
    mover's infoset key is known at a node.
    """

    def __init__(self, abstract: AbstractGame, nodes: _Nodes) -> None:
        self.abstract = abstract
        self.nodes = nodes
        self.n_players = abstract.n_players
        self.spec = GameSpec.make("collapsed", {"game": str(abstract.spec)})

    @property
    def max_actions(self) -> int:
        """The real game's action ids."""
        return self.abstract.max_actions

    def action_name(self, action: Action) -> str:
        """The real game's action names."""
        return self.abstract.action_name(action)

    @property
    def is_zero_sum(self) -> bool:
        """As the real game."""
        return self.abstract.is_zero_sum

    def initial_state(self) -> CollapsedState:
        """The root."""
        return CollapsedState(self, 0)

    def count_histories(self) -> int:
        """The number of nodes."""
        return len(self.nodes.player)

    def describe(self) -> str:
        """One line."""
        return f"collapsed {self.abstract.describe()} ({self.count_histories():,} histories)"


@dataclass(frozen=True, slots=True)
class CollapsedState(State):
    """A node of a :class:`CollapsedGame`."""

    collapsed: CollapsedGame
    node: int

    @property
    def game(self) -> CollapsedGame:
        """The collapsed game."""
        return self.collapsed

    @property
    def player(self) -> Player:
        """The player to move, CHANCE or TERMINAL."""
        return self.collapsed.nodes.player[self.node]

    @property
    def history(self) -> tuple[Action, ...]:
        """The edge labels from the root (actions, and chance labels)."""
        nodes = self.collapsed.nodes
        path: list[int] = []
        node = self.node
        while node > 0:
            path.append(nodes.label[node])
            node = nodes.parent[node]
        return tuple(reversed(path))

    def _children(self) -> range:
        nodes = self.collapsed.nodes
        start = nodes.first_child[self.node]
        return range(start, start + nodes.n_children[self.node])

    def legal_actions(self) -> tuple[Action, ...]:
        """Child edge labels, increasing."""
        labels = self.collapsed.nodes.label
        return tuple(labels[c] for c in self._children())

    def _apply(self, action: Action) -> CollapsedState:
        children = self._children()
        labels = self.collapsed.nodes.label[children.start : children.stop]
        position = bisect.bisect_left(labels, action)
        return CollapsedState(self.collapsed, children.start + position)

    def chance_outcomes(self) -> tuple[tuple[Action, float], ...]:
        """Child labels with their probabilities at a chance node."""
        if self.player != CHANCE:
            return ()
        nodes = self.collapsed.nodes
        return tuple((nodes.label[c], nodes.probability[c]) for c in self._children())

    def infoset_key(self, player: Player | None = None) -> str:
        """The mover's abstract key (other players' keys are not kept)."""
        if player is not None and player != self.player:
            raise PokerlabError(
                "a collapsed game keeps only the infoset key of the player to move"
            )
        return self.collapsed.nodes.key[self.node]

    def _terminal_returns(self) -> tuple[float, ...]:
        return self.collapsed.nodes.returns[self.node]

    def action_name(self, action: Action) -> str:
        """The action's name, or the chance label's."""
        if self.player == CHANCE:
            event = self.collapsed.nodes.event[self.node]
            return self.collapsed.abstract.mapping.label_name(event, action)
        return self.collapsed.abstract.action_name(action)


_COLLAPSED: SpecCache[CollapsedGame] = SpecCache("abstraction.collapse", maxsize=32)
"""Collapsed games by the abstract game's spec; the 32 used last are kept."""


def collapse(game: AbstractGame) -> CollapsedGame:
    """Merge the histories of ``game`` that no player of the abstract game can tell apart.

    Level by level over the compiled real tree, a history's class is its parent's class
    and its edge (the action, or the chance label: the bucket dealt). A class's weight is
    the total chance reach of its histories; chance edges get the ratio of weights, and
    terminal payoffs the reach-weighted mean. Cached by spec (the 32 used last).

    Raises:
        PokerlabError: if merged histories had different abstract keys (a bug guard).
    """
    cached = _COLLAPSED.get(game.spec)
    if cached is not None:
        return cached
    tree = compile(game.base)
    labels = game.mapping.chance_labels(tree)
    edge = np.where(labels >= 0, labels, tree.action)
    edge[0] = 0
    width = int(edge.max()) + 1
    n = tree.n_histories
    klass = np.zeros(n, dtype=np.int64)
    parents: list[IntArray] = [np.array([-1], dtype=np.int64)]
    class_edge: list[IntArray] = [np.array([0], dtype=np.int64)]
    representative: list[IntArray] = [np.array([0], dtype=np.int64)]
    offsets = tree.level_offsets
    next_id = 1
    for d in range(1, offsets.shape[0] - 1):
        lo, hi = int(offsets[d]), int(offsets[d + 1])
        combined = klass[tree.parent[lo:hi]] * width + edge[lo:hi]
        unique, first, inverse = np.unique(combined, return_index=True, return_inverse=True)
        klass[lo:hi] = next_id + inverse
        parents.append(unique // width)
        class_edge.append(unique % width)
        representative.append(first + lo)
        next_id += unique.shape[0]
    parent = np.concatenate(parents)
    label = np.concatenate(class_edge)
    rep = np.concatenate(representative)
    n_classes = next_id
    weight = np.bincount(klass, weights=tree.reach_chance, minlength=n_classes)
    player = tree.player[rep]
    probability = np.ones(n_classes)
    from_chance = np.flatnonzero(parent >= 0)
    from_chance = from_chance[player[parent[from_chance]] == CHANCE]
    probability[from_chance] = weight[from_chance] / weight[parent[from_chance]]
    n_children = np.bincount(parent[1:], minlength=n_classes)
    first_child = np.full(n_classes, -1, dtype=np.int64)
    has = n_children > 0
    first_child[has] = (np.cumsum(n_children) - n_children + 1)[has]
    # Every member of a decision class must show the mover the same abstract key.
    abstract_ids, abstract_keys = _abstract_key_ids(game, tree)
    decision = tree.decision_ids
    member_key = abstract_ids[tree.infoset[decision]]
    lowest = np.full(n_classes, np.iinfo(np.int64).max)
    highest = np.full(n_classes, -1)
    np.minimum.at(lowest, klass[decision], member_key)
    np.maximum.at(highest, klass[decision], member_key)
    is_decision = player >= 0
    if np.any(lowest[is_decision] != highest[is_decision]):  # pragma: no cover - guard
        raise PokerlabError(f"{game.spec}: merged histories disagree on an infoset key")
    keys = ["" for _ in range(n_classes)]
    for c in np.flatnonzero(is_decision):
        keys[int(c)] = abstract_keys[int(lowest[c])]
    terminal_class = klass[tree.terminal_ids]
    reach = tree.reach_chance[tree.terminal_ids]
    returns: dict[int, tuple[float, ...]] = {}
    sums = np.stack(
        [
            np.bincount(terminal_class, weights=reach * tree.terminal_payoffs[:, p],
                        minlength=n_classes)
            for p in range(tree.n_players)
        ],
        axis=1,
    )
    for c in np.unique(terminal_class):
        returns[int(c)] = tuple(float(v) for v in sums[c] / weight[c])
    event = np.full(n_classes, -1, dtype=np.int64)
    chance_classes = np.flatnonzero(player == CHANCE)
    # The k-th chance node on a path deals the k-th chance event.
    parent_list, player_list = parent.tolist(), player.tolist()
    depth_events = [0] * n_classes
    for node in range(1, n_classes):
        up = parent_list[node]
        depth_events[node] = depth_events[up] + (1 if player_list[up] == CHANCE else 0)
    event[chance_classes] = np.asarray(depth_events, dtype=np.int64)[chance_classes]
    nodes = _Nodes(
        player=player.tolist(),
        parent=parent.tolist(),
        label=label.tolist(),
        probability=probability.tolist(),
        first_child=first_child.tolist(),
        n_children=n_children.tolist(),
        key=keys,
        returns=returns,
        event=event.tolist(),
    )
    collapsed = CollapsedGame(game, nodes)
    _COLLAPSED.put(game.spec, collapsed)
    return collapsed


def _abstract_key_ids(game: AbstractGame, tree: CompiledTree) -> tuple[IntArray, list[str]]:
    """Map each infoset of ``compile(game.base)`` to an id of its abstract key."""
    ids: dict[str, int] = {}
    out = np.empty(tree.n_infosets, dtype=np.int64)
    for i, key in enumerate(tree.infoset_keys):
        abstract = game.mapping.map_key(key)
        out[i] = ids.setdefault(abstract, len(ids))
    return out, list(ids)


def _load_collapsed(params: Mapping[str, object]) -> Game:
    unknown = sorted(set(params) - {"game"})
    text = params.get("game")
    if unknown or not isinstance(text, str):
        raise SpecError("collapsed takes one parameter: game='abstract(...)'")
    inner = load(text)
    if not isinstance(inner, AbstractGame):
        raise SpecError(f"collapsed needs an abstract game; got {inner.spec}")
    return collapse(inner)


register_loader("abstract", _load_abstract)
register_loader("collapsed", _load_collapsed)

__all__ = [
    "ABSTRACT_PARAMETERS",
    "AbstractGame",
    "AbstractState",
    "CardAbstraction",
    "CollapsedGame",
    "CollapsedState",
    "abstract_game",
    "collapse",
    "item_names",
    "item_weights",
]
