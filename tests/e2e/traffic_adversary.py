"""The adversary of issue 22, as tools: an eavesdropper's relay that records every TLS record,
the secret steps as the rules define them (the test's own reading, not the host's), human-paced
players on the real client session, per-seat features of each step, and the statistics that
say whether a feature tells the seats holding a secret from the others.

Written against the protocol and the core's outside only (``Session``, ``host.lobby``'s
listener and tables), so the same tools run against the code before issue 22 too.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import random
import statistics
from dataclasses import dataclass, field
from typing import Any

from client.session import Session, SessionError
from client.stepbench import DOWN, UP, Tap
from hexnet.games import get_policy
from hexnet.games.fang import data as fang
from hexnet.games.hranice import cards as hranice_cards
from hexnet.games.hranice import reactions as hranice_reactions

# --- the eavesdropper: a relay that keeps every TLS record (client/stepbench.py) ---------------

Relay = Tap

# --- what is secret: the steps and who holds a secret at each ---------------------------------


def step_of(game: str, state: dict[str, Any]) -> tuple[Any, ...] | None:
    """The secret step open in ``state`` as the rules define it (the test's own reading): its
    kind first, then what tells one from the next."""
    if state.get("outcome") is not None:
        return None
    if game == "fang":
        today = state.get("today") or {}
        scene = state["scene"]["name"]
        if today.get("seer_open") or today.get("thief_open"):
            return ("fang-evening", state["day"])
        if scene in ("pick", "guard"):
            return ("fang-pick", state["day"], state["scene"]["serial"])
        if scene == "witches":
            return ("fang-witches", state["day"], state["scene"]["serial"])
        if scene in ("proposal_vote", "vote"):
            return ("fang-vote", state["day"], state["scene"]["serial"])
        return None
    if game == "hexenhammer":
        if state["choice"] is not None:
            return None
        if state["window"] is not None:
            return ("hh-window", state["windows"])
        if state["phase"] == 2:
            return ("hh-panic", state["round"])
        return None
    window = state["window"]
    if window is not None and window["pending"]:
        return ("hr-window", state["window_serial"])
    return None


def holders(game: str, engine: Any, state: dict[str, Any], kind: str) -> dict[int, bool]:
    """The seats a step is analysed for (those whose part in it is not public anyway), each with
    whether it holds the step's secret: Fang — the witches (they do not pick, they act in their
    window, their votes follow their side) among the cats, at the evening the seer and the
    pickpocket; Hexenhammer — in a window the asked seats holding a fitting ★ card, in the panic
    the seats that can play a card; Hranice — the asked seats holding a fitting reaction."""
    if game == "fang":
        cats = [s for s in range(state["n"]) if state["form"][s] == "cat"]
        secret = ((fang.SEER, fang.PICKPOCKET) if kind == "fang-evening" else (fang.WITCH,))
        return {s: state["roles"][s] in secret for s in cats}
    if game == "hexenhammer":
        if kind == "hh-window":
            asked = state["window"]["pending"]
            return {s: len(engine.legal_actions(state, s)) > 1 for s in asked}
        return {s: any(a["type"] == "play" for a in engine.legal_actions(state, s))
                for s in range(len(state["players"]))}
    window = state["window"]
    event = window["trigger"]["event"]
    return {s: any(hranice_reactions.fits(hranice_cards.kind_of(c), event)
                   for c in state["hands"][s]) for s in window["order"]}


@dataclass
class Step:
    """One secret step of one table as it happened: when its first frame and its close went
    out (host time), and who held its secret."""

    table: int
    key: tuple[Any, ...]
    opened: float
    held: dict[int, bool]
    closed: float | None = None


class Truth:
    """The host's side, for labels only: taps the core's effects and notes, at every burst of
    a watched table, whether the step the rules define opened or closed."""

    def __init__(self, host: Any) -> None:
        self.host = host
        self.steps: list[Step] = []
        self.open: dict[int, Step] = {}
        self.watched: dict[int, str] = {}  # table → game
        inner = host.lobby.out.listener

        def tap(effects: list[Any]) -> None:
            inner(effects)  # (frames are written here: the step's time is their time)
            if any(getattr(e, "data", None) is not None for e in effects):  # table frames
                for tid in list(self.watched):
                    self._look(tid)

        host.lobby.out.listener = tap

    def _look(self, tid: int) -> None:
        table = self.host.lobby.tables.get(tid)
        if table is None or table.state is None:
            return
        game = self.watched[tid]
        key = step_of(game, table.state) if table.status == "playing" else None
        now = asyncio.get_running_loop().time()
        current = self.open.get(tid)
        if current is not None and current.key == key:
            return
        if current is not None:
            current.closed = now
            del self.open[tid]
        if key is not None:
            step = Step(tid, key, now, holders(game, table.engine, table.state, key[0]))
            self.open[tid] = step
            self.steps.append(step)


# --- players at a human pace --------------------------------------------------------------------


@dataclass
class Player:
    """A human-paced bot: the real client session, the game's heuristic policy, and a think
    time drawn from ``think`` before each decision — from ``quick`` when there is nothing to
    weigh (a lone "pass" or "confirm"): a person with a card to weigh takes longer than one
    who can only pass, the tell the traffic rule must hide."""

    session: Session
    rng: random.Random
    think: tuple[float, float]
    quick: tuple[float, float] = (0.5, 1.0)
    port: int = 0
    seat: int | None = None
    decisions: int = 0


async def connect(port: int, name: str, cfg: str, seed: int) -> Session:
    session = await Session.connect("127.0.0.1", port, name=name, config_dir=cfg,
                                    accept_new=True, identity_file=None, reconnect=False)
    slots = getattr(session, "slots", None)
    if slots is not None:  # the slot clock's draws fixed too (CI runs the same schedule)
        slots.rng = random.Random(seed)
    return session


class Until:
    """When the play stops (the loop's clock); moved earlier once enough has been seen."""

    def __init__(self, at: float) -> None:
        self.at = at


async def play(player: Player, game: str, tid: int, until: Until) -> None:
    """Answer every new choice at ``tid`` after a think time, until the game ends or the
    wall clock passes ``until.at``."""
    choose = get_policy(game, "heuristic")
    s = player.session
    answered: Any = None
    latest: dict[str, Any] | None = None
    loop = asyncio.get_running_loop()
    while loop.time() < until.at:
        try:
            msg = await s.next_message(min(1.0, max(0.01, until.at - loop.time())))
        except SessionError:
            return
        if msg is None:
            msg, answered = latest, None  # nothing came: look at the latest choice again
        elif msg["type"] == "rejected":
            msg, answered = latest, None
        if msg is None or msg["type"] != "view" or msg["table"] != tid:
            continue
        latest = msg
        view, legal = msg["view"], msg["legal"]
        if view.get("outcome") is not None:
            return
        if game == "hexenhammer" and view.get("seat") not in (view.get("active") or []):
            legal = []  # (a trial may be offered at any time: bots act when asked)
        choice = ((view.get("deadline") or {}).get("key"), repr(legal), view.get("scene"),
                  view.get("phase"), bool(view.get("window")))
        if not legal or choice == answered:
            continue
        answered = choice
        await asyncio.sleep(player.rng.uniform(*(player.quick if len(legal) == 1
                                                  else player.think)))
        action = choose(view, legal, player.rng)
        player.decisions += 1
        with contextlib.suppress(SessionError):
            await s.send({"type": "act", "table": tid, "state_id": view["state_id"],
                          "action": action})


async def seat_all(host: Any, players: list[Player], game: str, seed: int,
                   options: dict[str, Any] | None = None) -> int:
    """A new table of ``game`` with ``players`` seated in order, started; its id."""
    tid = host.lobby.create_table(game, len(players), dict(options or {}), seed=seed)
    for p in players:
        await p.session.send({"type": "sit", "table": tid, "seat": None})
    for _ in range(400):
        seated = [host.lobby.tables[tid].seat_of(p.session.identity) for p in players]
        if None not in seated:
            break
        await asyncio.sleep(0.02)
    for p, seat in zip(players, seated, strict=True):
        p.seat = seat
    host.lobby.start(tid)
    return tid


# --- features -------------------------------------------------------------------------------


def features(records: list[tuple[float, str, int]], opened: float, closed: float
             ) -> dict[str, float]:
    """What an eavesdropper can measure of one seat in one step: frames each way, bytes, the
    first and last upstream frame, the gaps between them, how soon the host answers. Times to
    the millisecond: within one burst the host writes its frames seat after seat, some µs
    apart — an order that is the seats' own (public), which would only blur the test with
    which seat happens to sit where."""
    opened, closed = round(opened, 3), round(closed, 3)
    up = [round(t, 3) for t, way, _ in records if way == UP and opened <= t <= closed]
    down = [round(t, 3) for t, way, _ in records if way == DOWN and opened <= t <= closed]
    length = max(closed - opened, 1e-6)
    gaps = [b - a for a, b in zip(up, up[1:], strict=False)] or [length]
    answers = []
    for t in up:
        later = next((d for d in down if d >= t), None)
        if later is not None:
            answers.append(later - t)
    return {
        "frames_up": len(up), "frames_down": len(down),
        "bytes_up": sum(n for t, way, n in records if way == UP and opened <= t <= closed),
        "bytes_down": sum(n for t, way, n in records if way == DOWN and opened <= t <= closed),
        "up_in_first_1.7s": sum(1 for t in up if t - opened <= 1.7),
        "first_up": (up[0] - opened) if up else length,
        "last_up": (closed - up[-1]) if up else length,
        "first_down": (down[0] - opened) if down else length,
        "mean_gap_up": statistics.fmean(gaps), "max_gap_up": max(gaps),
        "answer_delay": statistics.median(answers) if answers else length,
    }


@dataclass
class Sample:
    kind: str
    window: int  # the step's index (train/test split by step, never by seat)
    secret: bool
    values: dict[str, float] = field(default_factory=dict)
    seat: tuple[int, int] = (0, 0)  # (table, seat): the player it measures


def samples(truth: Truth, players: dict[tuple[int, int], Player],
            relay: Relay) -> list[Sample]:
    """Every (seat, step) of the closed steps with its features, each less the mean of the
    step's seats, and its label. The question is which seat *of a step* holds the secret: what
    is the same for every seat of a step — above all how long it lasted, which a step with a
    holder thinking may do longer, and which the traffic rule lets everyone see — says
    nothing about that, and must not pass for a per-seat tell."""
    out = []
    for i, step in enumerate(truth.steps):
        if step.closed is None:
            continue
        mine = []
        for seat, secret in step.held.items():
            player = players.get((step.table, seat))
            if player is not None:
                records = relay.records.get(player.port, [])
                mine.append(Sample(step.key[0], i, secret,
                                   features(records, step.opened, step.closed),
                                   (step.table, seat)))
        for name in mine[0].values if mine else []:
            mean = statistics.fmean(s.values[name] for s in mine)
            for s in mine:
                s.values[name] -= mean
        out += mine
    return out


# --- statistics -----------------------------------------------------------------------------


def mann_whitney_p(a: list[float], b: list[float]) -> float:
    """The two-sided p-value of the Mann-Whitney U test (normal approximation with the tie
    correction; fine from ~8 values a side)."""
    both = sorted([(v, 0) for v in a] + [(v, 1) for v in b])
    ranks = [0.0] * len(both)
    i = 0
    ties = 0.0
    while i < len(both):
        j = i
        while j + 1 < len(both) and both[j + 1][0] == both[i][0]:
            j += 1
        for k in range(i, j + 1):
            ranks[k] = (i + j) / 2 + 1
        t = j - i + 1
        ties += t ** 3 - t
        i = j + 1
    n1, n2 = len(a), len(b)
    r1 = sum(r for r, (_, g) in zip(ranks, both, strict=True) if g == 0)
    u = r1 - n1 * (n1 + 1) / 2
    n = n1 + n2
    var = n1 * n2 / 12 * ((n + 1) - ties / (n * (n - 1)))
    if var <= 0:
        return 1.0
    z = (u - n1 * n2 / 2) / math.sqrt(var)
    return 2 * (1 - statistics.NormalDist().cdf(abs(z)))


def balanced_accuracy(pairs: list[tuple[float, bool]], threshold: float, above: bool) -> float:
    """The mean of the hit rates on both classes of "secret iff value > threshold" (or <=)."""
    pos = [v for v, s in pairs if s]
    neg = [v for v, s in pairs if not s]
    if not pos or not neg:
        return 0.5
    hit = sum((v > threshold) == above for v in pos) / len(pos)
    miss = sum((v > threshold) != above for v in neg) / len(neg)
    return (hit + miss) / 2


def stump(train: list[Sample], test: list[Sample], names: list[str]) -> tuple[str, float]:
    """The simplest classifier: the feature and threshold that tell the classes apart best on
    ``train``; its balanced accuracy on ``test`` (the base rate is 0.5)."""
    best = (0.0, names[0], 0.0, True)
    for name in names:
        pairs = [(s.values[name], s.secret) for s in train]
        for threshold in sorted({v for v, _ in pairs}):
            for above in (True, False):
                acc = balanced_accuracy(pairs, threshold, above)
                if acc > best[0]:
                    best = (acc, name, threshold, above)
    _, name, threshold, above = best
    return name, balanced_accuracy([(s.values[name], s.secret) for s in test], threshold, above)

