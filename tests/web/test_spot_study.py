"""The spot page's study tools through its API: range editor, node locks, save and reopen.

Each answer is checked against the library (``parse_range``, ``RangeSolver(locks=...)``,
``SpotSolution.load``), and each tool against what a hostile client sends: names that walk
out of the folder, oversize bodies, absurd lock texts, too many locks.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pokerlab.cards import parse_range
from pokerlab.subgame.range_solver import RangeSolver
from pokerlab.subgame.result import SpotSolution
from pokerlab.subgame.spot import Spot
from pokerlab.web.spot_view import MAX_LOCKS, MAX_RANGE_TEXT
from tests.web.views_data import client

if TYPE_CHECKING:
    from starlette.testclient import TestClient

SPOT_BODY: dict[str, object] = {"board": "Td9d6hQc2s", "oop": "AA, KK, 87s", "ip": "QQ, JJ",
                                "pot": 100, "stack": 200, "bets": "50%,100%", "iterations": 60}


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("saved")


@pytest.fixture(scope="module")
def api(folder: Path) -> Iterator[TestClient]:
    with client(folder, None) as test_client:
        yield test_client


@pytest.fixture
def solved(api: TestClient) -> dict[str, Any]:
    """A spot solved on the page (a fresh one per test: the server keeps the last 4)."""
    answer = api.post("/api/spot/solve", json=SPOT_BODY)
    assert answer.status_code == 200, answer.text
    view: dict[str, Any] = answer.json()
    return view


def _refused(answer: Any, status: int, needle: str) -> None:
    assert answer.status_code == status, answer.text
    error = answer.json()["error"]
    assert needle in error, error
    assert "\n" not in error


# -- the range editor --------------------------------------------------------------------------

def test_a_range_text_gives_the_librarys_grid(api: TestClient) -> None:
    text = "QQ+, AKs:0.5, AsKd, 76s:0.25"
    view = api.post("/api/spot/range", json={"text": text}).json()
    assert np.allclose(view["grid"], parse_range(text).grid())
    assert view["labels"][0][1] == "AKs"
    assert view["combos"] == len(parse_range(text))
    assert parse_range(view["text"]) == parse_range(text)


def test_a_click_cycles_a_class_and_rewrites_the_text(api: TestClient) -> None:
    text = "AA, KK"
    seen = []
    for weight in (1, 0.5, 0.25, 0):
        view = api.post("/api/spot/range", json={"text": text, "hand": "AKs",
                                                 "weight": weight}).json()
        text = view["text"]
        seen.append(text)
        expected = parse_range("AA, KK" + (f", AKs:{weight}" if weight else ""))
        assert parse_range(text) == expected
        assert view["grid"][0][1] == weight
    assert seen == ["KK+, AKs", "KK+, AKs:0.5", "KK+, AKs:0.25", "KK+"]
    # Combos named one by one are replaced by the class at its new weight; others are kept.
    view = api.post("/api/spot/range", json={"text": "AsKs, AhKd, QQ", "hand": "AKo",
                                             "weight": 0.5}).json()
    assert parse_range(view["text"]) == parse_range("AsKs, AKo:0.5, QQ")
    # The last class removed leaves the empty range.
    view = api.post("/api/spot/range", json={"text": "22", "hand": "22", "weight": 0}).json()
    assert view == {**view, "text": "", "combos": 0}
    assert not any(any(row) for row in view["grid"])


def test_every_class_at_its_own_weight_fits_the_text_limit(api: TestClient) -> None:
    labels = api.post("/api/spot/range", json={"text": ""}).json()["labels"]
    weights = (1.0, 0.5, 0.25)
    long_hand = ", ".join(f"{label}:{weights[(r + 2 * c) % 3]}"
                          for r, row in enumerate(labels) for c, label in enumerate(row))
    text = parse_range(long_hand).to_text()  # what the editor writes back
    assert len(text) <= MAX_RANGE_TEXT
    canonical = api.post("/api/spot/range", json={"text": text})
    assert canonical.status_code == 200
    assert canonical.json()["text"] == text
    body = {**SPOT_BODY, "oop": text, "ip": text, "iterations": 1}
    assert len(json.dumps(body)) < 4096  # both ranges fit one solve body


@pytest.mark.parametrize(
    ("body", "status", "needle"),
    [
        ({"text": "AA", "hand": "AKx", "weight": 1}, 400, "hand must be a hand class"),
        ({"text": "AA", "hand": "AsKs", "weight": 1}, 400, "hand must be a hand class"),
        ({"text": "AA", "hand": ["AA"], "weight": 1}, 400, "hand must be a hand class"),
        ({"text": "AA", "hand": "AKs", "weight": 2}, 400, "weight must be a number from 0 to 1"),
        ({"text": "AA", "hand": "AKs", "weight": -0.5}, 400, "weight must be a number"),
        ({"text": "AA", "hand": "AKs", "weight": True}, 400, "weight must be a number"),
        ({"text": "AA", "hand": "AKs", "weight": "1"}, 400, "weight must be a number"),
        ({"text": "AA", "hand": "AKs"}, 400, "weight must be a number"),
        ({"text": "AA, nonsense", "hand": "AKs", "weight": 1}, 400, "nonsense"),
        ({"text": "AKs:7"}, 400, "AKs:7"),
        ({"text": "A" * (MAX_RANGE_TEXT + 1)}, 400, f"text is over {MAX_RANGE_TEXT}"),
        ({"text": 5}, 400, "text must be a string"),
    ],
)
def test_bad_range_requests_are_refused(api: TestClient, body: dict[str, object], status: int,
                                        needle: str) -> None:
    _refused(api.post("/api/spot/range", json=body), status, needle)


def test_a_nan_weight_is_refused(api: TestClient) -> None:
    # Python's JSON reads NaN and Infinity; neither is a weight.
    for token in ("NaN", "Infinity", "1e999"):
        raw = '{"text": "AA", "hand": "AKs", "weight": ' + token + "}"
        answer = api.post("/api/spot/range", content=raw,
                          headers={"content-type": "application/json"})
        _refused(answer, 400, "weight must be a number from 0 to 1")


@pytest.mark.parametrize("path", ["/api/spot/range", "/api/spot/lock", "/api/spot/save",
                                  "/api/spot/solve"])
def test_oversize_bodies_are_refused_unread(api: TestClient, path: str) -> None:
    body = json.dumps({"text": "AA, " * 2000, "locks": ["x:check=1"] * 500,
                       "name": "n" * 5000})
    _refused(api.post(path, content=body, headers={"content-type": "application/json"}),
             413, "the body is over 4096 bytes")


# -- node locks --------------------------------------------------------------------------------

def test_a_lock_resolve_plays_the_lock_and_matches_the_library(api: TestClient,
                                                                solved: dict[str, Any]) -> None:
    lock = "x:check=30%,b50=0.2,bet 100=0.5"
    answer = api.post("/api/spot/lock", json={"solved": solved["solved"], "locks": [lock],
                                              "node": "x"})
    assert answer.status_code == 200, answer.text
    view = answer.json()
    assert view["key"] == "x"
    assert view["acting"] == 1
    assert [a["name"] for a in view["actions"]] == ["check", "bet 50", "bet 100"]
    assert [a["frequency"] for a in view["actions"]] == pytest.approx([0.3, 0.2, 0.5])
    for hand in view["hands"]:  # every hand of IP's range plays the lock exactly
        assert hand["strategy"] == pytest.approx([0.3, 0.2, 0.5])
    assert view["locks"] == ["x:check=0.3,b50=0.2,bet 100=0.5"]
    assert view["spot_locks"] == view["locks"]
    assert view["solved"] != solved["solved"]
    # The same spot and lock solved by the library directly gives the same solution.
    spot = Spot(board="Td9d6hQc2s", oop="AA, KK, 87s", ip="QQ, JJ", pot=100, stack=200,
                bets="50%,100%", raises="", raise_cap=1)  # SPOT_BODY
    built = spot.build()
    solver = RangeSolver(built.public, locks=[lock]).run(iterations=60, check_every=60)
    library = SpotSolution.from_solver(solver, built)
    assert view["spot_ev"] == pytest.approx(list(library.ev), abs=1e-9)
    assert view["exploitability"] == pytest.approx(library.exploitability, abs=1e-9)
    # The unlocked solution IP plays differently at x: the lock changed something.
    free = api.get("/api/spot/node", params={"solved": solved["solved"], "node": "x"}).json()
    assert [a["frequency"] for a in free["actions"]] != pytest.approx([0.3, 0.2, 0.5], abs=0.01)
    # Locks can be dropped again: the spot solved with none.
    unlocked = api.post("/api/spot/lock", json={"solved": view["solved"], "locks": []}).json()
    assert unlocked["spot_locks"] == []
    assert unlocked["spot_ev"] == pytest.approx(solved["spot_ev"], abs=1e-9)


def test_two_locks_at_two_nodes(api: TestClient, solved: dict[str, Any]) -> None:
    locks = ["x:check=1", "b100:call=1"]
    view = api.post("/api/spot/lock", json={"solved": solved["solved"], "locks": locks,
                                            "node": "b100"}).json()
    assert view["locks"] == ["b100:call=1.0"]
    assert view["spot_locks"] == ["x:check=1.0", "b100:call=1.0"]
    assert [a["frequency"] for a in view["actions"]] == pytest.approx([0.0, 1.0])


@pytest.mark.parametrize(
    ("locks", "status", "needle"),
    [
        (["x:check=0.5"], 400, "add up to 0.5"),
        (["x:check=1e309"], 400, "outside [0, 1]"),
        (["x:check=nan"], 400, "cannot read the frequency"),
        (["x:check=-1"], 400, "cannot read the frequency"),
        (["x:check=150%"], 400, "outside [0, 1]"),
        (["x:fold=1"], 400, "has no action 'fold'"),
        (["zz:call=1"], 400, "the spot has no node 'zz'"),
        (["x-x:check=1"], 400, "is a showdown node; a lock goes on a decision node"),
        (["x@ZZ:check=1"], 400, "cannot read the hands"),
        (["x@AA:check=1"], 400, "holds no combo of 'AA'"),
        (["x"], 400, "no ':' before the actions"),
        (["x:check=1,check=0"], 400, "given twice"),
        (["x:" + "check=0," * 30 + "check=1"], 400, "over 200 characters"),
        (["x:check=1"] * (MAX_LOCKS + 1), 400, f"at most {MAX_LOCKS} locks"),
        ("x:check=1", 400, "locks must be a list"),
        ([7], 400, "a lock is text"),
        ([None], 400, "a lock is text"),
    ],
)
def test_absurd_locks_are_refused(api: TestClient, solved: dict[str, Any], locks: object,
                                  status: int, needle: str) -> None:
    busy = api.app.state.busy  # type: ignore[attr-defined]
    answer = api.post("/api/spot/lock", json={"solved": solved["solved"], "locks": locks})
    _refused(answer, status, needle)
    assert busy.running == 0


@pytest.mark.parametrize(
    ("body", "status", "needle"),
    [
        ({"solved": "nope", "locks": []}, 404, "no spot solved here"),
        ({"solved": None, "locks": []}, 400, "solved must be a string"),
        ({"solved": "x" * 65, "locks": []}, 400, "solved is over 64"),
        ({"locks": [], "node": "zz"}, 400, "no node 'zz'"),
        ({"locks": [], "iterations": 10**7}, 400, "iterations must be an integer from 1"),
    ],
)
def test_bad_lock_requests_are_refused(api: TestClient, solved: dict[str, Any],
                                       body: dict[str, object], status: int,
                                       needle: str) -> None:
    _refused(api.post("/api/spot/lock", json={"solved": solved["solved"], **body}), status,
             needle)


@settings(max_examples=120, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=st.one_of(
    st.text(max_size=60),
    st.builds(lambda node, action, value: f"{node}:{action}={value}",
              st.sampled_from(["", "x", "b50", "b100", "x-b50", "x-x", "b100-c", "x/", "-"]),
              st.sampled_from(["check", "call", "fold", "b50", "bet 100", "raise", "x", "c"]),
              st.sampled_from(["1", "0", "0.5", "100%", "1e-400", "1e400", "nan", "inf", "½",
                               "\u0661", "1_0", "0x1", ""])),
))
def test_no_lock_text_is_a_server_error(api: TestClient, solved: dict[str, Any],
                                        text: str) -> None:
    base = api.post("/api/spot/solve", json={**SPOT_BODY, "iterations": 1}).json()
    answer = api.post("/api/spot/lock", json={"solved": base["solved"], "locks": [text],
                                              "iterations": 1})
    assert answer.status_code in (200, 400), (text, answer.text[:300])
    if answer.status_code == 400:
        assert "\n" not in answer.json()["error"]


# -- save and reopen ---------------------------------------------------------------------------

def test_save_then_reopen_from_the_file_list(api: TestClient, solved: dict[str, Any],
                                             folder: Path) -> None:
    locked = api.post("/api/spot/lock", json={"solved": solved["solved"],
                                              "locks": ["b50:call=1"], "node": "b50"}).json()
    answer = api.post("/api/spot/save", json={"solved": locked["solved"], "name": "river-1"})
    assert answer.status_code == 200, answer.text
    assert answer.json()["file"] == "river-1.npz"
    assert (folder / "river-1.npz").is_file()
    assert not [p for p in folder.iterdir() if p.name != "river-1.npz"
                and not p.name.endswith(".npz")]  # no temporary file left behind
    files = [f["file"] for f in api.get("/api/spot/files").json()["files"]]
    assert "river-1.npz" in files
    reopened = api.get("/api/spot/node", params={"file": "river-1.npz", "node": "b50"}).json()
    for field in ("spot", "actions", "hands", "spot_ev", "exploitability", "iterations",
                  "locks", "spot_locks"):
        assert reopened[field] == locked[field], field
    assert reopened["locks"] == ["b50:call=1.0"]
    # The library reads the file the page wrote.
    assert SpotSolution.load(folder / "river-1.npz").locks[0].node == "b50"


def test_saving_refuses_to_overwrite_unless_asked(api: TestClient, solved: dict[str, Any],
                                                  folder: Path) -> None:
    body = {"solved": solved["solved"], "name": "twice.npz"}
    assert api.post("/api/spot/save", json=body).status_code == 200
    before = (folder / "twice.npz").read_bytes()
    os.utime(folder / "twice.npz", (1, 1))
    _refused(api.post("/api/spot/save", json=body), 409, "'twice.npz' already exists")
    assert (folder / "twice.npz").stat().st_mtime == 1
    assert api.post("/api/spot/save", json={**body, "overwrite": True}).status_code == 200
    assert (folder / "twice.npz").stat().st_mtime > 1
    assert len((folder / "twice.npz").read_bytes()) == pytest.approx(len(before), rel=0.2)
    _refused(api.post("/api/spot/save", json={**body, "overwrite": "yes"}), 400,
             "overwrite must be true or false")


@pytest.mark.parametrize(
    "name",
    ["../escape", "..", "../../etc/passwd", "a/b", "a\\b", "/tmp/x", ".hidden", ".npz", "",
     "x" * 65, "nul\x00byte", "sp ace", "ｗｉｄｅ", "k\u212a", "~user", "x.npz/", "..npz",
     "name\n", "%2e%2e%2fx"],
)
def test_names_that_leave_the_folder_or_hide_are_refused(api: TestClient,
                                                         solved: dict[str, Any], folder: Path,
                                                         name: str) -> None:
    before = sorted(folder.parent.rglob("*"))
    answer = api.post("/api/spot/save", json={"solved": solved["solved"], "name": name})
    _refused(answer, 400, "is not allowed")
    assert sorted(folder.parent.rglob("*")) == before


def test_a_link_in_the_folder_is_not_written_through(api: TestClient, solved: dict[str, Any],
                                                     folder: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside.npz"
    outside.write_bytes(b"mine")
    (folder / "link.npz").symlink_to(outside)
    for overwrite in (False, True):
        answer = api.post("/api/spot/save", json={"solved": solved["solved"], "name": "link",
                                                  "overwrite": overwrite})
        _refused(answer, 409, "is not a plain file")
    assert outside.read_bytes() == b"mine"
    (folder / "link.npz").unlink()


@pytest.mark.parametrize(
    ("body", "status", "needle"),
    [
        ({"solved": "nope", "name": "a"}, 404, "no spot solved here"),
        ({"name": "a"}, 400, "solved must be a string"),
        ({"solved": "{solved}"}, 400, "name must be a string"),
        ({"solved": "{solved}", "name": 5}, 400, "name must be a string"),
        ({"solved": "{solved}", "name": "n" * 81}, 400, "name is over 80"),
    ],
)
def test_bad_save_requests_are_refused(api: TestClient, solved: dict[str, Any],
                                       body: dict[str, object], status: int,
                                       needle: str) -> None:
    filled = {k: (solved["solved"] if v == "{solved}" else v) for k, v in body.items()}
    _refused(api.post("/api/spot/save", json=filled), status, needle)


def test_saving_without_a_folder_says_so() -> None:
    with client(None, None) as bare:
        view = bare.post("/api/spot/solve", json={**SPOT_BODY, "iterations": 5}).json()
        answer = bare.post("/api/spot/save", json={"solved": view["solved"], "name": "x"})
        _refused(answer, 409, "started without --strategies DIR")


def test_node_views_carry_action_tokens_for_locks(solved: dict[str, Any]) -> None:
    assert [a["token"] for a in solved["actions"]] == ["x", "b50", "b100"]
    assert solved["locks"] == []
    assert solved["spot_locks"] == []
    assert math.isfinite(solved["exploitability"])


def test_a_page_of_another_site_cannot_save_lock_or_edit(api: TestClient,
                                                         solved: dict[str, Any],
                                                         folder: Path) -> None:
    before = sorted(folder.iterdir())
    evil = {"origin": "http://evil.example", "content-type": "text/plain"}
    for path, body in (("/api/spot/save", {"solved": solved["solved"], "name": "evil"}),
                       ("/api/spot/lock", {"solved": solved["solved"], "locks": []}),
                       ("/api/spot/range", {"text": "AA"})):
        answer = api.post(path, content=json.dumps(body), headers=evil)
        _refused(answer, 403, "another site")
    assert sorted(folder.iterdir()) == before


def test_a_reopened_small_spot_file_can_be_locked(api: TestClient, solved: dict[str, Any],
                                                  folder: Path) -> None:
    assert api.post("/api/spot/save", json={"solved": solved["solved"], "name": "reopen",
                                            "overwrite": True}).status_code == 200
    view = api.get("/api/spot/node", params={"file": "reopen.npz", "node": "x"}).json()
    assert view["lockable"] is True
    answer = api.post("/api/spot/lock", json={"file": "reopen.npz", "locks": ["x:check=1"],
                                              "node": "x"})
    assert answer.status_code == 200, answer.text
    locked = answer.json()
    assert [a["frequency"] for a in locked["actions"]] == pytest.approx([1.0, 0.0, 0.0])
    assert locked["iterations"] == view["iterations"]
    assert "solved" in locked
    for body, status, needle in (
        ({"file": "../x.npz"}, 403, "outside the --strategies folder"),
        ({"file": "missing.npz"}, 404, "not a file"),
        ({"file": 5}, 400, "file must be a string"),
    ):
        _refused(api.post("/api/spot/lock", json={**body, "locks": []}), status, needle)


def test_a_spot_file_too_large_for_the_page_is_not_locked_here(api: TestClient,
                                                                folder: Path) -> None:
    spot = Spot(board="Td9d6hQc2s", oop="AA, KK", ip="QQ, JJ", pot=100, stack=1000,
                bets="25%,50%,75%,100%,150%", raises="50%,100%", raise_cap=3)
    built = spot.build()
    solver = RangeSolver(built.public).run(iterations=2, check_every=2)
    SpotSolution.from_solver(solver, built).save(folder / "large.npz")
    view = api.get("/api/spot/node", params={"file": "large.npz"}).json()
    assert view["lockable"] is False
    answer = api.post("/api/spot/lock", json={"file": "large.npz", "locks": []})
    _refused(answer, 413, "too large to solve here")
    assert api.app.state.busy.running == 0  # type: ignore[attr-defined]


# -- what an attack review broke (each was a 500, a hang or a silent overwrite) ------------

def test_names_the_system_refuses_are_400_not_500(api: TestClient) -> None:
    long_name = "a" * 300 + ".npz"  # ENAMETOOLONG from the file system
    _refused(api.get("/api/spot/node", params={"file": long_name}), 400, "file=")
    raw = b'{"file": "\\ud800.npz", "locks": [], "node": ""}'  # a lone surrogate
    answer = api.post("/api/spot/lock", content=raw,
                      headers={"content-type": "application/json"})
    assert answer.status_code == 400, answer.text


def test_a_huge_integer_weight_is_refused(api: TestClient) -> None:
    body = b'{"text": "AA", "hand": "AA", "weight": 1' + b"0" * 310 + b"}"
    answer = api.post("/api/spot/range", content=body,
                      headers={"content-type": "application/json"})
    _refused(answer, 400, "weight must be a number from 0 to 1")


def test_weights_too_small_to_solve_are_refused(api: TestClient) -> None:
    body = {**SPOT_BODY, "oop": "AA:1e-200", "ip": "KK:1e-200"}
    _refused(api.post("/api/spot/solve", json=body), 400, "must weigh at least")


def _crafted(folder: Path, name: str, solution: SpotSolution, *,
             header: dict[str, Any] | None = None, arrays: dict[str, Any] | None = None) -> str:
    """A spot file like ``solution``'s with its header fields or arrays replaced."""
    from pokerlab.strategy.io import write_npz_atomic

    saved = folder / f"{name}.npz"
    solution.save(saved)
    with np.load(saved) as data:
        content = {key: data[key] for key in data.files}
    text = json.loads(bytes(content["header"]).decode())
    text.update(header or {})
    content["header"] = np.frombuffer(json.dumps(text).encode(), dtype=np.uint8)
    content.update(arrays or {})
    write_npz_atomic(saved, content)
    return saved.name


