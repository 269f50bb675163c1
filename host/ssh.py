"""``hexnet host --ssh [PORT]``: an SSH server (asyncssh) whose only program is the hexnet client.

``ssh -p 2222 party.local`` → the room code (keyboard-interactive) → a name → the lobby. The
session runs ``python -m client.guest`` (see :mod:`host.guests`) on this machine in a
pseudo-terminal of its own, relayed to the SSH channel; the client connects to this host over TLS
on 127.0.0.1 like any player.

* **Authentication.** A public key the guest offers (and proves, by signature) is accepted and
  is the guest's hexnet identity (derived from the key, :func:`host.guests.guest_key`): the same
  key gets its seat back, on any day. If that identity holds no seat yet and the host needs a
  room code, the client asks for it on its code screen. Without a key, keyboard-interactive asks
  for the room code (checked in constant time, at most 3 tries a connection, each check waiting
  its turn in the host's own back-off, :class:`protocol.auth.RateLimiter`: one address guesses
  no faster through this door than through the game port, and a neighbour's right code still
  gets in) and the session gets a fresh identity. No passwords, no host-based or GSS authentication.
* **Screen readers.** ``ssh plain@HOST`` (or a terminal that says ``TERM=dumb``) runs the
  client in its plain mode (``--plain``): sentences in the scrollback, commands as typed lines.
* **Nothing else.** A session with a pseudo-terminal and a shell request runs the client; an exec
  request (any command), a subsystem (sftp, scp), a shell without a terminal, a second session on
  one connection, port forwarding either way, UNIX sockets, X11 and agent forwarding are refused.
  The client's environment is built here (``TERM`` from the guest's pty request, ``COLORTERM``
  only if the guest sent ``truecolor``/``24bit``), never taken from the guest; the language is
  the one the guest's locale names (``LANG`` etc., which OpenSSH sends), passed as ``--lang``.
* **Code before client.** A key that holds no seat yet gets no client process until the room
  code is typed: the door asks for it in the terminal itself (no echo, :data:`MAX_CODE_TRIES`
  tries, each waiting its turn in the same back-off line as keyboard-interactive and the game
  port); only a key whose identity holds a seat goes straight to its client.
* **Limits.** Connections per remote address and in total (:class:`host.guests.SessionCaps`,
  never past the door's share of descriptors), none while the host is short of descriptors
  (:mod:`host.descriptors`), 60 s to log in and to type the code, keepalives find a vanished
  guest in about 45 s, a session with no input for ``idle_after`` seconds is closed (its seat
  stays; logging in again resumes it); the terminal is at most
  :data:`host.guests.MAX_COLS` × :data:`host.guests.MAX_ROWS`, and a storm of window changes
  reaches the client at most every :data:`RESIZE_EVERY` s (the last size wins).
* **Host key.** The host's own TLS key (ECDSA P-256, ``host_key.pem``) is the SSH host key, so
  one key stands behind both doors; :attr:`SSHDoor.fingerprint` (``SHA256:…``, what ``ssh``
  prints) is shown next to the TLS fingerprint.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import hmac
import math
import os
import secrets
import signal
import struct
import termios
from collections.abc import Callable
from typing import Any

import asyncssh

from host import guests, limits
from host.descriptors import BUDGET
from host.reception import CODE_WAIT_LIMIT
from protocol import auth, identity

LOGIN_TIMEOUT = 60.0
KEEPALIVE = 15.0
STOP_WAIT = 3.0
MAX_INPUT_PENDING = 64 * 1024  # keystrokes waiting for the client before the session is closed
READ_CHUNK = 65536
MAX_CODE_TRIES = 3  # wrong room codes on one connection before it is closed
RESIZE_EVERY = 0.1  # seconds: window changes reach the client at most this often
MAX_CODE_TYPED = 64  # characters of a typed room code kept
MAX_LOGINS = 24  # connections that have no client yet (logging in, typing the code), in all
MAX_LOGINS_PER_ADDRESS = 4  # … from one address; past it its idlest is closed


def window(cols: int, rows: int) -> tuple[int, int]:
    """A terminal size the door lets a guest have (at most MAX_COLS × MAX_ROWS)."""
    return max(1, min(cols, guests.MAX_COLS)), max(1, min(rows, guests.MAX_ROWS))
PLAIN_USER = "plain"  # ssh plain@host: the client's screen-reader mode


def set_window(fd: int, cols: int, rows: int) -> None:
    """Set the pty's window size (the kernel tells the client by SIGWINCH), capped."""
    cols, rows = window(cols, rows)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))


