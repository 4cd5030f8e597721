"""Round-robin tournaments stored hand by hand, resumable after any crash.

``run_tournament(game, entrants, db="arena.db", hands=1000)`` plays every pair of
entrants in one duplicate match of ``2 * hands`` hands (each deal in both seats: ``hands``
hands per seat), writing every hand to the SQLite store, one transaction per batch.

Reproducibility and resumption:

1. Match ``m`` gets the seed ``match_seed(seed, m)``; hand ``i`` of a match depends only
   on that seed and ``i`` (chance, and the agents' ``seed()`` hook) -- or, for two
   strategy-backed agents sampled on the compiled tree, on the seed and the batch's first
   hand, batches always starting at multiples of the run's batch size.
2. Agents are created afresh for each match. On ``resume=True`` the latest run of the
   database continues: for each unfinished match, fresh agents are fed the stored hands
   (:func:`pokerlab.eval.matches.replay_hands`: reset, seed, act on the recorded
   observations, observe the results), then play goes on after the last committed hand.
   Agents whose behaviour depends only on what they observed and on the ``seed()`` hook
   (every built-in, the exploitative bot included) then play exactly the hands of an
   uninterrupted run; an entrant that draws unseeded randomness cannot be reproduced,
   and a replay that disagrees with the record is stored as a ``"replay"`` event.
3. Files that fail to load are stored with their error and left out; the others play.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from pokerlab.agents.exploitative import ExploitativeAgent
from pokerlab.agents.loader import AgentLoadError, load_agent, load_agent_class
from pokerlab.agents.simple import AlwaysCall, AlwaysRaise, RandomAgent, RuleBased
from pokerlab.agents.solver_bots import SOLVER_BOT_ITERATIONS, solver_bot
from pokerlab.arena.store import ArenaStore, MatchRow
from pokerlab.errors import PokerlabError
from pokerlab.eval.matches import HandRecord, iter_hands, replay_hands, sample_hands
from pokerlab.games import Game
from pokerlab.strategy import Strategy

AgentFactory = Callable[[Game], object]


@dataclass(frozen=True)
class Entrant:
    """A tournament entrant: a name, where it comes from, and how to build it.

    Attributes:
        name: unique within the tournament.
        source: ``"builtin:NAME"`` or the path of the entrant's file.
        factory: builds a fresh agent for a match (None when it failed to load).
        error: why it could not be loaded, or None.
    """

    name: str
    source: str
    factory: AgentFactory | None
    error: str | None = None


@dataclass(frozen=True)
class TournamentProgress:
    """What a progress callback receives after each batch.

    Attributes:
        match_index: the match being played (0-based).
        n_matches: matches in the run.
        names: the two agents of the match.
        hands_done: hands of this match stored so far.
        hands_total: hands of this match.
    """

    match_index: int
    n_matches: int
    names: tuple[str, str]
    hands_done: int
    hands_total: int


@dataclass(frozen=True)
class TournamentResult:
    """A finished (or resumed and finished) run.

    Attributes:
        run_id: the run's id in the database.
        db: the database file.
        matches: matches in the run.
        hands_played: hands played by this call (0 when resuming a finished run).
        failed: ``(name, error)`` of entrants left out.
    """

    run_id: int
    db: Path
    matches: int
    hands_played: int
    failed: tuple[tuple[str, str], ...]


# -- entrants ------------------------------------------------------------------------------


def builtin_names() -> tuple[str, ...]:
    """The built-in entrant names accepted by :func:`builtin_entrant`."""
    solvers = tuple(f"cfr+{n}" for n in SOLVER_BOT_ITERATIONS)
    return ("random", "always-call", "always-raise", "rule-based", "exploitative", "solver",
            "solvers", *solvers)


def builtin_entrants(name: str, *, cache_dir: str | Path | None = None) -> list[Entrant]:
    """The entrant(s) a built-in name stands for.

    ``solver`` is the strongest solver bot (CFR+ after 10,000 iterations), ``solvers``
    all five (1 to 10,000 iterations), ``cfr+N`` CFR+ after N iterations.

    Raises:
        PokerlabError: for an unknown name (the message lists the known ones).
    """
    simple: dict[str, AgentFactory] = {
        "random": lambda game: RandomAgent(),
        "always-call": lambda game: AlwaysCall(),
        "always-raise": lambda game: AlwaysRaise(),
        "rule-based": lambda game: RuleBased(),
        "exploitative": lambda game: ExploitativeAgent(game),
    }
    if name in simple:
        return [Entrant(name, f"builtin:{name}", simple[name])]
    if name == "solvers":
        return [e for n in SOLVER_BOT_ITERATIONS for e in builtin_entrants(f"cfr+{n}",
                                                                            cache_dir=cache_dir)]
    if name == "solver":
        name = f"cfr+{SOLVER_BOT_ITERATIONS[-1]}"
    if name.startswith("cfr+") and name[4:].isdigit() and int(name[4:]) > 0:
        iterations = int(name[4:])

        def factory(game: Game) -> object:
            return solver_bot(game, iterations, cache_dir=cache_dir)

        return [Entrant(name, f"builtin:{name}", factory)]
    raise PokerlabError(f"unknown built-in agent {name!r}; known: {', '.join(builtin_names())} "
                        "(or cfr+N for any N)")


def file_entrants(folder: str | Path) -> list[Entrant]:
    """One entrant per ``*.py`` file of ``folder`` (files starting with ``_`` skipped).

    A file that fails to import, has no ``Agent`` class, or whose ``Agent`` cannot be
    built becomes an entrant with its ``error`` set (reported, and left out of play).

    Raises:
        PokerlabError: if ``folder`` is not a folder.
    """
    path = Path(folder)
    if not path.is_dir():
        raise PokerlabError(f"--agents must be a folder of agent files; {str(path)!r} is not")
    entrants = []
    for file in sorted(path.glob("*.py")):
        if file.name.startswith("_"):
            continue
        try:
            load_agent_class(file)
        except AgentLoadError as exc:
            entrants.append(Entrant(file.stem, str(file), None, str(exc)))
            continue

        def factory(game: Game, file: Path = file) -> object:
            return load_agent(file, game)

        entrants.append(Entrant(file.stem, str(file), factory))
    return entrants


def _unique(entrants: Sequence[Entrant]) -> list[Entrant]:
    seen: dict[str, int] = {}
    unique = []
    for entrant in entrants:
        count = seen.get(entrant.name, 0)
        seen[entrant.name] = count + 1
        name = entrant.name if count == 0 else f"{entrant.name}#{count + 1}"
        unique.append(Entrant(name, entrant.source, entrant.factory, entrant.error))
    return unique


def match_seed(seed: int, match_index: int) -> int:
    """The seed of match ``match_index`` of a run seeded with ``seed`` (fits SQLite)."""
    words = np.random.SeedSequence([seed, match_index, 0xA7E4A]).generate_state(2, np.uint32)
    return int((int(words[0]) << 30) ^ int(words[1]))


# -- the run -------------------------------------------------------------------------------


def run_tournament(
    game: Game,
    entrants: Sequence[Entrant],
    *,
    db: str | Path,
    hands: int = 1000,
    seed: int = 0,
    resume: bool = False,
    batch_size: int = 100,
    time_limit: float | None = None,
    progress: Callable[[TournamentProgress], None] | None = None,
) -> TournamentResult:
    """Play a duplicate round robin between ``entrants`` and store every hand in ``db``.

    Args:
        game: a two-player game.
        entrants: the entrants (see :func:`builtin_entrants`, :func:`file_entrants`).
        db: the SQLite database file (created if missing).
        hands: hands per seat per pair (each match plays ``2 * hands`` hands).
        seed: the run's seed.
        resume: continue the latest run of ``db`` instead of starting a new one (the
            game must match; the other settings are the stored run's).
        batch_size: hands per transaction (even).
        time_limit: seconds allowed per decision.
        progress: called after each stored batch.

    Raises:
        PokerlabError: bad parameters, fewer than two loadable entrants, or a resumed
            run of another game.
    """
    if game.n_players != 2:
        raise PokerlabError(f"the arena plays two-player games; {game.spec} has {game.n_players}")
    if not isinstance(hands, int) or hands < 1:
        raise PokerlabError(f"hands must be an integer >= 1 (per seat); got {hands!r}")
    if batch_size < 2 or batch_size % 2:
        raise PokerlabError(f"batch_size must be an even integer >= 2; got {batch_size!r}")
    entrants = _unique(entrants)
    playable = [i for i, e in enumerate(entrants) if e.error is None and e.factory is not None]
    failed = tuple((e.name, e.error or "") for e in entrants if e.error is not None)
    with ArenaStore(db) as store:
        if resume and not store.runs():
            raise PokerlabError(f"{db} holds no run to resume; drop --resume to start one")
        if resume:
            run = store.run()
            if run.game != str(game.spec):
                raise PokerlabError(f"{db}: the latest run is of {run.game}, not {game.spec}; "
                                    "drop --resume to start a new run")
            changed = [
                f"{name} {stored} (asked {asked})"
                for name, stored, asked in (("hands", run.hands, hands), ("seed", run.seed, seed))
                if stored != asked
            ]
            if changed:
                raise PokerlabError(
                    f"{db}: the run to resume was started with {', '.join(changed)}; resume "
                    "with the same options, or drop --resume to start a new run"
                )
            run_id = run.id
            batch_size = run.batch_size
            time_limit = run.time_limit
            by_name = {e.name: e for e in entrants}
            stored = store.agents(run_id)
            missing = [a.name for a in stored if a.error is None and a.name not in by_name]
            if missing:
                raise PokerlabError(f"cannot resume: entrant(s) {missing} of the stored run "
                                    "are not given")
            agent_names = {a.id: a.name for a in stored}
            factories = {a.id: by_name[a.name].factory for a in stored if a.error is None}
        else:
            if len(playable) < 2:
                raise PokerlabError(
                    f"a tournament needs at least two agents that load; got {len(playable)}"
                    + (f" ({len(failed)} failed: {failed[0][0]}: {failed[0][1]})" if failed
                       else "")
                )
            pairs = [(a, b) for k, a in enumerate(playable) for b in playable[k + 1 :]]
            run_id = store.create_run(
                game=str(game.spec), hands=hands, seed=seed, batch_size=batch_size,
                time_limit=time_limit,
                config={"entrants": [e.name for e in entrants]},
                agents=[(e.name, e.source, e.error) for e in entrants],
                matches=[(a, b, match_seed(seed, m), 2 * hands) for m, (a, b) in enumerate(pairs)],
            )
            stored = store.agents(run_id)
            agent_names = {row.id: row.name for row in stored}
            factories = {row.id: entrants[row.position].factory for row in stored
                         if row.error is None}
        matches = store.matches(run_id)
        played = 0
        for match in matches:
            if match.finished is not None:
                continue
            played += _play_match(
                store, game, match, len(matches), agent_names, factories, batch_size,
                time_limit, progress,
            )
            store.finish_match(match.id)
        store.finish_run(run_id)
        return TournamentResult(run_id, Path(db), len(matches), played, failed)


def _strategy_of(agent: object) -> Strategy | None:
    strategy = getattr(agent, "strategy", None)
    return strategy if isinstance(strategy, Strategy) else None


def _play_match(
    store: ArenaStore,
    game: Game,
    match: MatchRow,
    n_matches: int,
    names: dict[int, str],
    factories: dict[int, AgentFactory | None],
    batch_size: int,
    time_limit: float | None,
    progress: Callable[[TournamentProgress], None] | None,
) -> int:
    build_a, build_b = factories.get(match.agent_a), factories.get(match.agent_b)
    if build_a is None or build_b is None:
        raise PokerlabError(f"match {match.match_index}: an agent of the stored run is missing")
    a, b = build_a(game), build_b(game)
    pair = (names[match.agent_a], names[match.agent_b])
    done = store.hands_done(match.id)
    sa, sb = _strategy_of(a), _strategy_of(b)
    sampled = sa is not None and sb is not None
    if done and not sampled:
        mismatches = replay_hands(game, a, b, store.hands(match.id), seed=match.seed)
        if mismatches:
            with store.transaction() as db:
                db.execute(
                    "INSERT INTO event (match_id, hand_index, seat, agent, kind, detail, action) "
                    "VALUES (?, ?, NULL, NULL, 'replay', ?, -1)",
                    (match.id, done, f"{mismatches} replayed hand(s) differ from the record: "
                                     "an agent is not reproducible"),
                )
    played = 0
    if sampled and sa is not None and sb is not None:
        for start in range(done, match.hands, batch_size):
            stop = min(start + batch_size, match.hands)
            batch = sample_hands(game, sa, sb, start=start, stop=stop, seed=match.seed)
            store.write_hands(match.id, batch)
            played += len(batch)
            _report(progress, match, n_matches, pair, stop)
        return played
    batch_records: list[HandRecord] = []
    for record in iter_hands(game, a, b, hands=match.hands, seed=match.seed,
                             time_limit=time_limit, start=done):
        batch_records.append(record)
        if len(batch_records) == batch_size:
            store.write_hands(match.id, batch_records)
            played += len(batch_records)
            _report(progress, match, n_matches, pair, record.hand + 1)
            batch_records = []
    if batch_records:
        store.write_hands(match.id, batch_records)
        played += len(batch_records)
        _report(progress, match, n_matches, pair, match.hands)
    return played


def _report(
    progress: Callable[[TournamentProgress], None] | None, match: MatchRow, n_matches: int,
    pair: tuple[str, str], done: int,
) -> None:
    if progress is not None:
        progress(TournamentProgress(match.match_index, n_matches, pair, done, match.hands))


__all__ = [
    "Entrant",
    "TournamentProgress",
    "TournamentResult",
    "builtin_entrants",
    "builtin_names",
    "file_entrants",
    "match_seed",
    "run_tournament",
]
