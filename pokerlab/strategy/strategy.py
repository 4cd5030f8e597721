"""Strategy: a behaviour strategy for every player of a game.

A strategy is an array ``probs[n_infosets, max_actions]`` aligned with the compiled
tree's infoset ids and action slots (row ``i`` holds the probabilities of the legal
actions of infoset ``i`` in its slots; other slots are 0), plus the game it was made for.
A profile of all players is one Strategy, since the rows of every player are there.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from pokerlab._types import Action, FloatArray
from pokerlab.errors import FileFormatError, StrategyError, StrategyMismatchError
from pokerlab.games.base import Game, State
from pokerlab.games.observation import Observation
from pokerlab.strategy.action_names import infoset_action_names
from pokerlab.strategy.archive import NpzArchive
from pokerlab.strategy.io import (
    file_game,
    header_array,
    keys_fingerprint,
    make_header,
    read_npz,
    write_npz_atomic,
)
from pokerlab.tree import CompiledTree, compile

FORMAT = "pokerlab-strategy"
"""The ``format`` field of a strategy file's header."""

FORMAT_VERSION = 1

ROW_TOLERANCE = 1e-6
"""How far a row may sum from 1 before it is refused."""


@dataclass(frozen=True, eq=False)
class Strategy:
    """Action probabilities at every infoset of a game.

    Build one with :meth:`uniform`, :meth:`from_array` or :meth:`from_dict`; look rows up
    with :meth:`probabilities`; save with :meth:`save` and load with :meth:`load`.

    Attributes:
        game: the game it was made for.
        probs: ``[n_infosets, max_actions]``, read-only; rows sum to 1 over legal slots.
        metadata: what made it (algorithm, iterations, exploitability...), JSON-ready.
    """

    game: Game
    probs: FloatArray
    metadata: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.probs.setflags(write=False)

    # -- construction -------------------------------------------------------------------
    @property
    def tree(self) -> CompiledTree:
        """The compiled tree the rows are aligned with."""
        return compile(self.game)

    @classmethod
    def uniform(cls, game: Game) -> Strategy:
        """Every legal action equally likely at every infoset.

        Example:
            >>> from pokerlab.games import kuhn
            >>> Strategy.uniform(kuhn()).probabilities("K|pb")
            {0: 0.5, 1: 0.5}
        """
        tree = compile(game)
        mask = tree.legal_mask
        probs = mask / mask.sum(axis=1, keepdims=True)
        return cls(game, probs.astype(np.float64), {"algorithm": "uniform"})

    @classmethod
    def from_array(
        cls,
        game: Game,
        probs: FloatArray,
        *,
        normalize: bool = False,
        metadata: Mapping[str, Any] | None = None,
    ) -> Strategy:
        """Wrap ``probs[n_infosets, max_actions]`` after checking it.

        Args:
            game: the game.
            probs: one row per infoset of ``compile(game)``, one column per slot.
            normalize: rescale each row to sum to 1 over its legal slots (a row of zeros
                becomes uniform), as CFR's averages need; otherwise rows must already sum to 1.
            metadata: recorded in saved files.

        Raises:
            StrategyError: wrong shape, negative or non-finite entries, mass on an illegal
                slot, or (unless ``normalize``) a row that does not sum to 1; the message
                names the first bad infoset.
        """
        tree = compile(game)
        array = np.array(probs, dtype=np.float64)
        expected = (tree.n_infosets, tree.max_actions)
        if array.shape != expected:
            raise StrategyError(
                f"a strategy for {game.spec} needs shape {expected} (infosets x action slots); "
                f"got {array.shape}"
            )
        mask = tree.legal_mask
        bad = ~np.isfinite(array) | (array < 0)
        if bad.any():
            row = int(np.argwhere(bad)[0][0])
            raise StrategyError(
                f"infoset {tree.infoset_keys[row]!r} has a negative or non-finite probability: "
                f"{array[row].tolist()}"
            )
        illegal = (array > 0) & ~mask
        if illegal.any():
            row = int(np.argwhere(illegal)[0][0])
            raise StrategyError(
                f"infoset {tree.infoset_keys[row]!r} puts probability on an illegal action slot: "
                f"{array[row].tolist()} with {int(tree.infoset_n_actions[row])} legal actions"
            )
        sums = array.sum(axis=1)
        if normalize:
            zero = sums <= 0
            array[zero] = mask[zero] / mask[zero].sum(axis=1, keepdims=True)
            sums[zero] = 1.0
            array /= sums[:, None]
        else:
            off = np.abs(sums - 1.0) > ROW_TOLERANCE
            if off.any():
                row = int(np.flatnonzero(off)[0])
                raise StrategyError(
                    f"infoset {tree.infoset_keys[row]!r}: probabilities sum to {sums[row]:.9g}, "
                    "not 1, over its legal actions; pass normalize=True to rescale"
                )
        return cls(game, array, dict(metadata or {}))

    @classmethod
    def from_dict(
        cls,
        game: Game,
        rows: Mapping[str, Sequence[float] | Mapping[str, float] | Mapping[Action | str, float]],
        *,
        default: str = "uniform",
    ) -> Strategy:
        """Build a strategy from rows keyed by infoset key.

        A row is a list over the legal actions in order, or a mapping from action id or
        action name to probability (missing actions get 0). A name is play's at that
        infoset (``"check"``, ``"bet"``; what :func:`~pokerlab.strategy.strategy_rows`,
        ``pokerlab show --json`` and ``--csv`` write) or the game's own (``"pass"``,
        ``"call"``, ``"raise"``: what they wrote before), so tables of either kind read back.

        Args:
            game: the game.
            rows: the rows to set.
            default: ``"uniform"`` fills unlisted infosets uniformly; ``"error"`` refuses them.

        Raises:
            StrategyError: an unknown key, an unknown action, a bad row, or (with
                ``default="error"``) a missing infoset.
        """
        if default not in ("uniform", "error"):
            raise StrategyError(f"default must be 'uniform' or 'error'; got {default!r}")
        tree = compile(game)
        base = cls.uniform(game).probs.copy()
        unknown = [k for k in rows if k not in tree._key_index]
        if unknown:
            sample = ", ".join(repr(k) for k in tree.infoset_keys[:4])
            raise StrategyError(
                f"{game.spec} has no infoset {unknown[0]!r}; keys look like {sample}, ..."
            )
        if default == "error":
            missing = [k for k in tree.infoset_keys if k not in rows]
            if missing:
                raise StrategyError(
                    f"{len(missing)} infosets have no row, e.g. {missing[0]!r}; give every "
                    "infoset or use default='uniform'"
                )
        named = [tree._key_index[key] for key, row in rows.items()
                 if isinstance(row, Mapping) and any(isinstance(a, str) for a in row)]
        infoset_action_names(tree, named)  # one walk names every row given by name
        for key, row in rows.items():
            i = tree._key_index[key]
            n = int(tree.infoset_n_actions[i])
            values = np.zeros(tree.max_actions)
            if isinstance(row, Mapping):
                for action, prob in row.items():
                    slot = _slot_of(tree, i, action)
                    values[slot] = prob
            else:
                if len(row) != n:
                    names = ", ".join(infoset_action_names(tree, [i])[0])
                    raise StrategyError(
                        f"infoset {key!r} has {n} legal actions ({names}); got {len(row)} values"
                    )
                values[:n] = row
            base[i] = values
        return cls.from_array(game, base)

    # -- lookup -------------------------------------------------------------------------
    def probabilities(self, infoset_key: str) -> dict[Action, float]:
        """The probability of each legal action (by action id) at an infoset.

        Raises:
            PokerlabError: if the game has no infoset with this key.
        """
        tree = self.tree
        i = tree.infoset_id(infoset_key)
        n = int(tree.infoset_n_actions[i])
        return {int(tree.infoset_actions[i, k]): float(self.probs[i, k]) for k in range(n)}

    def action_probabilities(self, observation: Observation | State) -> dict[Action, float]:
        """The policy contract: the probabilities of the legal actions seen in ``observation``.

        A :class:`~pokerlab.games.State` is accepted too (its player to move's infoset).

        Raises:
            PokerlabError: if the game has no infoset with the observation's key.
        """
        if isinstance(observation, State):
            return self.probabilities(observation.infoset_key(observation.player))
        return self.probabilities(observation.infoset_key)

    def check_game(self, game: Game) -> None:
        """Raise :class:`StrategyMismatchError` unless this strategy was made for ``game``."""
        if self.game != game:
            raise StrategyMismatchError(
                f"this strategy was made for {self.game.spec}, not for {game.spec}"
            )

    def with_metadata(self, **metadata: Any) -> Strategy:
        """A copy with ``metadata`` added."""
        return Strategy(self.game, self.probs.copy(), {**self.metadata, **metadata})

    def combine(self, others: Sequence[Strategy]) -> Strategy:
        """Take player p's rows from ``others[p]`` (a profile from per-seat strategies)."""
        tree = self.tree
        if len(others) != tree.n_players:
            raise StrategyError(
                f"{self.game.spec} has {tree.n_players} players; got {len(others)} strategies"
            )
        probs = np.empty_like(self.probs)
        for p, other in enumerate(others):
            other.check_game(self.game)
            rows = tree.infoset_player == p
            probs[rows] = other.probs[rows]
        return Strategy(self.game, probs, {"algorithm": "combined"})

    def __repr__(self) -> str:
        algo = self.metadata.get("algorithm", "?")
        return f"<Strategy {self.game.spec} [{self.probs.shape[0]} infosets] by {algo}>"

    # -- files --------------------------------------------------------------------------
    def save(self, path: str | Path) -> Path:
        """Write the strategy to ``path`` (``.npz`` + JSON header), atomically."""
        return save_strategy(self, path)

    @classmethod
    def load(cls, path: str | Path, *, game: Game | None = None) -> Strategy:
        """Read a strategy written by :meth:`save`.

        Raises:
            StrategyMismatchError: if ``game`` is given and the file was made for another.
            FileFormatError: if the file is missing, truncated or corrupted.
        """
        return load_strategy(path, game=game)


