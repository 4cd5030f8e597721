"""The table page says which of the Easy AI's odds rows are the slides' (issue 29, item 5)."""

from __future__ import annotations

import warnings

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from pokerlab.web.app import create_app


def test_the_table_page_labels_the_easy_ai() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        client = TestClient(create_app())
    page = client.get("/")
    assert page.status_code == 200
    assert "four of its odds rows are the slides'" in page.text
    assert "others pokerlab's own (docs/easy_ai.md)" in page.text
