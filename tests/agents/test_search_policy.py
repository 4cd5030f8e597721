"""The searching Hard AI: safe, answers for every hand, deterministic, playable by name.

Exactness is checked where pokerlab computes exact best responses: on Leduc written as a
Hold'em game the searcher's whole policy (a search at every decision of every public
history, for every hand) is measured by :func:`~pokerlab.eval.exploitability.
exploitability` on the compiled tree, an evaluator independent of the range solver, and is
less exploitable than its blueprint, a poor one included.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from pokerlab._types import CHANCE, TERMINAL, FloatArray
from pokerlab.agents import search_policy as search_policy_module
from pokerlab.agents.hard import HardAI, default_blueprint_path, default_recipe
from pokerlab.agents.hard_search import (
    DEFAULT_TARGET,
    DEFAULT_THINK,
    HardSearchAI,
    parse_search_name,
)
from pokerlab.agents.registry import agent_names, make_agent
from pokerlab.agents.search_blueprint import BlueprintView
from pokerlab.agents.search_policy import SearchPolicy, SearchSettings
from pokerlab.blueprint.cards import cards_from_spec
from pokerlab.blueprint.mccfr import BlueprintTrainer
from pokerlab.blueprint.nolimit import rules_for
from pokerlab.blueprint.policy import BlueprintPolicy
from pokerlab.blueprint.store import save_blueprint
from pokerlab.cli import main
from pokerlab.errors import GameTooLargeError, PokerlabError, SpecError
from pokerlab.eval.exploitability import exploitability
from pokerlab.eval.matches import play_match
from pokerlab.games import load
from pokerlab.games.holdem_rules import CALL, RAISE
from pokerlab.games.holdem_state import HoldemState

LEDUC_AS_HOLDEM = (
    'holdem(betting="limit", ranks=3, suits=2, hole=1, board="1", seat_blinds=(1, 1), '
    'raises="2,4", caps="2,2", first="0,0", stack=100)'
)
TINY_CARDS = {"kind": "holdem", "bucket_counts": [10, 4, 4, 3], "seed": 0, "n_bins": 4,
              "sample": 500, "boards": 2}
"""A very coarse Texas Hold'em abstraction (built in seconds)."""


def _leduc_blueprint(iterations: int) -> BlueprintPolicy:
    game = load(LEDUC_AS_HOLDEM)
    trainer = BlueprintTrainer(game, seed=0)
    trainer.run(iterations)
    return BlueprintPolicy(trainer, game=game)


@pytest.fixture(scope="module")
def texas(tmp_path_factory: pytest.TempPathFactory) -> BlueprintPolicy:
    """A tiny no-limit Texas Hold'em blueprint (coarse buckets, few iterations)."""
    cache = tmp_path_factory.mktemp("texas")
    game = load("holdem(stack=200)")
    cards = cards_from_spec(game, TINY_CARDS, cache_dir=cache)
    trainer = BlueprintTrainer(game, cards, rules_for(game, "50%,100%,a"), seed=0)
    trainer.run(3000)
    return BlueprintPolicy(trainer, game=game)


@pytest.mark.slow
@pytest.mark.parametrize("iterations", [300, 3000])
@pytest.mark.parametrize("from_street", [0, 1])
def test_search_is_less_exploitable_than_its_blueprint(iterations: int,
                                                       from_street: int) -> None:
    game = load(LEDUC_AS_HOLDEM)
    blueprint = _leduc_blueprint(iterations)
    before = exploitability(game, blueprint)
    searcher = SearchPolicy(blueprint, SearchSettings(
        think=None, iterations=200, from_street=from_street, depth="end"))
    after = exploitability(game, searcher)
    assert after < before  # 300 its: 0.92 -> 0.68 (flop on); 3000 its: see docs
    assert after < 0.95 * before


