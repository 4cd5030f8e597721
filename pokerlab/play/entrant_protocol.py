"""The small protocol between the arena and an entrant's process (see docs/entrants.md).

Messages are JSON objects, each preceded by its length as 4 bytes (big-endian), over a
socket pair. The arena sends requests numbered by ``id``; the entrant's process answers
every request, in order, with ``{"id": n, "ok": true, "value": ...}`` or
``{"id": n, "ok": false, "kind": "exception", "error": "..."}``:

- ``{"op": "start", "game": "leduc", "file": "bot.py"}``: import the file, build its
  ``Agent``; the value is ``{"name": ..., "hooks": ["reset", "observe", ...]}``;
- ``{"op": "reset"}``, ``{"op": "seed", "value": n}``, ``{"op": "observe", "update": {...}}``:
  the hooks (an observation, or the hand's result, as :func:`encode_update` writes them);
- ``{"op": "act", "observation": {...}}``: the value is the answer, encoded by
  :func:`encode_answer`: an ``int`` stays an int, ``True``/``False`` stay booleans, other
  values become ``{"not_an_action": "<type>: <text>"}`` (the arena records them as
  illegal answers);
- ``{"op": "stop"}``: the process exits.

Only the entrant's own observations cross: no game state, no generator, no other agent.

The arena reads what an entrant's process sends as hostile: a message is at most
:data:`MAX_MESSAGE_BYTES`, nests at most :data:`MAX_DEPTH` arrays and objects, holds
integers of at most :data:`MAX_DIGITS` digits and no ``NaN`` or infinity; anything else
(invalid UTF-8, bad JSON, a message that is not an object...) raises
:class:`ProtocolError`, never another exception. Answers are then checked for their
shape (:func:`check_answer`).
"""

from __future__ import annotations

import json
import math
import re
import socket
import struct
from collections.abc import Callable
from json.encoder import encode_basestring_ascii
from typing import Any

from pokerlab.games.observation import HandResult, Observation

MAX_MESSAGE_BYTES = 1 << 20
"""Longer messages are a protocol fault (an entrant cannot flood the arena's memory)."""

MAX_DEPTH = 16
"""Arrays and objects nested deeper than this are a protocol fault."""

MAX_DIGITS = 20
"""Integers with more digits than this are a protocol fault (an action id has a few)."""

MAX_BRACKETS = 64
"""A message with more brackets than this outside its strings is a protocol fault (the
arena's messages have a handful): it bounds the work of checking the depth."""

_HEADER = struct.Struct(">I")
_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"?', re.DOTALL)
"""A JSON string, its closing quote optional: a string left open takes the rest of the
message in one match (with the quote required, every quote of such a message started a
scan to its end: time growing with the square of the size, hours for a megabyte). On
well-formed JSON the same matches; a message with an open string is refused by the
decoder anyway."""
_BRACKET = re.compile(rb"[\[\]{}]")
_SURROGATE = re.compile("[\ud800-\udfff]")
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


class ProtocolError(Exception):
    """A message that cannot be read: closed channel, oversized or malformed."""


def _bounded_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise ProtocolError(f"an integer of {len(text):,} digits; the limit is {MAX_DIGITS}")
    return int(text)


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ProtocolError(f"a number out of range: {text[:40]}")
    return value


def _no_constant(text: str) -> float:
    raise ProtocolError(f"a number that is not finite: {text}")


_DECODER = json.JSONDecoder(parse_int=_bounded_int, parse_float=_finite_float,
                            parse_constant=_no_constant)
"""Built once: ``json.loads`` with hooks builds a decoder per call (half its time)."""

_ENCODER = json.JSONEncoder(separators=(",", ":"))
"""Built once: ``json.dumps`` with ``separators`` builds an encoder per call."""

_PLAIN_DECODER = json.JSONDecoder()

_PLAIN_REPLY = re.compile(
    rb'\{"id":(0|[1-9][0-9]{0,%d}),"ok":true,"value":(-?(?:0|[1-9][0-9]{0,%d})|true|false|null)\}'
    % (MAX_DIGITS - 1, MAX_DIGITS - 1)
)
"""The usual answer, exactly as the entrant's process writes it (an int, a boolean or
null, no spaces): read without the decoder. Integers of at most :data:`MAX_DIGITS`
digits, no leading zero (as JSON wants); anything else takes the checked path."""

_CONSTANTS: dict[bytes, object] = {b"true": True, b"false": False, b"null": None}


