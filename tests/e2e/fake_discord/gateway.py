"""The gateway websocket: HELLO, IDENTIFY -> READY, heartbeats, RESUME and dropped connections.

Events are numbered per session and kept, so a client that comes back with RESUME gets everything
it missed (like real Discord); an invalidated session answers RESUME with op 9 and the client must
IDENTIFY again. Frames go out as text (POC pitfall 2) through one writer task per connection so
their order is the order they were dispatched in.

Shards: an IDENTIFY may carry ``shard: [id, count]`` (none means ``[0, 1]``), and each shard has a
session of its own. A server's events go only to the session of shard
``(guild_id >> 22) % count``, events of no server (DM interactions) only to shard 0, as Discord
routes them. Every IDENTIFY is recorded with its time and shard (``identified``), and every
INTERACTION_CREATE with the shard it went to (``interaction_shards``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import time
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
    shard_id: int = 0
    shard_count: int = 1

    def receives(self, guild_id: int | None) -> bool:
        """Whether this session gets the events of that server (None: of no server)."""
        if guild_id is None:
            return self.shard_id == 0
        return shard_of(guild_id, self.shard_count) == self.shard_id


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard a server's events go to (Discord's formula)."""
    return (guild_id >> 22) % shard_count


@dataclass(eq=False)
class Connection:
    ws: web.WebSocketResponse
    queue: asyncio.Queue[str | None] = field(default_factory=asyncio.Queue)
    session: Session | None = None


@dataclass(frozen=True)
class Identified:
    """One accepted IDENTIFY: when (``time.monotonic()``), for which shard, its session."""

    at: float
    shard_id: int
    shard_count: int
    session_id: str


class Gateway:
    """Owns the sessions (one per shard) and their live connections; the simulator dispatches
    through it."""

    def __init__(self, sim: FakeDiscord, heartbeat_interval_ms: int = 41250) -> None:
        self.sim = sim
        self.heartbeat_interval_ms = heartbeat_interval_ms
        #: the current session of each shard, and the connection that holds it
        self.sessions: dict[int, Session] = {}
        self.live: dict[int, Connection] = {}
        self.identifies: list[dict[str, Any]] = []
        self.identified: list[Identified] = []
        self.resumes: list[dict[str, Any]] = []
        self.connections = 0
        self.frames_received: list[dict[str, Any]] = []
        self.resumed = 0
        #: the shard each INTERACTION_CREATE went to, by interaction id
        self.interaction_shards: dict[int, int] = {}
        self._connections: set[Connection] = set()
        #: Discord's answer to an IDENTIFY asking for intents the application may not have
        #: (close code 4014), as for a bot whose privileged intents are off in the portal
        self.refuse_intents = False

    @property
    def session(self) -> Session | None:
        """Shard 0's session: the only one of a bot without shards."""
        return self.sessions.get(0)

    @property
    def connection(self) -> Connection | None:
        return self.live.get(0)

    # ----- dispatching -----
    def dispatch(self, event: str, data: dict[str, Any]) -> None:
        """Queue an event on the session of the shard it belongs to (delivered now, or on
        RESUME); nowhere if no bot has identified for that shard, like real Discord."""
        guild_id = _guild_of(event, data)
        for shard_id, session in list(self.sessions.items()):
            if session.receives(guild_id):
                self._dispatch_to(session, event, data)
                if event == "INTERACTION_CREATE":
                    self.interaction_shards[int(data["id"])] = shard_id

    def _dispatch_to(self, session: Session, event: str, data: dict[str, Any]) -> None:
        session.seq += 1
        frame = json.dumps({"op": DISPATCH, "t": event, "s": session.seq, "d": data})
        session.events.append((session.seq, frame))
        conn = self.live.get(session.shard_id)
        if conn is not None and conn.session is session:
            conn.queue.put_nowait(frame)

    def is_connected(self, shard_id: int = 0) -> bool:
        conn = self.live.get(shard_id)
        return conn is not None and conn.session is self.sessions.get(shard_id)

    @property
    def connected(self) -> bool:
        """Every shard that has a session is connected to it."""
        return bool(self.sessions) and all(self.is_connected(k) for k in self.sessions)

    def identify_times(self, shard_id: int) -> list[float]:
        """When each accepted IDENTIFY of that shard came (``time.monotonic()``), in order."""
        return [i.at for i in self.identified if i.shard_id == shard_id]

    # ----- faults -----
    async def drop(self, *, resumable: bool = True, code: int = 4000, shard_id: int = 0) -> None:
        """Close a shard's live connection as a network failure would; optionally kill its
        session."""
        conn = self.live.get(shard_id)
        if conn is None:
            raise RuntimeError(f"no gateway connection of shard {shard_id} to drop")
        session = self.sessions.get(shard_id)
        if not resumable and session is not None:
            session.resumable = False
        del self.live[shard_id]
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
            for shard_id, live in list(self.live.items()):
                if live is conn:
                    del self.live[shard_id]
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
        if self.refuse_intents:
            await conn.ws.close(code=4014, message=b"Disallowed intent(s).")
            return
        shard = d.get("shard", [0, 1])
        if not (
            isinstance(shard, list)
            and len(shard) == 2
            and all(isinstance(n, int) for n in shard)
            and 0 <= shard[0] < shard[1]
        ):
            await conn.ws.close(code=4010, message=b"Invalid shard.")
            return
        shard_id, shard_count = shard
        old = self.sessions.get(shard_id)
        if old is not None:
            old.resumable = False
        session = Session(
            id=secrets.token_hex(16), identify=d, shard_id=shard_id, shard_count=shard_count
        )
        self.sessions[shard_id] = session
        conn.session = session
        self.live[shard_id] = conn
        self.identified.append(Identified(time.monotonic(), shard_id, shard_count, session.id))
        guilds = [g for g in self.sim.guilds if session.receives(g.id)]
        ready: dict[str, Any] = {
            "v": 10,
            "user": self.sim.bot_user.to_json(),
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": session.id,
            "resume_gateway_url": self.sim.gateway_url,
            "application": {"id": str(self.sim.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
        }
        if "shard" in d:
            ready["shard"] = d["shard"]  # POC pitfall 10
        self._dispatch_to(session, "READY", ready)
        for guild in guilds:
            self._dispatch_to(session, "GUILD_CREATE", guild.to_json(self.sim.bot_user))
        self.sim.notify()

    async def _resume(self, conn: Connection, d: dict[str, Any]) -> None:
        self.resumes.append(d)
        session = next((s for s in self.sessions.values() if s.id == d.get("session_id")), None)
        if session is None or not session.resumable or d.get("token") != self.sim.token:
            self._send(conn, INVALID_SESSION, False)
            self.sim.notify()
            return
        conn.session = session
        self.live[session.shard_id] = conn
        since = d.get("seq") or 0
        for seq, frame in session.events:
            if seq > since:
                conn.queue.put_nowait(frame)
        self._dispatch_to(session, "RESUMED", {})
        self.resumed += 1
        self.sim.notify()


#: Events whose payload is the server itself (its id is `id`, not `guild_id`).
_GUILD_EVENTS = {"GUILD_CREATE", "GUILD_UPDATE", "GUILD_DELETE"}


def _guild_of(event: str, data: dict[str, Any]) -> int | None:
    """The server an event is about, which decides its shard (None: no server, shard 0)."""
    raw = data.get("id") if event in _GUILD_EVENTS else data.get("guild_id")
    return int(raw) if raw else None
