"""``pokerlab blueprint train ... --backend ray``: the Ray branch of the train command.

Builds the trainer the local path builds (cards, bet menu, pruning; one kernel thread) on
the driver and on every Ray worker (:class:`pokerlab.blueprint.ray_backend.BlueprintFactory`),
and runs its rounds (:func:`pokerlab.blueprint.ray_backend.round_training`) through the one
console runner (:func:`pokerlab.solvers.run_console.run_to_budget`): a progress bar, the
budget (``--iterations`` sampled iterations, ``--seconds`` of wall-clock time, both counted
from the blueprint's start) and Ctrl-C or SIGTERM saving ``--out`` at the end of the round.
``--out`` is an ordinary ``.bp`` file: ``--resume`` continues it here or on Ray. Ray is
imported only when this branch runs.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from pokerlab.cli._common import console, err_console, path_text, print_json
from pokerlab.errors import FileFormatError, PokerlabError, SpecError


def check_backend(backend: str, address: str | None, workers: int | None, threads: int) -> bool:
    """True when the options ask for Ray; refuse options that do not go together.

    Raises:
        PokerlabError: an unknown backend, ``--address``/``--workers`` without ``--backend
            ray``, or ``--threads`` above 1 with it.
    """
    if backend not in ("local", "ray"):
        raise PokerlabError(f"--backend must be local or ray; got {backend!r}")
    if backend == "local":
        if address is not None or workers is not None:
            raise PokerlabError("--address and --workers go with --backend ray; add it, or "
                                "drop them to train here")
        return False
    if threads != 1:
        raise PokerlabError("--threads goes with --backend local: each Ray worker runs one "
                            "kernel thread (ask for more --workers instead)")
    return True


def train_on_ray(
    game: Any,
    game_text: str,
    out: Path,
    cards_spec: dict[str, Any],
    bet_menu: str | None,
    *,
    iterations: int | None,
    seconds: float | None,
    target: float | None,
    resume: bool,
    seed: int,
    prune_after: int,
    prune_threshold: float,
    checkpoint_every: float,
    address: str | None,
    workers: int | None,
    batch: int,
    as_json: bool,
) -> bool:
    """Train ``game`` by rounds on Ray workers into ``out``; True if the budget was spent.

    Raises:
        FileFormatError: ``--resume`` without ``out``, or ``out`` present without it.
        SpecError: ``--resume`` with other ``--buckets`` than the file's.
        PokerlabError: Ray missing or unreachable, bad worker counts.
    """
    from pokerlab.blueprint.ray_backend import BlueprintFactory, round_training
    from pokerlab.blueprint.store import read_header
    from pokerlab.solvers.run_console import Budget, run_to_budget

    if resume:
        if not out.exists():
            raise FileFormatError(f"--resume: {out} does not exist; train without --resume")
        header = read_header(out)
        if header.get("storage", "float64") != "float64":
            raise SpecError(f"{out} holds {header['storage']} tables; Ray's rounds train "
                            "float64 tables: resume it with --backend local")
        if header["cards"]["kind"] != cards_spec["kind"] or (
            cards_spec["kind"] == "holdem" and header["cards"] != cards_spec
        ):
            raise SpecError(f"{out} was trained with buckets {header['cards']}; resume with "
                            "the same --buckets")
        cards_spec, bet_menu, seed = header["cards"], header["bet_menu"], int(header["seed"])
        prune_after = int(header["prune_after"])
        prune_threshold = float(header["prune_threshold"])
    elif out.exists():
        raise FileFormatError(
            f"{out} exists; pass --resume to go on training it, or choose another --out"
        )
    factory = BlueprintFactory(cards_spec, bet_menu, prune_after, prune_threshold)
    with round_training(game, workers=workers, batch=batch, seed=seed, backend="ray",
                        address=address, checkpoint=out, resume=resume,
                        trainer_factory=factory, cards=cards_spec,
                        bet_menu=bet_menu) as rounds:
        began, first_done = time.perf_counter(), rounds.iterations
        finished = run_to_budget(rounds, Budget(iterations, seconds, target),
                                 description="blueprint on Ray", save=rounds.save_checkpoint,
                                 save_every=checkpoint_every, quiet=as_json,
                                 console=err_console)
        rounds.save_checkpoint()
        result = rounds.result(began=began, first_done=first_done)
    if not finished:
        err_console.print(
            f"interrupted; {path_text(out)} holds {result.iterations:,} iterations; resume "
            f"with: pokerlab blueprint train '{game_text}' --out {path_text(out)} --resume "
            "--backend ray" + (f" --iterations {iterations}" if iterations else "")
            + (f" --seconds {seconds}" if seconds is not None else "")
            + (f" --target {target}" if target is not None else "")
        )
        return False
    trainer, sampled, count = result.trainer, result.iterations, result.workers
    replaced = result.workers_replaced
    summary = {
        "game": str(game.spec), "out": str(out), "backend": "ray", "workers": count,
        "iterations": sampled, "clock": trainer.iterations,
        "seconds": round(trainer.seconds, 3), "rows": trainer.n_rows,
        "memory_bytes": trainer.nbytes, "buckets": list(trainer.cards.bucket_counts),
        "iterations_per_second": round(result.iterations_per_second, 1),
        "workers_replaced": replaced, "finished": finished,
    }  # fmt: skip
    if as_json:
        print_json(summary)
    else:
        console.print(
            f"{sampled:,} iterations on {count} Ray workers ({summary['iterations_per_second']:,}"
            f" it/s this run), {trainer.n_rows:,} rows; saved {path_text(out)}"
        )
    return True


__all__ = ["check_backend", "train_on_ray"]
