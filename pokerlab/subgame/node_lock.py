"""Node locking: fix a player's strategy at a public node; the range solver solves the rest.

A lock names a decision node by its public-history key (as ``pokerlab spot show`` names
nodes: ``"x-b100"``, ``"x-x/7c/b50"``; the root is the empty key) and the probability of
each of its actions, for the acting player's whole range or for some of its hands::

    x-b100:call=1                 IP always calls the bet after OOP checks and IP bets
    x-b100:call=0.7,fold=0.3      the whole range calls 70%, folds 30%
    b100@QQ+,AKs:call=1           only these hands (range notation: pokerlab.cards.ranges)
    :check=0.5,b50=0.5            the root (the empty key), half checks, half bets 50

Grammar: ``NODE[@HANDS]:ACTION=FREQUENCY[,ACTION=FREQUENCY...]``. ``ACTION`` is the
action's name as ``spot show`` prints it (``check``, ``call``, ``fold``, ``bet 100``,
``raise to 250``, ``all-in 900``; case and spaces do not matter) or its token in keys
(``x``, ``c``, ``f``, ``b100``, ``r250``). ``FREQUENCY`` is a probability (``0.7``) or a
percentage (``70%``); an action not named has frequency 0, and the frequencies must add up
to 1 (within 1e-6; they are then divided by their sum). ``HANDS`` is range notation
without weights (``AKs``, ``QQ+``, ``AsKs``, ``A5s-A2s``, comma separated): the combos of
it that the acting player holds at that node are locked, the others solve freely. Locks
apply in order: a later lock of a node replaces an earlier one for the hands it names (as
a combo named twice in a range takes its later weight).

:func:`parse_lock` reads one lock (syntax only); :func:`read_locks` a file of them (one a
line, ``#`` comments); :func:`resolve_locks` checks them against a public game (the node
exists and is a decision, the actions are its actions, the hands are in the acting
player's range) and gives the :class:`LockTable` the solver's passes read.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from pokerlab._types import FloatArray, IntArray
from pokerlab.cards import parse_range
from pokerlab.errors import CardError, SpecError
from pokerlab.subgame.public_tree import DECISION, KIND_NAMES, PublicGame

FREQUENCY_TOLERANCE = 1e-6
"""How far from 1 a lock's frequencies may add up (they are then divided by their sum)."""

WHO = ("OOP", "IP")

_SYNTAX = ("write NODE[@HANDS]:ACTION=FREQUENCY,... such as 'x-b100:call=1', "
           "'x-b100:call=0.7,fold=0.3' or 'x-b100@QQ+,AKs:call=1' (the root is the empty "
           "node, ':check=1')")
_NUMBER = re.compile(r"([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][-+]?[0-9]+)?")
_SPACE = re.compile(r"\s+")


@dataclass(frozen=True)
class NodeLock:
    """One lock: a node, the hands it binds (all by default), each action's frequency.

    Attributes:
        node: the node's public-history key, as ``spot show`` names it (``""``: the root).
        frequencies: ``(action, probability)`` pairs as written (actions lower case,
            spaces collapsed); they add up to 1.
        hands: range notation of the hands locked, without weights (``""``: the acting
            player's whole range).
    """

    node: str
    frequencies: tuple[tuple[str, float], ...]
    hands: str = ""

    def __str__(self) -> str:
        hands = f"@{self.hands}" if self.hands else ""
        body = ",".join(f"{action}={probability!r}" for action, probability in self.frequencies)
        return f"{self.node}{hands}:{body}"


