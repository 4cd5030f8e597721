from __future__ import annotations

import pytest

from pokerlab.agents import AgentLoadError, load_agent, load_agent_class
from pokerlab.games import kuhn

GOOD = """
class Agent:
    def __init__(self, game):
        self.game = game

    def act(self, observation):
        return observation.legal_actions[0]
"""


def test_load_a_good_file(tmp_path) -> None:
    path = tmp_path / "bot.py"
    path.write_text(GOOD)
    agent = load_agent(path, kuhn())
    assert agent.game == kuhn()
    assert agent.name == "bot"


def test_two_entrants_with_the_same_file_name(tmp_path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    (tmp_path / "a" / "bot.py").write_text(GOOD)
    (tmp_path / "b" / "bot.py").write_text(GOOD.replace("[0]", "[-1]"))
    first = load_agent_class(tmp_path / "a" / "bot.py")
    second = load_agent_class(tmp_path / "b" / "bot.py")
    assert first is not second


def test_no_argument_constructor(tmp_path) -> None:
    path = tmp_path / "plain.py"
    path.write_text("class Agent:\n    def act(self, observation):\n        return 0\n")
    assert load_agent(path, kuhn()).act(None) == 0


@pytest.mark.parametrize(
    ("source", "fragment"),
    [
        ("def broken(:\n", "SyntaxError"),
        ("raise RuntimeError('no luck')\n", "RuntimeError: no luck"),
        ("import a_module_that_does_not_exist\n", "ModuleNotFoundError"),
        ("x = 1\n", "no class named 'Agent'"),
        ("class Agent:\n    pass\n", "no act"),
        ("class Agent:\n    def __init__(self, game):\n        raise ValueError('bad')\n"
         "    def act(self, o):\n        return 0\n", "ValueError: bad"),
    ],
)
def test_a_broken_file_names_the_path_and_the_error(tmp_path, source: str, fragment: str) -> None:
    path = tmp_path / "broken.py"
    path.write_text(source)
    with pytest.raises(AgentLoadError) as info:
        load_agent(path, kuhn())
    assert str(path) in str(info.value)
    assert fragment in str(info.value)


def test_a_missing_file(tmp_path) -> None:
    with pytest.raises(AgentLoadError, match="no such file"):
        load_agent(tmp_path / "nope.py", kuhn())
