"""Tournament rules as pure functions: who sits where each round, what a table's result is
worth, and how the entrants rank. ``hexnet tournament`` (in-process ladders) uses them, and so can
the host's tournaments over the network: nothing here plays a game, prints or touches a file.

An entrant is a unique name; their seed is their place in the entry list (first = top seed). A
round is tables of entrants in seat order plus the entrants who sit it out (byes). A table's
result comes back as ranking points per seat. The :class:`History` of rounds and results is the
whole state of an event (plain data: ``as_dict``/``from_dict`` for a journal).

Formats
- **swiss**: each round seats the entrants by standing: the best-placed free entrant opens a
  table and is joined by the next best, so that nobody meets anyone again while another seating
  avoids it (the seating with the fewest repeated meetings wins, standing order breaks ties; the
  exact search is bounded at ``SEARCH_STEPS`` steps, enough for a few dozen entrants, after
  which repeats left are mended by swapping entrants between tables, neighbours first). When
  the entrants do not fill whole tables, some tables seat one fewer where the game allows it
  (7 entrants at tables of 4: a table of 4 and one of 3; the full tables are the top
  standings'), and only who still cannot be seated sits out (``swiss_tables``): the byes go to
  the entrants with the fewest byes so far, lowest standing first, so nobody gets a second bye
  while someone has none.
- **round-robin**: a schedule fixed in advance in which every group of ``size`` entrants meets
  exactly once (two seats: the circle method; more: each round takes, in order, the groups not
  yet played that share nobody with the round's other tables). Whoever has no table in a round
  has a bye. Rounds beyond the schedule's length start it again.
- **knockout**: a bracket by seed, ``depth`` rounds (the fewest with ``size ** depth`` at
  least the entrants). Each table (and each bye) sends one entrant on: the best placed, the
  better seed on a tie. Round 1 has as many slots as can be filled, ``size ** (depth - 1)`` when
  possible: the top seeds take byes (a slot of their own) so that the others fill tables of
  ``min_seats``–``size`` entrants, dealt serpentine in seed order (table ``i`` of ``M`` takes
  seeds ``i``, ``2M + 1 - i``, ``2M + i``, …), so the top seeds meet as late as possible. From
  round 2 on, slot ``i`` is whoever went on from slot ``i`` of the round before (the byes first,
  then the tables), dealt the same way over the fewest tables that still come down to one. An
  entry count no such bracket fits is refused, naming counts that fit.

Seats turn by one place each round (``turn_seats``), so nobody keeps the first seat, and at three
seats or more run the other way in every second turn, so nobody keeps a neighbour on one side.

Ranking points per game come from ``seeds/tournament.toml``: **placement** points (Hexenhammer,
Hranice: winners first, then by final score; one point per seat placed below, ½ per seat level)
or **side** wins (Fang: one point when your side won). A bye scores half of the most one seat can
earn at a table (``bye_points``); a table that could not finish scores nothing.

Tie-breaks (in this order, the seed last):
- swiss: points, median-Buchholz, Buchholz, tables won. A table contributes the mean final
  points of the others at it; Buchholz is the sum of the contributions, median-Buchholz the same
  without the highest and the lowest (with three tables or more). Byes add points, no
  contribution.
- round-robin: points, tables won.
- knockout: the round reached, then the points at the table where the entrant went out, then
  points in all.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from hexnet import seeds

FORMATS = ("swiss", "round-robin", "knockout")
SEARCH_STEPS = 5_000  # candidate tables a Swiss seating's exact search may try
SWAP_PASSES = 20  # then passes of swapping entrants between tables to mend repeats
MAX_SCHEDULE_TABLES = 20_000  # a round-robin schedule larger than this is refused

Seating = tuple[str, ...]


class TournamentError(ValueError):
    """An event that cannot be drawn as asked (a sentence for the organiser)."""


# --- ranking points ----------------------------------------------------------------------

def ranking(game: str) -> str:
    """The game's ranking scheme: ``"placement"`` or ``"side"``."""
    try:
        return str(seeds.table("tournament")[game]["ranking"])
    except KeyError:
        raise TournamentError(f"no ranking points are defined for {game}") from None


def table_points(game: str, outcome: Mapping[str, Any], seats: int) -> list[float]:
    """Ranking points per seat for a finished table of ``game`` with outcome ``outcome``."""
    winners = set(outcome.get("winners", []))
    if ranking(game) == "side":
        return [1.0 if s in winners else 0.0 for s in range(seats)]
    scores = list(outcome.get("scores", [])) + [0] * seats
    key = [(s in winners, scores[s]) for s in range(seats)]
    return [sum(1.0 if key[s] > key[t] else 0.5 if key[s] == key[t] else 0.0
                for t in range(seats) if t != s) for s in range(seats)]