def wants_plain(username: str, term: str) -> bool:
    """Whether a guest asked for the screen-reader mode (:mod:`client.plain`): by logging in
    as ``plain`` (``ssh plain@HOST``) or from a terminal that says it is dumb
    (``TERM=dumb ssh HOST``)."""
    return username.strip().lower() == PLAIN_USER or term.strip().lower() == "dumb"


def busy_words(host_name: str, wait: float) -> str:
    """What a guest is told when its address's line of room codes is full (a flood of wrong
    codes from the same address): not its fault, and it may type the code again."""
    return (f"{host_name} is checking too many room codes from your address at once; type "
            f"the code again in {math.ceil(wait)} s.")


def code_matches(typed: str, room_code: str) -> bool:
    """Whether ``typed`` is ``room_code`` (case, spaces and dashes as the game port accepts),
    compared in constant time."""
    try:
        given = auth.normalise_code(typed)
    except ValueError:
        return False
    return hmac.compare_digest(given.encode(), auth.normalise_code(room_code).encode())


class SSHDoor:
    """The SSH front door of ``host`` (a started :class:`host.server.Host`)."""

    def __init__(self, host: Any, *, bind: str = "0.0.0.0", port: int = 2222,
                 caps: guests.SessionCaps | None = None, idle_after: float = guests.IDLE_AFTER,
                 log: Callable[[str], None] | None = None,
                 login_timeout: float = LOGIN_TIMEOUT) -> None:
        self.host = host
        self.bind, self.port = bind, port
        self.caps = caps or guests.SessionCaps(min(guests.MAX_SESSIONS, BUDGET.share()))
        # connections without a client yet: past a cap the least advanced, oldest is closed —
        # never one whose code waits for its turn or was typed right (limits.Gate)
        self.logins = limits.Gate(MAX_LOGINS, MAX_LOGINS_PER_ADDRESS)
        self.idle_after = idle_after
        self.login_timeout = login_timeout
        self.log = log or host.log
        self.secret = guests.guest_secret(host.config_dir)
        self.rate_limiter: auth.RateLimiter = host.rate_limiter  # one back-off for both doors
        self.host_key = asyncssh.import_private_key(host.key_path.read_bytes())
        self.fingerprint = self.host_key.get_fingerprint("sha256")
        self.sessions: set[GuestSession] = set()
        self.connections: set[asyncssh.SSHServerConnection] = set()
        self.resizes = 0  # window changes passed on to clients (after coalescing)
        self._server: asyncssh.SSHAcceptor | None = None

    async def start(self) -> int:
        """Listen on ``bind:port`` (0 = any free port); the port."""
        self._server = await asyncssh.create_server(
            lambda: GuestServer(self), self.bind, self.port,
            server_host_keys=[self.host_key], encoding=None, config=None,
            password_auth=False, host_based_auth=False, gss_auth=False, gss_kex=False,
            public_key_auth=True, kbdint_auth=True,
            agent_forwarding=False, x11_forwarding=False, allow_scp=False,
            login_timeout=self.login_timeout, keepalive_interval=KEEPALIVE,
            keepalive_count_max=3, rdns_lookup=False,
            server_version="hexnet")
        self.port = self._server.get_port()
        return self.port

    async def stop(self) -> None:
        """Stop listening, end every guest's client (by pid), close every connection."""
        if self._server is not None:
            self._server.close()
        for session in list(self.sessions):
            await session.end()
        for conn in list(self.connections):
            conn.close()
        if self._server is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._server.wait_closed(), STOP_WAIT)
            self._server = None


