"""The ACPC log as the reference dealer writes it: header, STATE lines, SCORE, read back."""

from __future__ import annotations

from pathlib import Path

import pytest

from pokerlab.errors import FileFormatError
from pokerlab.interop.phh_sources import acpc_log_batch
from pokerlab.play.acpc_matchstate import format_chips
from pokerlab.play.acpc_seat import TimeLimits
from pokerlab.protocols.acpc_dealer import run_acpc_match
from pokerlab.protocols.acpc_gamedef import load_acpc_game
from pokerlab.protocols.acpc_log import log_header, read_acpc_log, score_line
from tests.protocols.test_acpc_dealer import HashAgent, _pokerlab_client, _raw_client, _serve

LIMIT = load_acpc_game("holdem.limit.2p.reverse_blinds")


@pytest.mark.parametrize(
    ("value", "text"),
    [(10, "10"), (-2.5, "-2.5"), (0, "0"), (1234567, "1234567"), (0.125, "0.125"),
     (1 / 3, "0.333333"), (-120.0, "-120")],
)  # fmt: skip
def test_chips_are_written_as_the_reference_prints_them(value: float, text: str) -> None:
    # %.6f less trailing zeros: never an exponent (%g wrote 1234567 as 1.23457e+06)
    assert format_chips(value) == text


def test_the_header_gives_the_match_game_hands_seed_and_limits_in_milliseconds() -> None:
    assert log_header("m1", "holdem.limit.2p.reverse_blinds", 1000, 7,
                      TimeLimits(1.5, 30.0, 600.0)) == [
        "# name/game/hands/seed m1 holdem.limit.2p.reverse_blinds 1000 7",
        "#--t_response 1500",
        "#--t_hand 30000",
        "#--t_per_hand 600",
    ]  # fmt: skip
    # limits pokerlab does not set have no line; spaces would split the header's fields
    assert log_header("a b", "holdem(betting='limit', stack=100)", 5, 0,
                      TimeLimits(None)) == [
        "# name/game/hands/seed ab holdem(betting='limit',stack=100) 5 0"]  # fmt: skip
    assert score_line([12.5, -12.5], ["alice", "bob"]) == "SCORE:12.5|-12.5:alice|bob"


def test_a_dealt_log_reads_back_with_the_score_the_sum_of_its_hands(tmp_path: Path) -> None:
    log = tmp_path / "duel.log"
    result = _serve(
        LIMIT,
        [_pokerlab_client(LIMIT, HashAgent(3)), _pokerlab_client(LIMIT, HashAgent(4))],
        hands=60, seed=11, log_path=log, limits=TimeLimits(5.0, 20.0, 120.0),
    )  # fmt: skip
    written = read_acpc_log(log)
    assert (written.match, written.game, written.hands, written.seed) == (
        "duel", str(LIMIT.spec).replace(" ", ""), 60, 11)
    assert written.limits == {"t_response": 5000, "t_hand": 20000, "t_per_hand": 2000}
    assert len(written.states) == 60
    assert written.totals == {"p0": result.chips[0], "p1": result.chips[1]}
    for name in ("p0", "p1"):
        assert sum(r[name] for r in written.results) == written.totals[name]
    assert log.read_text().splitlines()[-1].startswith("SCORE:")
    # the PHH export (hands export --acpc-log) replays every hand to the line's results
    batch = acpc_log_batch(log, LIMIT)
    assert batch.count == 60
    assert sorted(p.name for p in tmp_path.iterdir()) == ["duel.log"]  # nothing left beside


def test_a_log_with_faults_keeps_its_comments_and_still_scores(tmp_path: Path) -> None:
    log = tmp_path / "faults.log"
    result = _serve(
        LIMIT, [_raw_client("illegal"), _pokerlab_client(LIMIT, HashAgent(1))],
        hands=5, seed=2, log_path=log,
    )  # fmt: skip
    lines = log.read_text().splitlines()
    assert any(line.startswith("# hand ") for line in lines)
    written = read_acpc_log(log)
    assert written.totals == {"p0": result.chips[0], "p1": result.chips[1]}


