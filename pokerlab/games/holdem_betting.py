"""Hold'em's betting tree: the chips and the betting of a hand, without its cards.

The betting of Hold'em never depends on the cards, so every state of a hand is a pair:
the cards dealt so far and a :class:`BettingNode`, the hand's public betting situation
(who acts, the chips, each street's actions, the raise counts). Nodes are built once per
betting history and kept in their parent (the children of a node, the node that follows
the deal of a street), so a state's :meth:`~pokerlab.games.holdem_state.HoldemState.child`
is a dictionary look-up and the legal actions, the raise bounds and the returns of a fold
are worked out once per node, not once per state. A :class:`BettingNodeCache` holds the
rules and a budget of kept nodes: past it (large no-limit trees) new nodes are built as
before but not kept, so memory stays bounded and every answer is the same. (The betting
*trees* of menus, enumerated once into arrays, are :mod:`pokerlab.games.betting_sequences`'
work; this cache only remembers the nodes that hands have reached.)

The betting rules are pokerkit's (see :mod:`pokerlab.games.holdem_rules`); the code of the
transitions is the engine's former ``HoldemState._bet``, ``_begin_betting`` and
``_end_betting``, unchanged in what they compute.
"""

from __future__ import annotations

import operator

from pokerlab._types import CHANCE, TERMINAL, Action, Player
from pokerlab.games.holdem_pots import settle_values
from pokerlab.games.holdem_rules import CALL, FOLD, RAISE, HoldemRules

NODE_BUDGET = 20_000
"""Betting nodes kept per game. Heads-up limit Texas Hold'em has 17,222 (chance and
terminal nodes included), all kept; larger trees (three-handed limit has about 24 million,
no-limit far more) keep their first nodes only: 20,000 no-limit nodes hold about 16 MB."""

_NOT_YET: tuple[int, int] = (-1, -1)
"""Marks raise bounds not worked out yet (None is an answer: no raise)."""


class BettingNodeCache:
    """The rules every node of one game reads, and how many of its nodes are kept.

    Attributes:
        rules: the game's numbers.
        n_players: players at the table.
        no_limit: True for no-limit betting.
        deck_set: the deck's card ids, for membership tests.
        kept: nodes kept in their parents so far (at most ``budget``).
        budget: the most nodes kept.
    """

    __slots__ = ("budget", "deck_set", "kept", "n_players", "no_limit", "root", "rules")

    def __init__(self, rules: HoldemRules, *, budget: int = NODE_BUDGET) -> None:
        self.rules = rules
        self.n_players = rules.n_players
        self.no_limit = rules.no_limit
        self.deck_set = frozenset(rules.deck)
        self.kept = 0
        self.budget = budget
        committed = tuple(a + b for a, b in zip(rules.antes_paid, rules.blinds_paid, strict=True))
        self.root = BettingNode(
            self, 0, ((),),
            tuple(s - c for s, c in zip(rules.starting_stacks, committed, strict=True)),
            rules.blinds_paid, committed, (False,) * rules.n_players, CHANCE,
        )  # fmt: skip

    def street_start(self, street: int, committed: tuple[int, ...],
                     behind: tuple[int, ...]) -> BettingNode:
        """The node where ``street``'s betting starts, with these chips in and behind.

        For trees that begin after the preflop (a spot on the flop): nobody has folded,
        no bet is out yet; the betting begins as after a deal (the opener acts first).
        """
        n = self.n_players
        betting: tuple[tuple[Action, ...], ...] = ((),) * (street + 1)
        return _begin_betting(self, street, betting, behind, (0,) * n, committed,
                              (False,) * n)


