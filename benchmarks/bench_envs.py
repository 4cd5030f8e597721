"""Environments: decisions per second of pokerlab's PettingZoo environment beside RLCard's.

Both sides play complete hands with the same random rule, uniform over the legal actions,
drawn from one array of pre-drawn uniforms (so the choosing costs the same on both sides),
and the loop is each library's own: pokerlab's ``env(game)`` through PettingZoo's AEC loop
(``agent_iter``, ``last()`` building every observation and mask, ``step``, the end-of-hand
steps of the finished agents), RLCard's ``rlcard.make(name)`` through its own
(``reset``, ``step`` returning the next player's encoded state, ``is_over``,
``get_payoffs``). A step is a decision: the rate is decisions per second over whole hands,
observations included. Games:

- Leduc: pokerlab's ``leduc`` (antes of 1, bets 2 and 4, two raises a round); RLCard's
  ``leduc-holdem`` posts blinds of 1 and 2 instead of antes, otherwise the same rules;
- heads-up limit Texas Hold'em, blinds 1/2, bets 2/4, four bets a round: pokerlab's
  ``holdem(betting="limit")`` and RLCard's ``limit-holdem``;
- heads-up no-limit Texas Hold'em, blinds 1/2, stacks of 100: pokerlab's
  ``holdem(stack=100)`` with its default menu (fold, check/call, half pot, pot, all-in:
  RLCard's five actions) and RLCard's ``no-limit-holdem``.

Two more rows measure pokerlab alone: the Gymnasium environment (Leduc against a random
opponent: the opponents' decisions are the environment's work, so only the learner's count
as steps) and an A/B of the PettingZoo environment inside PettingZoo's
``OrderEnforcingWrapper`` (what PettingZoo's own ``env()`` functions return; pokerlab's
checks the order itself).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np

from benchmarks._harness import Row

GAMES = (
    ("Leduc", "leduc", "leduc-holdem"),
    ("HULHE", 'holdem(betting="limit")', "limit-holdem"),
    ("HUNL", "holdem(stack=100)", "no-limit-holdem"),
)
UNIFORMS = np.random.default_rng(0).random(1 << 16).tolist()
"""The random choices, shared by both sides."""


def _pokerlab_aec(environment: Any, hands: int) -> int:
    uniforms = UNIFORMS
    count = len(uniforms)
    steps = 0
    for _ in range(hands):
        environment.reset()
        for _agent in environment.agent_iter():
            observation, _, terminated, truncated, _ = environment.last()
            if terminated or truncated:
                environment.step(None)
                continue
            legal = observation["action_mask"].nonzero()[0]
            environment.step(int(legal[int(uniforms[steps % count] * len(legal))]))
            steps += 1
    return steps


def _rlcard(environment: Any, hands: int) -> int:
    uniforms = UNIFORMS
    count = len(uniforms)
    steps = 0
    for _ in range(hands):
        state, _ = environment.reset()
        while not environment.is_over():
            legal = list(state["legal_actions"])
            state, _ = environment.step(legal[int(uniforms[steps % count] * len(legal))])
            steps += 1
        environment.get_payoffs()
    return steps


def _pokerlab_gym(environment: Any, hands: int) -> int:
    uniforms = UNIFORMS
    count = len(uniforms)
    steps = 0
    for _ in range(hands):
        observation, _ = environment.reset()
        terminated = False
        while not terminated:
            legal = observation["action_mask"].nonzero()[0]
            observation, _, terminated, _, _ = environment.step(
                int(legal[int(uniforms[steps % count] * len(legal))])
            )
            steps += 1
    return steps


def _rate(play: Callable[[int], int], hands: int, repeat: int) -> float:
    """The best decisions-per-second rate of ``repeat`` runs of ``hands`` hands."""
    best = 0.0
    for _ in range(repeat):
        start = time.perf_counter()
        steps = play(hands)
        best = max(best, steps / (time.perf_counter() - start))
    return best


def _load() -> str:
    with open("/proc/loadavg", encoding="ascii") as file:
        return file.read().split()[0]


def run(quick: bool) -> list[Row]:
    import rlcard
    from pettingzoo.utils.wrappers import OrderEnforcingWrapper

    from pokerlab.envs import env, gym_env

    hands = 500 if quick else 5_000
    repeat = 3 if quick else 5
    rows = []
    for label, spec, rlcard_name in GAMES:
        ours = env(spec)
        ours.reset(seed=0)
        theirs = rlcard.make(rlcard_name, config={"seed": 0})
        _pokerlab_aec(ours, 200)  # warm up: imports, the evaluator's tables, caches
        _rlcard(theirs, 200)
        load_before = _load()
        # Interleaved, so that a change of load touches both sides alike.
        ours_rate = theirs_rate = 0.0
        for _ in range(repeat):
            ours_rate = max(ours_rate, _rate(partial(_pokerlab_aec, ours), hands, 1))
            theirs_rate = max(theirs_rate, _rate(partial(_rlcard, theirs), hands, 1))
        rows.append(Row(
            name=f"{label} env, random legal actions",
            unit="steps/s",
            ours=ours_rate,
            peer_name=f"RLCard {rlcard_name}",
            peer=theirs_rate,
            higher_is_better=True,
            target="> 1x",
            note=f"pokerlab env({spec!r}) AEC loop, observations built; load {load_before} "
                 f"-> {_load()}",
        ))  # fmt: skip
    learner = gym_env("leduc", "random")
    learner.reset(seed=0)
    _pokerlab_gym(learner, 200)
    gym_rate = _rate(lambda n: _pokerlab_gym(learner, n), hands, repeat)
    rows.append(Row(
        name="Leduc Gymnasium env vs a random opponent",
        unit="steps/s",
        ours=gym_rate,
        note=f"learner's decisions only; load {_load()}",
    ))  # fmt: skip
    plain = env("leduc")
    plain.reset(seed=0)
    wrapped = OrderEnforcingWrapper(env("leduc"))
    wrapped.reset(seed=0)
    _pokerlab_aec(wrapped, 200)
    plain_rate = wrapped_rate = 0.0
    for _ in range(repeat):
        plain_rate = max(plain_rate, _rate(lambda n: _pokerlab_aec(plain, n), hands, 1))
        wrapped_rate = max(wrapped_rate, _rate(lambda n: _pokerlab_aec(wrapped, n), hands, 1))
    rows.append(Row(
        name="Leduc env without / with OrderEnforcingWrapper (A/B)",
        unit="steps/s",
        ours=plain_rate,
        peer_name="the same in PettingZoo's OrderEnforcingWrapper",
        peer=wrapped_rate,
        higher_is_better=True,
        note=f"why env() returns the environment unwrapped; load {_load()}",
    ))  # fmt: skip
    return rows