def _depth(data: bytes) -> int:
    """How deep ``data``'s arrays and objects nest (its strings removed already)."""
    depth = deepest = 0
    for match in _BRACKET.finditer(data):
        if match.group() in b"[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


def parse_message(data: bytes) -> dict[str, Any]:
    """One message's JSON object, checked for size, depth and number length.

    Raises:
        ProtocolError: whatever is wrong with it (never another exception).
    """
    plain = _PLAIN_REPLY.fullmatch(data)
    if plain is not None:  # the dict _parse_checked gives, without the decoder's hooks
        ident, value = plain.groups()
        return {"id": int(ident), "ok": True,
                "value": _CONSTANTS[value] if value in _CONSTANTS else int(value)}
    return _parse_checked(data)


def _parse_checked(data: bytes) -> dict[str, Any]:
    """:func:`parse_message` for any message: every bound checked, then the decoder."""
    if len(data) > MAX_MESSAGE_BYTES:
        raise ProtocolError(f"a message of {len(data):,} bytes; the limit is "
                            f"{MAX_MESSAGE_BYTES:,}")
    if data.count(b"[") + data.count(b"{") > MAX_DEPTH:
        bare = _STRING.sub(b'""', data)
        brackets = sum(bare.count(b) for b in (b"[", b"{", b"]", b"}"))
        if brackets > 2 * MAX_BRACKETS:
            raise ProtocolError(f"a message with more than {MAX_BRACKETS} arrays and objects")
        if _depth(bare) > MAX_DEPTH:
            raise ProtocolError(f"a message nested deeper than {MAX_DEPTH}")
    try:
        message = _DECODER.decode(data.decode())
    except ProtocolError:
        raise
    except (ValueError, RecursionError, MemoryError, TypeError) as exc:
        raise ProtocolError(f"a message that is not JSON ({clean_text(str(exc), 200)})") from None
    if not isinstance(message, dict):
        raise ProtocolError(f"a message that is not an object: {type(message).__name__}")
    return message


def clean_text(text: str, limit: int) -> str:
    r"""``text`` cut to ``limit`` characters, safe to store and to print.

    Lone surrogates (not UTF-8) become U+FFFD; control characters other than newline and
    tab (a terminal's escape sequences) are written as ``\xNN``.
    """
    if len(text) > limit:
        text = text[:limit] + f" [... {len(text) - limit:,} more characters]"
    text = _SURROGATE.sub("\ufffd", text)
    return _CONTROL.sub(lambda match: f"\\x{ord(match.group()):02x}", text)


def check_answer(value: object) -> object:
    """An answer to ``act`` as the entrant's process may send it, or ProtocolError.

    Allowed: an integer, a boolean, or ``{"not_an_action": "<type>: <text>"}`` (what
    :func:`encode_answer` writes for anything else).
    """
    if type(value) in (int, bool):
        return value
    if (isinstance(value, dict) and len(value) == 1
            and isinstance(value.get("not_an_action"), str)):
        return {"not_an_action": clean_text(value["not_an_action"], 100)}
    raise ProtocolError(f"an answer that is not an action: {clean_text(repr(value), 100)}")


def parse_trusted(data: bytes) -> dict[str, Any]:
    """One message of the arena's, read in the entrant's process: plain JSON, no bounds.

    The arena wrote it (the entrant's code cannot reach the channel's other end), so the
    bounds of :func:`parse_message`, which protect the arena from an entrant, buy nothing
    here; they cost a Python call per number.

    Raises:
        ProtocolError: if it is not a JSON object.
    """
    try:
        message = _PLAIN_DECODER.decode(data.decode())
    except (ValueError, RecursionError) as exc:
        raise ProtocolError(f"a message that is not JSON ({clean_text(str(exc), 200)})") from None
    if not isinstance(message, dict):
        raise ProtocolError(f"a message that is not an object: {type(message).__name__}")
    return message


def send(channel: socket.socket, message: dict[str, Any]) -> None:
    """Write one framed message."""
    channel.sendall(frame(message))


def frame(message: dict[str, Any]) -> bytes:
    """One framed message as bytes (to batch several into one write)."""
    data = _ENCODER.encode(message).encode()
    return _HEADER.pack(len(data)) + data


_JSON_CONSTANT: dict[object, str] = {True: "true", False: "false", None: "null"}


