"""``pokerlab match GAME AGENT AGENT [...]``: a duplicate match, its mean and its AIVAT estimate.

Every agent plays ``--hands`` hands in each seat on shared deals (:func:`pokerlab.eval.play_match`).
The table shows each agent's plain mean with its 95% interval, the chance-only control
variate where the game compiles, and AIVAT (:func:`pokerlab.eval.aivat.match_aivat`): chance
terms always, action terms for the agents whose policy is exposed and fixed; exact history
values where the game compiles, all-in equity times the pot on Texas Hold'em (2 to 6 seats).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from pokerlab.cli._common import (
    DropCachesOption,
    GameArgument,
    NoDropCachesOption,
    SecretSeedOption,
    TrustEntrantsOption,
    UnsafeInProcessOption,
    check_output_path,
    close_agents,
    console,
    drop_caches_choice,
    err_console,
    load_game,
    path_text,
    print_json,
    resolve_entrant,
)
from pokerlab.cli._progress import StageProgress
from pokerlab.errors import PokerlabError


def _interval(mean: float, low: float, high: float) -> str:
    return f"{mean:+.4f} ± {(high - low) / 2:.4f}"


def _reduction(factor: float) -> str:
    """A variance reduction factor; past a million the estimate is exact (every policy known)."""
    return f"{factor:.2f}" if factor < 1e6 else "exact"


def match_command(
    game_spec: GameArgument,
    agents: Annotated[
        list[str],
        typer.Argument(metavar="AGENT...", help="One per seat: a built-in name, a policy "
                       "file (.npz, .bp, .pt), an entrant .py file (sandboxed) or an ACPC "
                       "executable (sandboxed)."),
    ],
    hands: Annotated[int, typer.Option("--hands", min=3, help="Hands in each seat.")] = 1000,
    seed: SecretSeedOption = None,
    aivat: Annotated[
        bool, typer.Option("--aivat/--no-aivat", help="Report the AIVAT estimate (on games "
                           "that compile and Texas Hold'em with 2 to 6 seats).")
    ] = True,
    json: Annotated[bool, typer.Option("--json", help="Print the result as JSON.")] = False,
    in_process: UnsafeInProcessOption = False,
    trust: TrustEntrantsOption = False,
    drop_caches: DropCachesOption = False,
    keep_caches: NoDropCachesOption = False,
    hands_out: Annotated[
        Path | None, typer.Option("--hands-out", metavar="DIR", help="Write every hand to "
                                  "DIR/match.phhs (PHH; Texas Hold'em games).")
    ] = None,
) -> None:
    """Play a duplicate match; print each agent's mean, its interval and its AIVAT estimate.

    Entrant files (.py) and programs play from sandboxed processes of their own, as in the
    arena (see docs/entrants.md): a new one for each leg (the deals in one seating), so
    none remembers the cards of a deal it plays again from the other seat.
    """
    from pokerlab.eval import play_match
    from pokerlab.eval.aivat import aivat_method, known_policy, match_aivat
    from pokerlab.play.deals import derive_seed, fresh_seed

    game = load_game(game_spec)
    if len(agents) != game.n_players:
        raise PokerlabError(f"{game.spec} has {game.n_players} seats; got {len(agents)} "
                            f"agents ({', '.join(agents)})")
    if hands_out is not None:  # refused before any hand: a game PHH lacks, a bad folder
        from pokerlab.interop.phh import phh_game_fields

        phh_game_fields(game)
        check_output_path(hands_out, option="--hands-out", folder=True)
    seed = fresh_seed() if seed is None else seed  # secret unless given; reported at the end
    # each agent's own generator: keyed, so it tells nothing of the deals (as the web's bots)
    entrants = [resolve_entrant(text, game, seed=derive_seed(seed, "bot", k, bits=64),
                                in_process=in_process, trust=trust)
                for k, text in enumerate(agents)]
    drop = drop_caches_choice(drop_caches, keep_caches, entrants)
    built = [entrant.build(game) for entrant in entrants]
    # An entrant file or program plays each leg (seating) afresh: none remembers a deal.
    fresh = [entrant.factory if entrant.may_learn else None for entrant in entrants]
    try:
        live = not json and err_console.is_terminal  # else a live display leaves a blank line
        with err_console.status(f"playing {hands:,} hands per seat") if live else _Quiet():
            result = play_match(game, *built, hands=hands, seed=seed, fresh=fresh,
                                drop_caches=drop)
    finally:
        close_agents(built)
    # Taken now: AIVAT asks a searcher again afterwards, which is not play.
    times = [_decision_times(agent) for agent in built]
    if hands_out is not None:
        from pokerlab.interop.phh_sources import match_batch, write_batches

        event = f"pokerlab match {game.spec}, seed {seed}"
        batch = match_batch(game, result.hands, result.agent_names, event=event)
        written = write_batches([batch], hands_out)
        err_console.print(f"wrote {result.n_hands:,} hands to {path_text(written[0])}")
    method = aivat_method(game) if aivat else None
    estimates = None
    if method is not None:
        with StageProgress(transient=True, disable=json) as bar:
            task = bar.add_task("AIVAT", total=len(result.hands))
            try:
                estimates = match_aivat(
                    game, result, built,
                    progress=lambda done: bar.update(task, completed=done),
                )
            except PokerlabError as exc:  # e.g. a fault replaced a known agent's action
                err_console.print(f"no AIVAT: {exc}", soft_wrap=True)
                method = None
    known = [method is not None and known_policy(game, a) is not None for a in built]
    rows: list[dict[str, Any]] = []
    for k, name in enumerate(result.agent_names):
        plain = result.estimates[k]
        row: dict[str, Any] = {"agent": name, "spec": agents[k], "mean": plain.mean,
                               "low": plain.low, "high": plain.high,
                               "std_error": plain.std_error}
        if result.exact_values is not None:
            row["exact"] = result.exact_values[k]
        if result.control_variates is not None:
            chance = result.control_variates[k]
            row["chance_control"] = {"mean": chance.estimate.mean, "low": chance.estimate.low,
                                     "high": chance.estimate.high,
                                     "variance_reduction": chance.variance_reduction}
        if estimates is not None:
            est = estimates[k]
            row["aivat"] = {"mean": est.estimate.mean, "low": est.estimate.low,
                            "high": est.estimate.high, "std_error": est.estimate.std_error,
                            "variance_reduction": est.variance_reduction,
                            "policy_known": known[k], "values": method}
        if times[k] is not None:
            row["decision_seconds"] = times[k]
        rows.append(row)
    if json:
        print_json({"game": str(game.spec), "hands": result.n_hands, "seed": seed,
                    "agents": rows})
        return
    table = Table(title=f"{game.spec}: {result.n_hands:,} hands (chips per hand, 95% intervals)")
    for column in ("agent", "mean", "chance control", "AIVAT", "x var", "policy", "exact"):
        table.add_column(column, justify="left" if column == "agent" else "right")
    for row in rows:
        chance_row = row.get("chance_control")
        aivat_row = row.get("aivat")
        table.add_row(
            row["agent"],
            _interval(row["mean"], row["low"], row["high"]),
            "-" if chance_row is None else _interval(chance_row["mean"], chance_row["low"],
                                                     chance_row["high"]),
            "-" if aivat_row is None else _interval(aivat_row["mean"], aivat_row["low"],
                                                    aivat_row["high"]),
            "-" if aivat_row is None else _reduction(aivat_row["variance_reduction"]),
            "-" if aivat_row is None else ("known" if aivat_row["policy_known"] else "unknown"),
            f"{row['exact']:+.4f}" if "exact" in row else "-",
        )
    console.print(table)
    for row in rows:
        if "decision_seconds" in row:
            console.print(_times_line(row["agent"], row["decision_seconds"]), highlight=False)
    if aivat and method is None:
        err_console.print(f"no AIVAT on {game.spec}: it needs a game that compiles or Texas "
                          "Hold'em with 2 to 6 seats")
    err_console.print(f"deal seed {seed} (replay with --seed {seed})", highlight=False)


def _decision_times(agent: object) -> dict[str, Any] | None:
    """A searching agent's decision times per street and its budget (None: not a searcher).

    Read from its policy's ``timings`` (``(street, searched, seconds)`` of every decision
    it worked out), so a user sees whether the per-decision budget held over the match. On
    a game that compiles these include the decisions the exact evaluation asked for.
    """
    module = sys.modules.get("pokerlab.agents.search_policy")  # loaded by any searcher
    policy = getattr(agent, "policy", None)
    if module is None or not isinstance(policy, module.SearchPolicy):
        return None
    from pokerlab.studies.search_strength import timing_summary

    think = policy.settings.think
    return {"budget": think, "streets": timing_summary(list(policy.timings), think)}


def _times_line(agent: str, times: dict[str, Any]) -> str:
    """``hard-search decided: turn 812 (790 searched) median 0.31 s, ...`` for the text output."""
    from pokerlab.games.holdem_rules import STREET_NAMES
    from pokerlab.studies.search_strength import OVER

    budget = times["budget"]
    parts = []
    for street, cell in times["streets"].items():
        name = STREET_NAMES[int(street)] if int(street) < len(STREET_NAMES) else street
        over = ("" if cell["over_budget"] is None
                else f", {cell['over_budget']:,} over {OVER:g} x the {budget:g} s budget")
        parts.append(f"{name} {cell['decisions']:,} ({cell['searched']:,} searched): median "
                     f"{cell['median']:.3f} s, 95th percentile {cell['p95']:.3f} s, most "
                     f"{cell['max']:.3f} s{over}")
    return f"{agent} decided: " + ("; ".join(parts) if parts else "no decision worked out")


class _Quiet:
    """A do-nothing context manager (no spinner when printing JSON)."""

    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        return None


def register(app: typer.Typer) -> None:
    """Add ``match`` to the ``pokerlab`` command."""
    app.command("match")(match_command)