@pytest.fixture(scope="module")
def small_solution() -> SpotSolution:
    spot = Spot(board="Td9d6hQc2s", oop="AA, KK", ip="QQ, JJ", pot=100, stack=100,
                bets="100%", raises="")
    built = spot.build()
    solver = RangeSolver(built.public)
    solver.run(iterations=5, check_every=5)
    return SpotSolution.from_solver(solver, built)


def _bad_files(folder: Path, solution: SpotSolution) -> list[str]:
    shape = solution.strategies[0].shape
    spot = solution.spot.to_dict()
    return [
        _crafted(folder, "board-int", solution, header={"spot": {**spot, "board": 7}}),
        _crafted(folder, "nan-expl", solution, header={"exploitability": float("nan")}),
        _crafted(folder, "nan-strategy", solution,
                 arrays={"strategy0": np.full(shape, np.nan)}),
        _crafted(folder, "half-floats", solution,
                 arrays={"strategy0": solution.strategies[0].astype(np.float16)}),
        _crafted(folder, "extra-array", solution, arrays={"junk": np.zeros(10)}),
        _crafted(folder, "big-menu", solution, header={"spot": {
            **spot, "stack": 100_000, "raise_cap": None,
            "bets": ",".join(f"{k}%" for k in range(1, 200, 7)),
            "raises": ",".join(f"{2 + 0.2 * k:.1f}x" for k in range(20))}}),
    ]


def test_crafted_spot_files_are_refused_in_one_line(api: TestClient, folder: Path,
                                                    small_solution: SpotSolution) -> None:
    for name in _bad_files(folder, small_solution):
        for answer in (api.get("/api/spot/node", params={"file": name}),
                       api.post("/api/spot/lock", json={"file": name, "locks": [],
                                                         "node": ""})):
            assert 400 <= answer.status_code < 500, (name, answer.text)
            assert "\n" not in answer.json()["error"]


def test_saving_never_replaces_a_file_made_while_it_saves(
    api: TestClient, solved: dict[str, Any], folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another process creates the name between the server's check and its write."""
    target = folder / "raced.npz"
    original = SpotSolution.save

    def save_while_another_process_writes(self: SpotSolution, path: str | Path) -> Path:
        if not target.exists():
            target.write_bytes(b"the other process's file")
        return original(self, path)

    monkeypatch.setattr(SpotSolution, "save", save_while_another_process_writes)
    answer = api.post("/api/spot/save", json={"solved": solved["solved"], "name": "raced"})
    _refused(answer, 409, "'raced.npz' already exists")
    assert target.read_bytes() == b"the other process's file"
    assert not [p for p in folder.iterdir() if p.name.startswith(".saving-")]