class BettingNode:
    """One betting situation: the state of a hand but for its cards (see the module).

    The public fields are those of :class:`~pokerlab.games.holdem_state.HoldemState`, which
    reads them from here; the private ones are caches filled on first use.
    """

    __slots__ = (
        "_after_deal", "_bounds", "_children", "_fold_returns", "_hash", "_legal", "_letters",
        "_showdowns", "acted", "actors", "behind", "bets", "betting", "cache", "committed",
        "deal_until", "folded", "raise_amount", "raise_count", "runout", "short_all_ins",
        "street", "to_act",
    )  # fmt: skip

    def __init__(
        self,
        cache: BettingNodeCache,
        street: int,
        betting: tuple[tuple[Action, ...], ...],
        behind: tuple[int, ...],
        bets: tuple[int, ...],
        committed: tuple[int, ...],
        folded: tuple[bool, ...],
        to_act: Player,
        actors: tuple[Player, ...] = (),
        raise_amount: int = 0,
        raise_count: int = 0,
        acted: int = 0,
        short_all_ins: tuple[int, ...] = (),
        runout: bool = False,
    ) -> None:
        self.cache = cache
        self.street = street  # 0 preflop .. the last street (being dealt or bet)
        self.betting = betting  # each street's betting so far
        self.behind = behind  # chips each player has left
        self.bets = bets  # chips each player has bet this street
        self.committed = committed  # chips each player has put in this hand, ante included
        self.folded = folded
        self.to_act = to_act  # the player to act, CHANCE or TERMINAL
        # -- the betting round in progress (the defaults: none)
        self.actors = actors  # players still to act this round, in order
        self.raise_amount = raise_amount  # the largest bet or raise increment this street
        self.raise_count = raise_count  # bets + raises this street
        self.acted = acted  # bit mask of players who acted since the last full raise
        self.short_all_ins = short_all_ins  # consecutive short all-in raise increments
        self.runout = runout  # at most one player still in has chips: deal, no betting
        rules = cache.rules
        # A chance node deals until this many cards (hole and board) are out.
        self.deal_until = rules.n_hole_cards + rules.board_sizes[street]
        self._children: dict[Action, BettingNode] = {}
        self._after_deal: BettingNode | None = None
        self._legal: tuple[Action, ...] | None = None
        self._bounds: tuple[int, int] | None = _NOT_YET
        self._letters: str | None = None
        self._fold_returns: tuple[float, ...] | None = None
        self._showdowns: dict[tuple[int, ...], tuple[float, ...]] = {}
        self._hash: int | None = None

    # -- identity: the public fields (nodes built twice for one history are equal) ----------

    def fields(self) -> tuple[object, ...]:
        """The public fields, in :class:`HoldemState`'s order after the cards."""
        return (
            self.street, self.betting, self.behind, self.bets, self.committed, self.folded,
            self.to_act, self.actors, self.raise_amount, self.raise_count, self.acted,
            self.short_all_ins, self.runout,
        )  # fmt: skip

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, BettingNode):
            return NotImplemented
        return self.cache.rules == other.cache.rules and self.fields() == other.fields()

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(self.fields())
        return self._hash

    # -- legality -----------------------------------------------------------------------------

    def legal_actions(self) -> tuple[Action, ...]:
        """The legal betting actions of the player to act (kept after the first call)."""
        legal = self._legal
        if legal is None:
            player = self.to_act
            bets = self.bets
            legal = (FOLD, CALL) if bets[player] < max(bets) else (CALL,)
            bounds = self.raise_bounds()
            if bounds is not None:
                if self.cache.no_limit:
                    legal += tuple(range(RAISE + bounds[0], RAISE + bounds[1] + 1))
                else:
                    legal += (RAISE,)
            self._legal = legal
        return legal

    def is_legal(self, action: Action) -> bool:
        """True when the player to act may take ``action`` (without listing every raise)."""
        if action == CALL:
            return True
        if action == FOLD:
            return self.bets[self.to_act] < max(self.bets)
        bounds = self.raise_bounds()
        if bounds is None:
            return False
        if self.cache.no_limit:
            try:
                amount = operator.index(action) - RAISE  # whole chips only: not 5.5, not "7"
            except TypeError:
                return False
            return bounds[0] <= amount <= bounds[1]
        return bool(action == RAISE)

    def raise_bounds(self) -> tuple[int, int] | None:
        """The legal raise-to amounts ``(min, max)`` of the player to act, or None."""
        bounds = self._bounds
        if bounds is _NOT_YET:
            bounds = self._bounds = self._work_out_bounds(self.to_act)
        return bounds

    def _work_out_bounds(self, player: Player) -> tuple[int, int] | None:
        """Pokerkit's ``_verify_completion_betting_or_raising`` and the min/max amounts."""
        bets, behind = self.bets, self.behind
        max_bet = max(bets)
        owed = max_bet - bets[player]
        stack = behind[player]
        if min(stack, owed) < self.raise_amount:
            return None  # facing a short all-in it may not re-raise
        cache = self.cache
        rules = cache.rules
        cap = rules.raise_caps[self.street]
        if cap is not None and self.raise_count >= cap:
            return None
        if (
            self.short_all_ins
            and sum(self.short_all_ins) < self.raise_amount
            and self.acted >> player & 1
        ):
            return None  # a short all-in does not reopen the betting
        if stack <= owed:
            return None
        folded = self.folded
        for i in range(cache.n_players):
            if i != player and not folded[i] and behind[i] + bets[i] > max_bet:
                break
        else:
            return None  # everyone else still in is all-in
        all_in = stack + bets[player]
        low = min(all_in, max(self.raise_amount, rules.street_bets[self.street]) + max_bet)
        return (low, all_in if cache.no_limit else low)

    # -- transitions ------------------------------------------------------------------------

    def child(self, action: Action) -> BettingNode:
        """The node after the legal betting ``action``, kept while the budget allows."""
        node = self._children.get(action)
        if node is None:
            node = self._bet(action)
            cache = self.cache
            if cache.kept < cache.budget:
                cache.kept += 1
                self._children[action] = node
        return node

    def after_deal(self) -> BettingNode:
        """The node once this chance node's cards are all out (kept while the budget allows)."""
        node = self._after_deal
        if node is None:
            node = self._deal_done()
            cache = self.cache
            if cache.kept < cache.budget:
                cache.kept += 1
                self._after_deal = node
        return node

    def _deal_done(self) -> BettingNode:
        cache = self.cache
        street = self.street
        if not self.runout:
            return _begin_betting(
                cache, street, self.betting, self.behind, self.bets, self.committed, self.folded
            )
        done = street == cache.rules.n_streets - 1
        return BettingNode(
            cache, street if done else street + 1,
            self.betting if done else (*self.betting, ()), self.behind, self.bets,
            self.committed, self.folded, TERMINAL if done else CHANCE, runout=True,
        )  # fmt: skip

    def _bet(self, action: Action) -> BettingNode:
        cache = self.cache
        n = cache.n_players
        player = self.to_act
        behind = list(self.behind)
        bets = list(self.bets)
        committed = list(self.committed)
        folded = self.folded
        actors = self.actors[1:]
        acted = self.acted | (1 << player)
        raise_amount, raise_count, short_all_ins = (
            self.raise_amount, self.raise_count, self.short_all_ins
        )  # fmt: skip
        action = int(action)
        if action == FOLD:
            folded = (*folded[:player], True, *folded[player + 1 :])
        elif action == CALL:
            amount = min(behind[player], max(bets) - bets[player])
            bets[player] += amount
            behind[player] -= amount
            committed[player] += amount
        else:
            bounds = self.raise_bounds()
            assert bounds is not None
            to = action - RAISE if cache.no_limit else bounds[0]
            max_bet = max(bets)
            increment = to - max_bet
            delta = to - bets[player]
            bets[player] = to
            behind[player] -= delta
            committed[player] += delta
            actors = tuple(
                i
                for i in ((player + k) % n for k in range(1, n))
                if not folded[i] and behind[i] > 0
            )
            if increment >= raise_amount:
                acted = 1 << player
            raise_amount = max(raise_amount, increment)
            raise_count += 1
            short_all_ins = () if behind[player] else (*short_all_ins, increment)
            if sum(short_all_ins) >= raise_amount:
                short_all_ins = ()
        betting = (*self.betting[:-1], (*self.betting[-1], action))
        if not actors or folded.count(False) <= 1:
            return _end_betting(cache, self.street, betting, behind, bets, committed, folded)
        return BettingNode(
            cache, self.street, betting, tuple(behind), tuple(bets), tuple(committed), folded,
            actors[0], actors, raise_amount, raise_count, acted, short_all_ins,
        )  # fmt: skip

    # -- infoset keys and returns -------------------------------------------------------------

    def letters(self) -> str:
        """Each street's betting as letters joined by ``|`` (``"r6c|c"``; kept)."""
        letters = self._letters
        if letters is None:
            no_limit = self.cache.no_limit
            letters = self._letters = "|".join(
                betting_letters(street, no_limit=no_limit) for street in self.betting
            )
        return letters

    def fold_returns(self) -> tuple[float, ...]:
        """The returns of a hand won without a showdown (kept)."""
        returns = self._fold_returns
        if returns is None:
            n = self.cache.n_players
            returns = self._fold_returns = self.settle_order((0,) * n)
        return returns

    def showdown_returns(self, values: tuple[int, ...]) -> tuple[float, ...]:
        """The returns when the players' hands have ``values`` (0 for folded players).

        Only the order of the values matters to the pots, so the returns are kept by the
        values' ranks among the players still in.
        """
        distinct = sorted(set(values))
        order = tuple([distinct.index(v) for v in values])
        returns = self._showdowns.get(order)
        if returns is None:
            returns = self._showdowns[order] = self.settle_order(order)
        return returns

    def settle_order(self, values: tuple[int, ...]) -> tuple[float, ...]:
        """Settle this terminal node with hand ``values`` (any ints in the hands' order)."""
        settlement = settle_values(
            self.cache.rules, values=values, committed=self.committed, behind=self.behind,
            folded=self.folded,
        )  # fmt: skip
        return tuple([float(r) for r in settlement.returns])


