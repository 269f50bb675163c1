"""Names that look alike are one name (issue 23): Unicode TR39 confusable skeletons after NFKC
(host.core.name_key), used wherever the host makes a name unique."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from host.core import name_key, unique_name
from host.lobby import Lobby
from tests.host.test_lobby import Recorder, ident

LOOK_ALIKES_OF_PI = ["pi", "PI", "Pi", "\u0440\u0456", "\uff50\uff49", "\U0001d429\U0001d422",
                     "p\u0131", "pi\u200d", "p\u2170"]


@pytest.mark.parametrize("name", LOOK_ALIKES_OF_PI)
def test_cyrillic_full_width_and_math_bold_pi_are_the_name_pi(name: str) -> None:
    assert name_key(name) == name_key("pi") == "pi"


@pytest.mark.parametrize("one, other", [("B0b", "Bob"), ("\u0410da", "Ada"), ("m", "rn"),
                                        ("Zo\u00eb", "Zoe\u0308"), ("paypal", "\u0440ay\u0440al")])
def test_names_that_look_alike_share_a_key(one: str, other: str) -> None:
    assert name_key(one) == name_key(other)


@pytest.mark.parametrize("one, other", [("pi", "p\u00ed"), ("Ada", "Ida"), ("Bob", "Rob"),
                                        ("Anna", "Hanna"), ("\u00e9va", "eva")])
def test_names_that_look_different_keep_different_keys(one: str, other: str) -> None:
    assert name_key(one) != name_key(other)


def test_a_look_alike_of_a_name_in_use_gets_the_next_free_variant() -> None:
    taken = {name_key("pi")}
    assert unique_name("\u0440\u0456", taken) == "\u0440\u0456 (2)"
    assert unique_name("\uff50\uff49", taken | {name_key("pi (2)")}) == "\uff50\uff49 (3)"
    assert unique_name("Ada", taken) == "Ada"
    # names in use given as they are (not as keys) count the same
    assert unique_name("\U0001d429\U0001d422", {"PI"}) == "\U0001d429\U0001d422 (2)"


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=24))
def test_a_key_is_its_own_key(name: str) -> None:
    key = name_key(name)
    assert name_key(key) == key


def test_an_impostor_connecting_as_cyrillic_pi_is_pi_2_in_the_lobby() -> None:
    rec = Recorder()
    lb = Lobby(rec)
    lb.connect(4, ident(4), "pi")
    for conn, name in [(5, "\u0440\u0456"), (6, "\uff50\uff49"), (7, "\U0001d429\U0001d422")]:
        lb.connect(conn, ident(conn), name)
    assert [lb.conns[c].name for c in (4, 5, 6, 7)] == [
        "pi", "\u0440\u0456 (2)", "\uff50\uff49 (3)", "\U0001d429\U0001d422 (4)"]