class GuestServer(asyncssh.SSHServer):
    """One SSH connection: authentication, and at most one session."""

    def __init__(self, door: SSHDoor) -> None:
        self.door = door
        self.conn: asyncssh.SSHServerConnection | None = None
        self.address = "?"
        self.gated = False  # counted among the logins (no client yet)
        self.counted = False  # counted among the sessions (a client)
        self.key: asyncssh.SSHKey | None = None  # the last public key accepted
        self.code: str | None = None  # the room code, once typed right
        self.wrong_codes = 0
        self.guesser = b"ssh:" + secrets.token_bytes(16)  # the back-off's identity: this login
        self.session: GuestSession | None = None
        self.username = ""

    # -- connection ----------------------------------------------------------------------
    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.conn = conn
        self.address = str((conn.get_extra_info("peername") or ("?",))[0])
        refused = self.door.logins.admit(self.address, id(self), self._evicted)
        if refused is not None:
            self.door.log(f"ssh: refused {self.address}: {refused}")
            conn.disconnect(asyncssh.DISC_TOO_MANY_CONNECTIONS, f"hexnet: {refused}")
            return
        self.gated = True
        self.door.connections.add(conn)

    def _evicted(self) -> None:
        self.gated = False
        self.door.log(f"ssh: {self.address}: a newer login from the same address; the oldest "
                      "one without a room code was closed")
        if self.conn is not None:
            self.conn.disconnect(asyncssh.DISC_TOO_MANY_CONNECTIONS,
                                 "hexnet: too many logins from your address at once")

    def holds_turn(self, holding: bool) -> None:
        """This login's code waits for its turn, or was typed right (never evicted then) — or
        it may try again (evictable)."""
        if not self.gated:
            return
        if holding:
            self.door.logins.progress(self.address, id(self), limits.TURN)
        else:
            self.door.logins.turn_over(self.address, id(self))

    def admit_session(self) -> str | None:
        """The login is over (the code is right, or the key holds a seat): it leaves the
        logins and counts as a session (with a client); why not, if the sessions are full."""
        if self.gated:
            self.gated = False
            self.door.logins.release(self.address, id(self))
        if self.counted:
            return None
        refused = self.door.caps.admit(self.address)
        if refused is None:
            self.counted = True
        return refused

    def connection_lost(self, exc: Exception | None) -> None:
        if self.gated:
            self.gated = False
            self.door.logins.release(self.address, id(self))
        if self.counted:
            self.counted = False
            self.door.caps.release(self.address)
        if self.conn is not None:
            self.door.connections.discard(self.conn)

    # -- authentication ------------------------------------------------------------------
    def begin_auth(self, username: str) -> bool:
        self.username = username[:64]
        return True  # every connection authenticates: by key, or with the room code

    def password_auth_supported(self) -> bool:
        return False

    def public_key_auth_supported(self) -> bool:
        return True

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        # Any key is welcome: it is an identity, not a permission. asyncssh checks the
        # signature over the session after this; the key it ends on is the one proven.
        self.key = key
        return True

    def kbdint_auth_supported(self) -> bool:
        return True

    def get_kbdint_challenge(self, username: str, lang: str,
                             submethods: str) -> tuple[str, str, str, list[tuple[str, bool]]]:
        host = self.door.host
        if host.open:
            return ("hexnet", f"{host.name}: this host needs no room code.", "",
                    [("Press Enter to join: ", True)])
        return ("hexnet", f"{host.name}: type the room code its screen shows.", "",
                [("Room code: ", False)])  # a secret: not echoed, as a password is not

    async def validate_kbdint_response(  # type: ignore[override]
            self, username: str, responses: list[str]) -> bool | tuple[Any, ...]:
        self.key = None  # keyboard-interactive: no key is the identity
        host = self.door.host
        if host.open:
            return True
        typed = responses[0] if len(responses) == 1 else ""
        self.holds_turn(True)
        verdict, wait = await self.door.rate_limiter.check(
            self.guesser, self.address, lambda: code_matches(typed, host.room_code),
            limit=CODE_WAIT_LIMIT, gone=lambda: not self.gated)
        if verdict == auth.OK:
            self.code = host.room_code  # (it keeps its turn: never evicted from here on)
            return True
        self.holds_turn(False)
        if verdict == auth.BUSY:  # a flood beside this guest, not its fault: asked again
            return ("hexnet", busy_words(host.name, wait), "", [("Room code: ", False)])
        if verdict == auth.RATE_LIMITED:
            self._give_up(f"too many wrong room codes; try again in {math.ceil(wait)} s")
            return False
        if verdict == auth.BAD_CODE and not self.wrong():
            left = MAX_CODE_TRIES - self.wrong_codes  # said in words, with the tries left
            return ("hexnet", f"That is not the room code of {host.name} ({left} "
                    f"{'tries' if left > 1 else 'try'} left): type the code its screen shows.",
                    "", [("Room code: ", False)])
        return False

    def wrong(self) -> bool:
        """A wrong room code on this connection: logged; True once it has had its tries (the
        connection is then closed)."""
        self.wrong_codes += 1
        self.door.log(f"ssh: {self.address}: wrong room code")
        if self.wrong_codes >= MAX_CODE_TRIES:
            self._give_up("that is not the room code")
            return True
        return False

    def _give_up(self, why: str) -> None:
        """End a connection whose guest cannot get in (clients would ask again forever)."""
        self.door.log(f"ssh: {self.address}: {why}; disconnected")
        if self.conn is not None:
            self.conn.disconnect(asyncssh.DISC_NO_MORE_AUTH_METHODS_AVAILABLE,
                                 f"hexnet: {why}")

    # -- what a connection may open ------------------------------------------------------
    def session_requested(self) -> GuestSession | bool:
        if self.session is not None:
            self.door.log(f"ssh: {self.address}: a second session refused")
            return False
        self.session = GuestSession(self)
        return self.session

    def connection_requested(self, dest_host: str, dest_port: int, orig_host: str,
                             orig_port: int) -> bool:
        self.door.log(f"ssh: {self.address}: port forwarding to {dest_host}:{dest_port} "
                      "refused")
        return False

    def server_requested(self, listen_host: str, listen_port: int) -> bool:
        self.door.log(f"ssh: {self.address}: remote forwarding of port {listen_port} refused")
        return False

    def unix_connection_requested(self, dest_path: str) -> bool:
        return False

    def unix_server_requested(self, listen_path: str) -> bool:
        return False

    def identity_key(self) -> Any:
        """The guest's hexnet identity: derived from the proven SSH key, else fresh."""
        if self.key is not None:
            return guests.guest_key(self.door.secret, "ssh", self.key.public_data)
        return guests.guest_key(self.door.secret, "ssh-fresh", os.urandom(32))


