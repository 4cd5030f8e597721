"""The ACPC dealer over loopback: equal to the in-process match, and robust to bad clients."""

from __future__ import annotations

import contextlib
import math
import socket
import threading
import time
import zlib

import pytest

from pokerlab.errors import PokerlabError
from pokerlab.eval.matches import iter_hands
from pokerlab.games.holdem import CALL, FOLD, holdem
from pokerlab.games.observation import Observation
from pokerlab.play import acpc_seat
from pokerlab.play.acpc_matchstate import VERSION_LINE, format_chips
from pokerlab.play.acpc_seat import AcpcSeat, TimeLimits, check_spin_us
from pokerlab.protocols.acpc_client import AcpcPlayer, run_client
from pokerlab.protocols.acpc_dealer import accept_seats, open_seats, run_acpc_match

# 100 big blinds deep; small chip counts keep the observations (one id per raise size) small.
NO_LIMIT = holdem(stack=200, blinds=(1, 2))
LIMIT = holdem(betting="limit", blinds=(5, 10), stack=1000)


class HashAgent:
    """Deterministic but varied: the action depends on a hash of what the seat knows."""

    def __init__(self, salt: int) -> None:
        self.name = f"hash{salt}"
        self.salt = salt

    def act(self, observation: Observation) -> int:
        h = zlib.crc32(f"{self.salt}|{observation.infoset_key}".encode())
        legal = observation.legal_actions
        raises = [a for a in legal if a not in (FOLD, CALL)]
        if raises and h % 4 == 0:
            return raises[(h >> 4) % min(len(raises), 400)]
        if FOLD in legal and h % 7 == 0:
            return FOLD
        return CALL


def _serve(game, clients, *, hands, seed, limits=None, log_path=None, spin_us=0.0):  # type: ignore[no-untyped-def]
    servers = open_seats(len(clients), 0)
    limits = limits or TimeLimits(per_action=5.0)
    ports = [s.getsockname()[1] for s in servers]
    threads = [
        threading.Thread(target=client, args=(port,), daemon=True)
        for client, port in zip(clients, ports, strict=True)
    ]
    for t in threads:
        t.start()
    seats = accept_seats(servers, [f"p{i}" for i in range(len(clients))], limits, spin_us=spin_us)
    try:
        return run_acpc_match(game, seats, hands=hands, seed=seed, log_path=log_path)
    finally:
        for seat in seats:
            seat.close()
        for t in threads:
            t.join(10)


def _pokerlab_client(game, agent, spin_us=0.0):  # type: ignore[no-untyped-def]
    return lambda port: run_client(game, "127.0.0.1", port, agent, spin_us=spin_us)


@pytest.mark.slow
def test_no_limit_match_over_loopback_equals_in_process(tmp_path) -> None:  # type: ignore[no-untyped-def]
    hands, seed = 1000, 7
    log = tmp_path / "match.log"
    result = _serve(
        NO_LIMIT,
        [_pokerlab_client(NO_LIMIT, HashAgent(1)), _pokerlab_client(NO_LIMIT, HashAgent(2))],
        hands=hands,
        seed=seed,
        log_path=log,
    )
    local = list(
        iter_hands(
            NO_LIMIT,
            [HashAgent(1), HashAgent(2)],
            hands=hands,
            seats="rotate",
            duplicate=False,
            seed=seed,
        )
    )
    assert result.faults == ()
    assert [r.history for r in result.records] == [r.history for r in local]
    assert [r.agent_returns() for r in result.records] == [r.agent_returns() for r in local]
    assert result.chips[0] == sum(r.agent_returns()[0] for r in local)
    assert result.chips[0] == -result.chips[1]
    lines = log.read_text().splitlines()
    assert len(lines) == hands + 4  # the header, a line per hand, the seed, the score
    assert lines[:2] == [f"# name/game/hands/seed match {str(NO_LIMIT.spec).replace(' ', '')} "
                         f"{hands} {seed}", "#--t_response 5000"]
    assert lines[2].startswith("STATE:0:")
    assert lines[-2].startswith(f"# seed {seed} ")  # the deal seed, once the match is over
    assert lines[-1] == f"SCORE:{format_chips(result.chips[0])}|{format_chips(result.chips[1])}" \
        ":p0|p1"
    assert result.seed == seed


