"""The ACPC client: replays of dealer transcripts, and the agents ``--agent`` may name."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pokerlab.errors import PokerlabError
from pokerlab.games.observation import Observation
from pokerlab.play.acpc_matchstate import VERSION_LINE, format_chips
from pokerlab.play.acpc_seat import TimeLimits
from pokerlab.play.sandbox import SandboxedAgent
from pokerlab.protocols.acpc_client import AcpcPlayer, client_agent, latest_states
from pokerlab.protocols.acpc_dealer import accept_seats, open_seats, run_acpc_match
from pokerlab.protocols.acpc_gamedef import load_acpc_game
from pokerlab.protocols.acpc_log import read_acpc_log
from tests.protocols.test_acpc_dealer import HashAgent, _pokerlab_client

DATA = Path(__file__).parent / "data"
LIMIT = load_acpc_game("holdem.limit.2p.reverse_blinds")
NO_LIMIT = load_acpc_game("holdem.nolimit.2p.reverse_blinds")


class ByName:
    """Answers a script of action names, one per decision (fails loudly when they differ)."""

    def __init__(self, names: list[str]) -> None:
        self.names = iter(names)

    def act(self, observation: Observation) -> int:
        wanted = next(self.names)
        return observation.legal_actions[observation.action_names.index(wanted)]


def test_a_hand_written_no_limit_transcript_gets_the_protocols_answers() -> None:
    # Written from the ACPC protocol (version 2.0) for holdem.nolimit.2p.reverse_blinds:
    # position 0 is the big blind (100), position 1 the small blind (50) who acts first
    # preflop; position 0 acts first after the flop. Raises are r<chips in over the hand>.
    transcript = [
        "MATCHSTATE:0:0::TdAs|",
        "MATCHSTATE:0:0:r300:TdAs|",
        "MATCHSTATE:0:0:r300c/:TdAs|/2c8c3h",
        "MATCHSTATE:0:0:r300c/r900:TdAs|/2c8c3h",
        "MATCHSTATE:0:0:r300c/r900c/:TdAs|/2c8c3h/9s",
        "MATCHSTATE:0:0:r300c/r900c/c:TdAs|/2c8c3h/9s",
        "MATCHSTATE:0:0:r300c/r900c/cc/:TdAs|/2c8c3h/9s/Kd",
        "MATCHSTATE:0:0:r300c/r900c/cc/r20000:TdAs|/2c8c3h/9s/Kd",
        "MATCHSTATE:0:0:r300c/r900c/cc/r20000c:TdAs|9hQh/2c8c3h/9s/Kd",
        "MATCHSTATE:1:1::|Ah2d",
        "MATCHSTATE:1:1:f:|Ah2d",
    ]
    # Per-street names in pokerlab ("bet 600" on the flop puts 900 in over the hand).
    script = ["call", "bet 600", "check", "bet 19100", "fold"]
    player = AcpcPlayer(NO_LIMIT, ByName(script))
    replies = list(player.play(transcript))
    assert player.faults == []
    assert replies == [
        "MATCHSTATE:0:0:r300:TdAs|:c",
        "MATCHSTATE:0:0:r300c/:TdAs|/2c8c3h:r900",
        "MATCHSTATE:0:0:r300c/r900c/:TdAs|/2c8c3h/9s:c",
        "MATCHSTATE:0:0:r300c/r900c/cc/:TdAs|/2c8c3h/9s/Kd:r20000",
        "MATCHSTATE:1:1::|Ah2d:f",
    ]


def _record(path: Path, hands: int) -> None:
    """Record what our dealer sends one seat (``S-> ``) and the client's replies (``<-C ``)."""
    lines: list[str] = []
    servers = open_seats(2, 0)
    ports = [s.getsockname()[1] for s in servers]

    def recorded(port: int) -> None:
        player = AcpcPlayer(LIMIT, HashAgent(5))
        with socket.create_connection(("127.0.0.1", port)) as sock:
            sock.sendall(VERSION_LINE.encode() + b"\r\n")
            for raw in sock.makefile("r", encoding="ascii"):
                line = raw.rstrip("\r\n")
                lines.append(f"S-> {line}")
                reply = player.answer(line)
                if reply is not None:
                    lines.append(f"<-C {reply}")
                    sock.sendall(reply.encode() + b"\r\n")

    threads = [
        threading.Thread(target=recorded, args=(ports[0],), daemon=True),
        threading.Thread(target=_pokerlab_client(LIMIT, HashAgent(6)), args=(ports[1],)),
    ]
    for thread in threads:
        thread.start()
    seats = accept_seats(servers, ["recorded", "other"], TimeLimits(per_action=5.0))
    try:
        result = run_acpc_match(LIMIT, seats, hands=hands, seed=11)
    finally:
        for seat in seats:
            seat.close()
        for thread in threads:
            thread.join(10)
    assert result.faults == ()
    path.write_text("\n".join(lines) + "\n")


