"""``hexnet bot HOST[:PORT] --game G --count N``: N bot clients over the network sit together at
a new table of G, play it to the end and exit 0 when it ended normally.

Answering again: a bot that answered a choice and is shown the same choice again (a view made
before its answer arrived, or the host's view after a reconnect that lost the answer) answers it
again :data:`RETRY_AFTER` seconds later unless something new came. That delay is a deadline,
not a timeout per message: the Fang stall of the reliability pass was a bot whose retry timer
started over with every unrelated message (lobby updates, chat), so under load it never fired
and the table waited forever; the blind resend after :data:`ANSWER_WAIT` seconds (``--resend``,
off in the soak) hid it.

Also measures, for every action the host accepted (the actor's next view acknowledges it with
``answered``), the time from that ``act`` being sent to ALL N clients holding a view at least as
new as the one it produced, and prints p50/p99.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from client.policy import ask
from client.session import Session, SessionError
from hexnet.policies import is_builtin, load_policy

DEFAULT_PORT = 7878
RETRY_AFTER = 1.0  # seconds
ANSWER_WAIT = 5.0  # seconds without any reply to our action before it is sent again
MAX_MESSAGES = 1_000_000


@dataclass
class BotReport:
    """What a bot game produced."""

    table: int = 0
    outcome: dict[str, Any] | None = None
    actions_sent: int = 0
    rejected: dict[str, int] = field(default_factory=dict)
    latencies: list[float] = field(default_factory=list)
    seconds: float = 0.0
    reconnects: int = 0

    def percentile(self, q: float) -> float:
        """The ``q`` quantile (0..1) of the latencies in seconds (nearest rank)."""
        if not self.latencies:
            return float("nan")
        data = sorted(self.latencies)
        return data[min(len(data) - 1, max(0, round(q * len(data) + 0.5) - 1))]


def parse_target(target: str, default_port: int = DEFAULT_PORT) -> tuple[str, int]:
    """``host[:port]`` (IPv6 as ``[addr]:port``) → (host, port)."""
    if target.startswith("["):
        host, _, rest = target[1:].partition("]")
        return host, int(rest[1:]) if rest.startswith(":") else default_port
    if target.count(":") == 1:
        host, port = target.split(":")
        return host, int(port)
    return target, default_port


async def _until(pred: Callable[[], bool], session: Session, seconds: float) -> None:
    """Consume ``session``'s messages until ``pred()`` holds (bounded in time)."""
    async def wait() -> None:
        if pred():
            return
        async for msg in session.messages():
            if msg["type"] == "error":
                raise SessionError(f"host refused: {msg['message']}")
            if pred():
                return
    await asyncio.wait_for(wait(), seconds)


