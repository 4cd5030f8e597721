"""Reaching Ray: the one way pokerlab imports Ray and joins (or starts) a cluster.

Ray is optional (``pip install 'pokerlab[ray]'``) and imported only inside these
functions, so importing this module costs nothing. Blueprint training by rounds
(:mod:`pokerlab.blueprint.ray_backend`) and the arena's Ray backend use them.
"""

from __future__ import annotations

import contextlib
import socket
from collections.abc import Iterator
from types import ModuleType

from pokerlab.errors import PokerlabError

RAY_EXTRA_HINT = "pip install 'pokerlab[ray]'"


def require_ray() -> ModuleType:
    """Import Ray, or say in one line which extra installs it.

    Raises:
        PokerlabError: if Ray is not installed.
    """
    try:
        import ray
    except ImportError:
        raise PokerlabError(
            f"--backend ray needs Ray, which is not installed: {RAY_EXTRA_HINT}"
        ) from None
    return ray


@contextlib.contextmanager
def ray_session(address: str | None = None) -> Iterator[ModuleType]:
    """Yield the ``ray`` module connected to a cluster; shut down only what it started.

    Args:
        address: ``None`` starts a Ray instance on this machine (its cores), unless the
            process is already connected (then that connection is used); ``"auto"``
            joins the cluster this machine belongs to (``ray start`` ran here);
            ``"HOST:PORT"`` the cluster whose head listens there (the GCS port, 6379 by
            default).

    Raises:
        PokerlabError: Ray is not installed, or the cluster cannot be reached.
    """
    ray = require_ray()
    if ray.is_initialized():
        yield ray
        return
    if address is not None and address != "auto":
        _check_reachable(address)
    try:
        if address is None:
            ray.init(include_dashboard=False, log_to_driver=False, configure_logging=False)
        else:
            ray.init(address=address, log_to_driver=False, configure_logging=False)
    except (ConnectionError, RuntimeError, ValueError) as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise PokerlabError(
            f"cannot reach a Ray cluster at --address {address!r} ({first}); start one with "
            "`ray start --head` (docs/scaling.md), or drop --address to use this machine"
        ) from None
    try:
        yield ray
    finally:
        ray.shutdown()


def _check_reachable(address: str) -> None:
    """Refuse at once a ``HOST:PORT`` nothing listens on (Ray itself retries for minutes).

    Raises:
        PokerlabError: if ``address`` is not ``HOST:PORT`` or no connection opens in 5 s.
    """
    host, _, port = address.removeprefix("ray://").rpartition(":")
    if not host or not port.isdigit():
        raise PokerlabError(f"--address must be auto or HOST:PORT; got {address!r}")
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=5).close()
    except OSError as exc:
        raise PokerlabError(
            f"cannot reach a Ray cluster at --address {address!r} ({exc.strerror or exc}); "
            "start one with `ray start --head` (docs/scaling.md), or drop --address to use "
            "this machine"
        ) from None


def cluster_workers(ray: ModuleType, workers: int | None) -> int:
    """``workers``, checked against the cluster, or the cluster's CPU count when ``None``.

    Each worker holds one CPU; more workers than the cluster's CPUs would wait for a CPU
    forever (or until an autoscaler adds machines), so they are refused.

    Raises:
        PokerlabError: if ``workers`` is not an integer >= 1, or exceeds the cluster's CPUs.
    """
    cpus = int(ray.cluster_resources().get("CPU", 0))
    if workers is None:
        return max(1, cpus)
    check_workers(workers)
    if workers > cpus:
        raise PokerlabError(
            f"--workers {workers} needs {workers} CPUs; the Ray cluster has {cpus}: ask for "
            f"at most {cpus}, or add machines (`ray start --address=HEAD:PORT` on each)"
        )
    return workers


def check_workers(workers: int) -> int:
    """``workers``, checked.

    Raises:
        PokerlabError: if ``workers`` is not an integer >= 1.
    """
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise PokerlabError(f"--workers must be an integer >= 1; got {workers!r}")
    return workers


__all__ = [
    "RAY_EXTRA_HINT",
    "check_workers",
    "cluster_workers",
    "ray_session",
    "require_ray",
]
