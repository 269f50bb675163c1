"""Table options (issue 9, findings 1 and 3): declared as data with type and bounds, checked
(finite, within bounds) before a table exists, shown to everyone in the lobby before they sit,
and bound by the commitment. Stacked positions and chosen roles are a local tool: the network's
``create`` refuses them, the host's own code may set them and the table then says so."""

from __future__ import annotations

import pytest

from client.fairplay import fair_play_line
from hexnet.fairness import commitment, events_digest, verify_game
from hexnet.games import available, get_game
from host.lobby import Lobby
from tests.host.test_lobby import Recorder, ident

STACKING = [("hexenhammer", 3, {"scenario": {}}), ("hranice", 3, {"scenario": {}}),
            ("fang", 5, {"scenario": {"roles": ["hexe"] + ["dorfkatze"] * 4}}),
            ("fang", 5, {"roles": ["hexe", "seherin"]})]


def lobby() -> tuple[Lobby, Recorder]:
    rec = Recorder()
    lb = Lobby(rec, seed_source=lambda: 7)
    for n in (1, 2):
        lb.connect(n, ident(n), f"p{n}")
    rec.take()
    return lb, rec


def create(lb: Lobby, rec: Recorder, game: str, seats: int, options: dict) -> list[dict]:
    rec.take()
    lb.handle(1, {"type": "create", "game": game, "seats": seats, "options": options})
    return rec.sent(1, "error")


@pytest.mark.parametrize("game, seats, options", STACKING,
                         ids=[f"{g}-{next(iter(o))}" for g, _, o in STACKING])
def test_the_network_create_refuses_options_that_fix_hidden_information(game, seats,
                                                                          options) -> None:
    lb, rec = lobby()
    [error] = create(lb, rec, game, seats, options)
    assert error["code"] == "local_only"
    assert error["message"].endswith("fixes hidden information (who holds what); only the "
                                     "host's own tutorials and tests may set it.")
    assert lb.tables == {}


@pytest.mark.parametrize("value", [float("nan"), float("inf"), float("-inf"), 1.9, 121, "8",
                                   True, [8]])
def test_a_reaction_window_outside_2_to_120_seconds_or_not_a_number_is_refused(value) -> None:
    lb, rec = lobby()
    [error] = create(lb, rec, "hexenhammer", 3, {"reaction_seconds": value})
    assert error == {"type": "error", "code": "bad_options",
                     "message": "Option 'reaction_seconds' must be 2–120."}
    assert lb.tables == {}


@pytest.mark.parametrize("options", [{"reaction_seconds": 2}, {"reaction_seconds": 120.0},
                                     {"panic_seconds": 45, "reaction_seconds": 8}])
def test_options_within_their_bounds_make_a_table(options) -> None:
    lb, rec = lobby()
    assert create(lb, rec, "hexenhammer", 3, options) == []
    assert lb.tables[1].options == options


def test_hranice_untimed_reactions_and_its_variants_are_the_declared_ones() -> None:
    lb, rec = lobby()
    assert create(lb, rec, "hranice", 3, {"reaction_seconds": 0, "variant": "quick"}) == []
    [error] = create(lb, rec, "hranice", 3, {"variant": "speedrun"})
    assert error["message"] == "Option 'variant' must be one of standard, quick, long, tutorial."


def test_every_option_is_shown_in_the_lobby_before_anyone_sits() -> None:
    lb, rec = lobby()
    create(lb, rec, "fang", 5, {"time_limits": True, "vote_seconds": 30})
    [info] = rec.sent(2, "lobby")[-1]["tables"]
    assert info["options"] == {"time_limits": True, "vote_seconds": 30}
    assert info["stacked"] is False


def test_fangs_role_table_is_a_players_option_shown_in_the_lobby_not_a_stacked_deal() -> None:
    lb, rec = lobby()
    assert create(lb, rec, "fang", 6, {"deal": "balanced"}) == []
    [info] = rec.sent(2, "lobby")[-1]["tables"]
    assert (info["options"], info["stacked"]) == ({"deal": "balanced"}, False)
    [error] = create(lb, rec, "fang", 6, {"deal": "house"})
    assert error == {"type": "error", "code": "bad_options",
                     "message": "Option 'deal' must be one of standard, balanced."}


