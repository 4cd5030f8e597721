"""Fuzzed spot requests: any board, ranges and bet sizes give an answer or a pokerlab error.

The page's ``/api/spot/solve`` body and ``pokerlab spot solve``'s arguments are built from
pieces of the notation (cards, range items, weights, sizes) mixed with what breaks parsers:
Unicode that case-folds to ASCII (the Kelvin sign reads as ``k`` and the long s as ``s``
under a Unicode ``IGNORECASE``; they once raised ``ValueError`` from deep inside), digits
of other scripts, huge and tiny numbers, separators. The web answers 200 or a 4xx JSON
error of one line; the command exits 0, 1 or 2 with at most one error line, never a
traceback.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from pokerlab.cards import GRID_LABELS
from pokerlab.cards.card import parse_cards
from pokerlab.cards.ranges import parse_range
from pokerlab.errors import CardError
from pokerlab.web.app import create_app

CONFUSABLE = ["\u212a", "\u017f", "\u0130", "\u0131", "\uff21", "\u0663", "\uff11", "\u00bd",
              "\u2028", "\u00a0", "\x00", "\ufffd"]
DECK = [r + s for r in "AKQJT98765432" for s in "cdhs"]
RANGE_ITEMS = ["AA", "KK", "22+", "A2s+", "KQo", "AKs", "T9s-65s", "QQ-99", "K9o-K2o", "AsKd",
               "random", "AK", "AKs:0.5", "QQ:0.25", "72o:1"]
SIZE_ITEMS = ["50%", "100%", "a", "2.5x", "75%", "river=50%", "turn=a", "33%"]
BREAKERS = ["\u212a", "\u017f", "\u0130", "\u0131", "\uff21", "\u0663", "\uff11", "\u00bd",
            "\u2028", "\u00a0", "\ufffd", ":", "::", ":-1", ":1e-400", ":1e309", ":nan", ",",
            "+", "-", "/", "=", "%", "x", "1_0", "0x10", "1e400", "nan", "inf", "10", " "]


def _mutated(valid: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    """``valid`` text with one piece that breaks parsers inserted, anywhere."""
    return st.tuples(valid, st.integers(0, 200), st.sampled_from(BREAKERS)).map(
        lambda t: t[0][: t[1]] + t[2] + t[0][t[1]:]
    )


def _notation(items: list[str], joiner: str, max_size: int) -> st.SearchStrategy[str]:
    valid = st.lists(st.sampled_from(items), min_size=1, max_size=5).map(joiner.join)
    return st.one_of(valid, valid, _mutated(valid), st.text(max_size=max_size)).map(
        lambda text: text[:max_size]
    )


BOARDS = st.one_of(
    st.lists(st.sampled_from(DECK), min_size=5, max_size=5, unique=True).map("".join),
    st.lists(st.sampled_from(DECK), min_size=3, max_size=5, unique=True).map("".join),
    _mutated(st.lists(st.sampled_from(DECK), min_size=5, max_size=5, unique=True).map("".join)),
    st.text(max_size=20),
).map(lambda text: text[:20])
RANGES = _notation(RANGE_ITEMS, ", ", 120)
SIZES = _notation(SIZE_ITEMS, ",", 40)


@pytest.fixture(scope="module")
def api() -> Iterator[TestClient]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with TestClient(create_app()) as client:
            yield client


@pytest.mark.parametrize("text", ["\u212as", "A\u017f", "\u212a\u212a", "A\u212ao",
                                  "A\u017fK\u017f",
                                  "AKs:\u0663", "AA:\uff11"])
def test_unicode_that_folds_to_ascii_is_a_card_error(text: str) -> None:
    for parse in (parse_cards, parse_range):
        with pytest.raises(CardError):
            parse(text)


@settings(max_examples=300, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(board=BOARDS, oop=RANGES, ip=RANGES, bets=SIZES,
       pot=st.sampled_from([1, 100, 0, -1, 10**30]), stack=st.sampled_from([1, 100, 10**6]))
def test_no_spot_body_is_a_server_error(api: TestClient, board: str, oop: str, ip: str,
                                        bets: str, pot: int, stack: int) -> None:
    body = {"board": board, "oop": oop, "ip": ip, "bets": bets, "pot": pot, "stack": stack,
            "iterations": 1}
    answer = api.post("/api/spot/solve", json=body)
    assert answer.status_code in (200, 400, 413, 429), (body, answer.text[:300])
    if answer.status_code != 200:
        error = answer.json()["error"]
        assert error
        assert "\n" not in error


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(board=BOARDS, oop=RANGES, ip=RANGES, bets=SIZES, raises=SIZES)
def test_no_spot_command_line_is_a_traceback(board: str, oop: str, ip: str, bets: str,
                                             raises: str) -> None:
    from pokerlab.cli import main

    args = ["spot", "solve", "--board", board, "--oop", oop, "--ip", ip, "--pot", "100",
            "--stack", "100", "--bets", bets, "--raises", raises, "--iterations", "1",
            "--memory-limit", "64", "--json"]
    if any("\x00" in a for a in args):  # no command line can hold a NUL byte
        return
    assert main(args) in (0, 1, 2)


@pytest.mark.parametrize(("board", "oop", "ip"), [("AcAdKcKdKh", "AA", "AA"),
                                                  ("4c3hQh3dAc", "AA", "AA"),
                                                  ("AcAd2c3d4h", "AhAs", "AA")])
def test_ranges_that_no_deal_can_meet_are_refused_before_solving(
    api: TestClient, board: str, oop: str, ip: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # Every OOP hand shares a card with every IP hand: the solver's normalizer was 0 and
    # the page answered 500 (ZeroDivisionError), the command a traceback.
    from pokerlab.cli import main

    answer = api.post("/api/spot/solve", json={"board": board, "oop": oop, "ip": ip})
    assert answer.status_code == 400
    assert "every pair shares a card" in answer.json()["error"]
    assert main(["spot", "solve", "--board", board, "--oop", oop, "--ip", ip, "--pot", "100",
                 "--stack", "100", "--iterations", "1"]) == 1
    err = capsys.readouterr().err
    assert "every pair shares a card" in err
    assert "Traceback" not in err


GRID_CLASSES = [label for row in GRID_LABELS for label in row]


@settings(max_examples=200, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=RANGES,
       hand=st.one_of(st.none(), st.sampled_from(GRID_CLASSES), st.text(max_size=5)),
       weight=st.one_of(st.sampled_from([0, 0.25, 0.5, 1]), st.floats(), st.integers(),
                        st.booleans(), st.text(max_size=3), st.none()))
def test_no_range_edit_is_a_server_error(api: TestClient, text: str, hand: str | None,
                                         weight: object) -> None:
    body: dict[str, object] = {"text": text}
    if hand is not None:
        body.update(hand=hand, weight=weight)
    # Written here, not by the client: httpx refuses NaN and infinities, a hostile client
    # sends them (as JSON's NaN and Infinity tokens).
    answer = api.post("/api/spot/range", content=json.dumps(body),
                      headers={"content-type": "application/json"})
    assert answer.status_code in (200, 400), (body, answer.text[:300])
    if answer.status_code != 200:
        error = answer.json()["error"]
        assert error
        assert "\n" not in error
        return
    view = answer.json()
    # What the editor writes back reads back as the grid it shows.
    shown = np.array(view["grid"])
    if view["text"]:
        assert np.allclose(parse_range(view["text"]).grid(), shown)
    else:
        assert not shown.any()
    if hand is not None:
        row, column = next((r, c) for r, labels in enumerate(GRID_LABELS)
                           for c, label in enumerate(labels) if label == hand)
        assert shown[row, column] == pytest.approx(float(weight))  # type: ignore[arg-type]