def parse_lock(text: str) -> NodeLock:
    """Read one lock, ``NODE[@HANDS]:ACTION=FREQUENCY,...`` (see the module docstring).

    Only the syntax is checked here; :func:`resolve_locks` checks the node, its actions
    and the hands against a game.

    Raises:
        SpecError: naming what cannot be read and the syntax allowed.

    Example:
        >>> lock = parse_lock("x-b100@AKs:call=0.7, fold=0.3")
        >>> lock.node, lock.hands, lock.frequencies
        ('x-b100', 'AKs', (('call', 0.7), ('fold', 0.3)))
        >>> str(lock)
        'x-b100@AKs:call=0.7,fold=0.3'
    """
    if not isinstance(text, str):
        raise SpecError(f"a lock is text; got {text!r}; {_SYNTAX}")
    head, colon, body = text.strip().rpartition(":")
    if not colon:
        raise SpecError(f"lock {text!r}: no ':' before the actions; {_SYNTAX}")
    node, at, hands = head.partition("@")
    node = node.strip()
    if any(mark in node for mark in " ,=:"):
        raise SpecError(f"lock {text!r}: {node!r} is not a node key (actions joined by '-', "
                        f"'/card/' between streets, as 'spot show' names nodes); {_SYNTAX}")
    hands = _SPACE.sub("", hands)
    if at:
        _check_hands(hands, text)
    frequencies: list[tuple[str, float]] = []
    for item in body.split(","):
        name, equals, value = item.partition("=")
        action = _SPACE.sub(" ", name.strip().lower())
        if not equals or not action:
            raise SpecError(f"lock {text!r}: {item.strip()!r} is not ACTION=FREQUENCY; "
                            f"{_SYNTAX}")
        if action in (named for named, _ in frequencies):
            raise SpecError(f"lock {text!r}: action {action!r} is given twice")
        frequencies.append((action, _read_frequency(value.strip(), action, text)))
    total = math.fsum(probability for _, probability in frequencies)
    if abs(total - 1.0) > FREQUENCY_TOLERANCE:
        raise SpecError(f"lock {text!r}: the frequencies add up to {total:g}; they must add "
                        "up to 1 (an action not named has frequency 0)")
    if total != 1.0:
        frequencies = [(action, probability / total) for action, probability in frequencies]
    return NodeLock(node=node, frequencies=tuple(frequencies), hands=hands)


def _read_frequency(value: str, action: str, text: str) -> float:
    percent = value.endswith("%")
    number = value[:-1].strip() if percent else value
    if not _NUMBER.fullmatch(number):
        raise SpecError(f"lock {text!r}: cannot read the frequency {value!r} of {action!r}; "
                        "allowed: a probability from 0 to 1 ('0.7') or a percentage ('70%')")
    probability = float(number) / (100.0 if percent else 1.0)
    if not 0.0 <= probability <= 1.0:
        raise SpecError(f"lock {text!r}: the frequency {value!r} of {action!r} is outside "
                        "[0, 1] (0% to 100%)")
    return probability


def _check_hands(hands: str, text: str) -> None:
    if not hands:
        raise SpecError(f"lock {text!r}: no hands after '@'; write range notation such as "
                        "'x-b100@AKs:call=1', or leave out '@' to lock the whole range")
    if ":" in hands:
        raise SpecError(f"lock {text!r}: the hands {hands!r} take no weights; a lock binds "
                        "each combo it names ('x-b100@AKs,QQ+:call=1')")
    try:
        parse_range(hands)
    except CardError as exc:
        raise SpecError(f"lock {text!r}: cannot read the hands {hands!r}: {exc}") from None


def read_locks(path: str | Path) -> tuple[NodeLock, ...]:
    """The locks of a file: one a line; blank lines and ``#`` comments are skipped.

    Raises:
        SpecError: a file that cannot be read, or a line that is not a lock (the message
            names the file and line).
    """
    where = Path(path)
    try:
        lines = where.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise SpecError(f"cannot read the locks file {str(where)!r}: {exc}") from None
    locks = []
    for number, line in enumerate(lines, start=1):
        body = line.split("#", 1)[0].strip()
        if not body:
            continue
        try:
            locks.append(parse_lock(body))
        except SpecError as exc:
            raise SpecError(f"{where}:{number}: {exc}") from None
    return tuple(locks)


