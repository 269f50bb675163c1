"""Connecting to a host the way a person does it: check the host's key with them the first
time, and ask the room code again while it is wrong (a few times). Every front end (the Textual
app, the plain mode) asks its own way — a dialog, a typed line — through the same steps."""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable
from typing import Any

from client.session import BadRoomCode, RateLimited, Session, SessionError
from hexnet.i18n import _

MAX_CODE_TRIES = 5
AskCode = Callable[[str, str], Awaitable[str | None]]  # (host label, problem) -> code or None
Confirm = Callable[[str, str], Awaitable[bool]]  # (host label, human fingerprint) -> trusted


class Refused(SessionError):
    """The connection was not made; ``kind`` says why (``cancelled``, ``bad_code``,
    ``rate_limited`` or the failure's class name) and ``str()`` in a sentence."""

    def __init__(self, message: str, kind: str) -> None:
        super().__init__(message)
        self.kind = kind


async def connect(host: str, port: int, *, name: str, code: str | None, ask_code: AskCode,
                  confirm: Confirm, pinned: str | None = None, accept_new: bool = False,
                  config_dir: str | None = None, **options: Any) -> Session:
    """A reconnecting session to ``host:port``; :class:`Refused` if none could be made. A key
    the user confirmed is pinned once the host authenticated; until then later tries (with
    the code) trust it as given."""
    label = f"{host}:{port}"
    confirmed: list[str] = []

    async def checked(host_label: str, fingerprint: str) -> bool:
        ok = await confirm(host_label, fingerprint)
        if ok:
            confirmed.append(fingerprint)
        return ok

    for _attempt in range(MAX_CODE_TRIES):
        try:
            return await Session.connect(
                host, port, name=name, code=code, config_dir=config_dir,
                confirm_fingerprint=checked, accept_new=accept_new,
                pinned_fingerprint=pinned or (confirmed[-1] if confirmed else None),
                reconnect=True, **options)
        except RateLimited as exc:
            raise Refused(str(exc), "rate_limited") from exc
        except BadRoomCode as exc:
            code = await ask_code(label, str(exc) if code else "")
            if code is None:
                raise Refused(_("No room code given."), "cancelled") from exc
        except Refused:
            raise
        except SessionError as exc:
            raise Refused(str(exc), type(exc).__name__) from exc
    raise Refused(_("Too many wrong room codes."), "bad_code")


async def send_intent(session: Session | None, msg: dict[str, Any]) -> tuple[str, str] | None:
    """Send ``msg`` to the host; None when sent, else (``error`` or ``warning``, a sentence
    saying why not). Nothing waits while the link is down: the player tries again."""
    if session is None:
        return "error", _("Not connected.")
    if session.reconnecting:
        return "warning", _("Reconnecting to the host… try again in a moment.")
    try:
        await session.send(msg)
    except SessionError as exc:
        return "error", str(exc)
    return None


class Looking:
    """Tells the host whether the lobby is what the player follows (``look``): a player seated
    at a playing table is sent the lobby only while it is. Said when it changes, and again
    after a reconnect (the host then knows nothing of it); quiet if it cannot be said."""

    def __init__(self) -> None:
        self.said: tuple[bool, int] | None = None

    async def tell(self, session: Session | None, lobby: dict[str, Any], on: bool) -> None:
        seated = (lobby.get("you") or {}).get("table") is not None
        if session is None or session.reconnecting or not seated:
            return
        said = (on, session.reconnects)
        if said == self.said:
            return
        self.said = said
        with contextlib.suppress(Exception):
            await session.send({"type": "look", "on": on})
