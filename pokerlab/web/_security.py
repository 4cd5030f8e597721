"""What keeps the server safe from other sites' pages and from its own long work.

- :class:`OriginGuard`: an ASGI middleware that refuses every state-changing request
  (any method but ``GET``, ``HEAD`` and ``OPTIONS``) and every WebSocket that a browser
  marks as coming from a page of another site, whatever the content type: a cross-site
  ``text/plain`` form post is a "simple request" that no CORS preflight stops, so the
  check cannot live in the JSON reader. A browser says where a request comes from with
  ``Origin`` (sent on every cross-origin request and every ``POST``) and, in current
  browsers, ``Sec-Fetch-Site``; programs that send neither (curl, the tests) are not
  pages of another site and pass.
- :class:`BusyGate`: the busy check. Every request that may solve or train takes a slot
  (:data:`MAX_BUSY` at once) or is answered 429 at once; nothing waits in a queue.
- :func:`in_daemon_thread`: long work of a request runs in a daemon thread, so a server
  told to stop (SIGTERM, Ctrl-C) exits within its grace period even mid-solve, instead of
  waiting for the solve (the pool's worker threads keep a process alive).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
from collections.abc import Callable, Iterator
from typing import TypeVar
from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Receive, Scope, Send

from pokerlab.errors import PokerlabError

MAX_BUSY = 2
"""Solves and trainings a server runs at once; a further request that would solve gets 429."""
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
"""Methods that change nothing (every other one is checked for its origin)."""
REFUSED_ORIGIN = (
    "a request from a page of another site is refused; open the page this server serves"
)

T = TypeVar("T")


def same_origin(headers: Headers) -> bool:
    """False when the browser says the request comes from a page of another site.

    ``Origin`` must name this server (the ``Host`` the request was sent to), and
    ``Sec-Fetch-Site``, when sent, must not be ``cross-site`` or ``same-site`` (another
    port or subdomain). ``Origin: null`` (a sandboxed frame, a local file) is refused.
    """
    site = headers.get("sec-fetch-site")
    if site is not None and site.lower() in ("cross-site", "same-site"):
        return False
    origin = headers.get("origin")
    if origin is None:
        return True
    try:
        netloc = urlsplit(origin.strip()).netloc.lower()
    except ValueError:
        return False
    return bool(netloc) and netloc == headers.get("host", "").lower()


class OriginGuard:
    """Refuse state-changing requests and WebSockets from other sites' pages (403 / 4403)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        checked = kind == "websocket" or (
            kind == "http" and scope.get("method", "GET").upper() not in SAFE_METHODS
        )
        if not checked or same_origin(Headers(scope=scope)):
            await self.app(scope, receive, send)
            return
        if kind == "websocket":
            await send({"type": "websocket.close", "code": 4403, "reason": "another site"})
            return
        body = json.dumps({"error": REFUSED_ORIGIN}).encode()
        await send({
            "type": "http.response.start",
            "status": 403,
            "headers": [(b"content-type", b"application/json"),
                        (b"content-length", str(len(body)).encode())],
        })
        await send({"type": "http.response.body", "body": body})


class BusyError(PokerlabError):
    """The server already runs as many solves as it allows: answered 429, try again later."""

    status = 429


class BusyGate:
    """The busy check: at most ``limit`` solves or trainings at once, refused beyond."""

    def __init__(self, limit: int = MAX_BUSY) -> None:
        self.limit = limit
        self._lock = threading.Lock()
        self.running = 0

    def take(self, what: str) -> Callable[[], None]:
        """Take a slot for ``what``; return the function that gives it back (once).

        Raises:
            BusyError: every slot is taken (the message says what to do).
        """
        with self._lock:
            if self.running >= self.limit:
                raise BusyError(
                    f"the server is busy: {self.running} solves are running (at most "
                    f"{self.limit}); ask for {what} again when one has finished"
                )
            self.running += 1
        given = threading.Event()

        def give_back() -> None:
            with self._lock:
                if not given.is_set():
                    given.set()
                    self.running -= 1

        return give_back

    @contextlib.contextmanager
    def slot(self, what: str) -> Iterator[None]:
        """Hold a slot for ``what`` while the block runs.

        Raises:
            BusyError: every slot is taken.
        """
        give_back = self.take(what)
        try:
            yield
        finally:
            give_back()


WORK_THREAD = "pokerlab-web-work"
"""How the names of the daemon threads that run long work begin (:func:`in_daemon_thread`,
the explorer's solves): ``pokerlab serve`` ends at once when one still runs after a stop."""


async def in_daemon_thread(work: Callable[[], T], *, name: str = WORK_THREAD) -> T:
    """Run ``work`` in a daemon thread and wait for its result (or its exception).

    Unlike the server's thread pool, a daemon thread does not keep the process alive:
    a server told to stop exits within its grace period even while ``work`` solves.
    """
    loop = asyncio.get_running_loop()
    future: asyncio.Future[T] = loop.create_future()

    def finish(result: T | None, error: BaseException | None) -> None:
        if future.done():
            return  # the request went away (cancelled at shutdown)
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(result)  # type: ignore[arg-type]

    def run() -> None:
        try:
            result = work()
        except BaseException as error:  # handed to the request, which raises it
            with contextlib.suppress(RuntimeError):  # the loop has closed: no one waits
                loop.call_soon_threadsafe(finish, None, error)
            return
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(finish, result, None)

    threading.Thread(target=run, name=name, daemon=True).start()
    return await future


__all__ = [
    "MAX_BUSY",
    "REFUSED_ORIGIN",
    "SAFE_METHODS",
    "WORK_THREAD",
    "BusyError",
    "BusyGate",
    "OriginGuard",
    "in_daemon_thread",
    "same_origin",
]