def _texas_decision(street: int, seed: int) -> HoldemState:
    """A no-limit Texas Hold'em state at the first decision of ``street`` (calls before)."""
    game = load("holdem(stack=200)")
    rng = np.random.default_rng(seed)
    state = game.initial_state()
    while not (state.to_act >= 0 and state.street == street):  # type: ignore[attr-defined]
        assert state.to_act != TERMINAL
        if state.to_act == CHANCE:
            outcomes = state.chance_outcomes()
            state = state.child(outcomes[int(rng.integers(len(outcomes)))][0])
        else:
            state = state.child(CALL)
    assert isinstance(state, HoldemState)
    return state


@pytest.mark.parametrize(("street", "depth"), [(1, "street"), (3, "end")])
def test_every_hand_gets_a_distribution_at_a_searched_decision(texas: BlueprintPolicy,
                                                               street: int, depth: str) -> None:
    policy = SearchPolicy(texas, SearchSettings(think=None, iterations=20, runouts=4,
                                                depth=depth))
    state = _texas_decision(street, seed=street)
    observation = state.observation(state.to_act)
    decision = policy.decide(observation)
    assert decision.searched
    assert decision.iterations == 20
    legal = list(observation.legal_actions)
    assert decision.strategy.shape == (1326, len(legal))
    assert (decision.strategy >= 0).all()
    np.testing.assert_allclose(decision.strategy.sum(axis=1), 1.0, atol=1e-9)
    own = policy.action_probabilities(observation)
    assert list(own) == legal
    assert abs(sum(own.values()) - 1.0) < 1e-9
    pairs = np.array([[0, 1], [12, 51], [7, 30]])
    table = policy.pair_probabilities(observation, pairs)
    assert table.shape == (3, len(legal))
    np.testing.assert_allclose(table.sum(axis=1), 1.0, atol=1e-9)
    # The same seat later on this street, after a check and a half-pot bet (on the menu):
    # the street's search answers it (no new solve); after an off-menu bet, a nested one.
    seat = state.to_act
    checked = state.child(CALL)
    assert isinstance(checked, HoldemState)
    assert checked.to_act == 1 - seat
    half_pot = checked.child(checked.action_for_raise_to(int(sum(checked.contributions())) // 2))
    later = policy.decide(half_pot.observation(seat))
    assert later.searched
    assert later.seconds == 0.0
    odd = checked.child(checked.action_for_raise_to(int(sum(checked.contributions())) // 2 + 1))
    nested = policy.decide(odd.observation(seat))
    assert nested.searched
    assert nested.seconds > 0.0
    np.testing.assert_allclose(nested.strategy.sum(axis=1), 1.0, atol=1e-9)


def test_a_search_with_sizes_of_its_own_is_smaller_and_answers_every_hand(
    texas: BlueprintPolicy,
) -> None:
    state = _texas_decision(2, seed=4)
    observation = state.observation(state.to_act)
    # the blueprint's menu (50%, 100%, all-in) makes this turn too large to search
    assert not SearchPolicy(texas, SearchSettings(think=None, iterations=1)).decide(
        observation).searched
    own = SearchPolicy(texas, SearchSettings(think=None, iterations=6, bets="75%",
                                             raises="2.5x"))
    decision = own.decide(observation)
    assert decision.searched
    np.testing.assert_allclose(decision.strategy.sum(axis=1), 1.0, atol=1e-9)
    ((solve,),) = own._solves.values()
    assert solve.sub.public.tree.n_nodes <= SearchSettings().max_nodes
    # the root offers check and the one bet: 75% of the pot
    pot = int(sum(state.contributions()))
    root_actions = solve.sub.actions[0]
    assert root_actions == (CALL, state.action_for_raise_to(  # type: ignore[attr-defined]
        state.bets[state.to_act] + (3 * pot + 2) // 4))
    # the blueprint's strategy is projected onto the offered actions: whole distributions,
    # read together over the river cards as one decision at a time reads them
    tree = solve.sub.public.tree
    reference = solve.view.reference(solve.sub, solve.searcher)
    alone = BlueprintView(texas, state)
    ids = solve.sub.hand_ids[solve.searcher]
    decisions = tree.decision_nodes(solve.searcher).tolist()
    assert len({solve.sub.board_of(n) for n in decisions}) > 40  # the turn and its rivers
    for n in decisions:
        k = len(tree.children(n))
        rows = reference[tree.row(n) : tree.row(n) + k]
        np.testing.assert_allclose(rows.sum(axis=0), 1.0, atol=1e-9)
        assert np.array_equal(rows, alone.strategy_at(
            solve.view.abstract_of(solve.sub.events[n]), solve.sub.betting[n],
            solve.sub.board_of(n), solve.sub.actions[n], ids))
    boards = [solve.sub.root_board, *(solve.sub.board_of(n) for n in decisions[-2:])]
    pairs = [np.array([[0, 1], [2, 3]]), np.array([[4, 5]]), np.zeros((0, 2), dtype=np.int64)]
    clear = [(board, np.array([p for p in batch if not set(p) & set(board)]).reshape(-1, 2))
             for board, batch in zip(boards, pairs, strict=True)]
    for (board, batch), found in zip(clear, texas.buckets_on_boards(clear), strict=True):
        assert np.array_equal(found, texas.buckets_on(board, batch))
        for pair, row in zip(batch.tolist(), found, strict=True):  # padded with low cards
            pad = [c for c in range(52) if c not in board and c not in pair][: 5 - len(board)]
            direct = texas.trainer.cards.buckets(np.array([[pair]]),
                                                 np.array([[*board, *pad]]))[0, 0]
            street = {3: 1, 4: 2, 5: 3}[len(board)]
            assert np.array_equal(row[: street + 1], direct[: street + 1])


@pytest.mark.parametrize("safety", ["gadget", "range"])
def test_a_search_that_leaves_the_opponent_more_than_the_blueprint_is_not_played(
        safety: str) -> None:
    blueprint = _leduc_blueprint(3000)
    game = load(LEDUC_AS_HOLDEM)
    deck = sorted(game.rules.deck)  # type: ignore[attr-defined]
    state = game.initial_state()
    for action in (deck[0], deck[3], CALL, CALL, deck[5]):  # hole cards, calls, the board
        state = state.child(action)
    assert isinstance(state, HoldemState)
    assert state.street == 1
    assert state.to_act >= 0
    observation = state.observation(state.to_act)
    answers = {}
    for iterations in (1, 300):
        policy = SearchPolicy(blueprint, SearchSettings(think=None, iterations=iterations,
                                                        safety=safety))
        decision = policy.decide(observation)
        ((solve,),) = policy._solves.values()
        assert solve.result is not None
        assert decision.searched
        assert decision.rejected == (solve.result.gain > 0)
        reference = solve.view.reference(solve.sub, solve.searcher)
        assert np.array_equal(solve.strategy, reference) == decision.rejected
        answers[iterations] = decision
    assert answers[1].rejected  # one iteration plays uniformly: worse than the blueprint
    assert not answers[300].rejected  # solved: the opponent gains nothing over it
    unsearched = SearchPolicy(blueprint, SearchSettings(think=None, iterations=1,
                                                        from_street=2))
    np.testing.assert_allclose(answers[1].strategy, unsearched.decide(observation).strategy,
                               atol=1e-12)  # the blueprint's own answer


def test_a_rejected_search_over_its_own_sizes_leaves_the_street_to_the_blueprint(
    texas: BlueprintPolicy,
) -> None:
    # With sizes of its own, the reference a search must not be worse than is the
    # blueprint projected onto them: when the search is rejected, the blueprint itself
    # plays (its own sizes), and the next street refines it, not the projection.
    state = _texas_decision(2, seed=4)
    observation = state.observation(state.to_act)
    policy = SearchPolicy(texas, SearchSettings(think=None, iterations=1, bets="75%",
                                                raises="2.5x", raise_cap=2))
    decision = policy.decide(observation)
    assert decision.searched
    assert decision.rejected  # one iteration: worse than the reference
    assert decision.iterations == 1
    assert not policy._solves  # nothing kept for the river to refine
    blueprint = policy._blueprint_decision(observation, state.street, 0.0)
    assert np.array_equal(decision.strategy, blueprint.strategy)
    legal = list(observation.legal_actions)
    assert len(legal) > 3  # the blueprint's sizes are played, not only 75%
    assert (decision.strategy[:, [legal.index(a) for a in legal if a > RAISE]].sum(axis=0)
            > 0).sum() >= 2
    # the street stays the blueprint's: the next decision of it is not searched again
    checked = state.child(CALL)
    bet = next(a for a in checked.legal_actions() if a > RAISE)
    again = checked.child(bet)
    assert again.to_act == state.to_act
    assert not policy.decide(again.observation(again.to_act)).searched


def test_the_street_stays_the_blueprints_after_it_answered_an_off_tree_bet(
    texas: BlueprintPolicy, monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Where no nested search answers an opponent's bet off the search's tree (too large,
    # or rejected), the blueprint plays with its own sizes; a later decision of the street
    # then lies below an action of ours the search does not hold: the blueprint again, not
    # a nested search that cannot start there (a SpecError before).
    state = _texas_decision(3, seed=3)
    seat = state.to_act
    policy = SearchPolicy(texas, SearchSettings(think=None, iterations=20, bets="75%",
                                                raises="2.5x", raise_cap=2))
    assert policy.decide(state.observation(seat)).searched
    checked = state.child(CALL)
    solve = list(policy._solves.values())[-1][0]  # the river's (the turn's came first)
    assert solve.sub.root_board == tuple(int(c) for c in state.board)
    held = set(solve.sub.actions[solve.sub.node_of((("a", CALL),))])
    bet = checked.child(next(a for a in checked.legal_actions() if a > RAISE and a not in held))

    nested = policy._nested_solve
    calls = []

    def too_large_once(*args: Any, **kwargs: Any) -> Any:
        calls.append(args)
        if len(calls) == 1:
            raise GameTooLargeError("too large", found=1, limit=0)
        return nested(*args, **kwargs)

    monkeypatch.setattr(policy, "_nested_solve", too_large_once)
    assert not policy.decide(bet.observation(seat)).searched  # the blueprint answers it
    raised = bet.child(bet.action_for_raise_to(bet.raise_range()[0]))
    back = raised.child(raised.action_for_raise_to(raised.raise_range()[0]))
    assert back.to_act == seat
    assert not policy.decide(back.observation(seat)).searched


def test_the_searches_kept_are_bounded_by_their_bytes(
    texas: BlueprintPolicy, monkeypatch: pytest.MonkeyPatch,
) -> None:
    # a no-limit turn search holds about 40 MB: 256 of them took 6.5 GB and more in a match
    policy = SearchPolicy(texas, SearchSettings(think=None, iterations=100, bets="75%",
                                                raises="2.5x", raise_cap=2))
    spots = [_texas_decision(3, seed) for seed in (3, 5)]
    first = policy.decide(spots[0].observation(spots[0].to_act))
    assert first.searched
    kept = dict(policy._weights)
    assert set(kept) == set(policy._solves)  # the river's and the turn's it came through
    assert len(kept) == 2
    assert max(kept.values()) > 10_000_000  # the turn's: its subgame, strategies, buckets
    cap = max(kept.values())
    monkeypatch.setattr(search_policy_module, "SOLVES_BYTES", cap)
    policy.decide(spots[1].observation(spots[1].to_act))
    assert set(policy._solves).isdisjoint(kept)  # the first spot's went, oldest first
    assert set(policy._weights) == set(policy._solves)
    assert sum(policy._weights.values()) <= cap or len(policy._solves) == 1


def test_a_raise_cap_and_float32_storage_keep_the_search_small_and_its_answer(
    texas: BlueprintPolicy,
) -> None:
    state = _texas_decision(2, seed=4)
    observation = state.observation(state.to_act)

    def searched(**options: object) -> tuple[int, FloatArray]:
        # the gadget's 6 iterations are played in both storages ("range" may reject one)
        policy = SearchPolicy(texas, SearchSettings(think=None, iterations=6, bets="75%",
                                                    raises="2.5x", safety="gadget",
                                                    **options))  # type: ignore[arg-type]
        decision = policy.decide(observation)
        assert decision.searched
        ((solve,),) = policy._solves.values()
        return solve.sub.public.tree.n_nodes, decision.strategy

    whole, single = searched()  # float32 storage, the default
    capped, _ = searched(raise_cap=2)
    assert capped < whole / 2  # a bet and a raise a street, not raises to the stacks
    same, exact = searched(precision="float64")
    assert same == whole
    assert not np.array_equal(single, exact)  # two storages, two solves
    np.testing.assert_allclose(single, exact, atol=1e-3)  # ... and the same answer
    with pytest.raises(SpecError, match="raise_cap must be an integer >= 1 with the search"):
        SearchSettings(raise_cap=2)  # the blueprint's menu has its own cap
    with pytest.raises(SpecError, match="raise_cap must be an integer >= 1"):
        SearchSettings(bets="75%", raise_cap=0)
    with pytest.raises(SpecError, match="precision must be one of auto, float64, float32"):
        SearchSettings(precision="compressed")


def test_a_river_search_stops_at_its_target_before_its_budget(texas: BlueprintPolicy) -> None:
    state = _texas_decision(3, seed=6)
    observation = state.observation(state.to_act)
    whole = SearchPolicy(texas, SearchSettings(think=None, iterations=400)).decide(observation)
    early = SearchPolicy(texas, SearchSettings(think=None, iterations=400, target=2.0)
                         ).decide(observation)
    assert early.searched
    assert early.iterations < whole.iterations == 400
    pot = sum(state.contributions())
    assert early.exploitability <= 0.02 * pot
    with pytest.raises(SpecError, match="target must be a percentage of the pot"):
        SearchSettings(target=0)


def test_search_sizes_and_threads_are_checked() -> None:
    with pytest.raises(SpecError, match="raise sizes go with its bet sizes"):
        SearchSettings(raises="2.5x")
    with pytest.raises(SpecError):
        SearchSettings(bets="75 percent")
    with pytest.raises(SpecError, match="threads must be a whole number"):
        SearchSettings(threads=0)
    with pytest.raises(SpecError, match="target must be a percentage"):
        SearchSettings(target=True)
    assert SearchSettings(bets="75%").sizes() is not None
    assert SearchSettings().sizes() is None


def test_before_the_searched_street_the_blueprint_answers(texas: BlueprintPolicy) -> None:
    policy = SearchPolicy(texas, SearchSettings(think=None, iterations=5))
    state = _texas_decision(0, seed=0)
    observation = state.observation(state.to_act)
    decision = policy.decide(observation)
    assert not decision.searched
    np.testing.assert_allclose(
        decision.strategy, texas.pair_probabilities(observation, policy._combos))


def test_a_subgame_past_the_node_limit_leaves_the_street_to_the_blueprint(
    texas: BlueprintPolicy,
) -> None:
    policy = SearchPolicy(texas, SearchSettings(think=None, iterations=5, max_nodes=500))
    state = _texas_decision(1, seed=2)  # a flop to the end of the hand: far over 500 nodes
    observation = state.observation(state.to_act)
    decision = policy.decide(observation)
    assert not decision.searched
    np.testing.assert_allclose(decision.strategy[policy._combo_of(observation.private_cards)],
                               list(texas.action_probabilities(observation).values()))
    with pytest.raises(SpecError, match=r"max_nodes must be in 1\.\.200,000"):
        SearchSettings(max_nodes=0)


def test_an_iteration_budget_makes_the_search_deterministic(texas: BlueprintPolicy) -> None:
    state = _texas_decision(2, seed=5)
    observation = state.observation(state.to_act)
    settings = SearchSettings(think=None, iterations=15, runouts=4)
    first = SearchPolicy(texas, settings).decide(observation).strategy
    second = SearchPolicy(texas, settings).decide(observation).strategy
    np.testing.assert_array_equal(first, second)


def test_an_answer_played_is_the_answer_read_later(texas: BlueprintPolicy,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    # A search under a time budget does not repeat itself: AIVAT, revisiting a match's
    # decisions after it (past the decision cache), must read what was played. A 3,000-hand
    # limit match of hard-search against hard failed its AIVAT ("seat 0 played 'call',
    # which its claimed policy never plays here") before the answers were kept.
    policy = SearchPolicy(texas, SearchSettings(think=None, iterations=5, runouts=4))
    state = _texas_decision(2, seed=5)
    observation = state.observation(state.to_act)
    played = policy.action_probabilities(observation)
    assert sum(played.values()) == pytest.approx(1.0)
    policy._decisions.clear()
    policy._solves.clear()

    def search_again(_: object) -> None:
        raise AssertionError("searched again instead of reading the answer played")

    monkeypatch.setattr(policy, "decide", search_again)
    assert policy.action_probabilities(observation) == played
    other_state = _texas_decision(2, seed=6)
    other = other_state.observation(other_state.to_act)
    with pytest.raises(AssertionError, match="searched again"):
        policy.action_probabilities(other)  # a new observation is searched


def test_search_names_parse_and_bad_ones_are_refused() -> None:
    assert parse_search_name("hard-search") == SearchSettings(think=DEFAULT_THINK,
                                                              target=DEFAULT_TARGET)
    assert parse_search_name("hard-search@250ms") == SearchSettings(think=0.25,
                                                                    target=DEFAULT_TARGET)
    assert parse_search_name("hard-search@2s") == SearchSettings(think=2.0, target=DEFAULT_TARGET)
    assert parse_search_name("hard-search+40") == SearchSettings(think=None, iterations=40)
    assert parse_search_name("hard") is None
    assert parse_search_name("hard-search@2.5s") is None
    with pytest.raises(SpecError, match="iterations per search must be >= 1"):
        parse_search_name("hard-search+0")
    with pytest.raises(SpecError, match=r"time per decision must be in \(0, 3600\]"):
        parse_search_name("hard-search@0ms")
    assert "hard-search" in agent_names()
    assert "hard" in agent_names()
    with pytest.raises(PokerlabError, match="cannot play leduc"):
        make_agent("hard-search+10", load("leduc"))
    with pytest.raises(PokerlabError, match="unknown built-in agent 'hard-search@fast'"):
        make_agent("hard-search@fast", load(LEDUC_AS_HOLDEM))


@pytest.fixture(scope="module")
def leduc_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A bot cache holding a (briefly trained) default blueprint of Leduc as Hold'em."""
    cache = tmp_path_factory.mktemp("bots")
    game = load(LEDUC_AS_HOLDEM)
    trainer = BlueprintTrainer(game, seed=0)
    trainer.run(3000)
    save_blueprint(trainer, default_blueprint_path(game, cache),
                   cards=default_recipe(game).cards, bet_menu=None)
    return cache


def test_the_searcher_plays_matches_by_name_reproducibly(leduc_cache: Path) -> None:
    game = load(LEDUC_AS_HOLDEM)
    results = []
    for _ in range(2):
        searcher = make_agent("hard-search+30", game, seed=1, cache_dir=leduc_cache)
        assert isinstance(searcher, HardSearchAI)
        blueprint = HardAI(game, seed=2, cache_dir=leduc_cache)
        results.append(play_match(game, searcher, blueprint, hands=30, seed=4, fast=False))
        searched = [t for t in searcher.policy.timings if t[1]]
        assert searched  # the flop (Leduc's last street) was re-solved
        assert {t[0] for t in searched} == {1}
    first, second = results
    assert first.events == ()
    assert first.n_hands == 60
    np.testing.assert_array_equal(first.agent_returns, second.agent_returns)
    assert [h.history for h in first.hands] == [h.history for h in second.hands]
    assert np.allclose(first.agent_returns.sum(axis=1), 0.0)


def test_pokerlab_match_seats_the_searcher(leduc_cache: Path, monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("POKERLAB_CACHE", str(leduc_cache))
    code = main(["match", LEDUC_AS_HOLDEM, "hard-search+20", "hard", "--hands", "20",
                 "--json"])
    assert code == 0
    rows = json.loads(capsys.readouterr().out)["agents"]
    assert [r["spec"] for r in rows] == ["hard-search+20", "hard"]
    assert abs(rows[0]["mean"] + rows[1]["mean"]) < 1e-9
    assert "exact" in rows[0]  # policy-backed on a game that compiles: its exact value
