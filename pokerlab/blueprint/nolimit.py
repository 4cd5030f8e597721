"""No-limit blueprints: the betting tree of a bet menu, and real bets translated into it.

Training: :func:`rules_for` gives the betting rules of a game, limit as the game plays it, or
no-limit with a bet menu of pot fractions plus all-in (``"50%,100%,a"``; the same menu on
every street, at most ``max_raises`` bets and raises a street). A raise of fraction ``f``
raises to ``stakes + f * (pot + to_call)``, the usual pot-fraction raise.

Play: :func:`abstract_node` walks a real hand's history (any amounts) down the betting tree.
Folds and calls map to themselves; a real raise, measured as a pot fraction the same way,
maps to the tree's raises around it with pseudo-harmonic probabilities (Ganzfried and
Sandholm 2013), drawn from the caller's generator; where the tree cannot raise, a raise is a
call. Once the tree's hand is over (an abstract all-in called) the rest of the betting is
skipped, the cards still follow.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from pokerlab._types import Action
from pokerlab.abstraction.betting import translation_probabilities
from pokerlab.blueprint.betting_tree import (
    CALL,
    DECISION,
    FOLD,
    RAISE,
    BettingRules,
    BettingTree,
)
from pokerlab.blueprint.deals import default_rules
from pokerlab.errors import SpecError
from pokerlab.games.base import Game, State

DEFAULT_MENU = "50%,100%,a"
"""The default no-limit bet menu: half pot, pot, all-in."""


def parse_pot_fractions(menu: str) -> tuple[float, ...]:
    """``"50%,100%,a"`` -> ``(0.5, 1.0)`` (all-in is always on the tree's menu).

    Raises:
        SpecError: for a size that is not a pot percentage or ``a``.
    """
    fractions: list[float] = []
    for token in (t.strip() for t in menu.split(",")):
        if token == "a":
            continue
        if not token.endswith("%"):
            raise SpecError(
                f"the blueprint's bet menu takes pot percentages like '50%' and 'a' (all-in); "
                f"got {token!r} in {menu!r}"
            )
        try:
            value = float(token[:-1]) / 100
        except ValueError:
            raise SpecError(f"bad pot percentage {token!r} in bet menu {menu!r}") from None
        if value <= 0:
            raise SpecError(f"pot percentages must be > 0; got {token!r}")
        fractions.append(value)
    return tuple(sorted(set(fractions)))


def rules_for(game: Game, bet_menu: str | None = None, *, max_raises: int = 3) -> BettingRules:
    """The betting rules a blueprint of ``game`` trains on.

    Limit games: the game's own (``bet_menu`` must be None). No-limit Hold'em: the menu's
    pot fractions plus all-in (default :data:`DEFAULT_MENU`), ``max_raises`` per street.

    Raises:
        SpecError: a menu for a limit game, or a game the trainer does not play.
    """
    from pokerlab.games.holdem_state import HoldemGame

    if not isinstance(game, HoldemGame) or not game.rules.no_limit:
        if bet_menu is not None:
            raise SpecError(f"--bet-menu is for no-limit games; {game.spec} is not one")
        return default_rules(game)
    rules = game.rules
    if rules.ante:
        raise SpecError(f"no-limit blueprints take no antes for now; got {game.spec}")
    sizes = rules.board_sizes
    openers = tuple(0 if o is None else o for o in rules.openers[1:])
    return BettingRules(
        n_players=rules.n_players,
        board_cards=tuple(b - a for a, b in zip((0, *sizes[:-1]), sizes, strict=True)),
        antes=(0,) * rules.n_players,
        blinds=rules.blinds_paid,
        stacks=rules.starting_stacks,
        first_actor=(rules.preflop_opener, *openers),
        pot_fractions=parse_pot_fractions(DEFAULT_MENU if bet_menu is None else bet_menu),
        max_raises=max_raises,
    )


def _fraction(contributions: Sequence[float], player: int, raise_to: float) -> float:
    stakes = max(contributions)
    pot = sum(contributions)
    to_call = stakes - contributions[player]
    return max(raise_to - stakes, 0.0) / max(pot + to_call, 1e-9)


def abstract_node(
    tree: BettingTree, game: Game, actions: Sequence[Action], rng: np.random.Generator
) -> tuple[int, State]:
    """The betting-tree node a real history maps to, and the real state after it.

    Raises, where the real raise is off the menu, are translated (see the module docstring).
    """
    state = game.initial_state()
    node = 0
    for action in actions:
        p = state.player
        child = state.child(action)
        if p >= 0 and tree.kind[node] == DECISION and tree.player[node] == p:
            node = _translate(tree, node, p, int(action), state, child, rng)
        state = child
    return node, state


def _translate(tree: BettingTree, node: int, p: int, action: int, state: State, child: State,
               rng: np.random.Generator) -> int:  # fmt: skip
    n = int(tree.n_actions[node])
    kinds = tree.action_kind[node, :n].tolist()
    kind = min(action, RAISE)
    if kind == FOLD and FOLD in kinds:
        return int(tree.children[node, kinds.index(FOLD)])
    if kind != RAISE or RAISE not in kinds:
        return int(tree.children[node, kinds.index(CALL)])
    real = _fraction(state.contributions(), p, child.contributions()[p])
    abstract = tree.contributions[node].astype(float).tolist()
    slots = [j for j in range(n) if kinds[j] == RAISE]
    fractions = [_fraction(abstract, p, float(tree.raise_to[node, j])) for j in slots]
    probabilities = translation_probabilities(real, fractions, "pseudo_harmonic")
    sizes = list(probabilities)
    pick = sizes[int(rng.choice(len(sizes), p=[probabilities[s] for s in sizes]))]
    return int(tree.children[node, slots[fractions.index(pick)]])


__all__ = ["DEFAULT_MENU", "abstract_node", "parse_pot_fractions", "rules_for"]