async def run_bots(host: str, port: int, *, game: str, count: int, seats: int | None = None,
                   policy: str = "heuristic", code: str | None = None,
                   config_dir: str | None = None, name: str = "bot",
                   pinned_fingerprint: str | None = None, timeout: float = 600.0,
                   on_message: Callable[[int, dict[str, Any]], None] | None = None,
                   seed: int | None = None, reconnect: bool = True,
                   options: dict[str, Any] | None = None,
                   resend: float | None = ANSWER_WAIT,
                   pace: tuple[float, float] | None = None) -> BotReport:
    """Connect ``count`` bots, seat them at a new table of ``game`` (``seats`` seats, extra
    seats filled with host-side bots), start it and play to the end. ``on_message(i, msg)``
    sees every message bot ``i`` receives after the handshake. With ``reconnect`` (default)
    each bot reconnects by itself after a lost connection or a host restart and resumes its
    seat (``report.reconnects`` counts it). ``policy`` is a built-in name or ``MODULE:FUNCTION``
    (see :mod:`client.policy`); host-side bots in the extra seats play ``heuristic`` then.
    ``options`` are the new table's game options. ``resend``: seconds without any answer to an
    action before it is sent again (None: never). ``pace`` (low, high): each bot thinks a time
    drawn uniformly from it before each decision, as a person at the table would (its own
    generator: the choices stay those of ``seed``)."""
    seats = seats or count
    choose = load_policy(game, policy)
    own = not is_builtin(policy)
    report = BotReport()
    started = time.perf_counter()
    sessions: list[Session] = []
    try:
        for i in range(count):
            sessions.append(await Session.connect(
                host, port, name=f"{name}{i + 1}"[:24], code=code, config_dir=config_dir,
                accept_new=True, pinned_fingerprint=pinned_fingerprint, identity_file=None,
                reconnect=reconnect))
        first = sessions[0]
        await first.send({"type": "create", "game": game, "seats": seats,
                          "options": dict(options or {})})
        await _until(lambda: first.you.get("table") is not None, first, 15)
        tid = int(first.you["table"])
        report.table = tid
        for s in sessions[1:]:
            await s.send({"type": "sit", "table": tid, "seat": None})
            await _until(lambda s=s: s.you.get("table") == tid, s, 15)
        for seat in range(count, seats):
            # host-side bots: the wire names a policy; the host gives it its own budget
            await first.send({"type": "add_bot", "table": tid, "seat": seat,
                              "policy": "heuristic" if own else policy.partition("@")[0]})
        await first.send({"type": "start", "table": tid})
        sent_at: dict[tuple[int, int], float] = {}  # (bot, quoted state id) → send time
        accepted: list[tuple[float, int]] = []  # (send time, state id the action produced)
        rng_base = seed if seed is not None else random.SystemRandom().getrandbits(32)

        async def play(i: int, s: Session) -> dict[str, Any] | None:
            rng = random.Random(rng_base + i)
            thinking = random.Random(rng_base + 1000 + i)
            answered: Any = None  # the choice (step key, legal) we last answered
            latest: dict[str, Any] | None = None
            skipped = False
            again_at: float | None = None  # when to answer the same choice again (a deadline)
            for _ in range(MAX_MESSAGES):
                wait = None if again_at is None else max(0.0, again_at - time.monotonic())
                msg = await s.next_message(wait)
                if msg is None:  # our answer did not change that choice, or it (or its
                    # acknowledgement) was lost with a connection: answer it again
                    answered, msg, skipped, again_at = None, latest, False, None
                elif on_message is not None:
                    on_message(i, msg)
                if msg is not None and msg["type"] == "rejected":
                    report.rejected[msg["code"]] = report.rejected.get(msg["code"], 0) + 1
                    again_at = None
                    if msg["code"] != "illegal":  # a refused answer is asked again later
                        answered = None  # choose again from the latest view
                    msg = latest
                if msg is None or msg["type"] != "view" or msg["table"] != tid:
                    continue
                latest = msg
                if "answered" in msg:  # our action went through: whatever comes is new
                    answered, again_at = None, None
                    t0 = sent_at.get((i, msg["answered"]))
                    if t0 is not None:
                        accepted.append((t0, msg["view"]["state_id"]))
                view, legal = msg["view"], msg["legal"]
                if view.get("outcome") is not None:
                    return view["outcome"]
                if view.get("seat") not in (view.get("active") or []):
                    legal = []  # optional moves only (a trial): a bot acts when it is asked
                sid = view["state_id"]
                choice = ((view.get("deadline") or {}).get("key"), legal)
                # a view made before our answer arrived offers the same choice again: skip it
                # (and answer again if nothing else comes within RETRY_AFTER seconds)
                was_skipped, skipped = skipped, bool(legal) and choice == answered
                if skipped and not was_skipped:
                    again_at = time.monotonic() + RETRY_AFTER
                if not legal:
                    answered, again_at = None, None
                elif choice != answered:
                    answered = choice
                    again_at = (time.monotonic() + resend
                                if resend is not None and reconnect else None)
                    await _think(pace, thinking)
                    # the user's own policy and a thinking one (search) answer from a thread
                    action = await ask(choose, view, legal, rng,
                                       own=own or getattr(choose, "thinks", False))
                    if action is None:  # not sent: asked again later, as after a refusal
                        report.rejected["unsent"] = report.rejected.get("unsent", 0) + 1
                        continue
                    sent_at[(i, sid)] = time.perf_counter()
                    report.actions_sent += 1
                    await s.send({"type": "act", "table": tid, "state_id": sid,
                                  "action": action})
            return None

        try:
            outcomes = await asyncio.wait_for(
                asyncio.gather(*(play(i, s) for i, s in enumerate(sessions))), timeout)
        except TimeoutError as exc:
            raise TimeoutError(f"table {tid} did not end within {timeout:g} s; "
                               + "; ".join(_where(s, tid) for s in sessions)) from exc
        report.outcome = outcomes[0] if all(o is not None for o in outcomes) else None
        report.latencies = _until_all_hold(sessions, tid, accepted)
    finally:
        await close_sessions(sessions, report, started)
    return report


async def _think(pace: tuple[float, float] | None, rng: random.Random) -> None:
    """A person's think time before a decision (none without ``pace``)."""
    if pace is not None:
        await asyncio.sleep(rng.uniform(*pace))


def _until_all_hold(sessions: list[Session], table: int, accepted: list[tuple[float, int]]
             ) -> list[float]:
    """For each accepted action (send time, state id it produced) the seconds until every
    session held a view of ``table`` at least that new (actions some session never saw
    are left out)."""
    latencies = []
    for t0, produced in accepted:
        arrivals = []
        for s in sessions:
            times = [t for k, t in s.view_times.get(table, {}).items() if k >= produced]
            if times:
                arrivals.append(min(times))
        if len(arrivals) == len(sessions):
            latencies.append(max(arrivals) - t0)
    return latencies


async def close_sessions(sessions: list[Session], report: Any, started: float) -> None:
    """Close every bot's session (whatever state it is in) and note in ``report`` the seconds
    since ``started`` and the reconnects the sessions made."""
    for s in sessions:
        with contextlib.suppress(Exception):
            await s.aclose()
    report.seconds = time.perf_counter() - started
    report.reconnects = sum(s.reconnects for s in sessions)


def _where(session: Session, table: int) -> str:
    """Where a bot stands (for a timeout's message): its last view and its link."""
    view = session.views.get(table) or {}
    return (f"seat {view.get('seat')}: state {view.get('state_id')}, active "
            f"{view.get('active')}, {len(session.legal.get(table) or [])} legal, deadline "
            f"{(view.get('deadline') or {}).get('key')}"
            + (", reconnecting" if session.reconnecting else ""))
