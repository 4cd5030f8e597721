"""Reports over many flops: one spot shape solved on each flop of a set, then aggregated.

What ``pokerlab spot report`` runs. A *plan* (:class:`ReportPlan`) is a spot without its
board (ranges, pot, stack, bet tree) and a stopping rule; :func:`run_report` solves it on
every flop of a set (:mod:`pokerlab.studies.flop_sets`) with the range solver, on this
machine's processes or on Ray workers, and keeps for each flop one *row*: its texture,
the EVs and equities of both ranges, OOP's action frequencies at the root and IP's after
OOP checks, the exploitability reached and the time taken.

The rows live in ``FOLDER/report.json``, rewritten atomically after every flop, so an
interrupted report (Ctrl-C, SIGTERM, a lost machine) resumes where it stopped: running it
again skips the flops it holds. :func:`write_outputs` then writes ``flops.csv`` (a row a
flop), ``textures.csv`` (weighted averages by texture) and ``textures.png`` (OOP's
frequencies by texture). Averages weight each flop by the dealt flops it stands for.
"""

from __future__ import annotations

import csv
import io
import json
import multiprocessing
import signal
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from pokerlab.errors import PokerlabError, SpecError
from pokerlab.strategy.io import write_file_atomic
from pokerlab.studies.flop_sets import (
    CONNECTED_ORDER,
    PAIRING_ORDER,
    SUITS_ORDER,
    Flop,
    texture,
)
from pokerlab.subgame.spot import Spot, SpotSize
from pokerlab.subgame.units import usable_cores

FORMAT = "pokerlab-flop-report"
VERSION = 1
RESULTS = "report.json"
GROUPS = ("all", "suits", "pairing", "high", "connected")
"""What :func:`aggregate` groups by: every flop, or one texture field."""

_POLL_SECONDS = 0.2


@dataclass(frozen=True)
class ReportPlan:
    """One spot shape and how long to solve it on each flop.

    Attributes:
        spot: the spot's fields but its board (:meth:`Spot.to_dict` without ``board``).
        target: stop each solve at this exploitability, in percent of the pot.
        iterations: stop each solve at this many iterations.
        seconds: stop each solve after this many wall-clock seconds.
        check_every: iterations between exploitability checks.
        variant: ``"dcfr"``, ``"cfr+"`` or ``"cfr"``.
        memory_limit: bytes one solve may take (a flop needing more is refused).
    """

    spot: dict[str, Any]
    target: float | None = None
    iterations: int | None = None
    seconds: float | None = None
    check_every: int = 10
    variant: str = "dcfr"
    memory_limit: int = 8_000 * 10**6

    def __post_init__(self) -> None:
        if self.target is None and self.iterations is None and self.seconds is None:
            raise SpecError("a flop report needs a stopping rule for each flop: a target "
                            "('0.5%'), iterations or seconds")
        if "board" in self.spot:
            raise SpecError("a report plan's spot has no board: the flops give it")

    def spot_on(self, flop: Flop | str) -> Spot:
        """The plan's spot on ``flop``.

        Raises:
            CardError, SpecError: a range or size the spot refuses.
        """
        board = flop if isinstance(flop, str) else flop.text
        return Spot.from_dict({**self.spot, "board": board})

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready; :meth:`from_dict` rebuilds it."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ReportPlan:
        """Rebuild a plan from :meth:`to_dict`."""
        return cls(**data)


def estimate(plan: ReportPlan, flops: Sequence[Flop]) -> SpotSize:
    """The largest spot size of the set, computed before anything is built.

    Sizes differ by suits only (isomorphic turn and river cards), so one flop of each
    suit pattern in the set is measured.

    Raises:
        CardError, SpecError: the plan's spot refused on the first flop.
    """
    pattern: dict[str, Flop] = {}
    for flop in flops:
        pattern.setdefault(texture(flop.cards).suits, flop)
    sizes = [plan.spot_on(flop).size() for flop in pattern.values()]
    return max(sizes, key=lambda size: size.bytes)


