"""Whatever an entrant's process sends, reading it is a protocol fault, never a crash.

The reader of :mod:`pokerlab.play.entrant_protocol` bounds a message's size, nesting and
integer length. Random bytes and adversarial JSON (huge integers, deep nesting, invalid
UTF-8, NaN, megabyte strings...) each give a dict or a ``ProtocolError``, never another
exception; sent by a hostile entrant in place of its answer, each is a recorded
``protocol`` (or ``exception``) fault, the default action is played, and a tournament
with such entrants finishes with every hand stored.
"""

from __future__ import annotations

import json
import math
import re
import socket
import struct
import threading
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pokerlab.agents import AlwaysCall
from pokerlab.arena import ArenaStore, builtin_entrants, run_tournament
from pokerlab.arena.tournament import file_entrant
from pokerlab.eval.matches import play_match
from pokerlab.games import kuhn
from pokerlab.play.entrant_protocol import (
    MAX_BRACKETS,
    MAX_DEPTH,
    MAX_DIGITS,
    MAX_MESSAGE_BYTES,
    ProtocolError,
    Reader,
    check_answer,
    parse_message,
)
from pokerlab.play.sandbox import MAX_DETAIL, EntrantSource, SandboxedAgent, SandboxLimits

ADVERSARIAL = {
    "huge-integer": b'{"id": 1, "ok": true, "value": ' + b"7" * 5000 + b"}",
    "negative-huge-integer": b'{"id": -' + b"9" * 4400 + b"}",
    "deep-brackets": b"[" * 300_000 + b"]" * 300_000,
    "deep-in-object": b'{"id": 1, "value": ' + b"[" * 400_000 + b"]" * 400_000 + b"}",
    "deep-objects": b'{"a":' * 100_000 + b"1" + b"}" * 100_000,
    "unclosed-brackets": b"[" * 1_000_000,
    "invalid-utf8": b'{"id": 1, "ok": true, "value": "\xff\xfe\xc3\x28"}',
    "nan": b'{"id": 1, "ok": true, "value": NaN}',
    "infinity": b'{"id": 1, "ok": true, "value": -Infinity}',
    "huge-exponent": b'{"id": 1, "ok": true, "value": 1e999999}',
    "megabyte-string": b'{"id": 1, "ok": false, "error": "' + b"x" * 1_000_000 + b'"}',
    "lone-surrogate": b'{"id": 1, "ok": false, "error": "\\ud800\\udfff\\ud800"}',
    "not-an-object": b"[1, 2, 3]",
    "empty": b"",
    "bom": b"\xef\xbb\xbf{}",
    "nul": b"\x00" * 100,
    "string-escape-bomb": b'"' + b"\\u0000" * 150_000 + b'"',
    "many-keys": b"{" + b",".join(b'"k%d": %d' % (i, i) for i in range(50_000)) + b"}",
}
"""Messages (the bytes after the length header) of a hostile entrant's process."""


def _checked(data: bytes) -> object:
    """``parse_message``'s dict, or the ProtocolError it raised (any other escapes)."""
    try:
        return parse_message(data)
    except ProtocolError as error:
        return error


@pytest.mark.parametrize("name", sorted(ADVERSARIAL))
def test_an_adversarial_message_is_a_protocol_error_or_a_bounded_object(name: str) -> None:
    data = ADVERSARIAL[name]
    assert len(data) <= 2 * MAX_MESSAGE_BYTES
    outcome = _checked(data)
    if isinstance(outcome, dict):
        assert name in ("lone-surrogate", "megabyte-string", "many-keys", "bom")
        assert len(json.dumps(outcome)) <= 2 * MAX_MESSAGE_BYTES
    else:
        assert isinstance(outcome, ProtocolError)
        assert len(str(outcome)) < 400  # the error text itself is bounded


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=2048))
def test_random_bytes_never_raise_anything_but_a_protocol_error(data: bytes) -> None:
    outcome = _checked(data)
    assert isinstance(outcome, dict | ProtocolError)


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.floats(allow_nan=True, allow_infinity=True)
    | st.integers(min_value=-(10**60), max_value=10**60) | st.text(max_size=50),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                 max_size=4),
    max_leaves=40,
)


def _depth(value: object) -> int:
    if isinstance(value, list):
        return 1 + max((_depth(v) for v in value), default=0)
    if isinstance(value, dict):
        return 1 + max((_depth(v) for v in value.values()), default=0)
    return 0


