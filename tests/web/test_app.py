"""The web API: hands dealt between built-in agents, and bad requests refused clearly."""

from __future__ import annotations

import warnings

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from pokerlab.agents.registry import agent_names
from pokerlab.cli.serve import allowed_hosts, check_host
from pokerlab.errors import PokerlabError
from pokerlab.web.app import create_app


@pytest.fixture
def client() -> TestClient:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return TestClient(create_app())


def test_index_serves_the_table_page(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200
    assert "/api/tables" in page.text


def test_agents_come_from_the_registry(client: TestClient) -> None:
    data = client.get("/api/agents").json()
    assert data["agents"] == list(agent_names())
    assert "holdem" in data["games"]


@pytest.mark.parametrize("game", ["kuhn", "leduc", "holdem"])
def test_a_hand_is_zero_sum_and_repeatable(client: TestClient, game: str) -> None:
    body = {"game": game, "a": "random", "b": "always-call", "seed": 7}
    first = client.post("/api/hand", json=body)
    assert first.status_code == 200
    data = first.json()
    assert sum(data["returns"]) == pytest.approx(0.0)
    assert data["history"]
    assert client.post("/api/hand", json=body).json() == data


@pytest.mark.parametrize(
    ("body", "needle"),
    [
        ({"game": "chess", "a": "random", "b": "random"}, "allowed: kuhn"),
        ({"game": "kuhn", "a": "nobody", "b": "random"}, "agent a='nobody'"),
        ({"game": "kuhn", "a": "random", "b": "random", "seed": -1}, "seed must be"),
        ({"game": "kuhn", "a": "random", "b": "random", "seed": "x"}, "seed must be"),
        ({"game": "kuhn", "a": "solvers", "b": "random"}, "solvers"),
        ([1, 2], "JSON object"),
    ],
)
def test_bad_requests_get_a_clear_400(client: TestClient, body: object, needle: str) -> None:
    answer = client.post("/api/hand", json=body)
    assert answer.status_code == 400
    assert needle in answer.json()["error"]


def test_a_body_that_is_not_json_is_refused(client: TestClient) -> None:
    answer = client.post("/api/hand", content=b"{not json")
    assert answer.status_code == 400
    assert "must be JSON" in answer.json()["error"]


def test_an_oversized_body_is_refused(client: TestClient) -> None:
    answer = client.post("/api/hand", content=b"{" + b" " * 10_000 + b"}")
    assert answer.status_code == 413
    assert "over 4096 bytes" in answer.json()["error"]


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost", "::1"])
def test_loopback_hosts_need_no_flag(host: str) -> None:
    assert check_host(host, public=False) is None


def test_other_hosts_need_public_and_warn() -> None:
    with pytest.raises(PokerlabError, match="needs --public"):
        check_host("0.0.0.0", public=False)
    warning = check_host("0.0.0.0", public=True)
    assert warning is not None
    assert "warning" in warning


def test_a_loopback_server_accepts_only_loopback_host_names() -> None:
    assert allowed_hosts("127.0.0.1") == ["127.0.0.1", "localhost"]
    assert allowed_hosts("0.0.0.0") is None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        client = TestClient(create_app(allowed_hosts=allowed_hosts("127.0.0.1")),
                            base_url="http://127.0.0.1:8000")
    assert client.get("/api/agents").status_code == 200
    rebound = client.get("/api/agents", headers={"host": "evil.example:8000"})
    assert rebound.status_code == 400


def test_serve_offers_the_strategies_folder_and_refuses_a_public_host(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from pokerlab.cli import main

    assert main(["serve", "--help"]) == 0
    assert "--strategies" in capsys.readouterr().out
    assert main(["serve", "--host", "0.0.0.0"]) == 1
    assert "needs --public" in capsys.readouterr().err
