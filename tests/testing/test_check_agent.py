from __future__ import annotations

from pokerlab.games import kuhn, leduc
from pokerlab.testing import check_agent

GOOD = """
class Agent:
    def __init__(self, game):
        self.game = game

    def act(self, observation):
        return observation.legal_actions[-1]
"""

CLUMSY = """
class Agent:
    def act(self, observation):
        if observation.infoset_key.endswith("c"):
            raise KeyError(observation.infoset_key)
        return 2  # a raise: illegal once two raises were made
"""


def test_a_good_entrant_passes(tmp_path) -> None:
    path = tmp_path / "good.py"
    path.write_text(GOOD)
    report = check_agent(path, leduc(), hands=200)
    assert report.ok, report.problems
    assert report.hands == 200
    assert report.decisions > 200
    assert report.mean_seconds >= 0
    assert "ok" in str(report)


def test_a_clumsy_entrant_is_reported_in_plain_words(tmp_path) -> None:
    path = tmp_path / "clumsy.py"
    path.write_text(CLUMSY)
    report = check_agent(path, leduc(), hands=200)
    assert not report.ok
    text = "\n".join(report.problems)
    assert "raised an exception" in text
    assert "KeyError" in text
    assert "returned an illegal action" in text
    assert str(path) in str(report)


def test_a_file_that_does_not_import(tmp_path) -> None:
    path = tmp_path / "broken.py"
    path.write_text("import nothing_here\n")
    report = check_agent(path, kuhn())
    assert not report.ok
    assert report.hands == 0
    assert str(path) in report.problems[0]
    assert "ModuleNotFoundError" in report.problems[0]
