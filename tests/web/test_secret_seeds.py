"""A web table deals from a secret seed of the server, a fresh one per table (issue 23).

No request can choose it (tests/web/test_security.py refuses a body naming one); here,
without the tests' ``deal_seed``, every table draws its own 128-bit seed from the
operating system, and no answer of the table carries it.
"""

from __future__ import annotations

from starlette.testclient import TestClient

from pokerlab.play.deals import SEED_BITS
from pokerlab.web.holdem_table import HoldemTable
from pokerlab.web.small_table import SmallGameTable
from tests.web.conftest import passive_move


def test_every_table_draws_its_own_secret_seed(client: TestClient) -> None:
    web = client.app.state.web  # type: ignore[attr-defined]
    assert web.deal_seed is None  # the server's default: a fresh secret per table
    bodies = [{"game": "holdem", "opponents": "always-call"}] * 3 + [
        {"game": "kuhn", "opponent": "random"}, {"game": "leduc", "opponent": "random"}]
    seeds, texts = [], []
    for body in bodies:
        answer = client.post("/api/tables", json=body)
        assert answer.status_code == 200, answer.text
        token, view = answer.json()["token"], answer.json()["view"]
        texts.append(answer.text)
        for _ in range(20):  # play the first hand out: every answer of the table is looked at
            if not view["your_turn"]:
                break
            reply = client.post(f"/api/tables/{token}/act", json=passive_move(view))
            texts.append(reply.text)
            view = reply.json()
        texts.append(client.get(f"/api/tables/{token}").text)
        table = web.tables.get(token)
        assert isinstance(table, HoldemTable | SmallGameTable)
        seeds.append(table.seed)
    assert len(set(seeds)) == len(seeds)
    assert all(0 <= s < 2**SEED_BITS for s in seeds)
    assert max(s.bit_length() for s in seeds) > 64  # 128 random bits, not a 64-bit value
    for seed in seeds:
        assert not any(str(seed) in text for text in texts)