def save_strategy(strategy: Strategy, path: str | Path) -> Path:
    """Write ``strategy`` to ``path`` atomically and return the path."""
    target = Path(path)
    tree = compile(strategy.game)
    header = make_header(
        FORMAT,
        FORMAT_VERSION,
        strategy.game,
        n_infosets=tree.n_infosets,
        max_actions=tree.max_actions,
        keys_fingerprint=keys_fingerprint(tree),
        metadata=dict(strategy.metadata),
    )
    write_npz_atomic(
        target, {"header": header_array(header), "probs": np.ascontiguousarray(strategy.probs)}
    )
    return target


def strategy_from_file(
    header: dict[str, object], arrays: dict[str, np.ndarray], path: str | Path,
    game: Game | None,
) -> Strategy:
    """Build the strategy of a file already read by :func:`~pokerlab.strategy.io.read_npz`."""
    found = file_game(header, path, game, "a strategy")
    tree = compile(found)
    if header.get("keys_fingerprint") != keys_fingerprint(tree):
        raise StrategyMismatchError(
            f"{str(path)!r} was made for {found.spec} by a pokerlab whose infosets differ "
            "from this one's; solve it again"
        )
    probs = arrays.get("probs")
    if probs is None:
        raise FileFormatError(f"{str(path)!r} has no 'probs' array")
    metadata = header.get("metadata", {})
    return Strategy.from_array(
        found, probs, metadata=metadata if isinstance(metadata, dict) else {}
    )


