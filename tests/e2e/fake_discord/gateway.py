"""The gateway websocket: HELLO, IDENTIFY -> READY, heartbeats, RESUME and dropped connections.

Events are numbered per session and kept, so a client that comes back with RESUME gets everything
it missed (like real Discord); an invalidated session answers RESUME with op 9 and the client must
IDENTIFY again. Frames go out as text (POC pitfall 2) through one writer task per connection so
their order is the order they were dispatched in.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

if TYPE_CHECKING:
    from .sim import FakeDiscord

HELLO, HEARTBEAT, IDENTIFY, RESUME, INVALID_SESSION, HEARTBEAT_ACK = 10, 1, 2, 6, 9, 11
DISPATCH = 0


@dataclass
class Session:
    id: str
    identify: dict[str, Any]
    seq: int = 0
    events: list[tuple[int, str]] = field(default_factory=list)  # (seq, frame text)
    resumable: bool = True


@dataclass(eq=False)
class Connection:
    ws: web.WebSocketResponse
    queue: asyncio.Queue[str | None] = field(default_factory=asyncio.Queue)
    session: Session | None = None


class Gateway:
    """Owns the sessions and the live connection; the simulator dispatches through it."""

    def __init__(self, sim: FakeDiscord, heartbeat_interval_ms: int = 41250) -> None:
        self.sim = sim
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.session: Session | None = None
        self.connection: Connection | None = None
        self.identifies: list[dict[str, Any]] = []
        self.resumes: list[dict[str, Any]] = []
        self.connections = 0
        self.frames_received: list[dict[str, Any]] = []
        self.resumed = 0
        self._connections: set[Connection] = set()

    # ----- dispatching -----
    def dispatch(self, event: str, data: dict[str, Any]) -> None:
        """Queue an event on the current session (delivered now, or on RESUME)."""
        session = self.session
        if session is None:
            return  # no bot has ever identified: nothing to deliver to, like real Discord
        session.seq += 1
        frame = json.dumps({"op": DISPATCH, "t": event, "s": session.seq, "d": data})
        session.events.append((session.seq, frame))
        conn = self.connection
        if conn is not None and conn.session is session:
            conn.queue.put_nowait(frame)

    @property
    def connected(self) -> bool:
        return self.connection is not None and self.connection.session is not None

    # ----- faults -----
    async def drop(self, *, resumable: bool = True, code: int = 4000) -> None:
        """Close the live connection as a network failure would; optionally kill the session."""
        conn = self.connection
        if conn is None:
            raise RuntimeError("no gateway connection to drop")
        if not resumable and self.session is not None:
            self.session.resumable = False
        self.connection = None
        conn.queue.put_nowait(None)
        await conn.ws.close(code=code, message=b"fake: connection dropped")
        self.sim.notify()

    # ----- the websocket handler -----
    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(autoping=True)
        await ws.prepare(request)
        conn = Connection(ws)
        self._connections.add(conn)
        self.connections += 1
        writer = asyncio.create_task(self._writer(conn))
        conn.queue.put_nowait(
            json.dumps(
                {"op": HELLO, "d": {"heartbeat_interval": self.heartbeat_interval_ms}, "s": None}
            )
        )
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                frame = json.loads(msg.data)
                self.frames_received.append(frame)
                await self._on_frame(conn, frame)
        finally:
            conn.queue.put_nowait(None)
            writer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await writer
            self._connections.discard(conn)
            if self.connection is conn:
                self.connection = None
            self.sim.notify()
        return ws

    async def close_all(self) -> None:
        for conn in list(self._connections):
            conn.queue.put_nowait(None)
            await conn.ws.close(code=1001, message=b"fake: shutting down")

    async def _writer(self, conn: Connection) -> None:
        while True:
            frame = await conn.queue.get()
            if frame is None or conn.ws.closed:
                return
            await conn.ws.send_str(frame)

    def _send(self, conn: Connection, op: int, d: Any) -> None:
        conn.queue.put_nowait(json.dumps({"op": op, "d": d, "s": None, "t": None}))

    async def _on_frame(self, conn: Connection, frame: dict[str, Any]) -> None:
        op, d = frame.get("op"), frame.get("d")
        if op == HEARTBEAT:
            self._send(conn, HEARTBEAT_ACK, None)  # POC pitfall 3
        elif op == IDENTIFY:
            await self._identify(conn, d)
        elif op == RESUME:
            await self._resume(conn, d)

    async def _identify(self, conn: Connection, d: dict[str, Any]) -> None:
        self.identifies.append(d)
        if d.get("token") != self.sim.token:
            await conn.ws.close(code=4004, message=b"Authentication failed.")
            return
        if self.session is not None:
            self.session.resumable = False
        session = Session(id=secrets.token_hex(16), identify=d)
        self.session = session
        conn.session = session
        self.connection = conn
        ready: dict[str, Any] = {
            "v": 10,
            "user": self.sim.bot_user.to_json(),
            "guilds": [{"id": str(g.id), "unavailable": True} for g in self.sim.guilds],
            "session_id": session.id,
            "resume_gateway_url": self.sim.gateway_url,
            "application": {"id": str(self.sim.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
        }
        if "shard" in d:
            ready["shard"] = d["shard"]  # POC pitfall 10
        self.dispatch("READY", ready)
        for guild in self.sim.guilds:
            self.dispatch("GUILD_CREATE", guild.to_json(self.sim.bot_user))
        self.sim.notify()

    async def _resume(self, conn: Connection, d: dict[str, Any]) -> None:
        self.resumes.append(d)
        session = self.session
        if (
            session is None
            or not session.resumable
            or d.get("session_id") != session.id
            or d.get("token") != self.sim.token
        ):
            self._send(conn, INVALID_SESSION, False)
            self.sim.notify()
            return
        conn.session = session
        self.connection = conn
        since = d.get("seq") or 0
        for seq, frame in session.events:
            if seq > since:
                conn.queue.put_nowait(frame)
        self.dispatch("RESUMED", {})
        self.resumed += 1
        self.sim.notify()
