"""The pages' own texts (issue 26 item 6): a favicon on every page; the table says "to
you", "You show" and "after 1 hand"."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from tests.web.conftest import open_table, play_out

STATIC = Path(__file__).resolve().parents[2] / "pokerlab" / "web" / "static"


@pytest.mark.parametrize("page", sorted(p.name for p in STATIC.glob("*.html")))
def test_every_page_has_a_favicon(page: str) -> None:
    text = (STATIC / page).read_text(encoding="utf-8")
    assert re.search(r'<link rel="icon" href="data:image/svg\+xml,[^"]+">', text)


def test_the_table_names_you_and_counts_hands_in_the_singular() -> None:
    text = (STATIC / "index.html").read_text(encoding="utf-8")
    assert '" to seat "' not in text  # pots go "to you" or "to seat N" (winnerName)
    assert 'yours.includes(w) ? "you" : "seat " + w' in text
    assert '+ " hands"' not in text
    assert text.count('plural(view.result.hands, "hand")') == 2
    assert "You shows" not in text  # the server's history says "You show" (tests/web)


def test_the_history_says_you_show_in_the_second_person(client: TestClient) -> None:
    token, view = open_table(client, game="holdem", seats=2, opponents="always-call", seed=3)
    view = play_out(client, token, view)  # both call down: a showdown
    shows = [line for line in view["history"] if " show" in line]
    assert any(line.startswith("You show ") for line in shows), shows
    assert any(" shows " in line and not line.startswith("You") for line in shows), shows
    assert not any(line.startswith("You shows") for line in view["history"])