def bye_points(game: str, size: int) -> float:
    """What a bye scores: half the most one seat can earn at a table of ``size``."""
    return 0.5 if ranking(game) == "side" else (size - 1) / 2


# --- the event's state -------------------------------------------------------------------

@dataclass(frozen=True)
class Round:
    """One round: tables (entrants in seat order) and those who sit out."""

    number: int
    tables: tuple[Seating, ...]
    byes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Result:
    """A finished table: ranking points and the first-placed seats (``first``), per seat."""

    round: int
    table: int
    seats: Seating
    points: tuple[float, ...]
    first: tuple[int, ...] = ()
    failed: bool = False


@dataclass
class Standing:
    """An entrant's line in the standings."""

    name: str
    seed: int
    points: float = 0.0
    games: int = 0
    wins: int = 0
    byes: int = 0
    buchholz: float = 0.0
    median_buchholz: float = 0.0
    reached: int = 0  # knockout: rounds survived (the champion: every round)
    rank: int = 0

    def as_dict(self) -> dict[str, Any]:
        d = asdict(self)
        for k in ("points", "buchholz", "median_buchholz"):
            d[k] = round(d[k], 3)
        return d


@dataclass
class History:
    """Everything an event is: its entrants, table size, format, rounds and results."""

    entrants: list[str]
    size: int
    fmt: str
    bye_points: float
    min_seats: int = 2
    rounds: list[Round] = field(default_factory=list)
    results: list[Result] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.fmt not in FORMATS:
            raise TournamentError(f"no tournament format {self.fmt!r}; "
                                  f"there are: {', '.join(FORMATS)}")
        if len(set(self.entrants)) != len(self.entrants):
            raise TournamentError("entrants' names must differ")
        if self.size < 2:
            raise TournamentError("a table needs at least 2 seats")
        if len(self.entrants) < (self.min_seats if self.fmt == "knockout" else self.size):
            raise TournamentError(f"{len(self.entrants)} entrants cannot fill a table of "
                                  f"{self.size}")

    def next_round(self) -> Round:
        """Draw the next round from what has been played so far."""
        number = len(self.rounds) + 1
        if self.fmt == "swiss":
            return swiss_round(self, number)
        if self.fmt == "round-robin":
            schedule = round_robin_schedule(self.entrants, self.size)
            tables, byes = schedule[(number - 1) % len(schedule)]
            return Round(number, tuple(turn_seats(t, number) for t in tables), byes)
        return knockout_round(self, number)

    def add_round(self, rnd: Round) -> None:
        self.rounds.append(rnd)

    def record(self, result: Result) -> None:
        self.results.append(result)

    def standings(self) -> list[Standing]:
        return standings(self)

    def as_dict(self) -> dict[str, Any]:
        return {"entrants": list(self.entrants), "size": self.size, "fmt": self.fmt,
                "bye_points": self.bye_points, "min_seats": self.min_seats,
                "rounds": [{"number": r.number, "tables": [list(t) for t in r.tables],
                            "byes": list(r.byes)} for r in self.rounds],
                "results": [{**asdict(r), "seats": list(r.seats), "points": list(r.points),
                             "first": list(r.first)} for r in self.results]}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> History:
        h = cls(list(d["entrants"]), int(d["size"]), str(d["fmt"]), float(d["bye_points"]),
                int(d.get("min_seats", 2)))
        h.rounds = [Round(int(r["number"]), tuple(tuple(t) for t in r["tables"]),
                          tuple(r["byes"])) for r in d["rounds"]]
        h.results = [Result(int(r["round"]), int(r["table"]), tuple(r["seats"]),
                            tuple(float(p) for p in r["points"]), tuple(r["first"]),
                            bool(r.get("failed", False))) for r in d["results"]]
        return h


def turn_seats(table: Sequence[str], number: int) -> Seating:
    """The table's entrants with the seats turned by one place per round; at three seats or
    more the order runs the other way round in every second turn of the table (rounds
    ``size + 1``–``2·size``, …), so that over ``2·size`` rounds of the same table each entrant
    sits in every seat with each neighbour on either side — where the seat after a player
    gains or loses by that player's play (Hranice), turning alone would keep the same
    neighbour there all event."""
    size = len(table)
    shift = (number - 1) % size
    if size >= 3 and (number - 1) // size % 2 == 1:
        table = table[:1] + tuple(reversed(table[1:]))
    return tuple(table[shift:]) + tuple(table[:shift])


