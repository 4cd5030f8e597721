"""A Gymnasium environment: one learner in one seat, every other seat an opponent agent.

Each episode is one hand. ``reset(seed)`` seeds the environment's generator
(``self.np_random``, a ``numpy.random.Generator``), picks the learner's seat (``seat``, or
uniformly at random from the generator), resets and seeds the opponents through the
dealer's hooks (``reset``, ``seed`` with a value drawn from the generator, ``observe``
after every action and at the end of the hand), deals, and lets the opponents act until
the learner must. ``step(action)`` plays the learner's action and the opponents' answers;
the reward is the learner's chips won, given when the hand ends (0 before). Opponents are
anything :func:`~pokerlab.envs.opponents.opponent_agent` accepts: a built-in name, a
strategy or blueprint file, an agent object, a sandboxed entrant's connection.

A hand in which the learner never acts (everyone folds to its big blind) is not an
episode: ``reset`` deals past it and reports it in its ``info`` (``skipped_hands``, and
the learner's chips in them, ``skipped_returns``), so that nothing is lost.

Observations and masks are those of :mod:`pokerlab.envs.spaces` (the mask is also
``action_masks()``, the method masked-policy libraries call). An index outside the mask
(single-agent algorithms often sample unmasked; Gymnasium's ``check_env`` does) is played
as the dealer plays an illegal answer, the default action (check if legal, else fold), and
reported in ``info["illegal_action"]``; ``on_illegal="raise"`` raises
:class:`~pokerlab.errors.IllegalActionError` instead.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from pokerlab._types import Action
from pokerlab.envs.extra import missing_extra
from pokerlab.envs.opponents import Opponent, opponent_agent
from pokerlab.envs.spaces import action_space, observation_space
from pokerlab.envs.table import PokerTable
from pokerlab.errors import IllegalActionError, PokerlabError, SpecError
from pokerlab.games import Game
from pokerlab.games.bet_sizes import BetMenu
from pokerlab.play.dealer import AgentConnection, AgentFault, connect, default_action, hand_results

try:
    import gymnasium
except ImportError:
    raise missing_extra("pokerlab.envs.single") from None

RENDER_MODES = ("human", "ansi")
"""The render modes: print the table, or return it as text."""
ILLEGAL_CHOICES = ("default", "raise")
"""What an index outside the mask does: the dealer's default action, or an error."""
MAX_SKIPPED = 10_000
"""Hands ``reset`` deals past without a decision of the learner before it gives up."""
SEED_BOUND = 2**63
"""Opponents' per-hand seeds are drawn below this from the environment's generator."""