@dataclass(frozen=True, eq=False)
class LockTable:
    """Locks resolved on a public game: the arrays the solver's passes read.

    Attributes:
        locks: the locks, in order.
        nodes: the public node each lock binds.
        lock_at: ``[nodes]`` for each node the first row of its block in its acting
            player's ``probs`` (-1: not locked).
        probs: per player ``[rows, hands]``, the locked probability of each action (one
            row per action of each locked node, in action order) and hand; NaN for the
            hands a node's locks leave free.
        rows: per player ``[rows]``, the row of the player's strategy arrays each row of
            ``probs`` fixes.
        players: the player acting at each lock's node.
        counts: the number of actions at each lock's node.
    """

    locks: tuple[NodeLock, ...]
    nodes: tuple[int, ...]
    lock_at: IntArray
    probs: tuple[FloatArray, FloatArray]
    rows: tuple[IntArray, IntArray]
    players: tuple[int, ...]
    counts: tuple[int, ...]

    @property
    def texts(self) -> list[str]:
        """The locks as text, in order (what files record)."""
        return [str(lock) for lock in self.locks]

    def __bool__(self) -> bool:
        return bool(self.locks)

    def apply(self, player: int, strategy: FloatArray) -> None:
        """Write the locked probabilities into ``strategy`` (``[rows, hands]``), in place."""
        probs = self.probs[player]
        if probs.shape[0] == 0:
            return
        rows = self.rows[player]
        block = strategy[rows]
        locked = ~np.isnan(probs)
        block[locked] = probs[locked]
        strategy[rows] = block

    def locked_hands(self, node: int) -> FloatArray:
        """``[actions, hands]``: ``node``'s locked probabilities (NaN: a hand left free).

        No row where the node is not locked.
        """
        if node not in self.nodes:
            return np.zeros((0, 0))
        i = self.nodes.index(node)
        start = int(self.lock_at[node])
        return self.probs[self.players[i]][start : start + self.counts[i]].copy()


def resolve_locks(game: PublicGame, locks: Iterable[NodeLock | str]) -> LockTable:
    """Check ``locks`` against ``game`` and build the arrays the solver reads.

    Args:
        game: the public game (a spot's ``built.public``).
        locks: :class:`NodeLock` or their text.

    Raises:
        SpecError: a node the game does not have, or one that is not a decision; an
            action the node does not have (the message lists the node's actions); hands
            of which the acting player holds no combo there.
    """
    parsed = tuple(lock if isinstance(lock, NodeLock) else parse_lock(lock) for lock in locks)
    tree = game.tree
    keys = {key: n for n, key in enumerate(tree.keys)}
    lock_at = np.full(tree.n_nodes, -1, dtype=np.int64)
    blocks: list[list[FloatArray]] = [[], []]
    block_rows: list[list[IntArray]] = [[], []]
    used = [0, 0]
    nodes = []
    players = []
    for lock in parsed:
        node = _find_node(game, keys, lock)
        p = tree.player(node)
        children = tree.children(node)
        order = _action_order(game, node, lock)
        hands = _hand_mask(game, p, node, lock)
        if lock_at[node] < 0:
            lock_at[node] = used[p]
            used[p] += len(children)
            blocks[p].append(np.full((len(children), game.n_hands[p]), np.nan))
            block_rows[p].append(np.arange(tree.row(node), tree.row(node) + len(children)))
        block = _block_of(blocks[p], block_rows[p], tree.row(node))
        column = np.zeros(len(children))
        for k, probability in order:
            column[k] = probability
        block[:, hands] = column[:, None]
        nodes.append(node)
        players.append(p)
    probs = tuple(np.ascontiguousarray(np.concatenate(blocks[p]) if blocks[p]
                                       else np.zeros((0, game.n_hands[p])))
                  for p in (0, 1))
    rows = tuple(np.concatenate(block_rows[p]) if block_rows[p] else np.zeros(0, np.int64)
                 for p in (0, 1))
    for array in (lock_at, *probs, *rows):
        array.setflags(write=False)  # read-only like the hand tables: one kernel version
    return LockTable(parsed, tuple(nodes), lock_at, (probs[0], probs[1]), (rows[0], rows[1]),
                     tuple(players), tuple(len(tree.children(n)) for n in nodes))


def _block_of(blocks: Sequence[FloatArray], rows: Sequence[IntArray], first: int) -> FloatArray:
    for block, block_rows in zip(blocks, rows, strict=True):
        if int(block_rows[0]) == first:
            return block
    raise AssertionError("a locked node without its block")  # pragma: no cover


