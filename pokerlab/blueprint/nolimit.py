"""No-limit blueprints: the betting tree of a bet menu, and real bets translated into it.

Training: :func:`rules_for` gives the betting rules of a game, limit as the game plays it, or
no-limit with a bet menu in the one grammar of :mod:`pokerlab.games.bet_sizes` (the CLI's
``--bets``): one list for every street (``"50%,100%,a"``) or one per street
(``"2.5x,a/33%,75%,a/75%,a/a"``: preflop, flop, turn, river), serving bets and raises, at
most ``max_raises`` bets and raises a street. Sizes:

- ``"75%"``: a pot fraction ``f``, a raise to ``max_bet + round(f * (pot + to_call))`` (the
  street's largest bet, plus ``f`` times the pot after calling; a bet when nothing is owed);
- ``"2.5x"``: a raise to ``round(2.5 * max_bet)``, the largest bet this street. Preflop the
  big blind is that bet, so ``2.5x`` opens to 2.5 big blinds and re-raises to 2.5 times the
  raise faced. The first bet of a postflop street faces no bet, so there ``"2.5x"`` offers
  nothing: give the street a pot size (or ``a``) to bet with;
- ``"a"``: all-in. All-in is offered only where the menu says ``a``.

Halves round away from zero (the one rule); a size below the minimum raise becomes the
minimum raise, one above the stack becomes all-in, and sizes landing on the same amount
count once. Blueprints saved before per-street menus recorded ``pot_fractions`` (all-in
always offered, sizes below the minimum left out), and those saved before the one rounding
rule rounded halves to even; both load and play with the tree they were trained on.

Play: :func:`abstract_node` walks a real hand's history (any amounts) down the betting tree.
Folds and calls map to themselves; a real raise, measured as a pot fraction ``(raise_to -
max_bet) / (pot + to_call)``, maps to the tree's raises around it, each measured the same way
at the abstract node whatever size made it (pot fraction, multiple or all-in), with
pseudo-harmonic probabilities (Ganzfried and Sandholm 2013), drawn from the caller's
generator; below the smallest raise it maps to the smallest, above all-in to all-in; where
the tree cannot raise, a raise is a call. Once the tree's hand is over (an abstract all-in
called) the rest of the betting is skipped, the cards still follow.
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
from pokerlab.games.bet_sizes import parse_bet_menu
from pokerlab.games.holdem import STREET_NAMES

DEFAULT_MENU = "50%,100%,a"
"""The default no-limit bet menu: half pot, pot, all-in."""


def rules_for(game: Game, bet_menu: str | None = None, *, max_raises: int = 3) -> BettingRules:
    """The betting rules a blueprint of ``game`` trains on.

    Limit games: the game's own (``bet_menu`` must be None). No-limit Hold'em: the menu
    (see the module docstring; default :data:`DEFAULT_MENU`), ``max_raises`` per street.
    The rules record the menu in its canonical form, one list per street.

    Raises:
        SpecError: a menu for a limit game, an unreadable menu (what was wrong and what is
            allowed), or a game the trainer does not play.
    """
    from pokerlab.games.holdem_state import HoldemGame

    if not isinstance(game, HoldemGame) or not game.rules.no_limit:
        if bet_menu is not None:
            raise SpecError(f"bet sizes (--bets) are for no-limit games; {game.spec} is not one")
        return default_rules(game)
    rules = game.rules
    if rules.ante:
        raise SpecError(f"no-limit blueprints take no antes for now; got {game.spec}")
    sizes = rules.board_sizes
    menu = parse_bet_menu(DEFAULT_MENU if bet_menu is None else bet_menu,
                          names=STREET_NAMES[: len(sizes)], players=rules.n_players)
    openers = tuple(0 if o is None else o for o in rules.openers[1:])
    return BettingRules(
        n_players=rules.n_players,
        board_cards=tuple(b - a for a, b in zip((0, *sizes[:-1]), sizes, strict=True)),
        antes=(0,) * rules.n_players,
        blinds=rules.blinds_paid,
        stacks=rules.starting_stacks,
        first_actor=(rules.preflop_opener, *openers),
        max_raises=max_raises,
        bet_menu=str(menu),
    )


def menu_text(rules: BettingRules) -> str | None:
    """The no-limit menu of ``rules`` by street, e.g. ``"preflop 2.5x,a; flop 33%,a"``.

    Old rules (``pot_fractions``) read ``"50%,100%,a on every street"``; limit: None.
    """
    if rules.limit:
        return None
    menu = rules.menu()
    if menu is None:
        sizes = [f"{f * 100:g}%" for f in rules.pot_fractions] + ["a"]
        return f"{','.join(sizes)} on every street"
    return "; ".join(
        f"{name} {','.join(str(size) for size in sizes) or '(no raise)'}"
        for name, (sizes, _) in zip(STREET_NAMES, menu.raises.by_street, strict=False)
    )


def raise_fraction(contributions: Sequence[float], player: int, raise_to: float) -> float:
    """A raise to ``raise_to`` (total chips in) as a fraction of the pot after calling.

    ``(raise_to - stakes) / (pot + to_call)``: the measure translation compares sizes by,
    for the real raise and for every abstract one whatever size made it.

    Example:
        >>> raise_fraction([2, 1], 1, 5)  # the small blind opens to 5: 3 over a pot of 3 + 1
        0.75
    """
    stakes = max(contributions)
    pot = sum(contributions)
    to_call = stakes - contributions[player]
    return max(raise_to - stakes, 0.0) / max(pot + to_call, 1e-9)


def raise_translation(tree: BettingTree, node: int, fraction: float) -> dict[int, float]:
    """``{child node: probability}`` of a real raise of ``fraction`` pot at ``node``.

    The node's raises, measured by :func:`raise_fraction` at the node, are the abstract
    sizes; pseudo-harmonic translation picks the one or two around ``fraction``.

    Raises:
        SpecError: if ``node`` is not a decision with a raise.
    """
    n = int(tree.n_actions[node]) if tree.kind[node] == DECISION else 0
    slots = [j for j in range(n) if int(tree.action_kind[node, j]) == RAISE]
    if not slots:
        raise SpecError(f"node {node} of the betting tree offers no raise to translate into")
    player = int(tree.player[node])
    abstract = tree.contributions[node].astype(float).tolist()
    fractions = [raise_fraction(abstract, player, float(tree.raise_to[node, j])) for j in slots]
    probabilities = translation_probabilities(fraction, fractions, "pseudo_harmonic")
    return {
        int(tree.children[node, slots[fractions.index(size)]]): probability
        for size, probability in probabilities.items()
    }


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
    real = raise_fraction(state.contributions(), p, child.contributions()[p])
    probabilities = raise_translation(tree, node, real)
    children = list(probabilities)  # one draw even for one child: the stream stays as it was
    return children[int(rng.choice(len(children), p=[probabilities[c] for c in children]))]


__all__ = [
    "DEFAULT_MENU",
    "abstract_node",
    "menu_text",
    "raise_fraction",
    "raise_translation",
    "rules_for",
]