def frame_reply(ident: object, value: object) -> bytes:
    """``frame({"id": ident, "ok": True, "value": value})``: the same bytes.

    Written directly for an int id and an int, boolean or None value (an answer to
    ``act``, a hook's None); anything else takes the generic encoder.
    """
    if type(ident) is int:
        kind = type(value)
        if kind is int:
            text = f'{{"id":{ident},"ok":true,"value":{value}}}'
        elif kind is bool or value is None:
            text = f'{{"id":{ident},"ok":true,"value":{_JSON_CONSTANT[value]}}}'
        else:
            return frame({"id": ident, "ok": True, "value": value})
        data = text.encode()
        return _HEADER.pack(len(data)) + data
    return frame({"id": ident, "ok": True, "value": value})


def _json_numbers(values: object) -> str | None:
    """Plain ints and finite floats of a tuple or list as JSON writes them, else None.

    Comma-separated; None for any other item or container.
    """
    if type(values) is not tuple and type(values) is not list:
        return None
    parts = []
    for value in values:
        kind = type(value)
        if kind is int:
            parts.append(int.__repr__(value))
        elif kind is float and math.isfinite(value):
            parts.append(float.__repr__(value))
        else:
            return None
    return ",".join(parts)


def _json_strings(values: object) -> str | None:
    """The items of a tuple or list of ``str`` as JSON writes them, or None otherwise."""
    if type(values) is not tuple and type(values) is not list:
        return None
    parts = []
    for value in values:
        if type(value) is not str:
            return None
        parts.append(encode_basestring_ascii(value))
    return ",".join(parts)


def _act_body(ident: int, o: Observation) -> str | None:
    """The JSON of ``act``'s request, written directly, or None.

    None where a field is not of the plain type this writer knows (the generic encoder
    then writes it).
    """
    if (type(ident) is not int or type(o.seat) is not int or type(o.game) is not str
            or type(o.infoset_key) is not str or type(o.private_cards) is not str
            or type(o.board) is not str or type(o.public_history) is not tuple):
        return None
    legal = _json_numbers(o.legal_actions)
    names = _json_strings(o.action_names)
    committed = _json_numbers(o.committed)
    stacks = "null" if o.stacks is None else _json_numbers(o.stacks)
    if legal is None or names is None or committed is None or stacks is None:
        return None
    events = []
    for event in o.public_history:
        if type(event) is not tuple or len(event) != 2:
            return None
        player, name = event
        if type(player) is not int or type(name) is not str:
            return None
        events.append(f"[{player},{encode_basestring_ascii(name)}]")
    if o.stacks is not None:
        stacks = f"[{stacks}]"
    return (
        '{"op":"act","observation":{"type":"observation","game":'
        f'{encode_basestring_ascii(o.game)},"seat":{o.seat},"infoset_key":'
        f'{encode_basestring_ascii(o.infoset_key)},"legal_actions":[{legal}],'
        f'"action_names":[{names}],"public_history":[{",".join(events)}],'
        f'"private_cards":{encode_basestring_ascii(o.private_cards)},'
        f'"board":{encode_basestring_ascii(o.board)},"committed":[{committed}],'
        f'"stacks":{stacks}}},"id":{ident}}}'
    )


def frame_act(ident: int, observation: Observation) -> bytes:
    """``frame({"op": "act", "observation": encode_update(observation), "id": ident})``.

    The same bytes, written directly for the plain types games use (ints, finite floats,
    strings: most of a sandboxed decision's cost in the arena was the generic encoder);
    any other field takes the generic path.
    """
    body = _act_body(ident, observation)
    if body is None:
        return frame({"op": "act", "observation": encode_update(observation), "id": ident})
    data = body.encode()
    return _HEADER.pack(len(data)) + data