def _find_node(game: PublicGame, keys: dict[str, int], lock: NodeLock) -> int:
    tree = game.tree
    for candidate in (lock.node, lock.node + "/", lock.node.rstrip("/")):
        if candidate in keys:
            node = keys[candidate]
            break
    else:
        known = _deepest_known(keys, lock.node)
        at = "the root" if known == "" else repr(known)
        children = [repr(tree.keys[c]) for c in tree.children(keys[known])]
        nxt = ", ".join(children[:12]) or "none"
        if len(children) > 12:
            nxt += f" ... ({len(children)} in all)"
        shared = (" (a card the tree shares with a suit-isomorphic one is locked through "
                  "the card it shares, or solve with --no-isomorphism)" if "/" in lock.node
                  else "")
        raise SpecError(f"lock {str(lock)!r}: the spot has no node {lock.node!r}{shared}; "
                        f"the nodes after {at} are {nxt}")
    if tree.kind(node) != DECISION:
        where = "the root" if lock.node == "" else repr(lock.node)
        raise SpecError(f"lock {str(lock)!r}: {where} is a {KIND_NAMES[tree.kind(node)]} "
                        "node; a lock goes on a decision node (where a player acts)")
    return node


def _deepest_known(keys: dict[str, int], key: str) -> str:
    """The longest prefix of ``key`` (cut at a '-' or '/') that names a node."""
    for end in range(len(key), -1, -1):
        if end < len(key) and key[end] not in "-/":
            continue
        for candidate in (key[:end], key[:end] + "/"):
            if candidate in keys:
                return candidate
    return ""


def action_names(game: PublicGame, node: int) -> list[tuple[str, str]]:
    """``(name, token)`` of each action at ``node``: ``("bet 100", "b100")``."""
    tree = game.tree
    parent = tree.keys[node]
    return [(tree.labels[c], tree.keys[c][len(parent):].lstrip("-/"))
            for c in tree.children(node)]


def _action_order(game: PublicGame, node: int, lock: NodeLock) -> list[tuple[int, float]]:
    names = action_names(game, node)
    index: dict[str, int] = {}
    for k, (label, token) in enumerate(names):
        index.setdefault(label.replace(" ", "").lower(), k)
        index.setdefault(token.lower(), k)
    out: list[tuple[int, float]] = []
    for action, probability in lock.frequencies:
        found = index.get(action.replace(" ", ""))
        if found is None:
            where = "the root" if lock.node == "" else repr(lock.node)
            allowed = ", ".join(f"{label} ({token})" for label, token in names)
            raise SpecError(f"lock {str(lock)!r}: {where} has no action {action!r}; its "
                            f"actions are {allowed}")
        k = found
        if k in (seen for seen, _ in out):
            raise SpecError(f"lock {str(lock)!r}: {action!r} names the action "
                            f"{names[k][0]!r} a second time")
        out.append((k, probability))
    return out


def _hand_mask(game: PublicGame, p: int, node: int, lock: NodeLock) -> np.ndarray:
    hands = game.hands[p]
    if not lock.hands:
        return np.ones(hands.n_hands, dtype=bool)
    if hands.n_hands and (hands.cards[:, 1] < 0).any():
        raise SpecError(f"lock {str(lock)!r}: locks by hand need two-card (Hold'em) hands; "
                        "lock the whole range (leave out '@')")
    wanted = {(max(a, b), min(a, b)) for a, b in parse_range(lock.hands).combos}
    mask = np.array([(max(int(a), int(b)), min(int(a), int(b))) in wanted
                     for a, b in hands.cards], dtype=bool)
    if not mask.any():
        raise SpecError(f"lock {str(lock)!r}: {WHO[p]} (acting at {lock.node!r}) holds no "
                        f"combo of {lock.hands!r} on this board; its range is "
                        f"{_range_summary(hands.names)}")
    return mask


def _range_summary(names: Sequence[str], shown: int = 8) -> str:
    listed = ", ".join(names[:shown])
    return listed + (f" ... ({len(names)} combos)" if len(names) > shown else "")


__all__ = [
    "FREQUENCY_TOLERANCE",
    "LockTable",
    "NodeLock",
    "action_names",
    "parse_lock",
    "read_locks",
    "resolve_locks",
]
