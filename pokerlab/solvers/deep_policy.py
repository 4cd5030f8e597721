"""A Deep CFR strategy network as a pokerlab policy, and its ``.pt`` file format."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from pokerlab._types import Action, FloatArray
from pokerlab.errors import (
    FileFormatError,
    PokerlabError,
    StrategyMismatchError,
)
from pokerlab.games import Game, GameSpec, load
from pokerlab.games.observation import Observation
from pokerlab.solvers.deep_networks import (
    InfosetEncoder,
    Weights,
    build_network,
    require_torch,
    tree_observations,
)
from pokerlab.strategy import Strategy
from pokerlab.strategy.archive import check_zip_sizes
from pokerlab.strategy.io import describe_file, write_file_atomic
from pokerlab.tree import CompiledTree, compile
from pokerlab.tree.compile import DEFAULT_MEMORY_LIMIT

POLICY_FORMAT = "pokerlab-deep-policy"
"""The ``format`` field of a saved :class:`DeepPolicy` (a ``.pt`` file)."""

POLICY_FORMAT_VERSION = 1


# -- the learned policy ---------------------------------------------------------------------
class DeepPolicy:
    """A strategy network as a pokerlab policy: encoded observation in, probabilities out.

    The network's outputs are logits over the action slots (slot ``k`` is the ``k``-th
    legal action); the probabilities are their softmax over the legal slots. Save to a
    ``.pt`` file with :meth:`save` and read it back with :meth:`load`.

    Args:
        game: the game it plays.
        encoder: how observations become the network's input.
        weights: the network's parameters (see :data:`Weights`).
        metadata: what made it (algorithm, iterations, hyper-parameters...), JSON-ready.
    """

    def __init__(
        self,
        game: Game,
        encoder: InfosetEncoder,
        weights: Weights,
        metadata: Mapping[str, Any] | None = None,
    ) -> None:
        self._game = game
        self.encoder = encoder
        self.weights = {name: np.asarray(w, dtype=np.float32) for name, w in weights.items()}
        self.metadata: dict[str, Any] = dict(metadata or {})
        self._torch = require_torch()
        self._net = build_network(self._torch, self.weights)
        self._net.eval()

    @property
    def game(self) -> Game:
        """The game it plays."""
        return self._game

    def logits(self, features: NDArray[np.float32]) -> FloatArray:
        """The network's outputs for a batch of encoded observations ``[n, size]``."""
        torch = self._torch
        with torch.no_grad():
            out = self._net(torch.from_numpy(np.ascontiguousarray(features, dtype=np.float32)))
        return np.asarray(out.numpy(), dtype=np.float64)

    def action_probabilities(self, observation: Observation) -> dict[Action, float]:
        """``{action: probability}`` over the legal actions of ``observation``.

        Raises:
            PolicyError: if nobody is to act in ``observation`` (no legal actions).
        """
        from pokerlab.errors import PolicyError

        legal = observation.legal_actions
        if not legal:
            raise PolicyError(
                f"{self!r} was asked to act at {observation.infoset_key!r}, where the observer "
                "has no legal action"
            )
        logits = self.logits(self.encoder.encode(observation)[None, :])[0]
        mask = np.zeros(len(logits), dtype=bool)
        mask[: len(legal)] = True
        probs = _masked_softmax(logits[None, :], mask[None, :])[0]
        return {int(a): float(probs[k]) for k, a in enumerate(legal)}

    def to_strategy(self) -> Strategy:
        """The policy at every infoset of the compiled game, in one batch (exact evaluators).

        Raises:
            GameTooLargeError: if the game is too big to compile.
        """
        tree = compile(self.game)
        features = np.stack([self.encoder.encode(o) for o in tree_observations(tree)])
        return strategy_from_logits(self.game, tree, self.logits(features), self.metadata)

    def save(self, path: str | Path) -> Path:
        """Write the policy to ``path`` (a ``.pt`` file read by :meth:`load`), atomically."""
        torch = self._torch
        target = Path(path)
        from pokerlab import __version__

        payload = {
            "format": POLICY_FORMAT,
            "format_version": POLICY_FORMAT_VERSION,
            "pokerlab_version": __version__,
            "game": self.game.spec.to_dict(),
            "game_string": str(self.game.spec),
            "encoder": self.encoder.to_dict(),
            "metadata": _json_ready(self.metadata),
            "weights": {name: torch.from_numpy(w.copy()) for name, w in self.weights.items()},
        }
        write_file_atomic(target, lambda handle: torch.save(payload, handle))
        return target

    @classmethod
    def load(cls, path: str | Path, *, game: Game | None = None) -> DeepPolicy:
        """Read a policy written by :meth:`save` (tensors and plain values only, no pickle).

        Args:
            path: the ``.pt`` file.
            game: if given, the file must be for this game (and this object is used).

        Raises:
            FileFormatError: missing, damaged, or not a Deep CFR policy file.
            StrategyMismatchError: the file was made for another game than ``game``.
            MissingExtraError: torch is not installed.
        """
        torch = require_torch()
        where = repr(str(path))
        if not Path(path).is_file():
            raise FileFormatError(f"{where} does not exist or is not a file")
        kind = describe_file(Path(path))
        if kind != "a zip archive (.npz)":
            raise FileFormatError(
                f"{where} is {kind}, not a readable Deep CFR policy (.pt) file"
            )
        check_zip_sizes(Path(path), where=where, limit=DEFAULT_MEMORY_LIMIT)
        try:
            payload = torch.load(path, map_location="cpu", weights_only=True)
        except Exception as exc:  # torch raises many kinds on a damaged file
            raise FileFormatError(
                f"{where} is not a readable Deep CFR policy (.pt) file: {exc}"
            ) from None
        if not isinstance(payload, dict) or payload.get("format") != POLICY_FORMAT:
            raise FileFormatError(f"{where} is a .pt file but not a {POLICY_FORMAT} file")
        try:
            spec = GameSpec.from_dict(payload["game"])
        except (KeyError, PokerlabError) as exc:
            raise FileFormatError(f"{where} names no valid game: {exc}") from None
        if game is not None and game.spec != spec:
            raise StrategyMismatchError(f"{where} is a policy for {spec}, not for {game.spec}")
        found = game if game is not None else load(spec)
        encoder = InfosetEncoder.from_dict(payload.get("encoder", {}))
        raw = payload.get("weights")
        if not isinstance(raw, dict) or not raw:
            raise FileFormatError(f"{where} holds no network weights")
        weights = {str(k): np.asarray(v.numpy(), dtype=np.float32) for k, v in raw.items()}
        metadata = payload.get("metadata", {})
        try:
            return cls(found, encoder, weights, metadata if isinstance(metadata, dict) else {})
        except (RuntimeError, KeyError, IndexError) as exc:
            raise FileFormatError(f"{where} holds weights that make no network: {exc}") from None

    def __repr__(self) -> str:
        return f"<DeepPolicy {self.game.spec} by {self.metadata.get('algorithm', '?')}>"


