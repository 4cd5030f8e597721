"""Deep CFR's parts: the torch import, the infoset encoder, network weights, memories.

Used by :mod:`pokerlab.solvers.deep_cfr` (the solver) and :mod:`.deep_policy` (the learned
policy); torch is imported only when one is built (:func:`require_torch`).

"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

import numpy as np
from numpy.typing import NDArray

from pokerlab._types import FloatArray
from pokerlab.errors import (
    FileFormatError,
    MissingExtraError,
    SolverError,
)
from pokerlab.games.observation import Observation
from pokerlab.tree import CompiledTree

EXTRA = "pokerlab[deep]"
"""The optional extra that installs PyTorch."""


def require_torch() -> ModuleType:
    """Import and return torch.

    Raises:
        MissingExtraError: if torch is not installed (the message names the extra).
    """
    try:
        import torch
    except ImportError:
        raise MissingExtraError(
            f"Deep CFR needs PyTorch, which is not installed; install the extra: "
            f"pip install '{EXTRA}'"
        ) from None
    return torch


# -- the encoding of an infoset -----------------------------------------------------------
@dataclass(frozen=True)
class InfosetEncoder:
    """Turns what a player observes into the fixed-size vector a network reads.

    The vector is, in order: the seat (one-hot), the player's private cards (one-hot over
    the card strings met), the board (one-hot), one block per position of the public
    history (one-hot over the ``"seat:event"`` strings met; all zero past its end), and
    the chips each player has put in divided by ``chip_scale``. Everything comes from the
    :class:`Observation`, so any game of the State API is encoded; the vocabularies are
    read from the compiled tree by :meth:`from_tree`. A card string or event never met
    encodes as zeros.

    Attributes:
        n_players: seats in the game.
        private_vocabulary: private-card strings, in order.
        board_vocabulary: board strings, in order.
        event_vocabulary: public events as ``"seat:name"``, in order.
        history_length: the longest public history.
        chip_scale: what the chips put in are divided by (the largest total met).
    """

    n_players: int
    private_vocabulary: tuple[str, ...]
    board_vocabulary: tuple[str, ...]
    event_vocabulary: tuple[str, ...]
    history_length: int
    chip_scale: float
    _private_index: dict[str, int] = field(init=False, repr=False, compare=False)
    _board_index: dict[str, int] = field(init=False, repr=False, compare=False)
    _event_index: dict[str, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(
            self, "_private_index", {s: i for i, s in enumerate(self.private_vocabulary)}
        )
        object.__setattr__(
            self, "_board_index", {s: i for i, s in enumerate(self.board_vocabulary)}
        )
        object.__setattr__(
            self, "_event_index", {s: i for i, s in enumerate(self.event_vocabulary)}
        )

    @property
    def size(self) -> int:
        """The length of an encoded vector."""
        return (
            self.n_players
            + len(self.private_vocabulary)
            + len(self.board_vocabulary)
            + self.history_length * len(self.event_vocabulary)
            + self.n_players
        )

    @classmethod
    def from_tree(cls, tree: CompiledTree) -> InfosetEncoder:
        """The encoder whose vocabularies are those of ``tree``'s infosets."""
        private: dict[str, None] = {}
        board: dict[str, None] = {}
        events: dict[str, None] = {}
        longest = 0
        chips = 1.0
        for observation in tree_observations(tree):
            private.setdefault(observation.private_cards)
            board.setdefault(observation.board)
            for seat, name in observation.public_history:
                events.setdefault(f"{seat}:{name}")
            longest = max(longest, len(observation.public_history))
            chips = max(chips, float(sum(observation.committed)))
        return cls(
            n_players=tree.n_players,
            private_vocabulary=tuple(private),
            board_vocabulary=tuple(board),
            event_vocabulary=tuple(events),
            history_length=longest,
            chip_scale=chips,
        )

    def encode(self, observation: Observation) -> NDArray[np.float32]:
        """The vector of ``observation`` (float32, length :attr:`size`)."""
        out = np.zeros(self.size, dtype=np.float32)
        offset = 0
        if 0 <= observation.seat < self.n_players:
            out[observation.seat] = 1.0
        offset += self.n_players
        index = self._private_index.get(observation.private_cards)
        if index is not None:
            out[offset + index] = 1.0
        offset += len(self.private_vocabulary)
        index = self._board_index.get(observation.board)
        if index is not None:
            out[offset + index] = 1.0
        offset += len(self.board_vocabulary)
        width = len(self.event_vocabulary)
        for position, (seat, name) in enumerate(observation.public_history[: self.history_length]):
            index = self._event_index.get(f"{seat}:{name}")
            if index is not None:
                out[offset + position * width + index] = 1.0
        offset += self.history_length * width
        for seat, chips in enumerate(observation.committed[: self.n_players]):
            out[offset + seat] = float(chips) / self.chip_scale
        return out

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready fields (saved with a policy)."""
        return {
            "n_players": self.n_players,
            "private_vocabulary": list(self.private_vocabulary),
            "board_vocabulary": list(self.board_vocabulary),
            "event_vocabulary": list(self.event_vocabulary),
            "history_length": self.history_length,
            "chip_scale": self.chip_scale,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> InfosetEncoder:
        """Rebuild an encoder from :meth:`to_dict`.

        Raises:
            FileFormatError: if a field is missing or of the wrong type.
        """
        try:
            return cls(
                n_players=int(data["n_players"]),
                private_vocabulary=tuple(str(s) for s in data["private_vocabulary"]),
                board_vocabulary=tuple(str(s) for s in data["board_vocabulary"]),
                event_vocabulary=tuple(str(s) for s in data["event_vocabulary"]),
                history_length=int(data["history_length"]),
                chip_scale=float(data["chip_scale"]),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise FileFormatError(f"the infoset encoder's fields are not valid: {exc!r}") from None


def tree_observations(tree: CompiledTree) -> list[Observation]:
    """The observation of the player to act at each infoset's first history, in id order."""
    out = []
    for i in range(tree.n_infosets):
        state = tree.history_state(int(tree.infoset_history[i]))
        out.append(state.observation(state.player))
    return out