def _replay_transcript(path: Path) -> tuple[list[str], list[str]]:
    sent = [line[4:] for line in path.read_text().splitlines() if line.startswith("S-> ")]
    answered = [line[4:] for line in path.read_text().splitlines() if line.startswith("<-C ")]
    return list(AcpcPlayer(LIMIT, HashAgent(5)).play(sent)), answered


def test_a_transcript_recorded_from_our_dealer_replays_to_the_same_answers() -> None:
    # Recorded once by _record(DATA / "dealer.limit.2p.transcript", 20): 20 hands of
    # holdem.limit.2p.reverse_blinds, the recorded seat changing position every hand.
    replies, answered = _replay_transcript(DATA / "dealer.limit.2p.transcript")
    assert len(answered) > 40
    assert replies == answered


def test_recording_a_fresh_transcript_replays_too(tmp_path: Path) -> None:
    path = tmp_path / "fresh.transcript"
    _record(path, 6)
    replies, answered = _replay_transcript(path)
    assert replies
    assert replies == answered
    assert path.read_text() in (DATA / "dealer.limit.2p.transcript").read_text()


def test_following_only_the_last_state_of_a_hand_in_each_batch_gives_the_same_answers() -> None:
    # The batches a client reads: what the dealer sent between two of the seat's answers.
    batches: list[list[str]] = [[]]
    answered = []
    for line in (DATA / "dealer.limit.2p.transcript").read_text().splitlines():
        if line.startswith("S-> "):
            batches[-1].append(line[4:])
        elif line.startswith("<-C "):
            answered.append(line[4:])
            batches.append([])
    player = AcpcPlayer(LIMIT, HashAgent(5))
    replies = []
    followed = 0
    for batch in batches:
        kept = latest_states(batch)
        followed += len(kept)
        replies.extend(reply for line in kept if (reply := player.answer(line)) is not None)
    assert replies == answered
    assert player.hands == 20
    assert followed < sum(map(len, batches)) * 2 // 3  # most states of a batch were skipped


def test_latest_states_keeps_the_last_state_per_position_and_hand_and_other_lines() -> None:
    lines = [
        "MATCHSTATE:0:7::Ad9d|",
        "MATCHSTATE:0:7:r:Ad9d|",
        "garbage",
        "MATCHSTATE:0:7:rc/:Ad9d|/Ks2s9s",
        "MATCHSTATE:0:7:rc/c:Ad9d|/Ks2s9s",
        "MATCHSTATE:1:8::|7d9h",
        "MATCHSTATE:1:8",
        "MATCHSTATE:1:8:r:|7d9h",
    ]
    assert latest_states(lines) == [
        "MATCHSTATE:0:7:r:Ad9d|",
        "garbage",
        "MATCHSTATE:0:7:rc/c:Ad9d|/Ks2s9s",
        "MATCHSTATE:1:8::|7d9h",
        "MATCHSTATE:1:8",
        "MATCHSTATE:1:8:r:|7d9h",
    ]
    assert latest_states([]) == []


def test_a_failing_agent_answers_the_default_action_and_the_fault_is_kept() -> None:
    class Broken:
        def act(self, observation: Observation) -> int:
            raise RuntimeError("boom")

    player = AcpcPlayer(LIMIT, Broken())
    # Position 1 (small blind) acts first preflop: check is not legal, so it folds.
    assert player.answer("MATCHSTATE:1:0::|9hQd") == "MATCHSTATE:1:0::|9hQd:f"
    assert player.faults[0][1] == "exception"
    assert "boom" in player.faults[0][2]


