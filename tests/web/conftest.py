"""Shared pieces of the web tests: an app with test bots, a Leduc strategy folder, play-outs."""

from __future__ import annotations

import time
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from pokerlab.games import Game, load
from pokerlab.games.observation import Observation
from pokerlab.solvers import CFRPlus
from pokerlab.web.app import create_app

if TYPE_CHECKING:
    from playwright.sync_api import Browser


class CrashingBot:
    """Raises on every decision."""

    name = "crash"

    def act(self, observation: Observation) -> int:
        raise RuntimeError("this bot always crashes")


class SleepyBot:
    """Answers only after ``seconds`` (longer than the tests' time limit)."""

    name = "sleepy"

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds

    def act(self, observation: Observation) -> int:
        time.sleep(self.seconds)
        return observation.legal_actions[0]


def _extra_agents() -> dict[str, Callable[[Game, int], object]]:
    return {"crash": lambda game, seed: CrashingBot(),
            "sleepy": lambda game, seed: SleepyBot(2.0)}


@pytest.fixture(scope="session")
def strategies_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A --strategies folder holding a Leduc and a Kuhn strategy (a few CFR+ iterations)."""
    folder = tmp_path_factory.mktemp("strategies")
    CFRPlus(load("leduc")).run(iterations=20).average_strategy().save(folder / "leduc20.npz")
    CFRPlus(load("kuhn")).run(iterations=50).average_strategy().save(folder / "kuhn50.npz")
    return folder


@pytest.fixture
def client(strategies_dir: Path) -> Iterator[TestClient]:
    """A client of an app serving ``strategies_dir``, with the crash/sleepy test bots."""
    app = create_app(strategies=strategies_dir, extra_agents=_extra_agents(),
                     bot_time_limit=0.2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with TestClient(app) as test_client:
            yield test_client


View = dict[str, Any]
"""A table's view as the API answers it (JSON)."""


def open_table(client: TestClient, **body: object) -> tuple[str, View]:
    """Open a table; return its token and first view (asserting a 200).

    A ``seed`` is set on the server (``deal_seed``, the tests' option): a request may not
    name one.
    """
    seed = body.pop("seed", None)
    client.app.state.web.deal_seed = seed  # type: ignore[attr-defined]
    answer = client.post("/api/tables", json=body)
    assert answer.status_code == 200, answer.text
    data = answer.json()
    return data["token"], data["view"]


def passive_move(view: View) -> dict[str, object]:
    """Check or call (Hold'em), or the first of check/call/the first legal name (Kuhn, Leduc)."""
    if view["kind"] == "holdem":
        return {"move": "call"}
    legal = view["legal"]
    assert isinstance(legal, list)
    for name in ("check", "call"):
        if name in legal:
            return {"move": name}
    return {"move": legal[0]}


def play_out(client: TestClient, token: str, view: View,
             seen: list[View] | None = None) -> View:
    """Make passive moves until the hand is over; return the last view."""
    for _ in range(60):
        if not view["your_turn"]:
            break
        answer = client.post(f"/api/tables/{token}/act", json=passive_move(view))
        assert answer.status_code == 200, answer.text
        view = answer.json()
        if seen is not None:
            seen.append(view)
    assert view["hand_over"], view
    return view


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Debian's chromium for a module's browser tests (tests/web/live.py)."""
    from tests.web.live import chromium

    with chromium() as launched:
        yield launched