class Reader:
    """Reads framed messages from a socket, buffering what arrives early.

    ``parse`` reads each message: :func:`parse_message` (bounded: what an entrant's
    process sends) unless told otherwise.
    """

    def __init__(self, channel: socket.socket, limit: int = MAX_MESSAGE_BYTES,
                 parse: Callable[[bytes], dict[str, Any]] = parse_message) -> None:
        self.channel = channel
        self.limit = limit
        self.parse = parse
        self._buffer = bytearray()

    def pending(self) -> dict[str, Any] | None:
        """A complete message already buffered, or None."""
        if len(self._buffer) < _HEADER.size:
            return None
        (size,) = _HEADER.unpack_from(self._buffer)
        if size > self.limit:
            raise ProtocolError(f"a message of {size:,} bytes; the limit is {self.limit:,}")
        end = _HEADER.size + size
        if len(self._buffer) < end:
            return None
        data = bytes(self._buffer[_HEADER.size:end])
        del self._buffer[:end]
        return self.parse(data)

    def feed(self) -> bool:
        """Read what the socket has (blocking once); False when the other side closed."""
        chunk = self.channel.recv(1 << 16)
        if not chunk:
            return False
        self._buffer += chunk
        if len(self._buffer) > self.limit + _HEADER.size:
            (size,) = _HEADER.unpack_from(self._buffer)
            if size > self.limit:
                raise ProtocolError(f"a message of {size:,} bytes; the limit is {self.limit:,}")
        return True

    def read(self) -> dict[str, Any]:
        """The next message, blocking.

        Raises:
            ProtocolError: if the channel closes or the message is malformed.
        """
        while True:
            message = self.pending()
            if message is not None:
                return message
            if not self.feed():
                raise ProtocolError("the channel closed")


def encode_update(update: Observation | HandResult) -> dict[str, Any]:
    """An observation or a hand's result as JSON-ready data."""
    if isinstance(update, HandResult):
        return {
            "type": "result",
            "seat": update.seat,
            "returns": list(update.returns),
            "public_history": [list(e) for e in update.public_history],
            "showdown": list(update.showdown),
        }
    return {
        "type": "observation",
        "game": update.game,
        "seat": update.seat,
        "infoset_key": update.infoset_key,
        "legal_actions": list(update.legal_actions),
        "action_names": list(update.action_names),
        "public_history": [list(e) for e in update.public_history],
        "private_cards": update.private_cards,
        "board": update.board,
        "committed": list(update.committed),
        "stacks": None if update.stacks is None else list(update.stacks),
    }


def decode_update(data: dict[str, Any]) -> Observation | HandResult:
    """Inverse of :func:`encode_update`."""
    history = tuple([(int(p), str(name)) for p, name in data["public_history"]])
    if data["type"] == "result":
        return HandResult(
            seat=int(data["seat"]),
            returns=tuple(map(float, data["returns"])),
            public_history=history,
            showdown=tuple(map(str, data["showdown"])),
        )
    stacks = data["stacks"]
    return Observation(
        game=str(data["game"]),
        seat=int(data["seat"]),
        infoset_key=str(data["infoset_key"]),
        legal_actions=tuple(map(int, data["legal_actions"])),
        action_names=tuple(map(str, data["action_names"])),
        public_history=history,
        private_cards=str(data["private_cards"]),
        board=str(data["board"]),
        committed=tuple(map(float, data["committed"])),
        stacks=None if stacks is None else tuple(map(float, stacks)),
    )


def encode_answer(answer: object) -> object:
    """An agent's answer as JSON: ints and booleans as they are, anything else described.

    Runs in the entrant's process. It calls no method of the answer (``__int__``,
    ``__repr__``...) unless the answer's type is a built-in or numpy scalar, so what comes
    back is data the arena can check, never an object of the entrant's.
    """
    kind = type(answer)
    if kind is int or kind is bool:
        return answer
    module = getattr(kind, "__module__", "")
    if module == "numpy" and hasattr(answer, "dtype") and getattr(answer, "ndim", 1) == 0:
        dtype_kind = answer.dtype.kind
        if dtype_kind in "iu":
            return int(answer)  # type: ignore[call-overload]
        if dtype_kind == "b":
            return bool(answer)
    text = repr(answer) if kind in (float, str, type(None), bytes) else "an object"
    return {"not_an_action": f"{kind.__name__}: {text[:80]}"}


def decode_answer(value: object) -> object:
    """What the dealer checks: the int, the bool, or a description of what came back."""
    if isinstance(value, dict) and "not_an_action" in value:
        return NotAnAction(clean_text(str(value["not_an_action"]), 100))
    return value


class NotAnAction:
    """An answer that was not an int or a bool (its type and text, as the entrant sent it)."""

    def __init__(self, description: str) -> None:
        self.description = description

    def __repr__(self) -> str:
        return self.description


__all__ = [
    "MAX_BRACKETS",
    "MAX_DEPTH",
    "MAX_DIGITS",
    "MAX_MESSAGE_BYTES",
    "NotAnAction",
    "ProtocolError",
    "Reader",
    "check_answer",
    "clean_text",
    "decode_answer",
    "decode_update",
    "encode_answer",
    "encode_update",
    "frame",
    "frame_act",
    "frame_reply",
    "parse_message",
    "parse_trusted",
    "send",
]