def _raw_client(behaviour: str):  # type: ignore[no-untyped-def]
    """A client that misbehaves in one way (answers every state it reads, badly)."""

    def run(port: int) -> None:
        with contextlib.suppress(OSError):  # the dealer closes the socket at the end
            _misbehave(port)

    def _misbehave(port: int) -> None:
        with socket.create_connection(("127.0.0.1", port)) as sock:
            sock.sendall(VERSION_LINE.encode() + b"\r\n")
            reader = sock.makefile("r", encoding="ascii")
            for count, line in enumerate(reader):
                state = line.strip()
                if behaviour == "disconnect" and count == 5:
                    return
                replies = {
                    "garbage": "\x00 not a match state \xff",
                    "illegal": state + ":r999999",
                    "out_of_turn": state + ":c",  # answers every state, its turn or not
                    "silence": None,
                    "disconnect": state + ":c",
                }
                reply = replies[behaviour]
                if reply is not None:
                    try:
                        sock.sendall(reply.encode("ascii", errors="replace") + b"\r\n")
                    except OSError:
                        return

    return run


@pytest.mark.parametrize(
    ("behaviour", "kind"),
    [
        ("garbage", "protocol"),
        ("illegal", "illegal"),
        ("out_of_turn", "protocol"),
        ("silence", "timeout"),
        ("disconnect", "crash"),
    ],
)
def test_misbehaving_clients_never_stop_the_match(behaviour: str, kind: str) -> None:
    hands = 12
    result = _serve(
        LIMIT,
        [_raw_client(behaviour), _pokerlab_client(LIMIT, HashAgent(3))],
        hands=hands,
        seed=3,
        limits=TimeLimits(per_action=0.05),
    )
    assert result.hands == hands
    kinds = {f.kind for f in result.faults}
    assert kind in kinds
    assert all(f.agent == 0 for f in result.faults)
    assert result.chips[0] == -result.chips[1]


def test_a_client_answers_a_recorded_transcript() -> None:
    # Written from the protocol spec: limit Hold'em, this client in position 1 (small blind).
    transcript = [
        "MATCHSTATE:1:0::|9hQd",
        "MATCHSTATE:1:0:r:|9hQd",
        "MATCHSTATE:1:0:rr:|9hQd",
        "MATCHSTATE:1:0:rrc/:|9hQd/8dAs8s",
        "MATCHSTATE:1:0:rrc/r:|9hQd/8dAs8s",
        "MATCHSTATE:1:0:rrc/rf:JdTc|9hQd/8dAs8s",
    ]

    class Scripted:
        def __init__(self) -> None:
            self.answers = iter([2, 1, 0])

        def act(self, observation: Observation) -> int:
            return next(self.answers)

    replies = list(AcpcPlayer(LIMIT, Scripted()).play(transcript))
    assert replies == [
        "MATCHSTATE:1:0::|9hQd:r",
        "MATCHSTATE:1:0:rr:|9hQd:c",
        "MATCHSTATE:1:0:rrc/r:|9hQd/8dAs8s:f",
    ]


class _Capture:
    """Stands in for an AcpcSeat: keeps every match state the table delivers."""

    def __init__(self) -> None:
        self.name = "capture"
        self.hand_seconds = 0.0
        self.table = None
        self.texts: list[str] = []

    def deliver(self, text: str) -> None:
        self.texts.append(text)


@pytest.mark.parametrize(
    "game",
    [LIMIT, NO_LIMIT, holdem(betting="limit", players=3), holdem(stack=30, blinds=(1, 2))],
    ids=["limit", "no-limit", "limit-3p", "no-limit-short"],
)
def test_the_tables_incremental_match_states_equal_a_replay_of_the_hand(game) -> None:  # type: ignore[no-untyped-def]
    from pokerlab.play.acpc_matchstate import format_matchstate, matchstate_from_state
    from pokerlab.play.acpc_seat import AcpcTable
    from pokerlab.play.dealer import ActionTaken, ChanceDealt

    n = game.n_players
    captures = [_Capture() for _ in range(n)]
    table = AcpcTable(captures)  # type: ignore[arg-type]
    expected: list[list[str]] = [[] for _ in range(n)]
    seating: list[tuple[int, ...]] = []

    def reference(event) -> None:  # type: ignore[no-untyped-def]
        if hasattr(event, "seats") and hasattr(event, "deal"):
            seating.append(event.seats)
        if isinstance(event, ChanceDealt | ActionTaken):
            state = event.state
            if state.player >= 0 or state.is_terminal:
                for position, agent in enumerate(seating[-1]):
                    text = format_matchstate(matchstate_from_state(state, position, event.hand))
                    expected[agent].append(text)

    agents = [HashAgent(i) for i in range(n)]
    for _ in iter_hands(
        game, agents, hands=60, seats="rotate", duplicate=False, seed=9,
        listeners=[reference, table],
    ):  # fmt: skip
        pass
    for agent in range(n):
        assert captures[agent].texts == expected[agent]
    assert any("/" in t for t in captures[0].texts)