# -- networks ------------------------------------------------------------------------------
Weights = dict[str, NDArray[np.float32]]
"""A network's parameters by name, as numpy arrays (what checkpoints and files hold)."""


def check_layers(name: str, layers: object) -> tuple[int, ...]:
    """``layers`` as a tuple of hidden-layer widths (each an integer >= 1), else a SolverError."""
    if (
        not isinstance(layers, Sequence)
        or isinstance(layers, str)
        or not all(
            isinstance(n, int | np.integer) and not isinstance(n, bool) and n >= 1
            for n in layers
        )
    ):
        raise SolverError(
            f"{name} must be a sequence of hidden-layer widths (integers >= 1), e.g. (64, 64); "
            f"got {layers!r}"
        )
    return tuple(int(n) for n in layers)


def initial_weights(
    rng: np.random.Generator, n_in: int, hidden: tuple[int, ...], n_out: int
) -> Weights:
    """Fresh parameters of an MLP, uniform in +-1/sqrt(fan-in) (PyTorch's default), from rng."""
    weights: Weights = {}
    widths = (n_in, *hidden, n_out)
    for layer, (fan_in, fan_out) in enumerate(itertools.pairwise(widths)):
        bound = 1.0 / math.sqrt(fan_in)
        weights[f"{2 * layer}.weight"] = rng.uniform(-bound, bound, (fan_out, fan_in)).astype(
            np.float32
        )
        weights[f"{2 * layer}.bias"] = rng.uniform(-bound, bound, fan_out).astype(np.float32)
    return weights


def build_network(torch: ModuleType, weights: Weights) -> Any:
    """The MLP (linear layers with ReLU between) holding ``weights``."""
    count = len(weights) // 2
    modules: list[Any] = []
    for layer in range(count):
        w = weights[f"{2 * layer}.weight"]
        linear = torch.nn.Linear(w.shape[1], w.shape[0])
        modules.append(linear)
        if layer < count - 1:
            modules.append(torch.nn.ReLU())
    net = torch.nn.Sequential(*modules)
    net.load_state_dict({name: torch.from_numpy(np.array(w)) for name, w in weights.items()})
    return net


def weights_of(net: Any) -> Weights:
    """A torch network's parameters as numpy arrays (copies), the form memories and files keep."""
    return {name: t.detach().cpu().numpy().copy() for name, t in net.state_dict().items()}


def advantage_strategy(advantages: FloatArray, legal: NDArray[np.bool_]) -> FloatArray:
    """Regret matching on predicted advantages; where none is positive, the best action.

    The paper's rule (Brown et al. 2019, section 4): with no positive advantage, the
    action of highest advantage is played with probability 1.
    """
    positive = np.where(legal, np.maximum(advantages, 0.0), 0.0)
    sums = positive.sum(axis=1, keepdims=True)
    best = np.argmax(np.where(legal, advantages, -np.inf), axis=1)
    fallback = np.zeros_like(positive)
    fallback[np.arange(len(best)), best] = 1.0
    return np.where(sums > 0, positive / np.where(sums > 0, sums, 1.0), fallback)


