"""A solved Hold'em spot: strategies per node and hand, EV, equity, the 13x13 grid, files.

:class:`SpotSolution` holds the spot, its public tree and both players' average strategies
(``[rows, hands]``, as the range solver left them) with what made them. From those, for any
node (named by its public-history key, ``"x-b100"``; the root is ``""``):

- each hand's **strategy** (the probability of each action);
- each hand's **weight** at the node: its range weight times its own probability of
  having played to the node (the player's range there; the chance of the cards dealt on
  the way is not in it, and a hand that holds one of them has weight 0);
- each hand's **EV**: the chips it expects to take from the pot from here on, minus what
  it will still put in (the convention of postflop solvers, :data:`EV_CONVENTION`: a hand
  that always wins a showdown with no more betting has EV = the pot), against the
  opponent's range at the node; :attr:`SpotSolution.ev` is the same for the whole spot;
- each hand's **equity**: its share of the pot if the remaining cards were dealt and the
  hands shown down now (ties count half), against the opponent's range at the node;
- the **13x13 grid**: the same by hand class (``AKs``, ``AKo``, ``AA``), weighted by the
  combos' weights at the node.

Files are ``.npz`` with a JSON header (written atomically); loading rebuilds the spot's tree
from the header, so a file is small (the strategies) and checked against its spot.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from functools import cached_property
from itertools import combinations
from pathlib import Path
from typing import Any

import numpy as np

from pokerlab._types import Action, FloatArray, IntArray
from pokerlab._version import __version__
from pokerlab.cards import (
    GRID_LABELS,
    RANKS,
    cards_str,
    evaluate_batch,
    hand_class,
    parse_card,
    parse_cards,
)
from pokerlab.errors import FileFormatError, PokerlabError, SolverError
from pokerlab.games.observation import Observation
from pokerlab.strategy.archive import NpzArchive
from pokerlab.strategy.io import json_default, read_npz, write_npz_atomic
from pokerlab.subgame import _kernels as kernels
from pokerlab.subgame.holdem_hands import swap_card
from pokerlab.subgame.node_lock import NodeLock, parse_lock, resolve_locks
from pokerlab.subgame.public_tree import (
    CHANCE_NODE,
    COL_CARD,
    COL_FACTOR,
    DECISION,
    KIND_NAMES,
)
from pokerlab.subgame.range_solver import RangeSolver, evaluate_profile, root_values
from pokerlab.subgame.spot import DEFAULT_MEMORY_LIMIT, BuiltSpot, Spot
from pokerlab.subgame.spot_game import SpotGame, spot_game
from pokerlab.subgame.units import tree_units, work_arrays

FORMAT = "pokerlab-spot"
"""The ``format`` field of a solved spot's header."""
FORMAT_VERSION = 1

EV_CONVENTION = ("share of the pot: the chips a player expects to take from the pot, minus "
                 "what it still puts in (the players' EVs add up to the pot)")
"""How every spot output states EV (text, JSON and the web page)."""

GRID_RANKS = RANKS[::-1]
"""Rows and columns of the 13x13 grid, aces first."""


_CELLS = {label: (row, column) for row, labels in enumerate(GRID_LABELS)
          for column, label in enumerate(labels)}


def grid_cell(name: str) -> tuple[int, int]:
    """``(row, column)`` of a hand's class in the 13x13 grid (:data:`GRID_LABELS`).

    Pairs lie on the diagonal, suited hands above it, offsuit hands below (aces first).
    """
    first, second = parse_cards(name)
    return _CELLS[hand_class((max(first, second), min(first, second)))]


