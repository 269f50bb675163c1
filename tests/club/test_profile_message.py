"""The club's messages on the wire (issue 28, phase 2's schema, defined now): a profile built
from real journals passes as the host would send it, host file paths never do, and the
lobby's seat line may carry a player's key and rating."""

from __future__ import annotations

from typing import Any

import pytest

from host.club.games import fingerprint
from host.club.profile import for_wire
from protocol.errors import ProtocolError
from protocol.messages import validate
from tests.club.evening import evening_profile, identity


@pytest.fixture(scope="module")
def ada(tmp_path_factory) -> dict[str, Any]:
    return evening_profile(tmp_path_factory.mktemp("club"))


def test_a_profile_as_sent_passes_the_schema(ada) -> None:
    key = fingerprint(identity("Ada"))
    assert validate({"type": "profile", "player": key}, "c2h")
    assert validate({"type": "profile", "player": key, "profile": for_wire(ada)}, "h2c")


def test_a_profile_with_the_hosts_journal_paths_is_refused(ada) -> None:
    with pytest.raises(ProtocolError, match="Unknown field 'journal'"):
        validate({"type": "profile", "player": ada["player"], "profile": ada}, "h2c")


@pytest.mark.parametrize("bad", [
    {"type": "profile"},
    {"type": "profile", "player": ""},
    {"type": "profile", "player": "x" * 81},
    {"type": "profile", "player": 7},
])
def test_a_bad_profile_request_is_refused(bad) -> None:
    with pytest.raises(ProtocolError) as info:
        validate(bad, "c2h")
    assert info.value.code == "bad_message"


def test_a_lobby_seat_may_carry_the_players_key_and_rating() -> None:
    seat = {"seat": 0, "name": "Ada", "kind": "human", "connected": True, "absent": False,
            "player": "ab" * 32, "rating": {"mu": 27.1, "sigma": 7.7, "ordinal": 4.0,
                                            "games": 3}}
    table = {"id": 1, "game": "hranice", "title": "Hranice", "seats": [seat],
             "seats_total": 2, "status": "open"}
    you = {"name": "Ada", "table": None, "seat": None, "open": True}
    assert validate({"type": "lobby", "tables": [table], "you": you}, "h2c")
    seat["rating"] = {"mu": "high", "sigma": 1.0, "ordinal": 0.0}
    with pytest.raises(ProtocolError):
        validate({"type": "lobby", "tables": [table], "you": you}, "h2c")


def test_the_other_names_a_player_used_go_to_their_own_screen_only(ada) -> None:
    used = {**ada, "names": ["Ada", "Adéla", "A."]}
    assert for_wire(used, own=True)["names"] == ["Ada", "Adéla", "A."]
    assert for_wire(used)["names"] == for_wire(used, own=False)["names"] == ["Ada"]
    assert for_wire(used)["player"] == ada["player"][:16]  # a handle, not the whole key