# --- standings ---------------------------------------------------------------------------

def standings(history: History) -> list[Standing]:
    """Every entrant ranked by the format's order (see the module's doc); ``rank`` from 1."""
    lines = {name: Standing(name, seed) for seed, name in enumerate(history.entrants, 1)}
    for rnd in history.rounds:
        for name in rnd.byes:
            lines[name].byes += 1
            lines[name].points += history.bye_points
    for res in history.results:
        for s, name in enumerate(res.seats):
            lines[name].games += 1
            lines[name].points += res.points[s]
            lines[name].wins += s in res.first
    contributions: dict[str, list[float]] = {name: [] for name in lines}
    for res in history.results:
        for name in res.seats:
            others = [lines[o].points for o in res.seats if o != name]
            contributions[name].append(sum(others) / len(others))
    for name, parts in contributions.items():
        lines[name].buchholz = sum(parts)
        cut = sorted(parts)[1:-1] if len(parts) >= 3 else parts
        lines[name].median_buchholz = sum(cut)
    if history.fmt == "knockout":
        order = _knockout_order(history, lines)
    elif history.fmt == "swiss":
        order = sorted(lines.values(), key=lambda e: (-_r(e.points), -_r(e.median_buchholz),
                                                      -_r(e.buchholz), -e.wins, e.seed))
    else:
        order = sorted(lines.values(), key=lambda e: (-_r(e.points), -e.wins, e.seed))
    for rank, line in enumerate(order, 1):
        line.rank = rank
    return order


def standings_lines(rows: Sequence[Mapping[str, Any]], fmt: str) -> list[str]:
    """Standings (:meth:`Standing.as_dict` maps, rank order) as plain text lines with the
    format's tie-breaks: the host's log and ``hexnet bot`` print them."""
    extra = {"swiss": "  med-B   Buchh", "knockout": " reached"}.get(fmt, "")
    lines = [f"{'#':>3}  {'entrant':<24} {'points':>6}  wins games byes{extra}"]
    for r in rows:
        cols = {"swiss": f" {r['median_buchholz']:>6.2f} {r['buchholz']:>7.2f}",
                "knockout": f" {r['reached']:>7}"}.get(fmt, "")
        lines.append(f"{r['rank']:>3}. {r['name']:<24} {r['points']:>6.2f}  {r['wins']:>4} "
                     f"{r['games']:>5} {r['byes']:>4}{cols}")
    return lines


def _r(x: float) -> float:
    """Points compared as equal when they differ only by float rounding."""
    return round(x, 9)


# --- swiss -------------------------------------------------------------------------------

DEFAULT_SWISS_ROUNDS = 3


def planned_rounds(fmt: str, entrants: int, size: int, rounds: int | None,
                   names: list[str]) -> int:
    """How many rounds an event of ``entrants`` (``names``) at tables of ``size`` plays:
    ``rounds`` if given and the format allows it (TournamentError if not), else the format's
    own (swiss 3, round-robin the whole schedule, knockout its bracket)."""
    if fmt == "knockout":
        depth = knockout_depth(entrants, size)
        if rounds is not None and rounds != depth:
            raise TournamentError(f"a knockout of {entrants} entrants at tables of {size} "
                                  f"plays {depth} round{'s' * (depth != 1)}; leave out "
                                  "--rounds")
        return depth
    if rounds is None:
        return (DEFAULT_SWISS_ROUNDS if fmt == "swiss"
                else len(round_robin_schedule(names, size)))
    if rounds < 1:
        raise TournamentError(f"--rounds must be at least 1, not {rounds}")
    return rounds