def solve_flop(plan: ReportPlan, flop: Flop, interrupt: Callable[[], bool] | None = None,
               threads: int | None = 1) -> dict[str, Any] | None:
    """Solve the plan on ``flop`` on ``threads`` threads; its report row, or None if interrupted.

    A flop the plan cannot be solved on (ranges that cannot meet on it, a spot over the
    memory limit) gives a row with its ``error``, so that a report never stops for one.
    """
    from pokerlab.cards.ranges import check_ranges_meet
    from pokerlab.subgame.range_solver import RangeSolver
    from pokerlab.subgame.range_table import range_frequencies
    from pokerlab.subgame.result import SpotSolution

    shape = texture(flop.cards)
    row: dict[str, Any] = {"flop": flop.text, "weight": flop.weight, **asdict(shape)}
    try:
        spot = plan.spot_on(flop)
        check_ranges_meet(spot.oop, spot.ip, spot.board_cards)
        built = spot.build(memory_limit=plan.memory_limit)
        solver = RangeSolver(built.public, variant=plan.variant,
                             memory_limit=plan.memory_limit, precision=built.precision,
                             threads=threads)
        target = None if plan.target is None else plan.target / 100 * spot.pot
        solver.run(plan.iterations, target_exploitability=target, seconds=plan.seconds,
                   check_every=plan.check_every, interrupt=interrupt)
    except PokerlabError as error:
        return {**row, "error": str(error)}
    if solver.interrupted:
        return None
    solution = SpotSolution.from_solver(solver, built, finish=True)
    root = solution.node("")
    ev = solution.ev
    row.update({
        "iterations": solution.iterations,
        "seconds": round(solution.seconds, 4),
        "exploitability_percent": solution.percent_of_pot,
        "ev_oop": ev[0], "ev_ip": ev[1],
        "ev_oop_percent": 100 * ev[0] / spot.pot, "ev_ip_percent": 100 * ev[1] / spot.pot,
        "equity_oop": 100 * root.range_equity,
        "oop": dict(zip(root.actions, map(float, range_frequencies(root)), strict=True)),
    })
    row["equity_ip"] = 100 * solution.node("", player=1).range_equity
    if "check" in root.actions:
        after = solution.node(root.children[root.actions.index("check")])
        row["ip_vs_check"] = dict(zip(after.actions, map(float, range_frequencies(after)),
                                      strict=True))
    return row


# -- the results file ------------------------------------------------------------------
def load_report(folder: str | Path) -> dict[str, Any] | None:
    """The report in ``folder`` (its ``report.json``), or None when there is none.

    Raises:
        PokerlabError: a file that is not a flop report.
    """
    path = Path(folder) / RESULTS
    if not path.exists():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise PokerlabError(f"cannot read the flop report {path}: {error}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise PokerlabError(f"{path} is not a flop report ({FORMAT} file); give --out "
                            "another folder")
    if data.get("version") != VERSION:
        raise PokerlabError(f"{path} is a flop report of version {data.get('version')!r}; "
                            f"this pokerlab reads version {VERSION}")
    return data


def _save(folder: Path, data: dict[str, Any]) -> None:
    """Rewrite ``report.json`` atomically (actions keep the tree's order)."""
    _write_text(folder / RESULTS, json.dumps(data, indent=1))


