"""The host: a ToolHost's tools over MCP Streamable HTTP on 127.0.0.1 (EDITING.md).

The MCP SDK serves it all: its Streamable HTTP session manager (one MCP session
per connection), its transport security (a ``Host`` other than 127.0.0.1,
localhost or [::1] with the server's port gets 421, a foreign ``Origin`` 403:
DNS rebinding) and its bearer-token authentication (a request without the
token, or with another, gets 401), run by uvicorn as the SDK's own
``streamable_http_app`` is. The token is 32 random bytes, new at each start.

:class:`HttpHost` starts the server in a thread of its own (its own event loop),
so a TUI, a test or a command can start and stop it: :meth:`HttpHost.start`,
:meth:`HttpHost.stop`. With ``announce``, the reader file
(siftui.serve.reader_file) tells ``siftui mcp --reader`` where it serves, and is
removed at stop. Each MCP session has its own identities (a
:class:`siftui.serve.tool_api.Session`, numbered from 1 in this process).
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import logging
import os
import secrets
import socket
import threading
import time
from dataclasses import dataclass
from typing import Any

import anyio
import anyio.to_thread
import uvicorn
from mcp.server.auth.provider import AccessToken
from mcp.server.auth.settings import AuthSettings
from mcp.server.streamable_http import MCP_SESSION_ID_HEADER
from mcp.server.transport_security import TransportSecuritySettings
from pydantic import AnyHttpUrl
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from siftui.serve.edit.held import HeldCopies
from siftui.serve.host import ToolHost
from siftui.serve.mcp_server import build_server
from siftui.serve.reader_file import ReaderAddress, remove_reader_file, write_reader_file
from siftui.serve.tool_api import Session

LOOPBACK = "127.0.0.1"
PATH = "/mcp"
TOKEN_BYTES = 32
IDLE_SECONDS = 30 * 60
"""A session no request used for this long is forgotten (the SDK's own idle timeout)."""
START_SECONDS = 10.0
STOP_SECONDS = 2.0


_STOPPING: set[str] = set()
"""The threads of the hosts being stopped: what uvicorn says of the streams it cuts
then (a client's GET stream still open) is no news."""


class _QuietWhileStopping(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        return record.threadName not in _STOPPING


logging.getLogger("uvicorn.error").addFilter(_QuietWhileStopping())


class HostError(Exception):
    """The host cannot start; ``str(error)`` is one line."""


def security(port: int) -> TransportSecuritySettings:
    """The SDK's DNS-rebinding protection for a server on ``port``: the loopback names
    with that port, as Host and as an http Origin."""
    hosts = [f"{name}:{port}" for name in (LOOPBACK, "localhost", "[::1]")]
    return TransportSecuritySettings(
        enable_dns_rebinding_protection=True,
        allowed_hosts=hosts,
        allowed_origins=[f"http://{host}" for host in hosts],
    )


class _Token:
    """The SDK's TokenVerifier for the one token of this start."""

    def __init__(self, token: str) -> None:
        self._token = token.encode("utf-8")

    async def verify_token(self, token: str) -> AccessToken | None:
        if hmac.compare_digest(token.encode("utf-8", "surrogateescape"), self._token):
            return AccessToken(token=token, client_id="siftui-agent", scopes=[])
        return None


@dataclass
class _Held:
    session: Session
    used: float


class Connections:
    """The sessions of the MCP connections, by the SDK's session id; numbered from 1."""

    def __init__(self, idle: float = IDLE_SECONDS) -> None:
        self._held: dict[str, _Held] = {}
        self._lock = threading.Lock()
        self._count = 0
        self._idle = idle

    def of(self, ctx: Any) -> Session | None:
        """The session of the request ``ctx`` (started at its first call)."""
        request = getattr(ctx, "request", None)
        headers = getattr(request, "headers", None)
        key = headers.get(MCP_SESSION_ID_HEADER) if headers is not None else None
        if not isinstance(key, str):
            return None
        now = time.monotonic()
        with self._lock:
            idle = [k for k, held in self._held.items() if now - held.used > self._idle]
            ended = [self._held.pop(old).session for old in idle]
            held = self._held.get(key)
            if held is None:
                self._count += 1
                held = self._held[key] = _Held(Session(self._count), now)
            held.used = now
        for session in ended:  # outside the lock: a call of it may still be running
            _release(session)
        return held.session

    def end(self, key: str) -> None:
        """Forgets the session of a connection the client ended."""
        with self._lock:
            held = self._held.pop(key, None)
        if held is not None:
            _release(held.session)

    def __len__(self) -> int:
        with self._lock:
            return len(self._held)


def _release(session: Session) -> None:
    """Lets go of the working copies an ended session held (their drafts stay)."""
    for value in session.state.values():
        if isinstance(value, HeldCopies):
            with session.lock:
                value.release_all()


class _Ends:
    """ASGI wrapper: a DELETE the SDK accepted ends that connection's session here too;
    the streams still open when the host stops end quietly."""

    def __init__(self, app: ASGIApp, connections: Connections) -> None:
        self.app = app
        self.connections = connections
        self.stopping = False

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await self._serve(scope, receive, send)
        except asyncio.CancelledError:
            if not self.stopping:
                raise
            # A stream still open at stop (a client's GET stream), cancelled by the
            # server's shutdown: ended, not an error to print.

    async def _serve(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("method") != "DELETE":
            await self.app(scope, receive, send)
            return
        key = dict(scope.get("headers") or ()).get(MCP_SESSION_ID_HEADER.encode("ascii"))

        async def watched(message: Message) -> None:
            # Ended before the client hears so: its next connection finds it gone.
            accepted = message["type"] == "http.response.start" and 200 <= message["status"] < 300
            if key is not None and accepted:
                await anyio.to_thread.run_sync(self.connections.end, key.decode("latin-1"))
            await send(message)

        await self.app(scope, receive, watched)


def _bound(port: int) -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((LOOPBACK, port))
    except OSError as error:
        sock.close()
        raise HostError(f"cannot listen on {LOOPBACK}:{port}: {error.strerror}") from None
    sock.listen(128)
    sock.setblocking(False)
    return sock


class HttpHost:
    """``host``'s tools over Streamable HTTP on 127.0.0.1:``port`` (0: a free port)."""

    def __init__(self, host: ToolHost, port: int = 0, *, announce: bool = False) -> None:
        self.host = host
        self.token = secrets.token_urlsafe(TOKEN_BYTES)
        self.connections = Connections()
        self._socket = _bound(port)
        self.port: int = self._socket.getsockname()[1]
        self.url = f"http://{LOOPBACK}:{self.port}{PATH}"
        self._announce = announce
        self._announced: int | None = None
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None
        self._failed: BaseException | None = None
        self._app: _Ends | None = None

    def app(self) -> _Ends:
        """The SDK's Streamable HTTP app for the tools, with the token and the checks."""
        server = build_server(self.host, self.connections.of)
        app = server.streamable_http_app(
            streamable_http_path=PATH,
            transport_security=security(self.port),
            host=LOOPBACK,
            # No OAuth server and no metadata routes: the SDK's bearer check alone.
            auth=AuthSettings(issuer_url=AnyHttpUrl(self.url), resource_server_url=None),
            token_verifier=_Token(self.token),
            session_idle_timeout=IDLE_SECONDS,
        )
        return _Ends(app, self.connections)

    def start(self) -> None:
        """Serves until :meth:`stop`; returns once it accepts connections (HostError when it
        cannot)."""
        self._app = self.app()
        config = uvicorn.Config(
            self._app,
            log_config=None,
            log_level="warning",
            access_log=False,
            lifespan="on",
            timeout_graceful_shutdown=1,
        )
        self._server = uvicorn.Server(config)
        name = f"siftui-host-{self.port}"
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()
        deadline = time.monotonic() + START_SECONDS
        while not self._server.started:
            if self._failed is not None or not self._thread.is_alive():
                raise HostError(f"the host did not start: {self._failed or 'it stopped'}")
            if time.monotonic() > deadline:
                raise HostError(f"the host did not start within {START_SECONDS:g} s")
            time.sleep(0.01)
        if self._announce:
            pid = os.getpid()
            write_reader_file(ReaderAddress(pid, self.url, self.token))
            self._announced = pid

    def _run(self) -> None:
        assert self._server is not None
        try:
            asyncio.run(self._server.serve(sockets=[self._socket]))
        except BaseException as error:  # told to start(); the thread ends
            self._failed = error

    def stop(self) -> None:
        """Stops serving (calls still running are abandoned) and removes the reader file."""
        if self._announced is not None:
            remove_reader_file(self._announced)
            self._announced = None
        if self._app is not None:
            self._app.stopping = True
        if self._server is not None:
            self._server.should_exit = True
        if self._thread is not None:
            _STOPPING.add(self._thread.name)
            self._thread.join(STOP_SECONDS)
            if self._thread.is_alive() and self._server is not None:
                self._server.force_exit = True
                self._thread.join(STOP_SECONDS)
            _STOPPING.discard(self._thread.name)
        with contextlib.suppress(OSError):
            self._socket.close()

    def __enter__(self) -> HttpHost:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