def swiss_tables(entrants: int, size: int, min_seats: int) -> list[int]:
    """The table sizes of a Swiss round, largest first: the fewest byes with tables of
    ``size`` seats or one fewer (where the game seats that many, ``min_seats``), then the
    fewest tables. 7 at 4: [4, 3]; 5 at 4: [4] (a bye: a table of 2 is no table of 4)."""
    smallest = max(size - 1, min_seats, 2)
    for seated in range(entrants, size - 1, -1):
        count = -(-seated // size)
        if count * smallest <= seated:
            full = seated - count * (size - 1) if smallest < size else count
            return [size] * full + [size - 1] * (count - full)
    return []  # (fewer entrants than a table: History refuses such an event)


def swiss_round(history: History, number: int) -> Round:
    """The next Swiss round: byes rotated, tables by standing without repeat meetings while
    avoidable."""
    ranked = [line.name for line in standings(history)]
    byes_had = {name: 0 for name in ranked}
    for rnd in history.rounds:
        for name in rnd.byes:
            byes_had[name] += 1
    sizes = swiss_tables(len(ranked), history.size, history.min_seats)
    surplus = len(ranked) - sum(sizes)
    position = {name: i for i, name in enumerate(ranked)}
    by_bye = sorted(ranked, key=lambda n: (byes_had[n], -position[n]))
    byes = tuple(sorted(by_bye[:surplus], key=position.__getitem__))
    playing = [n for n in ranked if n not in byes]
    tables = seat_by_standing(playing, history.size, meetings(history.results), sizes)
    return Round(number, tuple(turn_seats(t, number) for t in tables), byes)


def meetings(results: Iterable[Result]) -> dict[frozenset[str], int]:
    """How often each pair of entrants has sat at one table."""
    met: dict[frozenset[str], int] = {}
    for res in results:
        for a, b in itertools.combinations(res.seats, 2):
            key = frozenset((a, b))
            met[key] = met.get(key, 0) + 1
    return met


def seat_by_standing(ranked: Sequence[str], size: int,
                     met: Mapping[frozenset[str], int],
                     sizes: Sequence[int] | None = None) -> list[Seating]:
    """Split ``ranked`` (best first) into tables of ``sizes`` seats in that order (default:
    all of ``size``, a multiple of it): the fewest repeated meetings (each pair counts as often
    as it met before), then the earliest in standing order (the best free entrant with the next
    best)."""
    n = len(ranked)
    sizes = list(sizes) if sizes is not None else [size] * (n // size)
    if sum(sizes) != n:
        raise TournamentError(f"{n} entrants do not fill tables of {size}")
    cost = [[met.get(frozenset((a, b)), 0) for b in ranked] for a in ranked]

    def table_cost(members: Sequence[int]) -> int:
        return sum(cost[a][b] for a, b in itertools.combinations(members, 2))

    # A first seating, greedily: every table takes the best free entrant and the partners that
    # add the fewest repeats; the search below only replaces it with a strictly better one.
    free, greedy = list(range(n)), []
    while free:
        head, rest = free[0], free[1:]
        table = [head]
        for _ in range(sizes[len(greedy)] - 1):
            pick = min(rest, key=lambda c, t=table: (sum(cost[c][m] for m in t), c))
            rest.remove(pick)
            table.append(pick)
        greedy.append(tuple(table))
        free = rest
    # The search keeps the first seating it finds at most as costly as the greedy one, then
    # only strictly better ones: the cheapest, and the earliest in standing order among those.
    best = [sum(table_cost(t) for t in greedy) + 1, greedy]
    steps = [SEARCH_STEPS]

    def search(free: list[int], spent: int, chosen: list[tuple[int, ...]]) -> bool:
        """Depth first in standing order; True once a seating without repeats is found (or
        the step budget is spent), which ends the search."""
        if not free:
            if spent < best[0]:
                best[0], best[1] = spent, list(chosen)
            return best[0] == 0
        head, rest = free[0], free[1:]
        for partners in itertools.combinations(rest, sizes[len(chosen)] - 1):
            steps[0] -= 1
            if steps[0] < 0:
                return True
            table = (head, *partners)
            c = spent + table_cost(table)
            if c >= best[0]:
                continue
            chosen.append(table)
            done = search([x for x in rest if x not in partners], c, chosen)
            chosen.pop()
            if done:
                return True
        return False

    search(list(range(n)), 0, [])
    tables = [list(t) for t in best[1]]
    if steps[0] < 0:  # the budget ran out (many entrants): mend what repeats are left
        _swap_apart(tables, cost)
    return [tuple(ranked[i] for i in t) for t in tables]


def _swap_apart(tables: list[list[int]], cost: list[list[int]]) -> None:
    """Swap entrants between tables while a swap lowers the repeats: neighbouring tables (in
    standing order) first, so entrants stay near their standing; bounded in passes."""
    def with_table(x: int, table: list[int], leaving: int) -> int:
        return sum(cost[x][m] for m in table if m != leaving)

    for _ in range(SWAP_PASSES):
        swapped = False
        for gap in range(1, len(tables)):
            for i in range(len(tables) - gap):
                one, two = tables[i], tables[i + gap]
                for a, x in enumerate(one):
                    for b, y in enumerate(two):
                        now = with_table(x, one, x) + with_table(y, two, y)
                        then = with_table(x, two, y) + with_table(y, one, x)
                        if then < now:
                            one[a], two[b] = y, x
                            x = y
                            swapped = True
        if not swapped:
            return


# --- round-robin -------------------------------------------------------------------------

def round_robin_schedule(entrants: Sequence[str], size: int
                         ) -> list[tuple[tuple[Seating, ...], tuple[str, ...]]]:
    """Rounds as (tables, byes) in which every group of ``size`` entrants meets exactly once."""
    return _schedule(tuple(entrants), size)


@functools.lru_cache(maxsize=8)
def _schedule(entrants: tuple[str, ...], size: int
              ) -> list[tuple[tuple[Seating, ...], tuple[str, ...]]]:
    n = len(entrants)
    if n < size:
        raise TournamentError(f"{n} entrants cannot fill a table of {size}")
    if size == 2:
        return _circle(entrants)
    groups = math.comb(n, size)
    if groups > MAX_SCHEDULE_TABLES:
        raise TournamentError(f"a round-robin of {n} entrants at tables of {size} is "
                              f"{groups:,} tables; play a Swiss event instead")
    left = list(itertools.combinations(range(n), size))
    rounds = []
    while left:
        taken: set[int] = set()
        tables, rest = [], []
        for i, group in enumerate(left):
            if n - len(taken) < size:  # the round is full: the rest wait for later rounds
                rest.extend(left[i:])
                break
            if taken.isdisjoint(group):
                tables.append(group)
                taken.update(group)
            else:
                rest.append(group)
        left = rest
        rounds.append((tuple(tuple(entrants[i] for i in t) for t in tables),
                       tuple(entrants[i] for i in range(n) if i not in taken)))
    return rounds


def _circle(entrants: Sequence[str]) -> list[tuple[tuple[Seating, ...], tuple[str, ...]]]:
    """Two-seat round-robin by the circle method: n−1 rounds (n with a bye each if odd)."""
    ring: list[str | None] = list(entrants) + ([None] if len(entrants) % 2 else [])
    half = len(ring) // 2
    rounds = []
    for _ in range(len(ring) - 1):
        pairs = [(ring[i], ring[-1 - i]) for i in range(half)]
        tables = tuple((a, b) for a, b in pairs if a is not None and b is not None)
        byes = tuple(x for a, b in pairs for x in (a, b) if None in (a, b) and x is not None)
        rounds.append((tables, byes))
        ring = [ring[0], ring[-1], *ring[1:-1]]
    return rounds


# --- knockout ----------------------------------------------------------------------------

def knockout_depth(entrants: int, size: int) -> int:
    """Rounds of a knockout: the smallest d with ``size ** d >= entrants``."""
    depth, slots = 1, size
    while slots < entrants:
        depth, slots = depth + 1, slots * size
    return depth


def knockout_round(history: History, number: int) -> Round:
    """The knockout's round ``number`` (round 1 from the seeds, later ones from results)."""
    size, m = history.size, _knockout_min(history)
    depth = knockout_depth(len(history.entrants), size)
    if number > depth:
        raise TournamentError(f"the knockout is over after {depth} "
                              f"round{'s' * (depth != 1)}")
    if number == 1:
        return _knockout_draw(history.entrants, size, m)
    slots = knockout_slots(history, number - 1)
    count = _tables_for(len(slots), depth - number, size, m)
    return Round(number, tuple(turn_seats(t, number) for t in _deal(slots, count)))


def knockout_tables(history: History) -> list[int]:
    """Tables per round of the whole bracket (known from the draw: each table sends one on)."""
    size, m = history.size, _knockout_min(history)
    depth = knockout_depth(len(history.entrants), size)
    first = _knockout_draw(history.entrants, size, m)
    counts, slots = [len(first.tables)], len(first.tables) + len(first.byes)
    for number in range(2, depth + 1):
        slots = _tables_for(slots, depth - number, size, m)
        counts.append(slots)
    return counts


def _knockout_min(history: History) -> int:
    return max(2, min(history.min_seats, history.size))


@functools.lru_cache(maxsize=1024)
def _reducible(slots: int, rounds: int, size: int, m: int) -> bool:
    """Whether ``slots`` entrants come down to one in ``rounds`` rounds of ``m``–``size`` seats."""
    if rounds == 0:
        return slots == 1
    return any(_reducible(t, rounds - 1, size, m)
               for t in range(max(1, -(-slots // size)), slots // m + 1))


def _tables_for(slots: int, rounds_after: int, size: int, m: int) -> int:
    """The fewest tables (the fullest) that seat ``slots`` and leave a bracket that still comes
    down to one in ``rounds_after`` rounds."""
    for count in range(max(1, -(-slots // size)), slots // m + 1):
        if _reducible(count, rounds_after, size, m):
            return count
    raise TournamentError(f"{slots} entrants cannot go on at tables of {m}–{size} seats")


def _deal(names: Sequence[str], count: int) -> list[list[str]]:
    """``names`` (best first) dealt serpentine over ``count`` tables: table i gets names i,
    2·count + 1 − i, 2·count + i, … (1-based), so every table's best differs from the next's."""
    tables: list[list[str]] = [[] for _ in range(count)]
    for i, name in enumerate(names):
        row, col = divmod(i, count)
        tables[col if row % 2 == 0 else count - 1 - col].append(name)
    return tables


def _draw_byes(entrants: int, slots: int, size: int, m: int) -> int | None:
    """The fewest byes that leave the other entrants ``slots − byes`` tables of ``m``–``size``
    seats, or None."""
    for byes in range(0, slots):
        tables = slots - byes
        if tables * m <= entrants - byes <= tables * size:
            return byes
    return None


def _knockout_draw(entrants: Sequence[str], size: int, m: int) -> Round:
    """Round 1: the most slots (a power of ``size`` when it can be) that the entrants can fill
    with the top seeds' byes and tables of ``m``–``size`` seats."""
    n = len(entrants)
    depth = knockout_depth(n, size)
    for slots in range(size ** (depth - 1), 0, -1):
        byes = _draw_byes(n, slots, size, m) if _reducible(slots, depth - 1, size, m) else None
        if byes is not None:
            tables = _deal(entrants[byes:], slots - byes)
            return Round(1, tuple(turn_seats(t, 1) for t in tables), tuple(entrants[:byes]))
    fits = [k for k in range(max(m, n - 12), n + 13) if k != n and _drawable(k, size, m)][:6]
    raise TournamentError(
        f"a knockout of {n} entrants cannot be drawn at tables of "
        + (f"{size}" if m == size else f"{m}–{size}")
        + f" seats (each table sends one on); {', '.join(map(str, fits))} entrants can be")


def _drawable(n: int, size: int, m: int) -> bool:
    depth = knockout_depth(n, size)
    return any(_reducible(s, depth - 1, size, m) and _draw_byes(n, s, size, m) is not None
               for s in range(size ** (depth - 1), 0, -1))


def knockout_slots(history: History, number: int) -> list[str]:
    """Who goes on from round ``number``: slot by slot (its byes first, then its tables)."""
    rnd = history.rounds[number - 1]
    seeds_of = {name: i for i, name in enumerate(history.entrants)}
    results = {r.table: r for r in history.results if r.round == number}
    on = list(rnd.byes)
    for t in range(1, len(rnd.tables) + 1):
        res = results.get(t)
        if res is None:
            raise TournamentError(f"round {number} table {t} has no result yet")
        on.append(min(res.seats, key=lambda e, r=res: (-r.points[r.seats.index(e)],
                                                       seeds_of[e])))
    return on


def knockout_over(history: History) -> bool:
    """Whether every round of the bracket has been drawn and played."""
    depth = knockout_depth(len(history.entrants), history.size)
    return len(history.rounds) >= depth and all(_complete(history, r) for r in history.rounds)


def _complete(history: History, rnd: Round) -> bool:
    done = {r.table for r in history.results if r.round == rnd.number}
    return len(done) >= len(rnd.tables)


def _knockout_order(history: History, lines: dict[str, Standing]) -> list[Standing]:
    out_at: dict[str, float] = {}  # points at the table where the entrant went out
    for rnd in history.rounds:
        if not _complete(history, rnd):
            break
        on = set(knockout_slots(history, rnd.number))
        for name in rnd.byes:
            lines[name].reached += 1
        for res in (r for r in history.results if r.round == rnd.number):
            for s, name in enumerate(res.seats):
                if name in on:
                    lines[name].reached += 1
                else:
                    out_at[name] = res.points[s]
    return sorted(lines.values(), key=lambda e: (-e.reached, -_r(out_at.get(e.name, 0.0)),
                                                 -_r(e.points), e.seed))