def _write_text(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` atomically: a reader sees the old file or the new one."""
    content = text.encode()
    write_file_atomic(path, lambda stream: stream.write(content))


def _start(plan: ReportPlan, flops: Sequence[Flop], folder: Path) -> dict[str, Any]:
    """The report's data: the one in ``folder`` if it is this report's, else a new one.

    Raises:
        PokerlabError: ``folder`` holds a report of another plan or flop set.
    """
    listed = [{"flop": flop.text, "weight": flop.weight} for flop in flops]
    data = load_report(folder)
    if data is None:
        return {"format": FORMAT, "version": VERSION, "plan": plan.to_dict(),
                "flops": listed, "rows": {}}
    if data.get("plan") != plan.to_dict():
        changed = sorted(name for name, value in plan.to_dict().items()
                         if data.get("plan", {}).get(name) != value)
        raise PokerlabError(f"{folder} holds a report of another spot or stopping rule "
                            f"(it differs in {', '.join(changed)}); give --out another folder "
                            "to start a new report")
    if data.get("flops") != listed:
        raise PokerlabError(f"{folder} holds a report over other flops; give --out another "
                            "folder, or the same --flops to go on with it")
    return data


# -- running ---------------------------------------------------------------------------
@dataclass(frozen=True)
class ReportRun:
    """What :func:`run_report` did.

    Attributes:
        data: the report (as in ``report.json``).
        finished: every flop has its row (False: interrupted; run again to go on).
        solved: flops solved by this call.
    """

    data: dict[str, Any]
    finished: bool
    solved: int


def run_report(
    plan: ReportPlan,
    flops: Sequence[Flop],
    folder: str | Path,
    *,
    workers: int | None = 1,
    threads: int | None = None,
    backend: str = "local",
    address: str | None = None,
    stop: Callable[[], bool] | None = None,
    progress: Callable[[int, int], object] | None = None,
) -> ReportRun:
    """Solve the plan on every flop of the set not yet in ``folder``'s report.

    Args:
        plan: the spot shape and stopping rule.
        flops: the set (:func:`pokerlab.studies.flop_sets.flop_set`).
        folder: where ``report.json`` lives (created); its rows are kept and skipped.
        workers: processes solving at once (local), or Ray workers (None: the
            cluster's CPUs).
        threads: threads per solve (None: this machine's cores shared among the local
            workers; one on Ray, whose workers have one CPU each).
        backend: ``"local"`` (this machine's processes) or ``"ray"``.
        address: with Ray: the cluster (None starts one here).
        stop: polled often; True stops the run (the flops being solved are dropped and
            solved again by the next run).
        progress: called with ``(flops done, flops in all)`` after each flop.

    Raises:
        PokerlabError: another report in ``folder``, a bad backend, Ray missing.
    """
    if backend not in ("local", "ray"):
        raise PokerlabError(f"--backend must be local or ray; got {backend!r}")
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    data = _start(plan, flops, out)
    rows: dict[str, Any] = data["rows"]
    todo = [flop for flop in flops if flop.text not in rows]
    halt = stop or (lambda: False)
    if progress is not None:
        progress(len(flops) - len(todo), len(flops))
    if backend == "ray":
        results = _ray_rows(plan, todo, workers, address, halt, threads or 1)
    elif workers is not None and workers > 1 and len(todo) > 1:
        results = _pool_rows(plan, todo, workers, halt,
                             threads or max(1, usable_cores() // min(workers, len(todo))))
    else:
        results = _local_rows(plan, todo, halt, threads)
    solved = 0
    for row in results:
        rows[row["flop"]] = row
        solved += 1
        _save(out, data)
        if progress is not None:
            progress(len(rows), len(flops))
    _save(out, data)
    return ReportRun(data, finished=len(rows) == len(flops), solved=solved)


def _local_rows(plan: ReportPlan, flops: Sequence[Flop], stop: Callable[[], bool],
                threads: int | None) -> Iterator[dict[str, Any]]:
    """Solve in this process, one flop after another."""
    for flop in flops:
        if stop():
            return
        row = solve_flop(plan, flop, interrupt=stop, threads=threads)
        if row is None:
            return
        yield row


def _quiet_worker() -> None:
    """A pool worker leaves Ctrl-C and SIGTERM to the driver (which stops the pool)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _solve_job(job: tuple[ReportPlan, Flop, int]) -> dict[str, Any] | None:
    plan, flop, threads = job
    return solve_flop(plan, flop, threads=threads)


def _pool_rows(plan: ReportPlan, flops: Sequence[Flop], workers: int,
               stop: Callable[[], bool], threads: int) -> Iterator[dict[str, Any]]:
    """Solve on ``workers`` processes of this machine, rows in the order they finish."""
    context = multiprocessing.get_context("spawn")  # numba and threads do not survive fork
    pool = context.Pool(min(workers, len(flops)), initializer=_quiet_worker)
    try:
        answers = pool.imap_unordered(_solve_job, [(plan, flop, threads) for flop in flops])
        for _ in flops:
            while True:
                if stop():
                    return
                try:
                    row = answers.next(timeout=_POLL_SECONDS)
                except multiprocessing.TimeoutError:
                    continue
                break
            if row is not None:
                yield row
        pool.close()
    finally:
        pool.terminate()
        pool.join()


def _ray_rows(plan: ReportPlan, flops: Sequence[Flop], workers: int | None,
              address: str | None, stop: Callable[[], bool],
              threads: int) -> Iterator[dict[str, Any]]:
    """Solve on Ray workers (one CPU each), at most ``workers`` flops at once."""
    from pokerlab.blueprint.ray_session import cluster_workers, ray_session

    with ray_session(address) as ray:
        count = cluster_workers(ray, workers)
        remote = ray.remote(num_cpus=1, max_retries=3)(solve_flop)
        waiting = list(flops)
        running: list[Any] = []
        try:
            while waiting or running:
                while waiting and len(running) < count:
                    running.append(remote.remote(plan, waiting.pop(0), None, threads))
                done, running = ray.wait(running, num_returns=1, timeout=_POLL_SECONDS)
                if stop():
                    return
                for ref in done:
                    row = ray.get(ref)
                    if row is not None:
                        yield row
        finally:
            for ref in running:
                ray.cancel(ref, force=True)


def available_memory() -> int | None:
    """Bytes of memory this machine has available (Linux's MemAvailable), or None."""
    try:
        with open("/proc/meminfo", encoding="ascii") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        return None
    return None



# -- aggregates and outputs -----------------------------------------------------------
def action_names(rows: Sequence[dict[str, Any]], side: str) -> list[str]:
    """The actions of ``side`` (``"oop"`` or ``"ip_vs_check"``) over the rows, in order."""
    names: list[str] = []
    for row in rows:
        for name in row.get(side, {}):
            if name not in names:
                names.append(name)
    return names


def solved_rows(data: dict[str, Any]) -> list[dict[str, Any]]:
    """The rows solved without error, in the set's order."""
    rows = data["rows"]
    return [rows[entry["flop"]] for entry in data["flops"]
            if entry["flop"] in rows and "error" not in rows[entry["flop"]]]


def aggregate(data: dict[str, Any], by: str = "all") -> list[dict[str, Any]]:
    """Weighted averages over the solved flops, one per group of ``by`` (:data:`GROUPS`).

    Each group: its name, flop count and weight, EV and equity of both ranges, and the
    frequency of each of OOP's root actions and of IP's actions after a check.

    Raises:
        SpecError: ``by`` not in :data:`GROUPS`.
    """
    if by not in GROUPS:
        raise SpecError(f"group by one of {', '.join(GROUPS)}; got {by!r}")
    rows = solved_rows(data)
    order = {"suits": SUITS_ORDER, "pairing": PAIRING_ORDER, "connected": CONNECTED_ORDER,
             "high": tuple("AKQJT98765432")}.get(by, ("all",))
    groups: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        groups.setdefault("all" if by == "all" else row[by], []).append(row)
    oop, ip = action_names(rows, "oop"), action_names(rows, "ip_vs_check")
    out = []
    for name in sorted(groups, key=order.index):
        members = groups[name]
        weights = np.array([row["weight"] for row in members])

        def mean(values: list[float], w: np.ndarray = weights) -> float:
            return float(np.dot(w, values) / w.sum())

        group = {"group": name, "flops": len(members), "weight": float(weights.sum())}
        for field in ("ev_oop_percent", "ev_ip_percent", "equity_oop", "equity_ip",
                      "exploitability_percent"):
            group[field] = mean([row[field] for row in members])
        for side, names in (("oop", oop), ("ip_vs_check", ip)):
            group[side] = {action: mean([row.get(side, {}).get(action, 0.0) for row in members])
                           for action in names}
        out.append(group)
    return out


def _flat(row: dict[str, Any], fields: Sequence[str], oop: Sequence[str],
          ip: Sequence[str]) -> list[Any]:
    values = [row.get(field, "") for field in fields]
    values += [_round(row.get("oop", {}).get(name, "")) for name in oop]
    values += [_round(row.get("ip_vs_check", {}).get(name, "")) for name in ip]
    return [_round(value) for value in values]


def _round(value: Any) -> Any:
    return round(value, 6) if isinstance(value, float) else value


FLOP_FIELDS = ("flop", "weight", "suits", "pairing", "high", "connected", "ev_oop",
               "ev_ip", "ev_oop_percent", "ev_ip_percent", "equity_oop", "equity_ip",
               "exploitability_percent", "iterations", "seconds", "error")
GROUP_FIELDS = ("group", "flops", "weight", "ev_oop_percent", "ev_ip_percent",
                "equity_oop", "equity_ip", "exploitability_percent")


def flops_csv(data: dict[str, Any]) -> str:
    """A CSV row per flop of the report (flops not yet solved are left out)."""
    rows = [data["rows"][entry["flop"]] for entry in data["flops"]
            if entry["flop"] in data["rows"]]
    oop, ip = action_names(rows, "oop"), action_names(rows, "ip_vs_check")
    stream = io.StringIO()
    writer = csv.writer(stream, lineterminator="\n")
    writer.writerow([*FLOP_FIELDS, *(f"oop {a}" for a in oop),
                     *(f"ip vs check {a}" for a in ip)])
    for row in rows:
        writer.writerow(_flat(row, FLOP_FIELDS, oop, ip))
    return stream.getvalue()


def textures_csv(data: dict[str, Any]) -> str:
    """A CSV row per texture group (every flop, then each suits, pairing, high card...)."""
    rows = solved_rows(data)
    oop, ip = action_names(rows, "oop"), action_names(rows, "ip_vs_check")
    stream = io.StringIO()
    writer = csv.writer(stream, lineterminator="\n")
    writer.writerow(["by", *GROUP_FIELDS, *(f"oop {a}" for a in oop),
                     *(f"ip vs check {a}" for a in ip)])
    if rows:
        for by in GROUPS:
            for group in aggregate(data, by):
                writer.writerow([by, *_flat(group, GROUP_FIELDS, oop, ip)])
    return stream.getvalue()


def textures_png(data: dict[str, Any], path: str | Path, *, title: str = "") -> Path:
    """OOP's root frequencies by texture: a stacked bar per group, a panel per field."""
    from pokerlab.studies._figures import pyplot, save_figure
    from pokerlab.subgame.range_table import action_colours

    plt = pyplot()
    names = action_names(solved_rows(data), "oop")
    colours = action_colours(names)
    figure, axes = plt.subplots(2, 2, figsize=(11, 7.5), constrained_layout=True)
    for ax, by in zip(axes.flat, ("suits", "pairing", "high", "connected"), strict=True):
        groups = aggregate(data, by)
        total = sum(g["weight"] for g in groups)
        labels = [f"{g['group']}\n({100 * g['weight'] / total:.0f}%)" for g in groups]
        bottom = np.zeros(len(groups))
        for name, colour in zip(names, colours, strict=True):
            share = np.array([100 * g["oop"][name] for g in groups])
            ax.bar(labels, share, bottom=bottom, color=colour, label=name, edgecolor="white")
            bottom += share
        ax.set_title(f"by {by} (share of flops)")
        ax.set_ylabel("OOP's root frequency, %")
        ax.set_ylim(0, 100)
    axes.flat[0].legend(loc="lower left", fontsize="small", framealpha=0.9)
    figure.suptitle(title or "OOP's root strategy by flop texture")
    return save_figure(figure, path)


def write_outputs(data: dict[str, Any], folder: str | Path, *, title: str = "") -> list[Path]:
    """Write ``flops.csv``, ``textures.csv`` and (with solved flops) ``textures.png``."""
    out = Path(folder)
    written = []
    for name, text in (("flops.csv", flops_csv(data)), ("textures.csv", textures_csv(data))):
        _write_text(out / name, text)
        written.append(out / name)
    if solved_rows(data):
        written.append(textures_png(data, out / "textures.png", title=title))
    return written
