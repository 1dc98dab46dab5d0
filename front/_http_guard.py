"""Who may talk to hopgraph's HTTP servers (``hopgraph serve``, ``hopgraph mcp --transport
streamable-http``): one rule for both.

- Loopback (``127.0.0.1``, ``localhost``, ``::1``) is the default and needs no token; the Host
  header must name a loopback address (a page on another site cannot reach the server through DNS
  rebinding) and a browser Origin must be the server's own.
- Any other bind address needs a token (``HOPGRAPH_API_TOKEN``): without one the server refuses
  to start; with one, every request but the static web page must carry ``Authorization: Bearer
  <token>``, and the start line says so.
- A request body larger than :data:`MAX_BODY_BYTES` is refused (413) before it is read whole.

The guard is plain ASGI middleware, so it wraps the FastAPI app and the MCP SDK's Starlette app
alike.
"""

from __future__ import annotations

import hmac
import json
import sys
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass, field
from typing import Any

from hopgraph.core.errors import ConfigError

LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})
WILDCARD_HOSTS = frozenset({"0.0.0.0", "::", ""})
MAX_BODY_BYTES = 64 * 1024
TOKEN_ENV = "HOPGRAPH_API_TOKEN"
MIN_TOKEN_CHARS = 16

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


@dataclass(frozen=True)
class GuardSettings:
    """What the guard accepts.

    Attributes:
        host, port: the bind address.
        token: the bearer token every request must carry (None on loopback without one).
        public_paths: paths served without a token (the static web page: it holds no data).
        max_body_bytes: the largest request body accepted.
    """

    host: str
    port: int
    token: str | None = None
    public_paths: frozenset[str] = field(default_factory=frozenset)
    max_body_bytes: int = MAX_BODY_BYTES

    @property
    def loopback(self) -> bool:
        """Bound to a loopback address only."""
        return self.host in LOOPBACK_HOSTS

    @classmethod
    def for_host(cls, host: str, port: int, token: str | None,
                 public_paths: frozenset[str] = frozenset()) -> GuardSettings:
        """The settings for a bind address, refusing a non-loopback one without a token.

        Raises:
            ConfigError: a non-loopback host and no token, or a token shorter than
                :data:`MIN_TOKEN_CHARS` characters.
        """
        token = (token or "").strip() or None
        if token is not None and len(token) < MIN_TOKEN_CHARS:
            raise ConfigError(f"{TOKEN_ENV} is {len(token)} characters long; use at least "
                              f"{MIN_TOKEN_CHARS} (e.g. python -c 'import secrets; "
                              "print(secrets.token_urlsafe(24))')")
        if host not in LOOPBACK_HOSTS and token is None:
            raise ConfigError(f"--host {host} exposes the server beyond this machine: set "
                              f"{TOKEN_ENV} (clients send it as 'Authorization: Bearer …'), "
                              "or keep the default --host 127.0.0.1")
        return cls(host=host, port=port, token=token, public_paths=public_paths)

    def start_line(self, what: str) -> str:
        """What the server says when it starts: where, and who may call it."""
        shown = f"[{self.host}]" if ":" in self.host else self.host
        where = f"http://{shown}:{self.port}"
        if self.token:
            who = (f"every request needs 'Authorization: Bearer <{TOKEN_ENV}>'"
                   + ("" if self.loopback else f"; listening beyond this machine ({self.host})"))
        else:
            who = "loopback only, no token"
        return f"hopgraph: {what} on {where} — {who}; Host/Origin checked; read-only"

    def host_allowed(self, header: str | None) -> bool:
        """Whether a Host header names this server."""
        if not header:
            return False
        name = _host_name(header)
        if self.loopback or not self.token:
            return name in LOOPBACK_HOSTS
        if self.host in WILDCARD_HOSTS:
            return True  # any name reaches a wildcard bind; the token decides
        return name in LOOPBACK_HOSTS or name == self.host

    def origin_allowed(self, origin: str | None, host_header: str | None) -> bool:
        """No Origin (not a browser, or same-origin GET), or the server's own origin."""
        if not origin:
            return True
        rest = origin.partition("://")[2]
        return bool(host_header) and rest == host_header

    def token_ok(self, authorization: str | None) -> bool:
        """The bearer token matches (constant-time); always true without a token."""
        if not self.token:
            return True
        scheme, _, given = (authorization or "").partition(" ")
        return scheme.lower() == "bearer" and hmac.compare_digest(given.strip().encode(),
                                                                  self.token.encode())


def _host_name(header: str) -> str:
    header = header.strip().lower()
    if header.startswith("["):
        return header[1:].partition("]")[0]
    return header.rpartition(":")[0] if header.count(":") == 1 else header


def guard(app: ASGIApp, settings: GuardSettings) -> ASGIApp:
    """``app`` behind the Host, Origin, token and body-size checks of ``settings``."""

    async def guarded(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1")
                   for k, v in scope.get("headers") or []}
        host = headers.get("host")
        if not settings.host_allowed(host):
            await _refuse(send, 421, "host_not_allowed", "Host",
                          f"{host!r} does not name this server")
            return
        if not settings.origin_allowed(headers.get("origin"), host):
            await _refuse(send, 403, "origin_not_allowed", "Origin",
                          f"{headers.get('origin')!r} is not this server's origin")
            return
        if scope.get("path") not in settings.public_paths \
                and not settings.token_ok(headers.get("authorization")):
            await _refuse(send, 401, "unauthorized", "Authorization",
                          f"a bearer token ({TOKEN_ENV}) is required")
            return
        length = headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > settings.max_body_bytes):
            await _refuse(send, 413, "request_too_large", "body",
                          f"{length} bytes; the limit is {settings.max_body_bytes}")
            return
        seen = 0

        async def limited() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > settings.max_body_bytes:
                    raise _BodyTooLarge
            return message

        try:
            await app(scope, limited, send)
        except _BodyTooLarge:
            await _refuse(send, 413, "request_too_large", "body",
                          f"more than {settings.max_body_bytes} bytes")

    return guarded


class _BodyTooLarge(Exception):
    pass


async def _refuse(send: Send, status: int, kind: str, field_name: str, problem: str) -> None:
    body = json.dumps({"error": {"type": kind, "field": field_name, "problem": problem}}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    if status == 401:
        headers.append((b"www-authenticate", b"Bearer"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def serve_asgi(app: ASGIApp, settings: GuardSettings, *, what: str) -> None:
    """Run ``app`` with uvicorn at the settings' address until interrupted, after one line on
    stderr saying where and who may call it."""
    import uvicorn

    print(settings.start_line(what), file=sys.stderr, flush=True)
    uvicorn.run(app, host=settings.host, port=settings.port, log_level="warning",
                access_log=False, server_header=False)


__all__ = ["MAX_BODY_BYTES", "TOKEN_ENV", "GuardSettings", "guard", "serve_asgi"]