@dataclass(frozen=True, eq=False)
class NodeReport:
    """One player's view of one public node.

    Attributes:
        key: the node's public-history key (``""`` at the root).
        kind: ``"decision"``, ``"chance"``, ``"fold"`` or ``"showdown"``.
        player: whose hands the arrays describe (the player to act at a decision).
        acting: the player to act (-1 off decisions).
        board: the board at the node.
        pot: chips in the pot at the node.
        actions: the names of the actions (decision nodes), in order.
        children: the children's keys, in action order.
        hands: the player's hands.
        weights: ``[H]`` each hand's weight at the node (its range there: the range
            weight times the player's own probability of reaching the node; 0 for a hand
            holding a card on the board).
        matchups: ``[H]`` the opponent's weight at the node in hands that share no card
            with each hand (what each hand plays against).
        strategy: ``[A, H]`` the probability of each action (decision nodes of ``player``;
            empty otherwise).
        ev: ``[H]`` chips each hand expects from the pot from here on, minus what it still
            puts in (NaN where the opponent cannot hold a compatible hand).
        equity: ``[H]`` each hand's showdown share of the pot over the remaining cards
            (NaN likewise).
    """

    key: str
    kind: str
    player: int
    acting: int
    board: str
    pot: float
    actions: tuple[str, ...]
    children: tuple[str, ...]
    hands: tuple[str, ...]
    weights: FloatArray
    matchups: FloatArray
    strategy: FloatArray
    ev: FloatArray
    equity: FloatArray

    @property
    def range_ev(self) -> float:
        """The EV of the player's whole range at the node (NaN where nothing is left).

        Each hand counts by its weight times its matchups: how often it is dealt.
        """
        return self._dealt_mean(self.ev)

    @property
    def range_equity(self) -> float:
        """The equity of the player's whole range at the node, each hand as in :attr:`range_ev`."""
        return self._dealt_mean(self.equity)

    def _dealt_mean(self, values: FloatArray) -> float:
        """``values`` averaged over the hands, each by how often it is dealt (NaN: none)."""
        joint = self.weights * self.matchups
        ok = np.isfinite(values) & (joint > 0)
        total = float(joint[ok].sum())
        return float((joint[ok] * values[ok]).sum() / total) if total > 0 else float("nan")

    def grid(self, values: FloatArray | None = None) -> tuple[FloatArray, FloatArray]:
        """The 13x13 grid: ``(value by class, weight by class)``.

        Args:
            values: ``[H]`` per hand (default: the weights themselves); each class shows
                the weighted mean of its combos (NaN where the class has no weight).
        """
        per_hand = self.weights if values is None else values
        total = np.zeros((13, 13))
        weight = np.zeros((13, 13))
        for h, name in enumerate(self.hands):
            r, c = grid_cell(name)
            w = self.weights[h]
            if w > 0 and np.isfinite(per_hand[h]):
                total[r, c] += w * per_hand[h]
                weight[r, c] += w
        with np.errstate(invalid="ignore", divide="ignore"):
            mean = np.where(weight > 0, total / np.where(weight > 0, weight, 1), np.nan)
        return mean, weight