def test_client_agent_names_builtins_strategies_and_entrants(tmp_path: Path) -> None:
    kuhn = load_acpc_game("kuhn.limit.2p")
    assert client_agent("always-call", kuhn).name
    with pytest.raises(PokerlabError, match=r"unknown built-in agent.*or give a file"):
        client_agent("no-such-agent", kuhn)
    with pytest.raises(PokerlabError, match="the file does not exist"):
        client_agent(str(tmp_path / "missing.npz"), kuhn)
    broken = tmp_path / "broken.py"
    broken.write_text("raise SystemExit('not today')\n")
    with pytest.raises(PokerlabError, match="does not load"):
        client_agent(str(broken), kuhn)
    good = tmp_path / "good.py"
    good.write_text(ENTRANT)
    connection = client_agent(str(good), kuhn)
    try:  # the entrant runs in a process of its own, never in the client's
        assert isinstance(connection, SandboxedAgent)
        assert connection.pid is not None
        assert connection.pid != os.getpid()
        player = AcpcPlayer(kuhn, connection)
        assert player.answer("MATCHSTATE:0:0::Ks|") == "MATCHSTATE:0:0::Ks|:r"
    finally:
        connection.close()
    assert "good" not in " ".join(sys.modules)


ENTRANT = """
class Agent:
    def __init__(self, game):
        self.name = "entrant"

    def act(self, observation):
        names = observation.action_names
        wanted = "raise" if "raise" in names else "bet" if "bet" in names else "call"
        return observation.legal_actions[names.index(wanted) if wanted in names else 0]
"""


def _cli(*args: str) -> list[str]:
    return [sys.executable, "-m", "pokerlab.cli", "acpc", *args]


@pytest.mark.slow
def test_the_cli_plays_a_strategy_file_against_a_sandboxed_entrant_on_a_gamedef_file(
    tmp_path: Path,
) -> None:
    from pokerlab.protocols.acpc_gamedef import standard_gamedef
    from pokerlab.solvers import CFRPlus

    gamedef = tmp_path / "kuhn.game"
    gamedef.write_text(standard_gamedef("kuhn.limit.2p"))
    game = load_acpc_game(str(gamedef))
    strategy = tmp_path / "kuhn.npz"
    CFRPlus(game).run(iterations=50).average_strategy().save(strategy)
    entrant = tmp_path / "entrant.py"
    entrant.write_text(ENTRANT)
    log = tmp_path / "match.log"
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])}
    dealer = subprocess.Popen(
        _cli("dealer", str(gamedef), "solver", "entrant", "--hands", "40", "--port-base", "0",
             "--log", str(log), "--seed", "3"),
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
    )  # fmt: skip
    assert dealer.stdout is not None
    ports = dealer.stdout.readline().split()
    clients = [
        subprocess.Popen(
            _cli("client", str(gamedef), "127.0.0.1", port, "--agent", agent),
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
        )
        for port, agent in zip(ports, [str(strategy), str(entrant)], strict=True)
    ]  # fmt: skip
    out, err = dealer.communicate(timeout=120)
    client_errors = [c.communicate(timeout=60)[1] for c in clients]
    assert dealer.returncode == 0, err
    # standard output is the reference dealer's two lines: the ports, then SCORE: (a harness
    # like its play_match.pl reads the second); each seat's summary goes to standard error
    (score,) = out.splitlines()  # after the ports line read above
    assert score.startswith("SCORE:")
    assert "solver:" in err
    assert "entrant:" in err
    assert all("played 40 hands" in e for e in client_errors), client_errors
    states = [line for line in log.read_text().splitlines() if line.startswith("STATE:")]
    assert len(states) == 40
    lines = log.read_text().splitlines()
    assert not any(line.startswith("# hand") for line in lines)  # no fault
    assert lines[-2].startswith("# seed 3 ")  # the deal seed, written once the match is over
    assert "deal seed 3 (replay with --seed 3)" in err
    # the log is the reference dealer's: header, hands, SCORE (printed too), read back
    written = read_acpc_log(log)
    assert (written.match, written.game, written.hands, written.seed) == (
        "match", str(gamedef), 40, 3)
    assert written.limits == {"t_response": 10000}
    assert written.totals is not None
    assert f"SCORE:{'|'.join(format_chips(written.totals[n]) for n in ('solver', 'entrant'))}" \
        f":solver|entrant" in out
    for name in ("solver", "entrant"):
        assert written.totals[name] == sum(r[name] for r in written.results)
    # the entrant always raises or bets when it can: every hand it opens has an r
    opened = [s for s in states if s.split(":")[-1].split("|")[0] == "entrant"]
    assert opened
    assert all(s.split(":")[2].startswith("r") for s in opened)


