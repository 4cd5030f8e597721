"""The web tables: Hold'em against the bots, Kuhn and Leduc with the strategy display."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient

from pokerlab.games.holdem import HoldemState
from pokerlab.web.holdem_table import HoldemTable
from pokerlab.web.small_table import SmallGameTable
from pokerlab.web.tables import Table
from tests.web.conftest import View, open_table, passive_move, play_out


def _table(client: TestClient, token: str) -> object:
    return client.app.state.web.tables.get(token)  # type: ignore[attr-defined]


@pytest.mark.parametrize("seats", [2, 4, 9])
def test_a_holdem_hand_plays_to_the_end_and_the_result_adds_up(
    client: TestClient, seats: int
) -> None:
    token, view = open_table(client, game="holdem", seats=seats, opponents="easy", seed=seats)
    assert len(view["seats"]) == seats
    assert [s["you"] for s in view["seats"]] == [True] + [False] * (seats - 1)
    view = play_out(client, token, view)
    table = _table(client, token)
    assert isinstance(table, HoldemTable)
    won = table.session.stacks[0] - 200
    assert view["result"]["chips"] == won
    assert view["result"]["big_blinds"] == pytest.approx(won / 2)
    assert sum(s["stack"] for s in view["seats"]) == 200 * seats  # chips are conserved
    assert view["can_deal"] is True
    assert any(line.startswith("--- Hand 1") for line in view["history"])


def test_the_table_offers_exactly_the_dealer_s_legal_moves(client: TestClient) -> None:
    token, view = open_table(client, game="holdem", seats=3, opponents="always-call", seed=5)
    table = _table(client, token)
    assert isinstance(table, HoldemTable)
    pending = table._pending
    assert pending is not None
    state = table._setup.game.public_state(pending)  # type: ignore[union-attr]
    legal = view["legal"]
    assert legal["fold"] == state.is_legal(0)
    assert legal["call"] == state.to_call()
    low, high = state.raise_range()  # type: ignore[misc]
    assert (legal["raise"]["min"], legal["raise"]["max"]) == (low, high)
    amounts = [p["amount"] for p in legal["presets"]]
    assert all(low <= a <= high for a in amounts)
    assert len(set(amounts)) == len(amounts)
    assert legal["presets"][-1] == {"label": "all-in", "amount": high}


def test_a_raise_inside_the_range_is_played(client: TestClient) -> None:
    token, view = open_table(client, game="holdem", seats=2, opponents="always-call", seed=9)
    amount = view["legal"]["raise"]["min"]
    answer = client.post(f"/api/tables/{token}/act", json={"move": "raise", "amount": amount})
    assert answer.status_code == 200
    assert f"You: raise to {amount}" in answer.json()["history"]


def test_side_pots_are_drawn_and_settled(client: TestClient) -> None:
    token, view = open_table(client, game="holdem", seats=3, opponents="always-raise", seed=1)
    view = play_out(client, token, view)
    table = _table(client, token)
    assert isinstance(table, HoldemTable)
    # A short stack for the person: an all-in call makes a main pot and a side pot.
    table.session.stacks = [20, 300, 300]
    view = client.post(f"/api/tables/{token}/deal").json()
    view = play_out(client, token, view)
    labels = [p["label"] for p in view["pots"]]
    assert labels[:2] == ["main pot", "side pot 1"], view["pots"]
    assert sum(p["amount"] for p in view["pots"]) == 20 * 3 + 2 * 280


def test_the_next_hand_moves_the_button_and_the_result_accumulates(client: TestClient) -> None:
    token, view = open_table(client, game="holdem", seats=3, opponents="random", seed=2)
    totals = []
    for hand in range(1, 4):
        view = play_out(client, token, view)
        assert view["hand"] == hand
        totals.append(view["result"]["chips"])
        buttons = [s["seat"] for s in view["seats"] if s["button"]]
        assert buttons == [(hand - 1) % 3]
        if not view["can_deal"]:
            break
        view = client.post(f"/api/tables/{token}/deal").json()
    table = _table(client, token)
    assert isinstance(table, HoldemTable)
    assert totals[-1] == pytest.approx(sum(table.result.per_hand))


def test_the_websocket_sends_each_change(client: TestClient) -> None:
    token, view = open_table(client, game="holdem", seats=2, opponents="easy", seed=4)
    with client.websocket_connect(f"/ws/tables/{token}") as socket:
        first = socket.receive_json()
        assert first["version"] == view["version"]
        client.post(f"/api/tables/{token}/act", json={"move": "call"})
        later = socket.receive_json()
        assert later["version"] > first["version"]


@pytest.mark.parametrize("game", ["kuhn", "leduc", "leduc(stack=50, raise_cap=None)",
                                  "kuhn(cards=5)"])
def test_kuhn_and_leduc_tables_alternate_seats(client: TestClient, game: str) -> None:
    token, view = open_table(client, game=game, opponent="random", seed=3)
    assert view["you"] == 0
    assert view["game"].startswith(game.split("(")[0])
    view = play_out(client, token, view)
    first = view["result"]["chips"]
    view = client.post(f"/api/tables/{token}/deal").json()
    assert view["you"] == 1
    view = play_out(client, token, view)
    table = _table(client, token)
    assert isinstance(table, SmallGameTable)
    assert view["result"]["chips"] == pytest.approx(first + table.result.per_hand[1])


def test_the_strategy_toggle_shows_the_file_s_probabilities_here(client: TestClient) -> None:
    token, view = open_table(client, game="leduc", strategy="leduc20.npz", seed=8)
    assert view["strategy"] is None
    view = client.post(f"/api/tables/{token}/options", json={"show_strategy": True}).json()
    table = _table(client, token)
    assert isinstance(table, SmallGameTable)
    for _ in range(10):
        if view["your_turn"]:
            here = view["strategy"]["here"]
            pending = table._pending
            assert pending is not None
            expected = table.bot.policy.action_probabilities(pending)  # type: ignore[attr-defined]
            names = dict(zip(pending.legal_actions, pending.action_names, strict=True))
            assert here["infoset"] == pending.infoset_key
            assert here["probabilities"] == pytest.approx(
                {names[a]: p for a, p in expected.items()})
            assert sum(here["probabilities"].values()) == pytest.approx(1.0)
            view = client.post(f"/api/tables/{token}/act", json=passive_move(view)).json()
        elif view["can_deal"]:
            view = client.post(f"/api/tables/{token}/deal").json()
    off = client.post(f"/api/tables/{token}/options", json={"show_strategy": False}).json()
    assert off["strategy"] is None


def test_the_toggle_shows_a_rule_bot_s_policy_or_says_there_is_none(client: TestClient) -> None:
    token, view = open_table(client, game="kuhn", opponent="always-call", seed=1)
    view = client.post(f"/api/tables/{token}/options", json={"show_strategy": True}).json()
    assert view["strategy"]["available"] is True
    probabilities = view["strategy"]["here"]["probabilities"]
    assert max(probabilities, key=probabilities.get) in ("check", "call")
    assert max(probabilities.values()) == pytest.approx(1.0)
    token, view = open_table(client, game="kuhn", opponent="crash", seed=1)
    view = client.post(f"/api/tables/{token}/options", json={"show_strategy": True}).json()
    assert view["strategy"]["available"] is False


def test_a_crashing_or_sleeping_bot_does_not_stall_the_table(client: TestClient) -> None:
    token, view = open_table(client, game="holdem", seats=3, opponents=["crash", "sleepy"],
                             seed=6)
    view = play_out(client, token, view)
    history = "\n".join(view["history"])
    assert "failed to act (exception)" in history
    assert "failed to act (timeout)" in history
    assert "always crashes" not in history  # the bot's message is not shown


def test_the_page_lays_out_what_the_api_sends(client: TestClient) -> None:
    page = client.get("/").text
    assert "/api/tables" in page
    assert "/ws/tables/" in page
    agents = client.get("/api/agents").json()
    assert "easy" in agents["playable"]["holdem"]
    assert "rule-based" not in agents["playable"]["holdem"]
    assert "rule-based" in agents["playable"]["leduc"]
    assert agents["strategies"] == ["kuhn50.npz", "leduc20.npz"]


def test_holdem_state_is_what_the_dealer_played(client: TestClient) -> None:
    token, view = open_table(client, game="holdem", seats=2, opponents="always-call", seed=12)
    view = play_out(client, token, view)
    table = _table(client, token)
    assert isinstance(table, HoldemTable)
    state = table._state
    assert isinstance(state, HoldemState)
    assert view["board"] == [state.board_cards()[i:i + 2] for i in range(0, 10, 2)]
    assert view["pot"] == state.pot


def test_a_busted_person_is_told_the_session_is_over(client: TestClient) -> None:
    token, view = open_table(client, game="holdem", seats=2, opponents="always-raise",
                             stack=4, seed=21)
    for _ in range(30):
        view = play_out(client, token, view)
        if not view["can_deal"]:
            break
        view = client.post(f"/api/tables/{token}/deal").json()
    assert view["can_deal"] is False
    assert "session is over" in view["message"]
    assert client.post(f"/api/tables/{token}/deal").status_code == 409


def test_the_bot_s_last_decision_is_shown_for_every_card_it_may_hold(
    client: TestClient,
) -> None:
    found = False
    for seed in range(6):
        token, view = open_table(client, game="leduc", strategy="leduc20.npz", seed=seed)
        client.post(f"/api/tables/{token}/options", json={"show_strategy": True})
        view = client.post(f"/api/tables/{token}/act", json={"move": "check"}).json()
        table = _table(client, token)
        assert isinstance(table, SmallGameTable)
        last = view["strategy"]["bot_last"]
        if last is None or view["hand_over"]:
            continue
        found = True
        assert sorted(last["by_card"]) == ["A", "K", "Q"]  # every card, not the bot's own
        policy = table.bot.policy  # type: ignore[attr-defined]
        decision = table._bot_decisions[-1]
        assert decision.infoset_key.partition("|")[2] == last["public"]
        for card, row in last["by_card"].items():
            key = f"{card}|{last['public']}"
            assert sorted(row.values()) == pytest.approx(
                sorted(policy.probabilities(key).values()))
    assert found, "no seed gave a bot decision before the end of the hand"



def test_the_person_may_sit_in_any_seat_of_a_limit_table(client: TestClient) -> None:
    token, view = open_table(client, game="holdem", seats=4, user_seat=2, betting="limit",
                             opponents=["random", "always-call", "easy"], seed=13)
    assert [s["you"] for s in view["seats"]] == [False, False, True, False]
    assert [s["name"] for s in view["seats"]] == [
        "random (seat 0)", "always-call (seat 1)", "You", "easy (seat 3)"]
    assert all(c != "??" for c in view["seats"][2]["cards"])
    if view["legal"] and view["legal"]["raise"]:
        raise_range = view["legal"]["raise"]
        assert raise_range["min"] == raise_range["max"]  # limit: one raise size
    view = play_out(client, token, view)
    table = _table(client, token)
    assert isinstance(table, HoldemTable)
    assert view["result"]["chips"] == table.session.stacks[2] - 200


def test_the_hard_ai_without_its_blueprint_says_how_to_train_it(client: TestClient) -> None:
    answer = client.post("/api/tables", json={"game": "holdem", "seats": 2, "opponents": "hard"})
    assert answer.status_code == 409
    error = answer.json()["error"]
    assert "pokerlab bots prepare hard --game" in error



def _record_views(table: Table) -> list[View]:
    """Keep the view of every version of ``table``: each one the WebSocket may push."""
    views: list[View] = []
    bump = table._bump

    def recording_bump() -> None:  # runs with the table's (re-entrant) lock held
        bump()
        views.append(table.view())

    table._bump = recording_bump  # type: ignore[method-assign]
    return views


def _first_over(views: list[View]) -> View:
    over = [i for i, v in enumerate(views) if v["hand_over"]]
    assert over, "a view says the hand is over"
    return views[over[0]]


@pytest.mark.parametrize("opponent", ["easy", "always-call", "always-raise"])
def test_a_holdem_view_with_the_hand_over_already_holds_its_end(
    client: TestClient, opponent: str
) -> None:
    token, view = open_table(client, game="holdem", seats=2, opponents=opponent, seed=21)
    table = _table(client, token)
    assert isinstance(table, HoldemTable)
    views = _record_views(table)
    view = play_out(client, token, view)
    first = _first_over(views)
    # The first hand-over view (the old code pushed one at the last action) already has the
    # pots' lines, the pots, the paid stacks and the counted result.
    history = first["history"]
    assert isinstance(history, list)
    assert any(line.startswith(("pot of ", "main pot of ")) for line in history), history
    assert first["pots"] == view["pots"] != []
    assert first["result"] == view["result"]
    assert first["result"]["hands"] == 1
    assert [s["stack"] for s in first["seats"]] == list(table.session.stacks)


@pytest.mark.parametrize("game", ["kuhn", "leduc"])
def test_a_small_game_view_with_the_hand_over_already_holds_its_end(
    client: TestClient, game: str
) -> None:
    token, view = open_table(client, game=game, opponent="random", seed=6)
    table = _table(client, token)
    assert isinstance(table, SmallGameTable)
    views = _record_views(table)
    view = play_out(client, token, view)
    first = _first_over(views)
    history = first["history"]
    assert isinstance(history, list)
    assert history[-1].startswith(("You won ", "You lost ", "You drew ")), history
    assert first["result"] == view["result"]
    assert first["result"]["hands"] == 1
