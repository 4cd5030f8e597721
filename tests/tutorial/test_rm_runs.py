"""Section 3: regret matching against (0.4, 0.3, 0.3) over many sampled runs, fast and slow."""

from __future__ import annotations

import numpy as np
import pytest

from pokerlab.errors import PokerlabError
from pokerlab.studies.rm_runs import learning_times


def test_every_run_learns_paper_some_fast_some_slow() -> None:
    times = learning_times(100, 1000, seed=0)
    assert (times > 0).all()  # every run reaches always-Paper within 1000 plays
    # measured (200 runs): fastest 2 plays, median 17.5, slowest 853
    assert times.min() <= 5
    assert times.max() > 20 * times.min()
    assert np.median(times) < times.max()


def test_runs_replay_by_seed() -> None:
    together = learning_times(5, 300, seed=7)
    alone = learning_times(1, 300, seed=9)
    assert together[2] == alone[0]


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(PokerlabError, match="at least 1"):
        learning_times(0, 10)
    with pytest.raises(PokerlabError, match="threshold"):
        learning_times(1, 10, threshold=1.5)
