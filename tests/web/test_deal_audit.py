"""A web table commits to its secret deal seed from the start and reveals it when its session
ends (issue 23): the person can check the commitment and replay every deal; nothing of the
seed shows while a hand may still come."""

from __future__ import annotations

from pathlib import Path

import pytest
from starlette.testclient import TestClient

from pokerlab._types import CHANCE
from pokerlab.games import load
from pokerlab.play.deals import DealStream, sample_chance, seed_commitment
from tests.web.conftest import play_out


def test_the_seed_is_committed_hidden_while_hands_may_come_then_revealed(
    client: TestClient,
) -> None:
    client.app.state.web.deal_seed = None  # type: ignore[attr-defined]  # a fresh secret
    answer = client.post("/api/tables", json={"game": "kuhn", "opponent": "always-call"})
    token, view = answer.json()["token"], answer.json()["view"]
    commitment = view["deal_commitment"]
    assert len(commitment) == 64
    assert view["deal_seed"] is None
    view = play_out(client, token, view)
    assert view["can_deal"]
    assert view["deal_seed"] is None  # another hand may come: the seed stays secret
    assert client.get(f"/api/tables/{token}").json()["deal_seed"] is None
    closed = client.post(f"/api/tables/{token}/close", json={})
    assert closed.status_code == 200, closed.text
    ended = closed.json()
    assert ended["closed"]
    assert ended["deal_commitment"] == commitment
    seed = int(ended["deal_seed"])
    assert seed.bit_length() > 64  # a fresh 128-bit secret, not a small number
    assert seed_commitment(seed) == commitment
    # The revealed seed replays hand 1: deal 1 of the seed (the person sat in seat 0).
    state = load("kuhn").initial_state()
    stream = DealStream(seed, 1)
    while state.player == CHANCE:
        state = state.child(sample_chance(state, stream()))
    assert state.private_cards(0) == "".join(view["cards"])
    assert state.private_cards(1) == "".join(view["bot_cards"])


def test_every_table_has_its_own_commitment(client: TestClient) -> None:
    client.app.state.web.deal_seed = None  # type: ignore[attr-defined]
    commitments = {
        client.post("/api/tables", json={"game": "holdem", "seats": 2,
                                         "opponents": "always-call"}).json()["view"][
            "deal_commitment"]
        for _ in range(3)
    }
    assert len(commitments) == 3


def test_closing_an_unknown_table_is_a_404(client: TestClient) -> None:
    answer = client.post("/api/tables/" + "x" * 32 + "/close", json={})
    assert answer.status_code == 404


def test_closing_mid_hand_shows_the_seed_only_after_the_hand_stopped(
    client: TestClient,
) -> None:
    # (A review found the seed shown while the cut-off hand still ran between the bots.)
    client.app.state.web.deal_seed = None  # type: ignore[attr-defined]
    answer = client.post("/api/tables", json={"game": "holdem", "seats": 3,
                                              "opponents": "always-call"})
    token, view = answer.json()["token"], answer.json()["view"]
    assert view["your_turn"]
    assert view["hand_running"]
    ended = client.post(f"/api/tables/{token}/close", json={}).json()
    assert ended["closed"]
    assert not ended["hand_running"]
    assert ended["deal_seed"] is not None
    assert client.post(f"/api/tables/{token}/deal", json={}).status_code >= 400


def test_the_hard_ai_and_its_searcher_never_train_inside_a_request(
    client: TestClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # hard-search plays the same default blueprint as hard: both are refused until it is
    # prepared (a review found hard-search trained inside the request).
    from pokerlab.agents import hard

    monkeypatch.setenv("POKERLAB_CACHE", str(tmp_path / "empty"))

    def trained(*args: object, **kwargs: object) -> None:
        raise AssertionError("a request trained a blueprint")

    monkeypatch.setattr(hard, "train_default_blueprint", trained)
    for name in ("hard", "hard-search"):
        table = client.post("/api/tables", json={"game": "holdem", "seats": 2,
                                                 "opponents": name, "stack": 777})
        assert table.status_code == 409, (name, table.text)
        assert "pokerlab bots prepare hard --game" in table.json()["error"]
        hand = client.post("/api/hand", json={"game": "holdem", "a": name, "b": "random"})
        assert hand.status_code == 409, (name, hand.text)
    for name in ("hard-search@250ms", "hard-search+50"):  # not offered by the page at all
        table = client.post("/api/tables", json={"game": "holdem", "seats": 2,
                                                 "opponents": name})
        assert table.status_code in (400, 409), (name, table.text)