TRACKED_GAMES = pytest.mark.parametrize(
    "game",
    [LIMIT, NO_LIMIT, load_acpc_game("holdem.limit.3p"), load_acpc_game("leduc.limit.2p")],
    ids=["limit", "no-limit", "limit-3p", "leduc"],
)
"""The games the tracker's fast paths are compared on with a full parse."""


def _full_parse(game, line: str) -> object:  # type: ignore[no-untyped-def]
    """What a full parse of ``line`` gives: ``(position, hand, history)`` or its error."""
    from pokerlab.errors import IllegalActionError, ProtocolError
    from pokerlab.play.acpc_matchstate import parse_matchstate, state_from_matchstate

    try:
        message = parse_matchstate(line)
        return (message.position, message.hand_number,
                state_from_matchstate(game, message).history)  # fmt: skip
    except (ProtocolError, IllegalActionError) as error:
        return type(error), str(error)


def _table_texts(game, hands: int, seed: int) -> list[list[str]]:  # type: ignore[no-untyped-def]
    """What our dealer's table sends each agent over ``hands`` hands of HashAgents."""
    from pokerlab.eval.matches import iter_hands
    from pokerlab.play.acpc_seat import AcpcTable

    class Sink:
        def __init__(self) -> None:
            self.name, self.hand_seconds, self.table = "sink", 0.0, None
            self.texts: list[str] = []

        def deliver(self, text: str) -> None:
            self.texts.append(text)

    sinks = [Sink() for _ in range(game.n_players)]
    agents = [HashAgent(i) for i in range(game.n_players)]
    table = AcpcTable(sinks)  # type: ignore[arg-type]
    for _ in iter_hands(game, agents, hands=hands, seed=seed, duplicate=False, listeners=[table]):
        pass
    return [sink.texts for sink in sinks]


@TRACKED_GAMES
def test_the_trackers_fast_path_gives_the_states_of_a_full_parse(game) -> None:  # type: ignore[no-untyped-def]
    from pokerlab.play.acpc_matchstate import (
        MatchStateTracker,
        parse_matchstate,
        state_from_matchstate,
    )

    for texts in _table_texts(game, 40, 2):
        tracker = MatchStateTracker(game)
        loose = MatchStateTracker(game)
        for line in texts:
            position, hand, state = tracker.follow(line)
            message = parse_matchstate(line)
            assert (position, hand) == (message.position, message.hand_number)
            assert state.history == state_from_matchstate(game, message).history
            assert tracker.public_history == state.public_history()
            # without exact showdowns: the same betting, the same end, maybe other cards
            _, _, rough = loose.follow(line, exact_showdown=False)
            assert rough.player == state.player
            assert rough.betting == state.betting
            assert loose.public_history == tracker.public_history


@TRACKED_GAMES
def test_a_hand_first_read_at_any_of_its_states_or_mangled_reads_as_a_full_parse(game) -> None:  # type: ignore[no-untyped-def]
    # A client that skips states (latest_states) first reads a hand at any of its states:
    # that first line takes the tracker's new-hand path, which must give the full parse's
    # state, and for a damaged line the full parse's error.
    import random

    from pokerlab.errors import IllegalActionError, ProtocolError
    from pokerlab.play.acpc_matchstate import MatchStateTracker

    def full(line: str) -> object:
        return _full_parse(game, line)

    def tracked(tracker: MatchStateTracker, line: str) -> object:
        try:
            position, hand, state = tracker.follow(line)
            return position, hand, state.history
        except (ProtocolError, IllegalActionError) as error:
            return type(error), str(error)

    rng = random.Random(5)
    for texts in _table_texts(game, 30, 3):
        tracker = MatchStateTracker(game)
        hands: dict[str, list[str]] = {}
        for line in texts:
            hands.setdefault(line.split(":")[2], []).append(line)
        for lines in hands.values():
            first = rng.randrange(len(lines))
            for line in lines[first:]:
                assert tracked(tracker, line) == full(line), line
            line = lines[first]
            at = rng.randrange(len(line))
            for mangled in (line[:at] + line[at + 1 :], line[:at] + "Z" + line[at:],
                            line[:at] + line[at - 1 : at] + line[at:]):  # fmt: skip
                other = MatchStateTracker(game)
                assert tracked(other, mangled) == full(mangled), mangled