class TorchThreads:
    """Sets torch's intra-op threads for a block and restores them."""

    def __init__(self, torch: ModuleType, threads: int) -> None:
        self._torch = torch
        self._threads = threads
        self._before = 0

    def __enter__(self) -> None:
        self._before = self._torch.get_num_threads()
        self._torch.set_num_threads(self._threads)

    def __exit__(self, *exc: object) -> None:
        self._torch.set_num_threads(self._before)


# -- memories ------------------------------------------------------------------------------
class ReservoirMemory:
    """A uniform sample of at most ``capacity`` of all rows ever offered (Vitter's algorithm R).

    A row is an infoset id, the iteration that made it, and a vector (regrets or a
    strategy) over the action slots.
    """

    def __init__(self, capacity: int, width: int) -> None:
        self.capacity = capacity
        self.ids = np.zeros(capacity, dtype=np.int32)
        self.iterations = np.zeros(capacity, dtype=np.int32)
        self.rows = np.zeros((capacity, width), dtype=np.float32)
        self.size = 0
        self.seen = 0

    def add(
        self,
        ids: NDArray[np.int32],
        iteration: int,
        rows: NDArray[np.float32],
        rng: np.random.Generator,
    ) -> None:
        """Offer ``len(ids)`` rows made at ``iteration``."""
        count = len(ids)
        if count == 0:
            return
        room = min(self.capacity - self.size, count)
        if room > 0:
            self.ids[self.size : self.size + room] = ids[:room]
            self.iterations[self.size : self.size + room] = iteration
            self.rows[self.size : self.size + room] = rows[:room]
            self.size += room
        rest = count - room
        if rest > 0:
            # Row k (0-based among all ever offered) replaces a uniform slot with
            # probability capacity / (k + 1); later rows overwrite earlier ones.
            numbers = self.seen + room + np.arange(rest, dtype=np.int64)
            slots = (rng.random(rest) * (numbers + 1)).astype(np.int64)
            keep = slots < self.capacity
            chosen = slots[keep]
            self.ids[chosen] = ids[room:][keep]
            self.iterations[chosen] = iteration
            self.rows[chosen] = rows[room:][keep]
        self.seen += count

    @property
    def nbytes(self) -> int:
        """Bytes held by the arrays."""
        return int(self.ids.nbytes + self.iterations.nbytes + self.rows.nbytes)

    def state(self, prefix: str) -> dict[str, Any]:
        """The rows held, and the counts, for a checkpoint."""
        return {
            f"{prefix}_ids": self.ids[: self.size].copy(),
            f"{prefix}_iterations": self.iterations[: self.size].copy(),
            f"{prefix}_rows": self.rows[: self.size].copy(),
            f"{prefix}_seen": self.seen,
        }

    def restore(self, state: Mapping[str, Any], prefix: str) -> None:
        """Put back what :meth:`state` saved.

        Raises:
            SolverError: if the saved rows do not fit this memory.
        """
        try:
            ids = np.asarray(state[f"{prefix}_ids"], dtype=np.int32)
            iterations = np.asarray(state[f"{prefix}_iterations"], dtype=np.int32)
            rows = np.asarray(state[f"{prefix}_rows"], dtype=np.float32)
            seen = int(state[f"{prefix}_seen"])
        except (KeyError, TypeError, ValueError) as exc:
            raise SolverError(
                f"checkpoint memory {prefix!r} is missing or damaged: {exc!r}"
            ) from None
        size = len(ids)
        if (
            size > self.capacity
            or len(iterations) != size
            or rows.shape != (size, self.rows.shape[1])
            or seen < size
        ):
            raise SolverError(
                f"checkpoint memory {prefix!r} holds {size} rows of shape {rows.shape[1:]} "
                f"(seen {seen}); this solver's memory holds {self.capacity} rows of "
                f"{self.rows.shape[1]} slots"
            )
        self.ids[:size] = ids
        self.iterations[:size] = iterations
        self.rows[:size] = rows
        self.size = size
        self.seen = seen


__all__ = [
    "EXTRA",
    "InfosetEncoder",
    "MissingExtraError",
    "ReservoirMemory",
    "TorchThreads",
    "Weights",
    "advantage_strategy",
    "build_network",
    "check_layers",
    "initial_weights",
    "require_torch",
    "tree_observations",
    "weights_of",
]