def test_the_hosts_own_code_may_stack_a_table_and_it_says_so_to_everyone() -> None:
    lb, rec = lobby()
    roles = ["hexe", "seherin", "dorfkatze", "dorfkatze", "dorfkatze"]
    tid = lb.create_table("fang", 5, {"scenario": {"roles": roles}, "pause_seconds": 0.2})
    [info] = rec.sent(2, "lobby")[-1]["tables"]
    assert info["stacked"] is True
    assert info["options"] == {"pause_seconds": 0.2}  # the stacked position itself is not shown
    assert lb.tables[tid].options["scenario"] == {"roles": roles}


def test_the_hosts_own_code_still_cannot_set_a_non_finite_number() -> None:
    lb, _ = lobby()
    with pytest.raises(Exception, match="must be 2–120"):
        lb.create_table("hexenhammer", 3, {"reaction_seconds": float("nan")})


@pytest.mark.parametrize("game", ["hexenhammer", "fang", "hranice"])
def test_every_option_a_game_names_is_declared_with_type_and_bounds(game) -> None:
    from hexnet import options as opts

    engine = get_game(game)
    declared = opts.specs(engine)
    assert sorted(declared) == sorted(engine.options_help)
    for spec in declared.values():
        assert spec.type in opts.TYPES
        if spec.type in ("number", "int"):
            assert spec.min is not None and spec.max is not None and spec.min <= spec.max
    assert game in available()


def test_the_commitment_binds_the_options_so_the_results_say_what_was_agreed() -> None:
    game = get_game("hexenhammer")
    players, seed, salt = ["a", "b", "c"], b"\1" * 32, b"s" * 16
    agreed = {"reaction_seconds": 30}
    state = game.setup(players, seed, agreed)
    steps = []
    while game.outcome(state) is None and len(steps) < 30:
        seat = game.waiting_for(state)[0]
        action = game.legal_actions(state, seat)[0]
        steps.append((seat, action, events_digest(game.apply(state, seat, action))))
    committed = commitment(seed, salt, agreed)
    verdict = verify_game(game, players, agreed, seed, salt, committed, steps)
    assert verdict.ok and verdict.options == agreed
    assert verdict.lines[-1] == "Agreed options: reaction_seconds 30."
    assert fair_play_line(verdict, committed) == (
        f"Fair play verified ✓ (commitment {committed[:16]}…) — agreed: reaction window 30 s")
    other = verify_game(game, players, {"reaction_seconds": 2}, seed, salt, committed, steps)
    assert not other.ok and "options do not match" in other.lines[0]


def test_a_stacked_table_says_so_on_the_results_screen() -> None:
    game = get_game("fang")
    players, seed, salt = ["a", "b", "c", "d", "e"], b"\2" * 32, b"s" * 16
    stack = {"scenario": {"roles": ["hexe", "seherin", "dorfkatze", "dorfkatze", "dorfkatze"]}}
    committed = commitment(seed, salt, stack)
    verdict = verify_game(game, players, stack, seed, salt, committed, [])
    assert verdict.ok and verdict.stacked
    assert fair_play_line(verdict, committed) == (
        f"Fair play verified ✓ (commitment {committed[:16]}…) — ⚠ stacked by the host, "
        "not shuffled")


@pytest.mark.parametrize("game", ["hexenhammer", "fang", "hranice"])
def test_the_readme_states_every_options_bounds_as_the_seeds_declare_them(game) -> None:
    from pathlib import Path

    from hexnet import options as opts

    readme = Path(__file__).resolve().parents[2] / "README.md"
    text = readme.read_text().split("**Table options.**", 1)[1].split("\n\n", 1)[0]
    text = " ".join(text.split())  # lines joined
    title = get_game(game).title.split()[0]
    items = text.split(" - ")
    line = next(item for item in items if item.startswith(title + ":"))
    for spec in opts.specs(get_game(game)).values():
        if spec.local:  # named in the last item: the network may not set it
            assert f"`{spec.name}`" in items[-1] and "network" in items[-1], spec.name
        elif spec.type in ("number", "int"):
            assert f"`{spec.name}` {spec.bounds()}" in line, f"{game}: {spec.name}"
        elif spec.type == "choice" and spec.name != "pace":
            assert f"`{spec.name}` ({', '.join(spec.values)})" in line, f"{game}: {spec.name}"
        elif spec.type == "bool":
            assert f"`{spec.name}`" in line, f"{game}: {spec.name}"