def client_launch(host: Any, guest: guests.GuestDir, server: GuestServer, chan: Any,
                  term: str) -> tuple[list[str], dict[str, str]]:
    """The command line and environment of a guest's client: its terminal type and colours,
    its language, and the room code it was let in with (never on the command line)."""
    argv = guests.client_command(host, guest, server.address,
                                 guests.locale_language(dict(chan.get_environment())))
    extra = {"TERM": term}
    colorterm = chan.get_environment().get("COLORTERM", "")
    if colorterm in ("truecolor", "24bit"):
        extra["COLORTERM"] = colorterm
    if wants_plain(server.username, term):
        argv.append("--plain")
    if server.code is not None:
        argv.append("--code-env")
        extra["HEXNET_ROOM_CODE"] = server.code
    env = {k: v for k, v in guests.client_environment().items()
           if k in ("PATH", "HOME", "LANG", "LC_ALL", "PYTHONPATH", "VIRTUAL_ENV",
                    "TMPDIR", "NO_COLOR")}
    env.setdefault("LANG", "C.UTF-8")
    env.update(extra)
    return argv, env


class TypedLine:
    """A line a guest types at the door's own prompt (not echoed; Backspace works), before any
    client runs: :meth:`read` waits for it, :meth:`feed` takes what the channel received."""

    def __init__(self, chan: Any) -> None:
        self.chan = chan
        self.typed = bytearray()
        self.line: asyncio.Future[str | None] = asyncio.get_running_loop().create_future()

    async def read(self, timeout: float) -> str | None:
        """The line, or None if the guest gave up (Ctrl+C, Ctrl+D), went away or took longer
        than ``timeout`` seconds."""
        try:
            return await asyncio.wait_for(self.line, timeout)
        except TimeoutError:
            self.chan.write(b"\r\nNo room code in time.\r\n")
            return None

    def give_up(self) -> None:
        if not self.line.done():
            self.line.set_result(None)

    def feed(self, data: bytes) -> None:
        for byte in data:
            if self.line.done():
                return
            if byte in (0x0D, 0x0A):
                self.chan.write(b"\r\n")
                self.line.set_result(self.typed.decode("utf-8", "replace"))
            elif byte in (0x03, 0x04):  # Ctrl+C, Ctrl+D
                self.line.set_result(None)
            elif byte in (0x08, 0x7F):
                del self.typed[-1:]
            elif byte >= 0x20 and len(self.typed) < MAX_CODE_TYPED:
                self.typed.append(byte)


