"""The tutorial's drawings: game trees (Kuhn, a Leduc subtree), regret-matching runs, RPS."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from pokerlab.errors import PokerlabError
from pokerlab.games import kuhn, leduc
from pokerlab.studies import rm_runs, rps_dynamics
from pokerlab.studies.es_walkthrough import regret_trace_figure, walkthrough
from pokerlab.studies.tree_drawing import draw_tree, layout
from pokerlab.tree import compile

PNG = b"\x89PNG\r\n\x1a\n"


def test_kuhn_tree_layout_is_the_whole_game() -> None:
    tree = layout(kuhn())
    assert len(tree.nodes) == compile(kuhn()).n_histories == 58
    assert sum(n.kind == "terminal" for n in tree.nodes) == 30
    assert sum(n.kind == "chance" for n in tree.nodes) == 4
    # 12 infosets of 2 histories each: 12 dashed links.
    assert len(tree.infoset_links) == 12
    for a, b in tree.infoset_links:
        assert tree.nodes[a].infoset == tree.nodes[b].infoset
    # Parents sit above and between their children.
    for node in tree.nodes[1:]:
        assert tree.nodes[node.parent].depth == node.depth - 1
    payoffs = sorted({n.label for n in tree.nodes if n.kind == "terminal"})
    assert payoffs == ["+1", "+2", "-1", "-2"]


def test_leduc_subtree_first_round() -> None:
    tree = layout(leduc(), actions=(0, 3), max_depth=3)
    assert tree.nodes[0].kind == "P1"
    assert tree.nodes[0].infoset == "Q|"
    # First round: check/bet, P2 answers (check/bet or fold/call/raise), at most one re-raise.
    kinds = [n.kind for n in tree.nodes]
    assert kinds.count("terminal") == 3  # the folds of the first round within depth 3
    assert "P2" in kinds
    assert "cut" in kinds
    with pytest.raises(PokerlabError, match="more than 20 nodes"):
        layout(leduc(), actions=(0, 3), max_nodes=20)


def test_drawings_are_images(tmp_path: Path) -> None:
    kuhn_png = draw_tree(layout(kuhn()), str(tmp_path / "kuhn.png"))
    assert Path(kuhn_png).read_bytes()[:8] == PNG
    paths = rm_runs.paper_trajectories(5, 60, seed=0)
    assert paths.shape == (5, 60)
    np.testing.assert_array_equal(
        rm_runs.learning_times(5, 60, seed=0),
        np.where((paths >= 0.99).any(axis=1), (paths >= 0.99).argmax(axis=1) + 1, 0),
    )
    rm_png = rm_runs.runs_figure(paths, str(tmp_path / "rm.png"))
    rps_png = rps_dynamics.dynamics_figure(
        [rps_dynamics.run_dynamics(v, 50) for v in rps_dynamics.VARIANTS], str(tmp_path / "rps.png")
    )
    trace_png = regret_trace_figure(walkthrough(30, checkpoints=[30]), str(tmp_path / "es.png"))
    for path in (rm_png, rps_png, trace_png):
        assert Path(path).read_bytes()[:8] == PNG
    assert not list(tmp_path.glob(".*"))  # no temporary file left behind