@dataclass(frozen=True, eq=False)
class SpotSolution:
    """A solved spot: its tree and both players' average strategies.

    Attributes:
        built: the spot and its public game.
        strategies: ``(probs0, probs1)``, each ``[rows, hands]``.
        iterations: iterations run.
        seconds: solving time, in seconds.
        exploitability: of the strategies, chips per hand (the mean of the two players'
            best-response gains; with locks, in the locked game: a best response plays
            the locks where it is locked).
        hyperparameters: the solver's variant and hyper-parameters.
        locks: the node locks it was solved with (:mod:`pokerlab.subgame.node_lock`).
    """

    built: BuiltSpot
    strategies: tuple[FloatArray, FloatArray]
    iterations: int
    seconds: float
    exploitability: float
    hyperparameters: dict[str, Any] = field(default_factory=dict)
    locks: tuple[NodeLock, ...] = ()

    @classmethod
    def from_solver(cls, solver: RangeSolver, built: BuiltSpot, *,
                    finish: bool = False) -> SpotSolution:
        """The solver's average strategies, measured once more exactly.

        With ``finish`` the strategies are written over the solver's regrets
        (:meth:`RangeSolver.finish`: no third strategy-sized pair of arrays at the peak),
        for callers that are done solving.
        """
        if solver.game is not built.public:
            raise SolverError("the solver was not run on this spot's public game")
        if finish:
            strategies = solver.finish()
            exploitability = solver.exploitability()
        else:
            strategies = solver.average_arrays()
            exploitability = solver.exploitability(strategies)
        return cls(built, strategies, solver.iterations, solver.seconds, exploitability,
                   solver.hyperparameters(), solver.locks.locks)

    def locks_at(self, key: str) -> tuple[NodeLock, ...]:
        """The locks of the node ``key`` names (see :meth:`node`), in order.

        Raises:
            PokerlabError: if no node has that key.
        """
        if not self.locks:
            return ()
        node = self._resolve(key)[0]
        table = resolve_locks(self.built.public, self.locks)
        return tuple(lock for lock, at in zip(table.locks, table.nodes, strict=True)
                     if at == node)

    @property
    def spot(self) -> Spot:
        """The spot."""
        return self.built.spot

    @property
    def percent_of_pot(self) -> float:
        """Exploitability in percent of the starting pot."""
        return 100.0 * self.exploitability / self.spot.pot

    @cached_property
    def values(self) -> tuple[float, float]:
        """Each player's expected chips per hand under the strategies (zero-sum)."""
        result = evaluate_profile(self.built.public, self.strategies)
        return result.values

    @property
    def ev(self) -> tuple[float, float]:
        """Each player's EV in chips, as a share of the starting pot (:data:`EV_CONVENTION`).

        The two add up to the pot: :attr:`values` (the zero-sum gains) plus half the pot.
        """
        half = self.spot.pot / 2
        return self.values[0] + half, self.values[1] + half

    # -- per-node values --------------------------------------------------------------------
    def _passes(self, node: int) -> tuple[tuple[FloatArray, FloatArray],
                                          tuple[FloatArray, FloatArray]]:
        """Per player p: (the opponent's reach at ``node``, p's values at ``node``).

        Nodes with rows of their own in the compact layout (those above the first chance
        nodes and the units' roots: :mod:`pokerlab.subgame.units`) read passes that keep
        only those rows; a node deeper in a unit reads passes that keep every node's
        (on a flop spot many times the solver's own memory).
        """
        layout = "compact" if tree_units(self.built.public.tree).slot[node] >= 0 else "full"
        passes = self._cached_passes.get(layout)
        if passes is None:
            passes = self._cached_passes[layout] = self._run_passes(layout == "compact")
        slots, per_player = passes
        row = int(slots[node])
        return ((per_player[0][0][row], per_player[0][1][row]),
                (per_player[1][0][row], per_player[1][1][row]))

    @cached_property
    def _cached_passes(self) -> dict[str, Any]:
        return {}

    def _run_passes(self, compact: bool) -> tuple[IntArray, list[tuple[FloatArray, FloatArray]]]:
        """``(slot, per player (reach rows, value rows))`` of both players' passes."""
        game = self.built.public
        out = []
        slot = np.zeros(0, dtype=np.int64)
        # float32 strategies (float32 or compressed storage) pass in float32 work arrays:
        # on a flop spot, 26 MB a player in the compact layout instead of 53
        dtype = np.float32 if self.strategies[0].dtype == np.float32 else np.float64
        work = None
        for p in (0, 1):
            del work  # one player's work arrays at a time
            work = work_arrays(game, dtype, areas=1 if compact else None)
            root_values(game, p, self.strategies, False, work)
            rows = np.flatnonzero(work.slot >= 0)  # the nodes with rows of their own
            width = game.n_hands[1 - p]
            reach = np.zeros((work.n_static, width), dtype=work.cfreach.dtype)
            reach[work.slot[rows]] = work.cfreach[work.source[rows], :width]
            out.append((reach, work.cfv[: work.n_static, : game.n_hands[p]].copy()))
            slot = work.slot
        return slot, out

    def node(self, key: str = "", *, player: int | None = None) -> NodeReport:
        """The report of the node named ``key`` (see :attr:`BuiltSpot.node_of_key`).

        A key may name a card whose subtree the tree shares with an isomorphic card
        (``x-x/2h`` where hearts reuse the clubs): the report is the shared node's, its
        hands, board and children named as the key's cards are.

        Args:
            key: the public-history key, e.g. ``"x-b100"``; ``""`` is the root.
            player: whose hands to report (default: the player to act, else OOP).

        Raises:
            PokerlabError: if no node has that key (the message lists the root's children).
        """
        built = self.built
        tree = built.public.tree
        node, key, swaps = self._resolve(key)
        kind = tree.kind(node)
        acting = tree.player(node) if kind == DECISION else -1
        if player is None:
            player = acting if acting >= 0 else 0
        if player not in (0, 1):
            raise PokerlabError(f"player must be 0 (OOP) or 1 (IP); got {player}")
        game = built.public
        hands = game.hands[player]
        # The reach vectors carry the chance of the cards dealt on the way: divided out, the
        # weights are the ranges at the node (EV and equity are ratios, unchanged by it).
        dealt = self._chance_of(node)
        passes = self._passes(node)
        own_reach = passes[1 - player][0] / dealt
        opponent_reach = passes[player][0] / dealt
        cfv = passes[player][1] / dealt
        mass = self._compatible_mass(player, opponent_reach)
        with np.errstate(invalid="ignore", divide="ignore"):
            ev = np.where(mass > 0, cfv / np.where(mass > 0, mass, 1.0), np.nan)
        ev = ev + tree.chips(node)[player]
        if kind == DECISION and acting == player:
            row = tree.row(node)
            strategy = self.strategies[player][row : row + len(tree.children(node))].copy()
        else:
            strategy = np.zeros((0, hands.n_hands))
        board = built.board_of(node)
        names, children = hands.names, self._children_keys(node)
        equity = self._equity(player, board, opponent_reach)
        if swaps:  # the shared subtree's cards, named as the key's world names them
            def real(card: int) -> int:
                for swap in reversed(swaps):
                    card = swap_card(card, swap)
                return card

            names = tuple(cards_str(sorted((real(int(c)) for c in cards), reverse=True))
                          for cards in hands.cards)
            board = tuple(real(c) for c in board)
            shared = tree.keys[node]
            children = tuple(key + child[len(shared):] for child in children)
        return NodeReport(
            key=key, kind=KIND_NAMES[kind], player=player, acting=acting,
            board=cards_str(board), pot=float(sum(tree.chips(node))),
            actions=tuple(tree.labels[c] for c in tree.children(node)) if kind == DECISION
            else (),
            children=children, hands=names, weights=own_reach.copy(),
            matchups=mass, strategy=strategy, ev=ev, equity=equity,
        )

    def _resolve(self, key: str) -> tuple[int, str, list[int]]:
        """``(node, key, suit swaps)``: the node a key names.

        Directly, or through the suit swaps of isomorphic cards (the key then ends with
        ``/`` after a card, as the tree's keys do).
        """
        if key == "":  # the root: no table of every node's key needed (a flop has millions)
            return 0, "", []
        try:
            canonical = self.canonical_key(key)
        except PokerlabError as missing:
            try:
                node, swaps = self._locate(key)
            except PokerlabError:
                raise missing from None
            if key.split("/")[-1] != "" and key.count("/") % 2 == 1:
                key += "/"
            return node, key, swaps
        return self.built.node_of_key[canonical], canonical, []

    def canonical_key(self, key: str) -> str:
        """The key of the node ``key`` names, as the tree spells it.

        A card may be written with or without the ``/`` that ends it: ``"x-x/Ah"`` and
        ``"x-x/Ah/"`` name the same chance child.

        Raises:
            PokerlabError: if no node has that key (the message lists the root's children).
        """
        known = self.built.node_of_key
        for candidate in (key, key + "/", key.rstrip("/")):
            if candidate in known:
                return candidate
        near = ", ".join(repr(k) for k in self._children_keys(0))
        raise PokerlabError(f"the spot has no node {key!r}; keys are actions joined by '-' "
                            f"with '/card/' between streets, e.g. {near}")

    def _chance_of(self, node: int) -> float:
        """The product of the chance probabilities of the cards dealt on the way to ``node``."""
        tree = self.built.public.tree
        product = 1.0
        while node > 0:
            product *= float(tree.amounts[node, COL_FACTOR])
            node = tree.parent(node)
        return product

    def _children_keys(self, node: int) -> tuple[str, ...]:
        tree = self.built.public.tree
        return tuple(tree.keys[c] for c in tree.children(node))

    def _compatible_mass(self, player: int, opponent_reach: FloatArray) -> FloatArray:
        game = self.built.public
        mine, theirs = game.tables[player], game.tables[1 - player]
        out = np.zeros((1, game.n_hands[player]))
        kernels.fold_values(opponent_reach.reshape(1, -1), 0, theirs.fold_entries,
                            theirs.fold_offsets, theirs.cards.shape[0], mine.fold_cards,
                            mine.same, 1.0, np.zeros(game.n_cards + 1), out, 0)
        mass: FloatArray = out[0]
        return mass

    def _equity(self, player: int, board: tuple[int, ...], opponent_reach: FloatArray
                ) -> FloatArray:
        """Showdown equity over every runout of ``board``, by brute force over hand pairs."""
        game = self.built.public
        mine, theirs = game.hands[player], game.hands[1 - player]
        compatible = ~(
            (mine.cards[:, None, :, None] == theirs.cards[None, :, None, :]).any(axis=(2, 3))
        )
        deck = [c for c in range(52) if c not in board]
        diff = np.zeros(mine.n_hands)
        mass = np.zeros(mine.n_hands)
        for runout in combinations(deck, 5 - len(board)):
            full = (*board, *runout)
            mine_ok = np.asarray(~np.isin(mine.cards, full).any(axis=1))
            theirs_ok = np.asarray(~np.isin(theirs.cards, full).any(axis=1))
            mine_value = _values(mine.cards, full, mine_ok)
            theirs_value = _values(theirs.cards, full, theirs_ok)
            weight = compatible * theirs_ok[None, :] * mine_ok[:, None] * opponent_reach[None, :]
            sign = np.sign(mine_value[:, None] - theirs_value[None, :])
            diff += (weight * sign).sum(axis=1)
            mass += weight.sum(axis=1)
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(mass > 0, 0.5 + 0.5 * diff / np.where(mass > 0, mass, 1.0), np.nan)

    # -- policy ------------------------------------------------------------------------------
    @cached_property
    def game(self) -> SpotGame:
        """The spot as a pokerlab game (every card dealt; see :mod:`.spot_game`)."""
        return spot_game(self.spot)

    def policy(self) -> SpotPolicy:
        """The solution as a policy of :attr:`game` (for matches and exact evaluators)."""
        return SpotPolicy(self)

    def probabilities(self, player: int, hand: str, key: str) -> list[float]:
        """The probabilities of the actions at the node ``key`` for ``player``'s ``hand``.

        The key may name any card, also one the tree shares with an isomorphic card: the
        lookup follows the suit swap.

        Raises:
            PokerlabError: an unknown node or hand, or a node where ``player`` does not act.
        """
        node, swaps = self._locate(key)
        tree = self.built.public.tree
        if tree.kind(node) != DECISION or tree.player(node) != player:
            raise PokerlabError(f"player {player} does not act at node {key!r}")
        names = self.built.public.hands[player].names
        cards = [parse_card(hand[:2]), parse_card(hand[2:])]
        for swap in swaps:
            cards = [swap_card(c, swap) for c in cards]
        name = cards_str(sorted(cards, reverse=True))
        if name not in names:
            raise PokerlabError(f"{hand!r} is not in player {player}'s range here")
        h = names.index(name)
        row = tree.row(node)
        count = len(tree.children(node))
        return [float(x) for x in self.strategies[player][row : row + count, h]]

    def _locate(self, key: str) -> tuple[int, list[int]]:
        """The node a key names in this tree, and the suit swaps followed to reach it."""
        tree = self.built.public.tree
        node = 0
        swaps: list[int] = []
        for i, segment in enumerate(key.split("/")):
            if i % 2 == 1:
                if tree.kind(node) != CHANCE_NODE:
                    raise PokerlabError(f"node {key!r}: no card is dealt at {tree.keys[node]!r}")
                card = parse_card(segment)
                for swap in swaps:
                    card = swap_card(card, swap)
                node, swap = self._deal(node, card, key)
                if swap >= 0:
                    swaps.append(swap)
                continue
            for token in (t for t in segment.split("-") if t):
                if tree.kind(node) != DECISION:
                    raise PokerlabError(f"node {key!r}: {token!r} follows a non-decision node")
                for child in tree.children(node):
                    if _token(tree.keys[node], tree.keys[child]) == token:
                        node = child
                        break
                else:
                    raise PokerlabError(f"node {key!r}: no action {token!r} at {tree.keys[node]!r}")
        return node, swaps

    def _deal(self, node: int, card: int, key: str) -> tuple[int, int]:
        tree = self.built.public.tree
        for child in tree.children(node):
            if int(tree.nodes[child, COL_CARD]) == card:
                return child, -1
        start, end = int(tree.nodes[node, 7]), int(tree.nodes[node, 8])
        for entry in tree.isomorphic[start:end]:
            if int(entry[1]) == card:
                return int(entry[0]), int(entry[2])
        raise PokerlabError(f"node {key!r}: card {cards_str((card,))} cannot be dealt there")

    # -- files -------------------------------------------------------------------------------
    def save(self, path: str | Path) -> Path:
        """Write the solution to ``path`` (``.npz`` + JSON header), atomically."""
        header = {
            "format": FORMAT,
            "format_version": FORMAT_VERSION,
            "pokerlab_version": __version__,
            "spot": self.spot.to_dict(),
            "description": self.spot.describe(),
            "iterations": self.iterations,
            "seconds": self.seconds,
            "exploitability": self.exploitability,
            "percent_of_pot": self.percent_of_pot,
            "hyperparameters": self.hyperparameters,
            "locks": [str(lock) for lock in self.locks],
        }
        text = json.dumps(header, default=json_default)
        target = Path(path)
        write_npz_atomic(target, {"header": np.frombuffer(text.encode(), dtype=np.uint8),
                                  "strategy0": self.strategies[0],
                                  "strategy1": self.strategies[1]})
        return target

    @classmethod
    def load(cls, path: str | Path, *, memory_limit: int = DEFAULT_MEMORY_LIMIT) -> SpotSolution:
        """Read a solution written by :meth:`save` (the spot's tree is built again).

        Raises:
            FileFormatError: missing, damaged, or not a solved spot.
        """
        where = repr(str(path))
        raw, arrays = read_npz(path, FORMAT, check=_check_arrays, limit=memory_limit)
        header: dict[str, Any] = dict(raw)
        try:
            spot = Spot.from_dict(header["spot"])
            built = spot.build(memory_limit=memory_limit)
            strategies = (arrays["strategy0"], arrays["strategy1"])
            iterations = int(header["iterations"])
            seconds = float(header["seconds"])
            exploitability = float(header["exploitability"])
            locks = tuple(parse_lock(text) for text in header.get("locks", []))
        except (KeyError, TypeError, ValueError, AttributeError, PokerlabError) as exc:
            raise FileFormatError(f"{where} is not a complete solved spot: {exc}") from None
        if not (math.isfinite(seconds) and math.isfinite(exploitability)):
            raise FileFormatError(f"{where}: its seconds and exploitability must be finite "
                                  "numbers")
        for p in (0, 1):
            expected = (built.public.tree.n_rows[p], built.public.n_hands[p])
            if strategies[p].shape != expected:
                raise FileFormatError(f"{where}: player {p}'s strategy has shape "
                                      f"{strategies[p].shape}, the spot needs {expected}")
            if not np.all((strategies[p] >= 0) & (strategies[p] <= 1 + 1e-6)):  # and not NaN
                raise FileFormatError(f"{where}: player {p}'s strategy holds values that are "
                                      "not probabilities (each must be from 0 to 1)")
        strategies = (np.asarray(strategies[0], dtype=np.float64),
                      np.asarray(strategies[1], dtype=np.float64))
        hyperparameters = header.get("hyperparameters", {})
        return cls(built, strategies, iterations, seconds, exploitability,
                   hyperparameters if isinstance(hyperparameters, dict) else {}, locks)