def test_a_client_that_never_reads_is_a_fault_not_a_hang(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from pokerlab.play import acpc_seat as acpc_dealer
    from pokerlab.play.dealer import AgentFault

    monkeypatch.setattr(acpc_dealer, "_SEND_SECONDS", 0.1)
    ours, theirs = socket.socketpair()
    ours.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
    lines = acpc_dealer._LineSocket(ours)
    with pytest.raises(AgentFault, match="does not read") as fault:  # noqa: PT012
        for _ in range(100_000):
            lines.send("MATCHSTATE:0:0::Ad9d|" + "c" * 200)
    assert fault.value.kind == "timeout"
    assert lines.closed
    ours.close()
    theirs.close()


def test_a_seat_sends_its_queued_states_in_one_write_when_it_must_answer() -> None:
    ours, theirs = socket.socketpair()
    seat = AcpcSeat(ours, "s", TimeLimits(per_action=1.0))
    theirs.setblocking(False)
    try:
        for text in ("MATCHSTATE:0:0::Ah|", "MATCHSTATE:0:0:c:Ah|", "MATCHSTATE:0:0:c:Ah|"):
            seat.deliver(text)  # the repeat is dropped
        with pytest.raises(BlockingIOError):
            theirs.recv(4096)  # nothing sent before the seat must answer
        seat.flush()
        assert theirs.recv(4096) == b"MATCHSTATE:0:0::Ah|\r\nMATCHSTATE:0:0:c:Ah|\r\n"
        seat.deliver("MATCHSTATE:0:0:cc/:Ah|/2c3d4h")
        seat.close()  # the end of the match: what is queued still goes
        assert theirs.recv(4096) == b"MATCHSTATE:0:0:cc/:Ah|/2c3d4h\r\n"
    finally:
        theirs.close()


def test_a_spinning_dealer_and_spinning_clients_play_the_in_process_match(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(acpc_seat, "_cpus", lambda: 2)  # the dealer polls even on one CPU
    hands, seed = 60, 11
    result = _serve(
        LIMIT,
        [
            _pokerlab_client(LIMIT, HashAgent(1), spin_us=300),
            _pokerlab_client(LIMIT, HashAgent(2), spin_us=300),
        ],
        hands=hands,
        seed=seed,
        spin_us=300,
    )
    local = list(
        iter_hands(
            LIMIT, [HashAgent(1), HashAgent(2)], hands=hands, seats="rotate", duplicate=False,
            seed=seed,
        )
    )  # fmt: skip
    assert result.faults == ()
    assert [r.history for r in result.records] == [r.history for r in local]
    assert [r.agent_returns() for r in result.records] == [r.agent_returns() for r in local]


def test_a_spinning_seat_still_times_a_silent_client_out_at_its_limit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(acpc_seat, "_cpus", lambda: 2)
    hands = 6
    start = time.monotonic()
    result = _serve(
        LIMIT,
        [_raw_client("silence"), _pokerlab_client(LIMIT, HashAgent(3))],
        hands=hands,
        seed=3,
        limits=TimeLimits(per_action=0.05),
        spin_us=1_000_000,  # a second of polling: longer than the limit, which must win
    )
    elapsed = time.monotonic() - start
    timeouts = [f for f in result.faults if f.kind == "timeout"]
    assert result.hands == hands
    assert len(timeouts) >= hands // 2  # the silent seat acts at least every other hand
    assert elapsed < 0.2 * len(timeouts) + 3  # 0.05 s per timeout, not the 1 s spin


@pytest.mark.parametrize("spin_us", [-1.0, math.nan, math.inf, 2e6])
def test_a_spin_outside_0_to_a_second_is_refused_with_what_is_allowed(spin_us: float) -> None:
    with pytest.raises(PokerlabError, match="allowed: 0"):
        check_spin_us(spin_us)
    with pytest.raises(PokerlabError, match="allowed: 0"):
        run_client(LIMIT, "127.0.0.1", 9, HashAgent(0), spin_us=spin_us)
    assert check_spin_us(0.0) == 0.0
    assert check_spin_us(250.0) == 250.0