def check_strategy_arrays(
    header: dict[str, object], archive: NpzArchive, path: str | Path, game: Game | None
) -> None:
    """Refuse a strategy file whose declared ``probs`` the game cannot have, before reading it.

    ``probs`` must be declared ``[n_infosets, max_actions]`` of the game the header names
    (compiled once, as loading it needs), of a real number type.

    Raises:
        FileFormatError: a shape or dtype the game cannot have, or no valid game.
        StrategyMismatchError: ``game`` is given and the file was made for another.
    """
    tree = compile(file_game(header, path, game, "a strategy"))
    probs = archive.arrays.get("probs")
    expected = (tree.n_infosets, tree.max_actions)
    if probs is not None and (probs.shape != expected or probs.dtype.kind not in "iuf"):
        raise FileFormatError(
            f"{str(path)!r} declares probs of shape {probs.shape} ({probs.dtype}); its game "
            f"needs {expected} real numbers"
        )


def load_strategy(path: str | Path, *, game: Game | None = None) -> Strategy:
    """Read a strategy file; check it against ``game`` when one is given.

    Raises:
        StrategyMismatchError: if ``game`` is given and the file was made for another.
        FileFormatError: if the file is missing, truncated, corrupted or of another format.
    """
    header, arrays = read_npz(
        path, FORMAT, check=lambda head, declared: check_strategy_arrays(head, declared, path, game)
    )
    return strategy_from_file(header, arrays, path, game)


def _slot_of(tree: CompiledTree, infoset: int, action: Action | str) -> int:
    """The slot of ``action`` (an id, or play's or the game's name for it) at ``infoset``."""
    n = int(tree.infoset_n_actions[infoset])
    legal = [int(a) for a in tree.infoset_actions[infoset, :n]]
    if isinstance(action, str):
        played = infoset_action_names(tree, [infoset])[0]
        if action in played:
            return played.index(action)
        names = [tree.game.action_name(a) for a in legal]
        if action in names:
            return names.index(action)
    elif action in legal:
        return legal.index(action)
    played = infoset_action_names(tree, [infoset])[0]
    legal_names = ", ".join(f"{name} ({a})" for name, a in zip(played, legal, strict=True))
    key = tree.infoset_keys[infoset]
    raise StrategyError(f"infoset {key!r} has no action {action!r}; legal: {legal_names}")