def betting_letters(actions: tuple[Action, ...], *, no_limit: bool) -> str:
    """One street's betting as letters: ``f`` fold, ``c`` check/call, ``r`` or ``r6`` raise."""
    out = []
    for a in actions:
        if a == FOLD:
            out.append("f")
        elif a == CALL:
            out.append("c")
        elif no_limit:
            out.append(f"r{a - RAISE}")
        else:
            out.append("r")
    return "".join(out)


def _begin_betting(
    cache: BettingNodeCache,
    street: int,
    betting: tuple[tuple[Action, ...], ...],
    behind: tuple[int, ...],
    bets: tuple[int, ...],
    committed: tuple[int, ...],
    folded: tuple[bool, ...],
) -> BettingNode:
    """Start the betting of ``street`` (pokerkit's ``_begin_betting``)."""
    n = cache.n_players
    rules = cache.rules
    # Preflop the bets are still the blinds, so the opener is the rules' (precomputed).
    opener = rules.preflop_opener if street == 0 else rules.openers[street]
    assert opener is not None
    totals = sorted(bets[i] + behind[i] for i in range(n) if not folded[i])
    second = totals[-2]
    actors = tuple(
        i
        for i in ((opener + k) % n for k in range(n))
        if not folded[i] and behind[i] > 0 and min(behind[i], second - bets[i]) > 0
    )
    if not actors or (len(actors) == 1 and bets[actors[0]] >= max(bets)):
        return _end_betting(cache, street, betting, list(behind), bets, list(committed), folded)
    return BettingNode(cache, street, betting, behind, bets, committed, folded, actors[0], actors)


def _end_betting(
    cache: BettingNodeCache,
    street: int,
    betting: tuple[tuple[Action, ...], ...],
    behind: list[int],
    bets: tuple[int, ...] | list[int],
    committed: list[int],
    folded: tuple[bool, ...],
) -> BettingNode:
    """Close a betting round: return uncalled chips, then deal on, show down or stop.

    ``behind`` and ``committed`` are updated in place.
    """
    n = cache.n_players
    cutoff = sorted(bets)[-2]
    for i in range(n):
        if bets[i] > cutoff:
            behind[i] += bets[i] - cutoff
            committed[i] -= bets[i] - cutoff
    live = [i for i in range(n) if not folded[i]]
    if len(live) <= 1 or street == cache.rules.n_streets - 1:
        return BettingNode(
            cache, street, betting, tuple(behind), (0,) * n, tuple(committed), folded, TERMINAL
        )
    return BettingNode(
        cache, street + 1, (*betting, ()), tuple(behind), (0,) * n, tuple(committed), folded,
        CHANCE, runout=sum(1 for i in live if behind[i] > 0) <= 1,
    )  # fmt: skip


__all__ = ["NODE_BUDGET", "BettingNode", "BettingNodeCache", "betting_letters"]
