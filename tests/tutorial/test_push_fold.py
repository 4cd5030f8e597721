"""The tutorial's simple all-in game (section 3): push/fold solved, checked against the LP."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from pokerlab.errors import PokerlabError
from pokerlab.solvers import solve_zero_sum
from pokerlab.studies.push_fold import solve_push_fold, value_and_exploitability


@pytest.mark.parametrize(("cards", "stack"), [(3, 10.0), (4, 3.0), (5, 6.0), (6, 2.5)])
def test_cfr_plus_value_matches_the_normal_form_lp(cards: int, stack: float) -> None:
    # Independent check: every pure push set against every pure call set, solved by LP.
    pures = [np.array(bits, dtype=np.float64) for bits in itertools.product((0, 1), repeat=cards)]
    A = np.array([[value_and_exploitability(p, c, stack)[0] for c in pures] for p in pures])
    solved = solve_push_fold(cards, stack, iterations=3000)
    assert solved.value == pytest.approx(solve_zero_sum(A).value, abs=1e-4)
    assert solved.exploitability < 1e-4


def test_deeper_stacks_push_and_call_tighter() -> None:
    shallow, deep = solve_push_fold(13, 3.0), solve_push_fold(13, 20.0)
    assert deep.push.sum() < shallow.push.sum()
    assert deep.call.sum() < shallow.call.sum()
    assert shallow.exploitability < 1e-3
    assert deep.exploitability < 1e-3
    # the best card always pushes and always calls
    assert deep.push[-1] == pytest.approx(1.0)
    assert deep.call[-1] == pytest.approx(1.0)


def test_a_non_equilibrium_profile_is_exploitable() -> None:
    always = np.ones(13)
    never = np.zeros(13)
    _, exploit = value_and_exploitability(always, never, 10.0)
    assert exploit > 0.5  # P2 should call with its good cards; P1 gets away with 1 a hand


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(PokerlabError, match="cards"):
        solve_push_fold(1)
    with pytest.raises(PokerlabError, match="stack"):
        solve_push_fold(13, 0.5)
    with pytest.raises(PokerlabError, match="iterations"):
        solve_push_fold(13, 10.0, iterations=0)
