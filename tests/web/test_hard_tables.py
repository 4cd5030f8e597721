"""The Hard AIs at a web Hold'em table: hard-seed, and `hard` playing a (tiny) blueprint file."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from pokerlab.agents.hard import HardAI, default_blueprint_path
from pokerlab.agents.hard_seed import HardSeedAI
from pokerlab.blueprint.cards import cards_from_spec
from pokerlab.blueprint.mccfr import BlueprintTrainer
from pokerlab.blueprint.nolimit import rules_for
from pokerlab.blueprint.store import save_blueprint
from pokerlab.games.holdem_session import HoldemSession
from pokerlab.web.app import create_app
from pokerlab.web.holdem_table import HoldemTable
from tests.web.conftest import View, open_table, play_out

TINY_CARDS = {"kind": "holdem", "bucket_counts": [4, 2, 2, 2], "seed": 0, "n_bins": 2,
              "sample": 50, "boards": 1}
"""A very coarse Texas Hold'em abstraction: built in about 15 s (load 15 on 2 cores)."""


@pytest.fixture
def roomy_client() -> Iterator[TestClient]:
    """An app whose bots get 10 s a decision: a loaded machine must not turn play into faults."""
    app = create_app(bot_time_limit=10.0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with TestClient(app) as client:
            yield client


def _play_a_hand_against(client: TestClient, opponent: str, **body: object) -> tuple[
        HoldemTable, View]:
    token, view = open_table(client, game="holdem", seats=2, opponents=opponent, seed=17,
                             **body)
    assert view["seats"][1]["name"] == f"{opponent} (seat 1)"
    view = play_out(client, token, view)
    table = client.app.state.web.tables.get(token)  # type: ignore[attr-defined]
    assert isinstance(table, HoldemTable)
    return table, view


def _bot_acted(view: View, opponent: str) -> list[str]:
    """The bot's own actions in the history (not the dealer's defaults after a fault)."""
    history = view["history"]
    assert not [line for line in history if "failed to act" in line], history
    return [line for line in history if line.startswith(f"{opponent} (seat 1): ")]


def test_hard_seed_plays_a_holdem_hand_through_the_api(roomy_client: TestClient) -> None:
    table, view = _play_a_hand_against(roomy_client, "hard-seed")
    assert isinstance(table._connections[1].agent, HardSeedAI)  # type: ignore[attr-defined]
    assert _bot_acted(view, "hard-seed")
    assert view["hand_over"]
    assert view["result"]["hands"] == 1
    assert view["result"]["chips"] == table.session.stacks[0] - 200
    assert sum(s["stack"] for s in view["seats"]) == 400


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_hard_plays_a_blueprint_file_at_a_holdem_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, roomy_client: TestClient
) -> None:
    # The table's game (limit, 2 seats, 200 chips, blinds 1/2) with a tiny blueprint where
    # the Hard AI looks for its default one: the bots folder of $POKERLAB_CACHE.
    # (The card tables are cached in the same root: both inside tmp_path.)
    cache = tmp_path / "cache"
    monkeypatch.setenv("POKERLAB_CACHE", str(cache))
    game = HoldemSession(2, betting="limit", blinds=(1, 2), stack=200).start_hand().game
    trainer = BlueprintTrainer(game, cards_from_spec(game, TINY_CARDS, cache_dir=cache),
                               rules_for(game, None), seed=0)
    trainer.run(300)
    path = save_blueprint(trainer, default_blueprint_path(game, cache), cards=TINY_CARDS)
    table, view = _play_a_hand_against(roomy_client, "hard", betting="limit")
    bot = table._connections[1].agent  # type: ignore[attr-defined]
    assert isinstance(bot, HardAI)
    assert bot.blueprint_path == path
    assert _bot_acted(view, "hard")
    assert view["result"]["hands"] == 1
    assert view["result"]["chips"] == table.session.stacks[0] - 200