class GuestSession(asyncssh.SSHServerSession):  # type: ignore[type-arg]
    """One session channel: the client in a pty, relayed both ways."""

    def __init__(self, server: GuestServer) -> None:
        self.server = server
        self.door = server.door
        self.chan: asyncssh.SSHServerChannel | None = None  # type: ignore[type-arg]
        self.term = ""
        self.size = (80, 24)
        self.master: int | None = None
        self.process: asyncio.subprocess.Process | None = None
        self.guest: guests.GuestDir | None = None
        self.pending = b""
        self.reading = False
        self.idle: asyncio.TimerHandle | None = None
        self.ended = False
        self._ending: asyncio.Future[None] | None = None
        self._typing: TypedLine | None = None  # the room code being typed (before the client)
        self._resize: asyncio.TimerHandle | None = None

    def connection_made(self, chan: asyncssh.SSHServerChannel) -> None:  # type: ignore[type-arg]
        self.chan = chan

    def pty_requested(self, term_type: str, term_size: tuple[int, int, int, int],
                      term_modes: Any) -> bool:
        self.term = term_type or "xterm"
        if term_size[0] and term_size[1]:
            self.size = window(term_size[0], term_size[1])
        return True

    def shell_requested(self) -> bool:
        if not self.term:
            self.door.log(f"ssh: {self.server.address}: a shell without a terminal refused "
                          "(the client needs ssh -t)")
            return False
        return True

    def exec_requested(self, command: str) -> bool:
        self.door.log(f"ssh: {self.server.address}: exec of {command[:60]!r} refused")
        return False

    def subsystem_requested(self, subsystem: str) -> bool:
        self.door.log(f"ssh: {self.server.address}: subsystem {subsystem[:30]!r} refused")
        return False

    def session_started(self) -> None:
        asyncio.ensure_future(self._start())

    async def _start(self) -> None:
        assert self.chan is not None
        self.door.sessions.add(self)
        key = self.server.identity_key()
        if not await self._code_first(identity.public_bytes(key)):
            await self.end()
            return
        refused = self.server.admit_session()
        if refused is not None:
            self.door.log(f"ssh: refused {self.server.address}: {refused}")
            self.chan.write(f"hexnet: {refused}; close another session and try again.\r\n"
                            .encode())
            self.chan.exit(1)
            await self.end()
            return
        self.guest = guests.GuestDir(key)
        argv, env = client_launch(self.door.host, self.guest, self.server, self.chan, self.term)
        master, slave = os.openpty()
        try:
            set_window(slave, *self.size)
            self.process = await asyncio.create_subprocess_exec(
                *argv, stdin=slave, stdout=slave, stderr=slave, env=env,
                start_new_session=True)  # the client takes the pty as its terminal itself
        except OSError as exc:
            os.close(master)
            self.door.log(f"ssh: could not start the client: {exc}")
            self.chan.write_stderr(b"hexnet: the host could not start the client.\r\n")
            self.chan.exit(1)
            await self.end()
            return
        finally:
            os.close(slave)
        if self.ended:  # the guest went away while the client was starting
            os.close(master)
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.process.pid, signal.SIGKILL)
            await self.process.wait()
            self.guest.remove()
            return
        os.set_blocking(master, False)
        self.master = master
        who = "key " + self.server.key.get_fingerprint() if self.server.key else "no key"
        self.door.log(f"ssh: guest from {self.server.address} ({who}), client pid "
                      f"{self.process.pid}")
        self._read(True)
        self._touch()
        asyncio.ensure_future(self._wait_exit())

    # -- the room code, before any client ---------------------------------------------------
    async def _code_first(self, public: bytes) -> bool:
        """Whether this guest may have a client: the host is open, the code was typed at the
        login, the key's identity holds a seat — or the code is typed now, in the terminal,
        each try waiting its turn in the host's back-off line."""
        host, server = self.door.host, self.server
        if host.open or server.code is not None or host.lobby.holds_seat(public):
            return True
        assert self.chan is not None
        self._touch()
        while not self.ended:
            self.chan.write(f"{host.name}: type the room code its screen shows.\r\n"
                            "Room code: ".encode())
            self._typing = TypedLine(self.chan)
            try:
                typed = await self._typing.read(self.door.login_timeout)
            finally:
                self._typing = None
            if typed is None:
                return False
            server.holds_turn(True)
            verdict, wait = await self.door.rate_limiter.check(
                server.guesser, server.address, lambda t=typed: code_matches(t, host.room_code),
                limit=CODE_WAIT_LIMIT, gone=lambda: self.ended)
            if verdict == auth.OK:
                server.code = host.room_code
                return True
            server.holds_turn(False)
            if verdict == auth.BAD_CODE:
                self.chan.write(b"That is not the room code.\r\n")
                if server.wrong():
                    return False
                continue
            if verdict == auth.BUSY:
                self.chan.write(f"{busy_words(host.name, wait)}\r\n".encode())
                continue
            if verdict == auth.RATE_LIMITED:
                self.chan.write(f"Too many wrong room codes; try again in "
                                f"{math.ceil(wait)} s.\r\n".encode())
                self.chan.exit(1)
            return False
        return False

    # -- client → guest --------------------------------------------------------------------
    def _read(self, on: bool) -> None:
        if self.master is None or on == self.reading:
            return
        loop = asyncio.get_running_loop()
        if on:
            loop.add_reader(self.master, self._readable)
        else:
            loop.remove_reader(self.master)
        self.reading = on

    def _readable(self) -> None:
        assert self.master is not None and self.chan is not None
        try:
            data = os.read(self.master, READ_CHUNK)
        except BlockingIOError:
            return
        except OSError:  # EIO: the client closed its terminal (it is exiting)
            data = b""
        if not data:
            self._read(False)
            return
        self.chan.write(data)

    def pause_writing(self) -> None:
        self._read(False)  # the guest reads slowly: stop reading the client until it catches up

    def resume_writing(self) -> None:
        if not self.ended:
            self._read(True)

    # -- guest → client --------------------------------------------------------------------
    def data_received(self, data: bytes, datatype: Any) -> None:
        self._touch()
        if self._typing is not None:
            self._typing.feed(data)
            return
        if self.master is None:
            return
        self.pending += data
        if len(self.pending) > MAX_INPUT_PENDING:
            self.door.log(f"ssh: {self.server.address}: input flood; closed")
            asyncio.ensure_future(self.end())
            return
        self._flush()

    def _flush(self) -> None:
        if self.master is None or not self.pending:
            return
        loop = asyncio.get_running_loop()
        try:
            n = os.write(self.master, self.pending)
        except BlockingIOError:
            n = 0
        except OSError:
            self.pending = b""
            return
        self.pending = self.pending[n:]
        loop.remove_writer(self.master)
        if self.pending:
            loop.add_writer(self.master, self._flush)

    def terminal_size_changed(self, width: int, height: int, pixwidth: int,
                              pixheight: int) -> None:
        if not (width and height):
            return
        self.size = window(width, height)  # the last size wins; a storm is passed on coalesced
        if self._resize is None and self.master is not None:
            self._resize = asyncio.get_running_loop().call_later(RESIZE_EVERY, self._resized)

    def _resized(self) -> None:
        self._resize = None
        if self.master is not None and not self.ended:
            set_window(self.master, *self.size)
            self.door.resizes += 1

    def eof_received(self) -> bool:
        return True  # keep the channel: the client decides when it ends

    def break_received(self, msec: int) -> bool:
        return False

    def signal_received(self, signal: str) -> None:
        pass  # the guest does not signal processes on the host

    # -- ending --------------------------------------------------------------------------
    def _touch(self) -> None:
        if self.idle is not None:
            self.idle.cancel()
        self.idle = asyncio.get_running_loop().call_later(self.door.idle_after, self._idled)

    def _idled(self) -> None:
        self.door.log(f"ssh: guest from {self.server.address} idle for "
                      f"{self.door.idle_after:.0f} s; closed")
        asyncio.ensure_future(self.end())

    async def _wait_exit(self) -> None:
        assert self.process is not None
        code = await self.process.wait()
        # Let the last of the client's output through before the channel closes.
        loop_end = asyncio.get_running_loop().time() + 1.0
        while self.reading and asyncio.get_running_loop().time() < loop_end:
            await asyncio.sleep(0.02)
        if self.chan is not None and not self.ended:
            with contextlib.suppress(Exception):
                self.chan.exit(code if code >= 0 else 1)
        await self.end()

    def connection_lost(self, exc: Exception | None) -> None:
        if self.server.session is self:
            self.server.session = None  # the connection may open another session now
        asyncio.ensure_future(self.end())

    async def end(self) -> None:
        """Stop the client (SIGTERM, then SIGKILL, by its pid), free the pty and the key; the
        same work for every caller, done once."""
        if self._ending is None:
            self._ending = asyncio.ensure_future(self._finish())
        await asyncio.shield(self._ending)

    async def _finish(self) -> None:
        self.ended = True
        if self.idle is not None:
            self.idle.cancel()
        if self._resize is not None:
            self._resize.cancel()
        if self._typing is not None:
            self._typing.give_up()
        self._read(False)
        if self.master is not None:
            with contextlib.suppress(Exception):
                asyncio.get_running_loop().remove_writer(self.master)
        process = self.process
        if process is not None and process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(process.pid, signal.SIGTERM)
            try:
                await asyncio.wait_for(process.wait(), STOP_WAIT)
            except TimeoutError:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(process.pid, signal.SIGKILL)
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(process.wait(), STOP_WAIT)
        if self.master is not None:
            with contextlib.suppress(OSError):
                os.close(self.master)
            self.master = None
        if self.guest is not None:
            self.guest.remove()
        if self.chan is not None:
            with contextlib.suppress(Exception):
                self.chan.close()
        if process is not None:
            self.door.log(f"ssh: guest from {self.server.address} left")
        self.door.sessions.discard(self)