class PokerGymEnv(gymnasium.Env[dict[str, Any], Any]):
    """The single-agent environment of one game (see the module docstring).

    Args:
        game: a Kuhn, Leduc or Hold'em game (2 to 9 players), or its spec string.
        opponents: one opponent for every other seat (text only: each seat gets its own
            agent), or one per other seat, in seat order after the learner's.
        seat: the learner's seat, or None for a seat drawn each hand.
        bet_sizes: no-limit Hold'em only: the bet menu (:mod:`pokerlab.envs.actions`).
        force_all_in_threshold: no-limit Hold'em only: the menu's force-all-in threshold.
        history_length: Hold'em only: action slots per round in the observation.
        on_illegal: ``"default"`` or ``"raise"`` (see the module docstring).
        render_mode: None, ``"human"`` or ``"ansi"``.
        cache_dir: where built-in opponents that solve or train keep their results.

    Raises:
        SpecError: a game the environments do not play, a bad seat or option, or one agent
            object given for several seats.
        PokerlabError: an opponent that cannot be built for the game.
    """

    # Gymnasium's Env declares metadata as an attribute, not a ClassVar.
    metadata: dict[str, Any] = {  # noqa: RUF012
        "render_modes": list(RENDER_MODES),
        "render_fps": 1,
    }

    def __init__(
        self,
        game: Game | str,
        opponents: Opponent | Sequence[Opponent] = "random",
        *,
        seat: int | None = None,
        bet_sizes: str | BetMenu | None = None,
        force_all_in_threshold: float | None = None,
        history_length: int | None = None,
        on_illegal: str = "default",
        render_mode: str | None = None,
        cache_dir: str | Path | None = None,
    ) -> None:
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise SpecError(f"render_mode must be None, 'human' or 'ansi'; got {render_mode!r}")
        if on_illegal not in ILLEGAL_CHOICES:
            raise SpecError(f"on_illegal must be 'default' or 'raise'; got {on_illegal!r}")
        self.table = PokerTable(
            game, bet_sizes=bet_sizes, force_all_in_threshold=force_all_in_threshold,
            history_length=history_length, track_public=True,
        )  # fmt: skip
        n = self.table.n_players
        if seat is not None and (
            isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n
        ):
            raise SpecError(f"seat must be None or 0..{n - 1}; got {seat!r}")
        self.fixed_seat = seat
        self.seat = 0 if seat is None else seat
        self.on_illegal = on_illegal
        self.render_mode = render_mode
        self.opponents = self._build_opponents(opponents, cache_dir)
        self._connections: list[AgentConnection] = [connect(a) for a in self.opponents]
        self._seating: list[AgentConnection | None] = [None] * n
        self.observation_space = observation_space(self.table)
        self.action_space = action_space(self.table)

    @property
    def game(self) -> Game:
        """The game played."""
        return self.table.game

    def _build_opponents(
        self, opponents: Opponent | Sequence[Opponent], cache_dir: str | Path | None
    ) -> list[object]:
        game = self.table.game
        others = game.n_players - 1
        if isinstance(opponents, str | Path) or not isinstance(opponents, Sequence):
            if not isinstance(opponents, str | Path) and others > 1:
                raise SpecError(
                    f"{game.spec} has {others} other seats: give one agent object per seat "
                    "(a list), or a name or file that builds one each"
                )
            given: list[Opponent] = [opponents] * others
        else:
            given = list(opponents)
        if len(given) != others:
            raise SpecError(f"{game.spec} needs {others} opponents; got {len(given)}")
        objects = [id(o) for o in given if not isinstance(o, str | Path)]
        if len(set(objects)) != len(objects):
            raise SpecError("one agent object sits in two seats; give each seat its own")
        return [opponent_agent(o, game, seed=k, cache_dir=cache_dir) for k, o in enumerate(given)]

    # -- the episode -------------------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, NDArray[Any]], dict[str, Any]]:
        """Deal a hand in which the learner acts; return its first observation and info.

        The info holds ``seat`` (the learner's), and ``skipped_hands`` and
        ``skipped_returns`` (the hands this reset dealt past because the learner had no
        decision in them, and the learner's chips in them).
        """
        super().reset(seed=seed)
        rng = self.np_random
        table = self.table
        n = table.n_players
        skipped, skipped_returns = 0, 0.0
        while True:
            self.seat = self.fixed_seat if self.fixed_seat is not None else int(rng.integers(n))
            seating: list[AgentConnection | None] = list(self._connections)
            seating.insert(self.seat, None)
            self._seating = seating
            for position, connection in enumerate(seating):
                if connection is not None:
                    self._call(position, "reset", connection.reset)
                    self._call(position, "seed", connection.seed,
                               int(rng.integers(SEED_BOUND)))
            table.deal(rng)
            self._play_opponents()
            if not table.is_over:
                break
            skipped += 1
            skipped_returns += float(table.returns()[self.seat])
            if skipped >= MAX_SKIPPED:
                raise PokerlabError(
                    f"the learner had no decision in {skipped:,} hands in a row (do the "
                    "opponents always end the hand before its turn?)"
                )
        info = {"seat": self.seat, "skipped_hands": skipped, "skipped_returns": skipped_returns}
        if self.render_mode == "human":
            self.render()
        return self._observation(), info

    def step(
        self, action: Any
    ) -> tuple[dict[str, NDArray[Any]], float, bool, bool, dict[str, Any]]:
        """Play the learner's ``action`` and the opponents' answers up to its next decision.

        Raises:
            IllegalActionError: ``action`` is outside the mask and ``on_illegal="raise"``.
            PokerlabError: the hand is over (call ``reset``), or an opponent failed.
        """
        table = self.table
        if table.is_over or table.player != self.seat:
            raise PokerlabError("the hand is over; call reset() to deal the next one")
        info: dict[str, Any] = {}
        try:
            table.step(action)
        except IllegalActionError:
            if self.on_illegal == "raise":
                raise
            fallback = default_action(table.state)
            info["illegal_action"] = action
            self._play(fallback)
        else:
            self._updates()
        self._play_opponents()
        reward = 0.0
        terminated = table.is_over
        if terminated:
            reward = float(table.returns()[self.seat])
        if self.render_mode == "human":
            self.render()
        return self._observation(), reward, terminated, False, info

    def action_masks(self) -> NDArray[np.bool_]:
        """The learner's legal indices now (the method masked-policy libraries call)."""
        return self.table.mask(self.seat).astype(bool)

    def _observation(self) -> dict[str, NDArray[Any]]:
        table = self.table
        return {
            "observation": table.observation(self.seat),
            "action_mask": table.mask(self.seat),
        }

    def _play(self, action: Action) -> None:
        self.table.play(action)
        self._updates()

    def _play_opponents(self) -> None:
        """Let the opponents act until the learner must, or the hand ends (then tell them)."""
        table = self.table
        seating = self._seating
        while not table.is_over and table.player != self.seat:
            position = table.player
            connection = seating[position]
            assert connection is not None
            state = table.state
            view = state.observation(position, public_history=tuple(table.public_history))
            answer = self._call(position, "act", connection.act, view)
            if (
                isinstance(answer, bool) or not isinstance(answer, int | np.integer)
                or int(answer) not in view.legal_actions
            ):
                legal = ", ".join(view.action_names)
                raise PokerlabError(
                    f"opponent {connection.name} (seat {position}) answered {answer!r}, not a "
                    f"legal action id; legal: {legal}"
                )
            self._play(int(answer))
        if table.is_over:
            results = hand_results(table.state, tuple(table.public_history))
            for position, connection in enumerate(seating):
                if connection is not None:
                    self._call(position, "observe", connection.observe, results[position])

    def _updates(self) -> None:
        """Send each opponent that wants them its observation after an action."""
        table = self.table
        if table.is_over:
            return
        history: tuple[tuple[int, str], ...] | None = None
        for position, connection in enumerate(self._seating):
            if connection is not None and connection.wants_updates:
                if history is None:
                    history = tuple(table.public_history)
                view = table.state.observation(position, public_history=history)
                self._call(position, "observe", connection.observe, view)

    def _call(self, position: int, hook: str, call: Any, *args: object) -> object:
        try:
            return call(*args)
        except AgentFault as fault:
            name = getattr(self._seating[position], "name", "?")
            raise PokerlabError(
                f"opponent {name} (seat {position}) failed in {hook} ({fault.kind}): "
                f"{fault.detail}"
            ) from None

    def render(self) -> str | None:
        """The table as text (``"ansi"``), printed (``"human"``), or nothing (no mode)."""
        if self.render_mode is None:
            gymnasium.logger.warn(
                "render() was called without a render mode; make the environment with "
                "render_mode='ansi' or 'human'"
            )
            return None
        names = tuple(
            "learner" if c is None else f"{c.name} ({p})" for p, c in enumerate(self._seating)
        )
        text = self.table.render(names)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Close the opponents' connections (sandboxed processes, sockets)."""
        for connection in self._connections:
            connection.close()


__all__ = ["ILLEGAL_CHOICES", "MAX_SKIPPED", "RENDER_MODES", "PokerGymEnv"]