def _masked_softmax(logits: FloatArray, legal: NDArray[np.bool_]) -> FloatArray:
    shifted = np.where(legal, logits, -np.inf)
    shifted = shifted - shifted.max(axis=1, keepdims=True)
    exp = np.where(legal, np.exp(shifted), 0.0)
    return np.asarray(exp / exp.sum(axis=1, keepdims=True), dtype=np.float64)


def strategy_from_logits(
    game: Game, tree: CompiledTree, logits: FloatArray, metadata: Mapping[str, Any]
) -> Strategy:
    """The strategy the network's ``logits`` give at every infoset of the compiled ``tree``."""
    return Strategy.from_array(
        game, _masked_softmax(logits, tree.legal_mask), metadata=dict(metadata)
    )


def _json_ready(value: Any) -> Any:
    """Plain Python values only (what ``torch.load(weights_only=True)`` accepts)."""
    if isinstance(value, Mapping):
        return {str(k): _json_ready(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_json_ready(v) for v in value]
    if isinstance(value, np.generic):
        return value.item()
    if value is None or isinstance(value, bool | int | float | str):
        return value
    return str(value)


def load_deep_policy(path: str | Path, *, game: Game | None = None) -> DeepPolicy:
    """Read a Deep CFR policy file (``.pt``); see :meth:`DeepPolicy.load`."""
    return DeepPolicy.load(path, game=game)


__all__ = [
    "POLICY_FORMAT",
    "POLICY_FORMAT_VERSION",
    "DeepPolicy",
    "load_deep_policy",
    "strategy_from_logits",
]