def test_an_interrupted_match_leaves_a_log_without_its_score(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = tmp_path / "cut.log"
    played: list[object] = []

    class StopError(Exception):
        pass

    def stop_after_three(record: object) -> None:
        played.append(record)
        if len(played) == 3:
            raise StopError

    def run(game, seats, *, hands, seed, log_path=None):  # type: ignore[no-untyped-def]
        return run_acpc_match(game, seats, hands=hands, seed=seed, log_path=log_path,
                              on_hand=stop_after_three)

    monkeypatch.setattr("tests.protocols.test_acpc_dealer.run_acpc_match", run)
    clients = [_pokerlab_client(LIMIT, HashAgent(1)), _pokerlab_client(LIMIT, HashAgent(2))]
    with pytest.raises(StopError):
        _serve(LIMIT, clients, hands=50, seed=4, log_path=log)
    written = read_acpc_log(log)
    assert written.hands == 50
    assert len(written.states) == 3
    assert written.totals is None
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cut.log"]


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("SCORE:1|-1:a|b\nSTATE:0:cc/cc/cc/cc:9s8h|Ks5c/6c2dTd/Kh/2s:0|0:a|b\n",
         "after the SCORE: line"),
        ("SCORE:1|x:a|b\n", "are not chip counts"),
        ("SCORE:1|-1:a\n", "do not pair"),
        ("# name/game/hands/seed m g ten 0\n", "is not"),
        ("hello\n", "not a line of an ACPC log"),
    ],
)
def test_a_malformed_log_names_its_line(tmp_path: Path, text: str, words: str) -> None:
    log = tmp_path / "bad.log"
    log.write_text(text)
    with pytest.raises(FileFormatError, match=words) as error:
        read_acpc_log(log)
    assert "bad.log:" in str(error.value)


def test_a_reference_log_reads_with_its_comments(tmp_path: Path) -> None:
    # as project_acpc_server's dealer writes one (its defaults: 600 s a response and a hand)
    log = tmp_path / "ref.log"
    log.write_text(
        "# name/game/hands/seed ref holdem.limit.2p.reverse_blinds.game 2 9\n"
        "#--t_response 600000\n#--t_hand 600000\n#--t_per_hand 7000\n"
        "STATE:0:cc/cc/cc/cc:9s8h|Ks5c/6c2dTd/Kh/2s:-40|40:a|b\n"
        "STATE:1:f:7d6d|Ac2h:-5|5:b|a\n"
        "SCORE:-35|35:a|b\n"
    )  # fmt: skip
    written = read_acpc_log(log)
    assert written.limits == {"t_response": 600000, "t_hand": 600000, "t_per_hand": 7000}
    assert written.results == ({"a": -40.0, "b": 40.0}, {"b": -5.0, "a": 5.0})
    assert written.totals == {"a": -35.0, "b": 35.0}


def test_the_hands_wait_in_a_private_new_file_never_a_planted_one(tmp_path: Path) -> None:
    # An attack review: "<log>.tmp" was opened with the default mode (0644: every hole
    # card readable by any local user during the match) and through a planted link (a
    # victim file was overwritten with the hands)
    import os
    import stat

    from pokerlab.protocols.acpc_log import AcpcLogWriter

    victim = tmp_path / "victim.txt"
    victim.write_text("keep me\n")
    log = tmp_path / "match.log"
    (tmp_path / "match.log.tmp").symlink_to(victim)
    writer = AcpcLogWriter(log)
    writer("STATE:0:cc/cc/cc/cc:Ah9s|KdQd/2c3c4c/5c/6c:0|0:a|b")
    during = [p for p in tmp_path.iterdir() if p.name not in {"victim.txt", "match.log.tmp"}]
    assert len(during) == 1
    assert during[0].name.startswith(".match.log.")
    assert not during[0].is_symlink()
    assert stat.S_IMODE(os.stat(during[0]).st_mode) == 0o600
    writer.close(["# header"], ["SCORE:0|0:a|b"])
    assert victim.read_text() == "keep me\n"
    assert log.read_text().splitlines()[1].startswith("STATE:0:")
    assert not during[0].exists()


@pytest.mark.parametrize("text", ["", "\n\n", "# a comment only\n"])
def test_a_file_with_no_line_of_a_log_is_refused(tmp_path: Path, text: str) -> None:
    log = tmp_path / "empty.log"
    log.write_text(text)
    with pytest.raises(FileFormatError, match="holds no line of an ACPC log"):
        read_acpc_log(log)
