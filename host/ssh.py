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
* **Nothing else.** A session with a pseudo-terminal and a shell request runs the client; an exec
  request (any command), a subsystem (sftp, scp), a shell without a terminal, a second session on
  one connection, port forwarding either way, UNIX sockets, X11 and agent forwarding are refused.
  The client's environment is built here (``TERM`` from the guest's pty request, ``COLORTERM``
  only if the guest sent ``truecolor``/``24bit``), never taken from the guest; the language is
  the one the guest's locale names (``LANG`` etc., which OpenSSH sends), passed as ``--lang``.
* **Limits.** Connections per remote address and in total (:class:`host.guests.SessionCaps`),
  60 s to log in, keepalives find a vanished guest in about 45 s, and a session with no input for
  ``idle_after`` seconds is closed (its seat stays; logging in again resumes it).
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

from host import guests
from host.server import CODE_WAIT_LIMIT
from protocol import auth

LOGIN_TIMEOUT = 60.0
KEEPALIVE = 15.0
STOP_WAIT = 3.0
MAX_INPUT_PENDING = 64 * 1024  # keystrokes waiting for the client before the session is closed
READ_CHUNK = 65536
MAX_CODE_TRIES = 3  # wrong room codes on one connection before it is closed


def set_window(fd: int, cols: int, rows: int) -> None:
    """Set the pty's window size (the kernel tells the client by SIGWINCH)."""
    cols, rows = max(1, min(cols, 1000)), max(1, min(rows, 500))
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))


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
        self.caps = caps or guests.SessionCaps()
        self.idle_after = idle_after
        self.login_timeout = login_timeout
        self.log = log or host.log
        self.secret = guests.guest_secret(host.config_dir)
        self.rate_limiter: auth.RateLimiter = host.rate_limiter  # one back-off for both doors
        self.host_key = asyncssh.import_private_key(host.key_path.read_bytes())
        self.fingerprint = self.host_key.get_fingerprint("sha256")
        self.sessions: set[GuestSession] = set()
        self.connections: set[asyncssh.SSHServerConnection] = set()
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
        self.counted = False
        self.key: asyncssh.SSHKey | None = None  # the last public key accepted
        self.code: str | None = None  # the room code, once typed right
        self.wrong_codes = 0
        self.guesser = b"ssh:" + secrets.token_bytes(16)  # the back-off's identity: this login
        self.session: GuestSession | None = None

    # -- connection ----------------------------------------------------------------------
    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.conn = conn
        self.address = str((conn.get_extra_info("peername") or ("?",))[0])
        refused = self.door.caps.admit(self.address)
        if refused is not None:
            self.door.log(f"ssh: refused {self.address}: {refused}")
            conn.disconnect(asyncssh.DISC_TOO_MANY_CONNECTIONS, f"hexnet: {refused}")
            return
        self.counted = True
        self.door.connections.add(conn)

    def connection_lost(self, exc: Exception | None) -> None:
        if self.counted:
            self.counted = False
            self.door.caps.release(self.address)
        if self.conn is not None:
            self.door.connections.discard(self.conn)

    # -- authentication ------------------------------------------------------------------
    def begin_auth(self, username: str) -> bool:
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

    async def validate_kbdint_response(self, username: str, responses: list[str]) -> bool:
        self.key = None  # keyboard-interactive: no key is the identity
        host = self.door.host
        if host.open:
            return True
        limiter = self.door.rate_limiter
        admitted, wait = limiter.reserve(self.guesser, self.address, CODE_WAIT_LIMIT)
        if not admitted:
            self._give_up(f"too many wrong room codes; try again in {math.ceil(wait)} s")
            return False
        if wait > 0:
            await asyncio.sleep(wait)
        if len(responses) == 1 and code_matches(responses[0], host.room_code):
            limiter.succeed(self.guesser)
            self.code = host.room_code
            return True
        limiter.fail(self.guesser, self.address)
        self.wrong_codes += 1
        self.door.log(f"ssh: {self.address}: wrong room code")
        if self.wrong_codes >= MAX_CODE_TRIES:
            self._give_up("that is not the room code")
            return False
        left = MAX_CODE_TRIES - self.wrong_codes
        return ("hexnet", f"That is not the room code of {host.name} ({left} "
                f"{'tries' if left > 1 else 'try'} left): type the code its screen shows.", "",
                [("Room code: ", False)])

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

    def connection_made(self, chan: asyncssh.SSHServerChannel) -> None:  # type: ignore[type-arg]
        self.chan = chan

    def pty_requested(self, term_type: str, term_size: tuple[int, int, int, int],
                      term_modes: Any) -> bool:
        self.term = term_type or "xterm"
        if term_size[0] and term_size[1]:
            self.size = (term_size[0], term_size[1])
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
        self.guest = guests.GuestDir(key)
        argv = guests.client_command(self.door.host, self.guest, self.server.address,
                                     guests.locale_language(dict(self.chan.get_environment())))
        extra = {"TERM": self.term}
        colorterm = self.chan.get_environment().get("COLORTERM", "")
        if colorterm in ("truecolor", "24bit"):
            extra["COLORTERM"] = colorterm
        if self.server.code is not None:
            argv.append("--code-env")
            extra["HEXNET_ROOM_CODE"] = self.server.code
        env = {k: v for k, v in guests.client_environment().items()
               if k in ("PATH", "HOME", "LANG", "LC_ALL", "PYTHONPATH", "VIRTUAL_ENV",
                        "TMPDIR", "NO_COLOR")}
        env.setdefault("LANG", "C.UTF-8")
        env.update(extra)
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
        if self.master is not None and width and height:
            set_window(self.master, width, height)

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
