"""The dealer is the only loop that plays hands between agents (docs/architecture.md).

A hand loop is a ``while`` over a state until it is terminal. The dealer
(``play/dealer.py``) has the one that deals to agents; the two others walk inside one
algorithm's own head (a Q-learning episode on the compiled tree, a search rollout), deal
no hand to anyone and are listed by name. Evaluators (LBR among them) play through the
dealer: :func:`pokerlab.eval.lbr.run_lbr` calls ``deal_hand`` once per hand.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import pokerlab
from pokerlab.eval import lbr as lbr_module
from pokerlab.games.holdem import holdem
from pokerlab.strategy.policy import FunctionPolicy

ROOT = Path(pokerlab.__file__).parent
INSIDE_ONE_ALGORITHM = {"solvers/q_learning.py", "studies/determinized_mcts.py"}


def _loops_to_terminal(tree: ast.AST) -> int:
    loops = 0
    for node in ast.walk(tree):
        if isinstance(node, ast.While):
            text = ast.unparse(node.test)
            if "TERMINAL" in text or "is_terminal" in text:
                loops += 1
    return loops


def test_only_the_dealer_loops_over_hands() -> None:
    found = {
        str(path.relative_to(ROOT)): n
        for path in sorted(ROOT.rglob("*.py"))
        if (n := _loops_to_terminal(ast.parse(path.read_text())))
    }
    assert found.pop("play/dealer.py") == 1
    assert set(found) == INSIDE_ONE_ALGORITHM


def test_lbr_plays_every_hand_through_the_dealer(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []
    real = lbr_module.deal_hand

    def counting(*args, **kwargs):  # type: ignore[no-untyped-def]
        calls.append(kwargs["hand"])
        return real(*args, **kwargs)

    monkeypatch.setattr(lbr_module, "deal_hand", counting)
    game = holdem(betting="limit")
    fold = FunctionPolicy(game, lambda o: {o.legal_actions[0]: 1.0}, name="fold")
    result = lbr_module.run_lbr(game, fold, 6, seed=1)
    assert calls == list(range(6))
    assert result.hands == 6
