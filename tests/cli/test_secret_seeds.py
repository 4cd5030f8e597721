"""Secret deals by default: ``match``, ``arena check-agent`` and ``play`` draw a fresh seed.

Without ``--seed`` each run draws its own seed from the operating system (two runs deal
different cards), reports it once the run is over, and ``--seed`` with that value replays
the run exactly. What an agent receives (its ``seed()`` hook, its own generator) comes
from keyed streams: neither the run's seed nor ``seed + k``.
"""

from __future__ import annotations

import io
import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest

from pokerlab.cli import main
from pokerlab.eval.matches import agent_seed
from pokerlab.play.deals import SEED_BITS

_HOOK_BOT = """\
import json


class Agent:
    def seed(self, value):
        with open({path!r}, "a") as out:
            out.write(json.dumps(value) + "\\n")

    def act(self, observation):
        return observation.legal_actions[0]
"""


def _spy_match(monkeypatch: pytest.MonkeyPatch, module: str) -> list[tuple[int, list[Any]]]:
    """Record ``(seed, every hand's history)`` of each ``play_match`` that ``module`` calls."""
    import importlib

    target = importlib.import_module(module)
    real = target.play_match
    seen: list[tuple[int, list[Any]]] = []

    def spy(*args: Any, **options: Any) -> Any:
        result = real(*args, **options)
        seen.append((options["seed"], [r.history for r in result.hands]))
        return result

    monkeypatch.setattr(target, "play_match", spy)
    return seen


def _match_json(capsys: pytest.CaptureFixture[str], *options: str) -> dict[str, Any]:
    assert main(["match", "kuhn", "random", "rule-based", "--hands", "30", "--json",
                 *options]) == 0
    data: dict[str, Any] = json.loads(capsys.readouterr().out)
    return data


def test_match_draws_a_secret_seed_reports_it_and_replays_with_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    seen = _spy_match(monkeypatch, "pokerlab.eval")
    first, second = _match_json(capsys), _match_json(capsys)
    assert first["seed"] != second["seed"]  # a fresh seed each run
    assert [s for s, _ in seen] == [first["seed"], second["seed"]]  # the one played, reported
    assert max(first["seed"], second["seed"]) >= 2 ** (SEED_BITS // 2)  # random, not a count
    assert seen[0][1] != seen[1][1]  # different deals
    again = _match_json(capsys, "--seed", str(first["seed"]))
    assert again == first  # the reported seed replays the match
    assert seen[2] == seen[0]  # hand by hand


def test_match_table_output_names_the_seed(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["match", "kuhn", "random", "always-call", "--hands", "10", "--no-aivat"]) == 0
    err = capsys.readouterr().err
    found = re.search(r"deal seed (\d+) \(replay with --seed \1\)", err)
    assert found is not None, err
    assert int(found.group(1)) > 0


def test_match_agents_get_keyed_seeds_never_the_deal_seed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import pokerlab.cli.match as match_cli

    given: list[Any] = []
    real = match_cli.resolve_entrant

    def spy(text: str, game: Any, **options: Any) -> Any:
        given.append(options["seed"])
        return real(text, game, **options)

    monkeypatch.setattr(match_cli, "resolve_entrant", spy)
    values = tmp_path / "hook.jsonl"
    bot = tmp_path / "hooked.py"
    bot.write_text(_HOOK_BOT.format(path=str(values)))
    assert main(["match", "kuhn", str(bot), "random", "--hands", "20", "--json",
                 "--unsafe-in-process"]) == 0
    seed = json.loads(capsys.readouterr().out)["seed"]
    hooks = [json.loads(line) for line in values.read_text().splitlines()]
    assert len(hooks) == 40  # 20 hands in each seat
    near = {seed + k for k in range(-100, 101)}
    for value in (*hooks, *given):
        assert value not in near  # neither the seed nor seed + k
        assert 0 <= value < 2**64
    assert len(set(hooks)) == len(hooks)  # a new value every hand
    # the hook values are the keyed stream of (hand, agent), independent of the cards
    assert hooks == [agent_seed(seed, hand, 0) for hand in range(40)]
    assert len(set(given)) == 2


def test_check_agent_draws_a_secret_seed_and_replays_with_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    seen = _spy_match(monkeypatch, "pokerlab.testing.agents")
    bot = tmp_path / "caller.py"
    bot.write_text("class Agent:\n    def act(self, o):\n        return o.legal_actions[-1]\n")
    command = ["arena", "check-agent", str(bot), "--game", "kuhn", "--hands", "20", "--json"]
    reports = []
    for extra in ([], [], None):
        extra = extra if extra is not None else ["--seed", str(reports[0]["seed"])]
        assert main([*command, *extra]) == 0
        reports.append(json.loads(capsys.readouterr().out))
    first, second, again = reports
    assert first["seed"] != second["seed"]
    assert seen[0][1] != seen[1][1]  # different deals
    assert [s for s, _ in seen] == [r["seed"] for r in reports]
    assert seen[2] == seen[0]  # replayed hand by hand
    for key in ("hands", "decisions", "mean_chips", "ok", "problems"):
        assert again[key] == first[key]
    assert main(command[:-1]) == 0  # the human report names the seed too
    assert re.search(r"deal seed \d+ \(replay with --seed \d+\)", capsys.readouterr().out)


def _play_kuhn(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
               *options: str) -> tuple[int, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO("c\n" * 60))
    assert main(["play", "kuhn", "--opponent", "random", "--hands", "12", *options]) == 0
    out = capsys.readouterr().out
    found = re.search(r"Deal seed (\d+) \(replay these deals with --seed \1\)", out)
    assert found is not None, out
    return int(found.group(1)), out


def test_play_draws_a_secret_seed_shows_it_at_the_end_and_replays(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    one, first = _play_kuhn(monkeypatch, capsys)
    two, second = _play_kuhn(monkeypatch, capsys)
    assert one != two
    assert first.rfind("Deal seed") > first.rfind("After 12 hands")  # once it is over
    cards = re.compile(r"Cards: .*")
    assert cards.findall(first) != cards.findall(second)  # different deals
    same, replayed = _play_kuhn(monkeypatch, capsys, "--seed", str(one))
    assert (same, replayed) == (one, first)  # the same deals, and the same AI


@pytest.mark.parametrize("command", [["match"], ["arena", "check-agent"], ["play", "kuhn"],
                                     ["play", "holdem"], ["acpc", "dealer"], ["arena", "run"]],
                         ids=" ".join)
def test_the_seed_help_warns_that_a_known_seed_predicts_the_cards(
    command: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    assert main([*command, "--help"]) == 0
    flat = re.sub(r"[\s│]", "", capsys.readouterr().out)  # the help, wrapped in a box
    assert "secretseed" in flat or "secretone" in flat
    assert "predictthecards" in flat