@TRACKED_GAMES
def test_a_damaged_next_state_reads_as_a_full_parse(game) -> None:  # type: ignore[no-untyped-def]
    # The tracker reads a line that extends the last one through its own suffix parser
    # (board cards by lookup, sizeless betting letter by letter): for a next line damaged
    # anywhere (a character dropped, doubled or replaced by one of the protocol's), what
    # it gives must be what a full parse gives, its state or its error.
    import random

    from pokerlab.errors import IllegalActionError, ProtocolError
    from pokerlab.play.acpc_matchstate import MatchStateTracker

    def full(line: str) -> object:
        return _full_parse(game, line)

    rng = random.Random(11)
    alphabet = "cfkr0123456789/|:AKQJT98765432shdcxZ"
    for texts in _table_texts(game, 25, 4):
        for k in range(1, len(texts)):
            line = texts[k]
            at = rng.randrange(len(line))
            for damaged in (line[:at] + line[at + 1 :], line[:at] + line[at - 1 : at] + line[at:],
                            line[:at] + rng.choice(alphabet) + line[at + 1 :],
                            line + rng.choice(alphabet)):  # fmt: skip
                tracker = MatchStateTracker(game)
                tracker.follow(texts[k - 1])  # a good line first: the damaged one may extend it
                try:
                    position, hand, state = tracker.follow(damaged)
                    got: object = (position, hand, state.history)
                except (ProtocolError, IllegalActionError) as error:
                    got = type(error), str(error)
                assert got == full(damaged), (texts[k - 1], damaged)


def test_a_numpy_integer_answer_is_an_action_and_a_string_is_illegal() -> None:
    import numpy as np

    class Numpy:
        def act(self, observation: Observation) -> object:
            return np.int64(observation.legal_actions[1])  # call

    class Text:
        def act(self, observation: Observation) -> object:
            return "call"

    numpy_player = AcpcPlayer(LIMIT, Numpy())
    assert numpy_player.answer("MATCHSTATE:1:0::|9hQd") == "MATCHSTATE:1:0::|9hQd:c"
    assert numpy_player.faults == []
    text_player = AcpcPlayer(LIMIT, Text())
    assert text_player.answer("MATCHSTATE:1:0::|9hQd") == "MATCHSTATE:1:0::|9hQd:f"
    assert text_player.faults[0][1] == "illegal"


SENT = [
    line[4:]
    for line in (DATA / "dealer.limit.2p.transcript").read_text().splitlines()
    if line.startswith("S-> ")
]


@given(
    st.lists(
        st.tuples(
            st.integers(0, len(SENT) - 1),
            st.integers(0, 200),
            st.sampled_from(["", "/", ":", "|", "r", "c", "f", "r1", "Kd", "As", "9", "x", "//"]),
            st.integers(0, 3),
        ),
        max_size=25,
    )
)
@settings(max_examples=150, deadline=None)
def test_the_tracker_reads_mutated_lines_without_crashing_and_recovers(edits) -> None:  # type: ignore[no-untyped-def]
    from pokerlab.errors import ProtocolError
    from pokerlab.play.acpc_matchstate import (
        MatchStateTracker,
        parse_matchstate,
        state_from_matchstate,
    )

    tracker = MatchStateTracker(LIMIT)
    for index, at, text, cut in edits:
        line = SENT[index]
        at = min(at, len(line))
        mutated = line[:at] + text + line[at + cut :]
        with contextlib.suppress(ProtocolError):
            tracker.follow(mutated)
        # whatever came before, a good line gives its own state
        good = SENT[(index + 1) % len(SENT)]
        _, _, state = tracker.follow(good)
        assert state.history == state_from_matchstate(LIMIT, parse_matchstate(good)).history