def _containers(value: object) -> int:
    if isinstance(value, list):
        return 1 + sum(_containers(v) for v in value)
    if isinstance(value, dict):
        return 1 + sum(_containers(v) for v in value.values())
    return 0


def _bounded(value: object) -> bool:
    """True if every integer is short, every float finite (what the reader accepts)."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return True
    if isinstance(value, int):
        return len(str(abs(value))) <= MAX_DIGITS
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, list):
        return all(_bounded(v) for v in value)
    assert isinstance(value, dict)
    return all(_bounded(v) for v in value.values())


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.text(max_size=8), JSON_VALUES, max_size=5))
def test_json_objects_are_read_exactly_when_within_the_bounds(message: dict) -> None:
    data = json.dumps(message).encode()
    outcome = _checked(data)
    if _bounded(message) and _depth(message) <= MAX_DEPTH \
            and _containers(message) <= MAX_BRACKETS:
        assert outcome == json.loads(data)  # a well-formed, bounded message reads as sent
    else:
        assert isinstance(outcome, ProtocolError)


@settings(max_examples=200, deadline=None)
@given(JSON_VALUES)
def test_an_answer_is_an_int_a_bool_or_a_described_non_action(value: object) -> None:
    try:
        checked = check_answer(value)
    except ProtocolError:
        assert type(value) not in (int, bool)
        return
    assert type(checked) in (int, bool) or set(checked) == {"not_an_action"}  # type: ignore[arg-type]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.binary(min_size=1, max_size=300), min_size=1, max_size=8),
       st.integers(min_value=0, max_value=2**32 - 1))
def test_the_socket_reader_never_raises_anything_but_a_protocol_error(
    chunks: list[bytes], claimed: int
) -> None:
    # Frames cut anywhere, a header claiming any size, garbage: each read ends in a
    # message, a ProtocolError, or the end of the channel.
    ours, theirs = socket.socketpair()
    payload = b"".join(chunks)
    stream = struct.pack(">I", len(payload)) + payload + struct.pack(">I", claimed) + payload

    def write() -> None:
        for start in range(0, len(stream), 97):
            theirs.sendall(stream[start:start + 97])
        theirs.close()

    writer = threading.Thread(target=write)
    writer.start()
    reader = Reader(ours)
    try:
        for _ in range(3):
            try:
                message = reader.read()
            except ProtocolError:
                break
            assert isinstance(message, dict)
    finally:
        writer.join()
        ours.close()


# -- the same messages sent by a hostile entrant, through the sandbox ---------------------

SENDER = '''
import inspect, struct
PAYLOAD = {payload}

class Agent:
    def act(self, observation):
        for frame in inspect.stack():  # the launcher's channel and the request answered
            local = frame.frame.f_locals
            if "channel" in local and "request" in local:
                data = PAYLOAD.replace(b"ID", str(local["request"]["id"]).encode())
                local["channel"].sendall(struct.pack(">I", {size}) + data)
                break
        return observation.legal_actions[0]
'''

SENT = {
    "huge-integer": ('b\'{"id": ID, "ok": true, "value": \' + b"7" * 5000 + b"}"', "protocol"),
    "deep-brackets": ('b"[" * 500_000 + b"]" * 500_000', "protocol"),
    "invalid-utf8": (repr(ADVERSARIAL["invalid-utf8"]), "protocol"),
    "nan": ("b'{\"id\": ID, \"ok\": true, \"value\": NaN}'", "protocol"),
    "megabyte-error": ('b\'{"id": ID, "ok": false, "error": "\' + b"x" * 1_000_000 + b\'"}\'',
                       "exception"),
    "surrogate-error": (repr(b'{"id": ID, "ok": false, "error": "\\ud800"}'), "exception"),
    "list-answer": (repr(b'{"id": ID, "ok": true, "value": [[[[1]]]]}'), "protocol"),
    "string-answer": ('b\'{"id": ID, "ok": true, "value": "\' + b"y" * 900_000 + b\'"}\'',
                      "protocol"),
    "float-id": (repr(b'{"id": 1.5, "ok": true, "value": 0}'), "protocol"),
    "no-ok": (repr(b'{"id": ID, "value": 0}'), "protocol"),
    "oversized-header": ('b"x" * 10', "protocol"),
}
"""What a hostile entrant sends in place of its answer (a Python expression of the bytes,
built in its process), and the fault it must be."""


def _sender(name: str) -> str:
    size = "2**32 - 1" if name == "oversized-header" else "len(data)"
    return SENDER.format(payload=SENT[name][0], size=size)


LIMITS = SandboxLimits(decision_seconds=20.0, start_seconds=30.0, memory_megabytes=1024)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(SENT))
def test_a_hostile_message_through_the_sandbox_is_a_recorded_fault(
    name: str, tmp_path: Path
) -> None:
    kind = SENT[name][1]
    file = tmp_path / f"{name.replace('-', '_')}.py"
    file.write_text(_sender(name))
    agent = SandboxedAgent(EntrantSource.read(file), kuhn(), limits=LIMITS)
    try:
        result = play_match(kuhn(), agent, AlwaysCall(), hands=2, seed=1)
    finally:
        agent.close()
    faults = [e for e in result.events if e.agent == 0]  # type: ignore[attr-defined]
    assert faults
    assert faults[0].kind == kind
    assert {e.kind for e in faults} <= {kind, "disqualified", "protocol"}
    assert all(len(e.detail) <= MAX_DETAIL + 40 for e in faults)
    assert all(e.detail.encode() for e in faults)  # storable text: no lone surrogate
    assert result.n_hands == 4  # type: ignore[attr-defined]


@pytest.mark.slow
def test_a_tournament_with_hostile_answers_finishes_and_stores_every_hand(
    tmp_path: Path
) -> None:
    folder = tmp_path / "entrants"
    folder.mkdir()
    for name in ("huge-integer", "deep-brackets", "megabyte-error"):
        (folder / f"{name.replace('-', '_')}.py").write_text(_sender(name))
    game = kuhn()
    entrants = [file_entrant(f, game, limits=LIMITS) for f in sorted(folder.glob("*.py"))]
    assert [e.error for e in entrants] == [None] * 3
    db = tmp_path / "arena.db"
    result = run_tournament(game, [*entrants, *builtin_entrants("always-call")], db=db,
                            hands=2, seed=2)
    with ArenaStore(db, readonly=True) as store:
        matches = store.matches(result.run_id)
        assert len(matches) == 6
        assert all(m.finished is not None for m in matches)
        assert all(store.hands_done(m.id) == 4 for m in matches)
        events = store.events(run_id=result.run_id)
        assert {e.kind for e in events} >= {"protocol", "exception"}
        assert max(len(e.detail) for e in events) <= MAX_DETAIL + 40


@pytest.mark.parametrize("size", [64_000, MAX_MESSAGE_BYTES - 100])
def test_a_string_left_open_is_read_in_one_pass(size: int) -> None:
    # A review's attack: more brackets than MAX_DEPTH (so the depth is checked), then a
    # string that never closes, full of escaped quotes. The string pattern required a
    # closing quote, so each quote began a scan to the end: 7-14 s at 32 KB, hours at a
    # megabyte, all of it in the arena's process. One match now takes the open string.
    from pokerlab.play.entrant_protocol import _STRING

    head = b"{" * (MAX_DEPTH + 1)
    bomb = head + b'"' + b'\\"' * ((size - len(head)) // 2)
    assert _STRING.sub(b'""', bomb) == head + b'""'  # the whole tail, one match
    with pytest.raises(ProtocolError):
        parse_message(bomb)
    for well_formed in (b'{"a":"x\\"y","b":["\\\\",{"c":"]"}]}', b'{"l": ["", "\\u0022", "}"]}'):
        # on JSON that closes its strings the pattern matches as before
        assert _STRING.sub(b'""', well_formed) == re.sub(
            rb'"(?:[^"\\]|\\.)*"', b'""', well_formed, flags=re.DOTALL)
        assert parse_message(well_formed) == json.loads(well_formed)


def test_a_decision_limit_past_poll_s_range_waits_and_answers(tmp_path: Path) -> None:
    # poll takes at most 2**31 - 1 ms: a limit of 3,000,000 s (about 35 days) raised
    # OverflowError out of act() instead of waiting
    file = tmp_path / "calls.py"
    file.write_text("class Agent:\n    def act(self, observation):\n"
                    "        return observation.legal_actions[-1]\n")
    limits = SandboxLimits(decision_seconds=3_000_000.0, start_seconds=30.0,
                           memory_megabytes=1024)
    agent = SandboxedAgent(EntrantSource.read(file), kuhn(), limits=limits)
    try:
        result = play_match(kuhn(), agent, AlwaysCall(), hands=2, seed=1)
    finally:
        agent.close()
    assert result.events == ()
    assert result.n_hands == 4  # type: ignore[attr-defined]
