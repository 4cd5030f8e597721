"""Request checks shared by the explorer, arena and spot views: clear 4xx answers, never a 500.

Every view validates its query parameters and bodies with these helpers, which raise
:class:`RequestError`; :func:`guarded` turns that (and a pokerlab error) into a JSON answer
``{"error": message}`` with a 4xx status, so that bad input never reaches the library
unchecked and never surfaces as a server error.
"""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable, Mapping
from functools import wraps
from importlib.resources import files
from pathlib import Path

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response

from pokerlab.errors import PokerlabError

MAX_BODY = 4096
"""The largest request body the views read, in bytes (their requests are a few fields)."""
MAX_PATH = 400
"""The longest relative file name accepted, in characters."""
MAX_FILE_BYTES = 256 * 1024**2
"""The largest strategy or spot file the views open, in bytes."""
MAX_LISTED = 500
"""At most this many files are listed from ``--strategies``."""

Handler = Callable[[Request], Awaitable[Response]]


class RequestError(Exception):
    """A request the views refuse: ``status`` (4xx) and a message saying what is allowed."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


def error_response(message: str, status: int = 400) -> JSONResponse:
    """The JSON answer of a refused request."""
    return JSONResponse({"error": message}, status_code=status)


def guarded(handler: Handler) -> Handler:
    """Answer :class:`RequestError` and pokerlab errors of ``handler`` with a 4xx JSON error."""

    @wraps(handler)
    async def wrapper(request: Request) -> Response:
        try:
            return await handler(request)
        except RequestError as refused:
            return error_response(refused.message, refused.status)
        except PokerlabError as error:  # 400, or its own status (429 when busy)
            status = getattr(error, "status", 400)
            return error_response(str(error), status if isinstance(status, int) else 400)

    return wrapper


def static_page(name: str) -> HTMLResponse:
    """A page shipped in ``pokerlab/web/static`` (plain HTML, no build step)."""
    text = files("pokerlab.web").joinpath(f"static/{name}").read_text(encoding="utf-8")
    return HTMLResponse(text)


def static_script(name: str) -> Response:
    """A script (``.js``) or style sheet (``.css``) shipped in ``pokerlab/web/static``."""
    text = files("pokerlab.web").joinpath(f"static/{name}").read_text(encoding="utf-8")
    media = "text/css" if name.endswith(".css") else "text/javascript"
    return Response(text, media_type=media)


def int_param(
    params: Mapping[str, str], name: str, *, low: int, high: int, default: int | None = None
) -> int:
    """The integer query parameter ``name`` in ``[low, high]``.

    Raises:
        RequestError: missing (without a default), not a whole number, or out of range.
    """
    raw = params.get(name)
    if raw is None or raw == "":
        if default is None:
            raise RequestError(f"the query needs {name}= (an integer from {low} to {high})")
        return default
    if not re.fullmatch(r"-?[0-9]{1,12}", raw):
        raise RequestError(f"{name} must be an integer from {low} to {high}; got {raw[:40]!r}")
    value = int(raw)
    if not low <= value <= high:
        raise RequestError(f"{name} must be an integer from {low} to {high}; got {value}")
    return value


def body_int(body: Mapping[str, object], name: str, *, low: int, high: int, default: int) -> int:
    """The integer field ``name`` of a JSON body in ``[low, high]`` (``default`` when absent).

    Raises:
        RequestError: not an integer (booleans refused) or out of range.
    """
    value = body.get(name, default)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise RequestError(f"{name} must be an integer from {low} to {high}; got {value!r}")
    return value


def body_choice(body: Mapping[str, object], name: str, allowed: tuple[str, ...],
                default: str | None = None) -> str:
    """The field ``name`` of a JSON body, one of ``allowed``.

    Raises:
        RequestError: missing (without a default) or not one of ``allowed``.
    """
    value = body.get(name, default)
    if value not in allowed:
        raise RequestError(f"{name} {value!r} is not offered; allowed: {', '.join(allowed)}")
    return str(value)


def body_text(body: Mapping[str, object], name: str, *, max_length: int,
              default: str | None = None) -> str:
    """The string field ``name`` of a JSON body, at most ``max_length`` characters.

    Raises:
        RequestError: missing (without a default), not a string, or too long.
    """
    value = body.get(name, default)
    if not isinstance(value, str):
        raise RequestError(f"{name} must be a string; got {value!r}"[:200])
    if len(value) > max_length:
        raise RequestError(f"{name} is over {max_length} characters")
    return value


async def read_json_object(request: Request) -> dict[str, object]:
    """The request's JSON object body, at most :data:`MAX_BODY` bytes.

    Raises:
        RequestError: too large (413), not JSON, or not an object.
    """
    declared = request.headers.get("content-length") or "0"
    if not declared.isdigit() or int(declared) > MAX_BODY:
        raise RequestError(f"the body is over {MAX_BODY} bytes", 413)
    raw = b""
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > MAX_BODY:
            raise RequestError(f"the body is over {MAX_BODY} bytes", 413)
    try:
        body = json.loads(raw)
    except (ValueError, UnicodeDecodeError, RecursionError):  # RecursionError: nested deep
        raise RequestError("the body must be a JSON object") from None
    if not isinstance(body, dict):
        raise RequestError("the body must be a JSON object")
    return body


def need_folder(root: Path | None) -> Path:
    """The ``--strategies`` folder, resolved.

    Raises:
        RequestError: 404 when the server was started without ``--strategies``.
    """
    if root is None:
        raise RequestError("the server was started without --strategies DIR; no file can be "
                         "opened", 404)
    return root.resolve()


def file_inside(root: Path | None, relative: str | None) -> Path:
    """The file ``relative`` names inside the ``--strategies`` folder ``root``.

    The name is resolved (``..`` and symbolic links followed) and refused unless the
    result lies inside ``root``: no request reads a file elsewhere.

    Raises:
        RequestError: no folder (404), no or too long a name (400), a path outside the
            folder (403), a missing file (404), not an ``.npz`` file (400), too large (413).
    """
    folder = need_folder(root)
    if not relative:
        raise RequestError("the query needs file= (a .npz file inside --strategies)")
    if len(relative) > MAX_PATH or "\x00" in relative:
        raise RequestError(f"file= must be a path of at most {MAX_PATH} characters")
    try:
        target = (folder / relative).resolve()
        if not target.is_relative_to(folder):
            raise RequestError(f"{relative!r} is outside the --strategies folder; only files "
                               "inside it can be opened", 403)
        if not target.is_file():
            raise RequestError(f"{relative!r} is not a file in the --strategies folder", 404)
        if target.suffix != ".npz":
            raise RequestError(f"{relative!r} is not a .npz file; strategies and spots are "
                               ".npz")
        if target.stat().st_size > MAX_FILE_BYTES:
            raise RequestError(f"{relative!r} is over {MAX_FILE_BYTES // 1024**2} MB", 413)
    except (OSError, ValueError) as exc:  # a name the system refuses (too long, surrogates)
        raise RequestError(f"file= is not a name this system can open "
                           f"({type(exc).__name__})") from None
    return target


def listed_files(root: Path | None, formats: tuple[str, ...]) -> list[dict[str, str]]:
    """The ``.npz`` files inside ``root`` whose header format is one of ``formats``.

    Files that cannot be read, and links leading outside ``root``, are left out.
    """
    folder = need_folder(root)
    found: list[dict[str, str]] = []
    for path in sorted(folder.rglob("*.npz")):
        if len(found) >= MAX_LISTED:
            break
        resolved = path.resolve()
        if not resolved.is_relative_to(folder) or not resolved.is_file():
            continue
        file_format = npz_format(resolved)
        if file_format in formats:
            found.append({"file": path.relative_to(folder).as_posix(), "format": file_format})
    return found


def npz_format(path: Path) -> str | None:
    """The ``format`` field of a pokerlab ``.npz`` file's header, or None.

    Only the archive's directory and its bounded header are read, never the arrays.
    """
    from pokerlab.strategy.io import read_npz_format

    return read_npz_format(path)


def relative_message(message: str, target: Path, relative: str) -> str:
    """``message`` with the server's absolute path of ``target`` replaced by ``relative``."""
    return message.replace(str(target), relative)