def _check_arrays(header: dict[str, object], archive: NpzArchive) -> None:
    """A solved spot's file holds its two strategies, 2-D float32 or float64, nothing else.

    Raises:
        FileFormatError: another array, or a strategy of another dtype or rank.
    """
    names = set(archive.arrays) - {"header"}
    if names != {"strategy0", "strategy1"}:
        raise FileFormatError(f"{archive.where} holds arrays {sorted(names)}; a solved spot "
                              "holds strategy0 and strategy1")
    for name in ("strategy0", "strategy1"):
        info = archive.arrays[name]
        if info.dtype not in (np.dtype(np.float32), np.dtype(np.float64)) or len(info.shape) != 2:
            raise FileFormatError(f"{archive.where}: {name} is {info.dtype} of shape "
                                  f"{info.shape}; a strategy is a 2-D float32 or float64 array")


def _token(parent_key: str, child_key: str) -> str:
    return child_key[len(parent_key):].lstrip("-/")


def _values(cards: np.ndarray, board: tuple[int, ...], ok: np.ndarray) -> np.ndarray:
    """7-card values of the hands that avoid the board (-1 elsewhere)."""
    out = np.full(cards.shape[0], -1, dtype=np.int64)
    if ok.any():
        rows = np.concatenate([cards[ok], np.tile(np.asarray(board), (int(ok.sum()), 1))], axis=1)
        out[ok] = evaluate_batch(rows)
    return out


class SpotPolicy:
    """A solved spot as a policy of its :class:`SpotGame` (the policy contract).

    Observations name the hand and the public history (``"AsKs|x-b100"``); cards the
    solved tree shares by isomorphism are followed through the suit swap.
    """

    def __init__(self, solution: SpotSolution) -> None:
        self.solution = solution

    @property
    def game(self) -> SpotGame:
        """The spot's game."""
        return self.solution.game

    def action_probabilities(self, observation: Observation) -> dict[Action, float]:
        """``{action: probability}`` at the observation's node and hand.

        Raises:
            PokerlabError: if the observation is not of this spot, or names an unknown node.
        """
        if observation.game != str(self.game.spec):
            raise PokerlabError(f"this policy plays {self.game.spec}, not {observation.game}")
        hand, _, key = observation.infoset_key.partition("|")
        probs = self.solution.probabilities(observation.seat, hand, key)
        return dict(zip(observation.legal_actions, probs, strict=True))

    def __repr__(self) -> str:
        return f"<SpotPolicy {self.solution.spot.describe()}>"


__all__ = [
    "FORMAT",
    "GRID_RANKS",
    "NodeReport",
    "SpotPolicy",
    "SpotSolution",
    "grid_cell",
]
