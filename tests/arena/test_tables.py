"""Tables of any size: 3-player Kuhn and Leduc tournaments, 6-max Hold'em between built-ins."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import numpy as np
import pytest

from pokerlab.agents import PolicyAgent, make_agent
from pokerlab.arena import ArenaStore, builtin_entrants, leaderboard, run_tournament
from pokerlab.eval.matches import play_match
from pokerlab.games import holdem, kuhn, leduc
from pokerlab.strategy import Strategy

FOUR = ("random", "always-call", "always-raise", "rule-based")


def _entrants(names, cache):
    return [e for name in names for e in builtin_entrants(name, cache_dir=cache)]


def test_three_player_kuhn_tournament_of_four_agents(tmp_path: Path, bot_cache: Path) -> None:
    game = kuhn(players=3)
    db = tmp_path / "arena.db"
    result = run_tournament(game, _entrants(FOUR, bot_cache), db=db, hands=30, seed=3)
    assert result.matches == 4  # every 3 of the 4 agents
    assert result.hands_played == 4 * 3 * 30
    with ArenaStore(db, readonly=True) as store:
        for match in store.matches(result.run_id):
            hands = store.hands(match.id)
            by_deal: dict[int, list] = defaultdict(list)
            for record in hands:
                by_deal[record.deal].append(record)
            assert len(by_deal) == 30
            for records in by_deal.values():
                # every rotation of the deal: each agent once in each seat, same cards
                assert sorted(r.seats for r in records) == [(0, 1, 2), (1, 2, 0), (2, 0, 1)]
                assert len({r.history[:3] for r in records}) == 1
                # chips won over every rotation of one deal sum to zero
                assert sum(sum(r.returns) for r in records) == 0
                totals = np.sum([r.agent_returns() for r in records], axis=0)
                assert totals.sum() == 0
    board = leaderboard(db)
    assert board.complete
    assert board.unit == "chips/hand"
    assert {s.name for s in board.standings} == set(FOUR)
    assert all(s.matches == 3 and s.hands == 3 * 90 for s in board.standings)
    assert all(np.isfinite(s.estimate.low) and s.estimate.low <= s.estimate.high
               for s in board.standings)
    assert len(board.tables) == 4
    assert all(len(t.names) == 3 for t in board.tables)
    assert np.isnan(board.head_to_head).all()  # no head to head at 3-seat tables
    # an agent's score is the mean of its results at its three tables
    for standing in board.standings:
        mine = [t.means[t.names.index(standing.name)] for t in board.tables
                if standing.name in t.names]
        assert standing.estimate.mean == pytest.approx(np.mean(mine))


def test_three_player_leduc_tournament_resumes(tmp_path: Path, bot_cache: Path) -> None:
    game = leduc(players=3, raise_cap=1)  # a bet a round: a far smaller tree to compile
    db = tmp_path / "arena.db"
    entrants = _entrants(("random", "always-call", "rule-based"), bot_cache)
    full = run_tournament(game, entrants, db=tmp_path / "full.db", hands=20, seed=5,
                          batch_size=9)
    # a run cut after its first batch, then resumed, stores the same hands
    with ArenaStore(db) as store:
        run_id = store.create_run(
            game=str(game.spec), players=3, hands=20, seed=5, batch_size=9, time_limit=None,
            config={}, agents=[(e.name, e.source, None) for e in entrants],
            matches=[((0, 1, 2), _seed_of(tmp_path / "full.db"), 60)],
        )
        (match,) = store.matches(run_id)
        with ArenaStore(tmp_path / "full.db", readonly=True) as reference:
            first_batch = reference.hands(reference.matches(full.run_id)[0].id)[:9]
        store.write_hands(match.id, first_batch)
    resumed = run_tournament(game, entrants, db=db, hands=20, seed=5, resume=True)
    assert resumed.hands_played == 60 - 9
    with ArenaStore(db, readonly=True) as one, ArenaStore(tmp_path / "full.db",
                                                          readonly=True) as two:
        a = one.hands(one.matches(run_id)[0].id)
        b = two.hands(two.matches(full.run_id)[0].id)
        assert [r.history for r in a] == [r.history for r in b]


def test_policies_are_tabulated_once_a_match(tmp_path: Path, bot_cache: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    # The legs sample the same tabulated policies (a tabulated policy has no memory): a
    # 3-player Leduc policy takes seconds to tabulate, once per leg it tripled the run.
    from pokerlab.arena import tournament

    calls: list[int] = []
    policies = tournament._policies
    monkeypatch.setattr(tournament, "_policies",
                        lambda game, agents: calls.append(1) or policies(game, agents))
    game = kuhn(players=3)
    result = run_tournament(game, _entrants(FOUR, bot_cache), db=tmp_path / "a.db", hands=6,
                            seed=3, batch_size=3)
    assert result.matches == 4
    assert len(calls) == 4  # one per match, not one per leg (3 a match)
    # The same run with each leg's agents tabulated afresh (as before) stores the same hands.
    leg = tournament.MatchPlayer._leg

    def fresh_leg(self, *args):  # type: ignore[no-untyped-def]
        self._strategies = None
        return leg(self, *args)

    monkeypatch.setattr(tournament.MatchPlayer, "_leg", fresh_leg)
    again = run_tournament(game, _entrants(FOUR, bot_cache), db=tmp_path / "b.db", hands=6,
                           seed=3, batch_size=3)
    assert len(calls) == 4 + 12
    with ArenaStore(tmp_path / "a.db", readonly=True) as one, \
            ArenaStore(tmp_path / "b.db", readonly=True) as two:
        for first, second in zip(one.matches(result.run_id), two.matches(again.run_id),
                                 strict=True):
            assert [r.history for r in one.hands(first.id)] == \
                [r.history for r in two.hands(second.id)]


def _seed_of(db: Path) -> int:
    with ArenaStore(db, readonly=True) as store:
        return store.matches(store.run().id)[0].seed


def test_batches_must_hold_whole_deals(tmp_path: Path, bot_cache: Path) -> None:
    from pokerlab.errors import PokerlabError

    with pytest.raises(PokerlabError, match="multiple of the 3 players"):
        run_tournament(kuhn(players=3), _entrants(FOUR[:3], bot_cache), db=tmp_path / "a.db",
                       hands=5, batch_size=10)


def test_six_max_holdem_between_builtins() -> None:
    game = holdem(players=6, stack=100)
    names = ("easy", "easy", "random", "always-call", "always-raise", "easy")
    agents = [make_agent(name, game, seed=k) for k, name in enumerate(names)]
    result = play_match(game, *agents, hands=3, seed=2)
    assert result.n_hands == 18  # 3 deals in each of the 6 rotations
    assert not result.events
    assert result.agent_returns.sum(axis=1) == pytest.approx(np.zeros(18))
    deals = [r.deal for r in result.hands]
    assert sorted(set(deals)) == [0, 1, 2]
    for deal in range(3):
        records = [r for r in result.hands if r.deal == deal]
        assert len({r.history[:12] for r in records}) == 1  # same hole cards every rotation
        assert sorted(r.seats[0] for r in records) == list(range(6))
    assert result.exact_values is None
    assert result.control_variates is None


def test_holdem_leaderboard_is_in_milli_big_blinds(tmp_path: Path, bot_cache: Path) -> None:
    game = holdem(players=3, stack=50, blinds=(1, 2))
    db = tmp_path / "holdem.db"
    run_tournament(game, _entrants(("easy", "random", "always-call"), bot_cache), db=db,
                   hands=4, seed=1)
    board = leaderboard(db)
    assert board.unit == "mbb/hand"
    with ArenaStore(db, readonly=True) as store:
        (match,) = store.matches(board.run_id)
        rows = store.agent_returns(match.id)
    chips = np.mean([r[1][0] for r in rows])
    (table,) = board.tables
    assert table.means[0] == pytest.approx(chips * 1000 / 2)


def test_three_player_policy_match_is_sampled_with_exact_values() -> None:
    game = kuhn(players=3)
    uniform = Strategy.uniform(game)
    result = play_match(game, PolicyAgent(uniform), PolicyAgent(uniform),
                        make_agent("always-call", game), hands=2000, seed=0)
    assert result.sampled
    assert result.n_hands == 6000
    assert result.exact_values is not None
    assert sum(result.exact_values) == pytest.approx(0.0, abs=1e-12)
    for estimate, exact in zip(result.estimates, result.exact_values, strict=True):
        assert abs(estimate.mean - exact) < 4 * estimate.std_error
