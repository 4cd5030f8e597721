"""The protocol's fast paths give exactly what the generic paths give.

A sandboxed decision's cost in the arena was mostly the generic JSON encoder and the
checked decoder; :func:`frame_act`, :func:`frame_reply` and the plain-reply path of
:func:`parse_message` write and read the usual messages directly. Each is compared with
the generic path on many random cases (the same bytes, the same dict of the same types,
or the same ``ProtocolError``), hostile replies included; real observations of every
small game are compared too.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pokerlab.games import holdem, kuhn, leduc, rhode_island
from pokerlab.games.observation import Observation
from pokerlab.play.entrant_protocol import (
    _PLAIN_REPLY,
    MAX_DIGITS,
    ProtocolError,
    _parse_checked,
    decode_update,
    encode_update,
    frame,
    frame_act,
    frame_reply,
    parse_message,
    parse_trusted,
)

TEXT = st.text(max_size=12)  # any code point: quotes, control characters, surrogates
NUMBER = st.one_of(
    st.integers(min_value=-(10**30), max_value=10**30),
    st.floats(allow_nan=True, allow_infinity=True),
)


def _generic_act(ident: object, observation: Observation) -> bytes | type[BaseException]:
    """What the arena sent before the fast path (or the exception it raised)."""
    try:
        return frame({"op": "act", "observation": encode_update(observation), "id": ident})
    except (TypeError, ValueError) as error:
        return type(error)


def _fast_act(ident: int, observation: Observation) -> bytes | type[BaseException]:
    try:
        return frame_act(ident, observation)
    except (TypeError, ValueError) as error:
        return type(error)


observations = st.builds(
    Observation,
    game=TEXT,
    seat=st.integers(min_value=-3, max_value=12),
    infoset_key=TEXT,
    legal_actions=st.lists(st.integers(min_value=-5, max_value=2**70), max_size=5).map(tuple),
    action_names=st.lists(TEXT, max_size=5).map(tuple),
    public_history=st.lists(st.tuples(st.integers(-1, 9), TEXT), max_size=6).map(tuple),
    private_cards=TEXT,
    board=TEXT,
    committed=st.lists(NUMBER, max_size=4).map(tuple),
    stacks=st.none() | st.lists(NUMBER, max_size=4).map(tuple),
)


@settings(max_examples=600, deadline=None)
@given(observations, st.integers(min_value=0, max_value=2**64))
def test_frame_act_writes_the_generic_bytes(observation: Observation, ident: int) -> None:
    assert _fast_act(ident, observation) == _generic_act(ident, observation)


ODD = [
    {"legal_actions": (True, 1)},
    {"legal_actions": (np.int64(1), 2)},
    {"legal_actions": [0, 1]},
    {"committed": (np.float64(1.5), 2.0)},
    {"committed": (1, 2.5)},
    {"committed": (math.nan,)},
    {"stacks": (math.inf, 1.0)},
    {"stacks": [1.0, 2.0]},
    {"seat": np.int64(1)},
    {"seat": True},
    {"action_names": ("fold", 3)},
    {"public_history": ((0, "call", "extra"),)},
    {"public_history": ([0, "call"],)},
    {"public_history": ((np.int64(0), "call"),)},
    {"public_history": [(0, "call")]},
    {"private_cards": None},
    {"board": b"Kh"},
    {"game": 7},
]


@pytest.mark.parametrize("changes", ODD, ids=[str(c) for c in ODD])
def test_frame_act_falls_back_for_other_types(changes: dict[str, object]) -> None:
    """Fields of other types (a game's numpy number, a bool, a list) take the generic path."""
    fields = {"game": "leduc", "seat": 0, "infoset_key": "K|", "legal_actions": (0, 1, 2),
              "action_names": ("fold", "call", "raise"), "public_history": ((0, "raise"),),
              "private_cards": "K", "board": "", "committed": (3.0, 1.0), "stacks": None}
    observation = Observation(**{**fields, **changes})  # type: ignore[arg-type]
    assert _fast_act(17, observation) == _generic_act(17, observation)


@pytest.mark.parametrize("game", [kuhn(), leduc(), rhode_island(), holdem(), kuhn(players=3)],
                         ids=lambda g: str(g.spec))
def test_frame_act_on_real_observations(game: object) -> None:
    """Every observation of random hands of the small games: the same bytes, read back."""
    rng = np.random.default_rng(5)
    seen = 0
    for _ in range(60):
        state = game.initial_state()  # type: ignore[attr-defined]
        while not state.is_terminal:
            legal = state.legal_actions()
            if state.player >= 0:
                observation = state.observation(state.player)
                data = frame_act(seen, observation)
                assert data == _generic_act(seen, observation)
                message = parse_trusted(data[4:])
                assert decode_update(message["observation"]) == observation
                seen += 1
            state = state.child(legal[int(rng.integers(len(legal)))])
    assert seen > 60


# -- replies -------------------------------------------------------------------------------


def _read(data: bytes, parse: object) -> object:
    try:
        message = parse(data)  # type: ignore[operator]
    except ProtocolError as error:
        return ("ProtocolError", str(error))
    return [(key, type(value), value) for key, value in message.items()]


def _digits(draw: st.DrawFn) -> str:
    sign = draw(st.sampled_from(["", "", "-", "+", "--"]))
    body = draw(st.sampled_from([
        "0", "00", "07", "1", "12", "9" * MAX_DIGITS, "1" + "0" * (MAX_DIGITS - 1),
        "9" * (MAX_DIGITS + 1), "1" + "0" * MAX_DIGITS, "1.0", "1e3", "0x1", "١٢",
    ]) | st.text(alphabet="0123456789", min_size=1, max_size=MAX_DIGITS + 2))
    return sign + body


@st.composite
def replies(draw: st.DrawFn) -> bytes:
    """Replies near the usual shape: the plain one and its hostile neighbours."""
    ident = _digits(draw)
    value = draw(st.sampled_from(["true", "false", "null", "NaN", "Infinity", "-Infinity",
                                  '"1"', "[1]", '{"not_an_action":"x"}', "True", "nul", ""]))
    value = value or _digits(draw)
    ok = draw(st.sampled_from(["true", "true", "true", "false", "1", '"true"']))
    space = draw(st.sampled_from(["", "", "", " ", "\n"]))
    order = draw(st.sampled_from(["id-ok-value", "id-ok-value", "value-first", "dup"]))
    parts = {"id": f'"id":{space}{ident}', "ok": f'"ok":{ok}', "value": f'"value":{value}'}
    if order == "value-first":
        keys = ["value", "id", "ok"]
    elif order == "dup":
        keys = ["id", "ok", "value", "value"]
    else:
        keys = ["id", "ok", "value"]
    text = "{" + f",{space}".join(parts[k] for k in keys) + "}"
    tail = draw(st.sampled_from(["", "", "", " ", "\n", "x", "}"]))
    return (text + tail).encode()


@settings(max_examples=1500, deadline=None)
@given(replies())
def test_the_plain_reply_path_reads_as_the_checked_path(data: bytes) -> None:
    """The same dict (same key order, same value types) or the same ProtocolError."""
    assert _read(data, parse_message) == _read(data, _parse_checked)


@settings(max_examples=300, deadline=None)
@given(st.integers(min_value=0, max_value=10**MAX_DIGITS - 1),
       st.one_of(st.integers(min_value=-(10**MAX_DIGITS) + 1, max_value=10**MAX_DIGITS - 1),
                 st.booleans(), st.none()))
def test_usual_replies_take_the_plain_path(ident: int, value: object) -> None:
    data = frame_reply(ident, value)[4:]
    assert _PLAIN_REPLY.fullmatch(data) is not None
    assert _read(data, parse_message) == _read(data, _parse_checked)
    assert parse_message(data) == {"id": ident, "ok": True, "value": value}


@pytest.mark.parametrize("data", [
    b'{"id":1,"ok":true,"value":' + b"7" * (MAX_DIGITS + 1) + b"}",
    b'{"id":' + b"7" * (MAX_DIGITS + 1) + b',"ok":true,"value":1}',
    b'{"id":1,"ok":true,"value":NaN}',
    b'{"id":1,"ok":true,"value":-Infinity}',
    b'{"id":01,"ok":true,"value":1}',
    b'{"id":1,"ok":true,"value":1} ',
    b'{"id":1,"ok":true,"value":1}}',
])
def test_hostile_neighbours_of_the_plain_reply_are_refused_or_read_as_before(data: bytes) -> None:
    assert _read(data, parse_message) == _read(data, _parse_checked)
    if data.endswith(b"1}") and b"NaN" not in data and b"Infinity" not in data \
            and b"01" not in data:
        with pytest.raises(ProtocolError, match="integer"):
            parse_message(data)


# -- the entrant's side --------------------------------------------------------------------

REPLY_VALUES = st.one_of(
    st.integers(min_value=-(2**80), max_value=2**80), st.booleans(), st.none(),
    st.floats(allow_nan=False), TEXT,
    st.fixed_dictionaries({"not_an_action": TEXT}),
    st.fixed_dictionaries({"name": st.none() | TEXT, "hooks": st.lists(TEXT, max_size=3)}),
)


@settings(max_examples=500, deadline=None)
@given(st.one_of(st.integers(min_value=-5, max_value=2**70), st.none(), TEXT), REPLY_VALUES)
def test_frame_reply_writes_the_generic_bytes(ident: object, value: object) -> None:
    assert frame_reply(ident, value) == frame({"id": ident, "ok": True, "value": value})


@settings(max_examples=300, deadline=None)
@given(observations, st.integers(min_value=0, max_value=2**64))
def test_the_entrant_reads_the_arenas_requests_as_json_does(
    observation: Observation, ident: int
) -> None:
    data = frame({"op": "act", "observation": encode_update(observation), "id": ident})[4:]
    if b"NaN" in data or b"Infinity" in data:
        return  # never sent: a game's chip counts are finite
    assert parse_trusted(data) == json.loads(data)


@pytest.mark.parametrize("data", [b"[1]", b"1", b"", b"\xff", b'{"a":'])
def test_the_entrants_reader_refuses_what_is_not_an_object(data: bytes) -> None:
    with pytest.raises(ProtocolError):
        parse_trusted(data)


@settings(max_examples=300, deadline=None)
@given(st.lists(observations, min_size=1, max_size=4),
       st.lists(st.integers(min_value=0, max_value=2**64), min_size=6, max_size=6))
def test_the_entrant_decodes_a_repeated_observation_as_before(
    seen: list[Observation], idents: list[int]
) -> None:
    """Each act request reads as parse_trusted + decode_update did: a fresh equal object."""
    from pokerlab.play.entrant_process import _Entrant, _Requests

    requests = _Requests()
    for ident, observation in zip(idents, seen * 3, strict=False):
        data = frame_act(ident, observation)[4:]
        if b"NaN" in data or b"Infinity" in data:
            continue  # never sent: a game's chip counts are finite
        message = requests.parse(data)
        before = parse_trusted(data)
        assert message["op"] == before["op"] == "act"
        assert message["id"] == before["id"] == ident
        expected = decode_update(before["observation"])
        assert message["observation"] == expected
        again = requests.parse(data)["observation"]
        assert again == expected
        assert again is not message["observation"]

        class Echo:
            def act(self, observation: Observation) -> Observation:
                return observation

        entrant = object.__new__(_Entrant)
        entrant.agent = Echo()
        assert entrant.call(dict(message)) == entrant.call(dict(before))


@pytest.mark.parametrize("data", [
    b'{"op":"reset","id":3}',
    b'{"op":"act","observation":{"type":"result"},"id":4}',
    b'{"op":"act","observation":{"type":"observation"},"id":5}',
    b'{"op":"act","observation":[1],"id":6}',
    b'{"op":"act","observation":{"a":1},"id":7,"x":1}',
    b'{"op":"start","game":"kuhn","file":"a.py","source":"","id":1}',
])
def test_other_requests_read_as_parse_trusted(data: bytes) -> None:
    from pokerlab.play.entrant_process import _Requests

    assert _Requests().parse(data) == parse_trusted(data)


def test_the_entrants_decoded_observations_are_bounded() -> None:
    from pokerlab.play.entrant_process import _Requests

    requests = _Requests()
    base = leduc().initial_state()
    while base.player < 0:
        base = base.child(base.legal_actions()[0])
    observation = base.observation(base.player)
    for n in range(_Requests.LIMIT + 10):
        changed = Observation(**{**vars(observation), "infoset_key": f"k{n}"})
        assert requests.parse(frame_act(n, changed)[4:])["observation"] == changed
    assert len(requests._fields) <= _Requests.LIMIT
