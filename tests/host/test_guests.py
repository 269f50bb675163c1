"""What the web and SSH front doors share (:mod:`host.guests`) and the QR code (:mod:`host.qr`)."""

from __future__ import annotations

import ipaddress
import stat
import subprocess
from types import SimpleNamespace

import pytest

from host import guests
from protocol.identity import public_bytes


def test_a_remote_address_maps_to_one_loopback_address_never_127_0_0_1() -> None:
    seen = {guests.loopback_for(f"192.168.1.{i}") for i in range(200)}
    assert guests.loopback_for("192.168.1.7") == guests.loopback_for("192.168.1.7")
    assert len(seen) == 200  # distinct guests, distinct addresses (here)
    for a in seen | {guests.loopback_for("127.0.0.1"), guests.loopback_for("::1")}:
        ip = ipaddress.IPv4Address(a)
        assert ip.is_loopback and a != "127.0.0.1"
        assert ipaddress.IPv4Address("127.64.0.1") <= ip <= ipaddress.IPv4Address(
            "127.127.255.254")


def test_a_guest_identity_is_the_same_for_the_same_token_and_door_only() -> None:
    secret = bytes(range(32))
    key = public_bytes(guests.guest_key(secret, "web", b"t" * 32))
    assert key == public_bytes(guests.guest_key(secret, "web", b"t" * 32))
    assert key != public_bytes(guests.guest_key(secret, "web", b"u" * 32))
    assert key != public_bytes(guests.guest_key(secret, "ssh", b"t" * 32))
    assert key != public_bytes(guests.guest_key(bytes(32), "web", b"t" * 32))


def test_the_guest_secret_is_made_once_and_private(tmp_path) -> None:
    first = guests.guest_secret(tmp_path)
    assert len(first) == 32 and guests.guest_secret(tmp_path) == first
    assert stat.S_IMODE((tmp_path / guests.SECRET_FILE).stat().st_mode) == 0o600


def test_sessions_are_capped_per_address_and_in_total() -> None:
    caps = guests.SessionCaps(total=3, per_address=2)
    assert caps.admit("a") is None and caps.admit("a") is None
    assert caps.admit("a") == "too many sessions from a"
    assert caps.admit("b") is None
    assert caps.admit("c") == "the host has as many guests as it can run"
    caps.release("a")
    assert caps.admit("c") is None
    assert caps.live == {"a": 1, "b": 1, "c": 1}
    for a in "abc":
        caps.release(a)
    assert caps.live == {} and caps.count == 0


@pytest.mark.parametrize("bind,target", [("0.0.0.0", ("127.0.0.1", True)),
                                         ("127.0.0.1", ("127.0.0.1", True)),
                                         ("192.168.5.5", ("192.168.5.5", False))])
def test_a_guest_client_reaches_the_game_port_where_the_host_listens(bind, target) -> None:
    assert guests.local_target(bind) == target


def test_the_guest_client_command_resumes_a_seated_identity_under_its_name(tmp_path) -> None:
    key = guests.guest_key(bytes(32), "web", b"x" * 32)
    guest = guests.GuestDir(key)
    try:
        assert stat.S_IMODE(guest.path.stat().st_mode) == 0o700
        assert stat.S_IMODE((guest.path / "identity.pem").stat().st_mode) == 0o600
        seats = {guest.public: "Wanda"}
        table = SimpleNamespace(seats=[SimpleNamespace(name="Wanda")])
        lobby = SimpleNamespace(where=lambda ident: (table, 0) if ident in seats else None)
        host = SimpleNamespace(bind="0.0.0.0", port=7878, fingerprint="ab" * 32, lobby=lobby)
        argv = guests.client_command(host, guest, "10.0.0.9")
        assert argv[1:3] == ["-m", "client.guest"]
        assert argv[argv.index("--target") + 1] == "127.0.0.1:7878"
        assert argv[argv.index("--source") + 1] == guests.loopback_for("10.0.0.9")
        assert argv[argv.index("--name") + 1] == "Wanda"
        seats.clear()
        assert "--name" not in guests.client_command(host, guest, "10.0.0.9")
    finally:
        guest.remove()
    assert not guest.path.exists()


segno = pytest.importorskip("segno", reason="needs hexnet[web] (segno)")


def test_the_qr_blocks_draw_exactly_segnos_modules() -> None:
    from host.qr import QUIET, matrix_of, qr_lines

    url = "http://192.168.100.200:8080"
    lines = qr_lines(url)
    inner = [[bool(m) for m in row] for row in segno.make(url, error="m", micro=False).matrix]
    drawn = matrix_of(lines)[QUIET:QUIET + len(inner)]
    assert [row[QUIET:QUIET + len(inner)] for row in drawn] == inner
    assert len({len(line) for line in lines}) == 1 and len(lines[0]) == len(inner) + 2 * QUIET


@pytest.mark.needs("zbarimg")  # (zbar-tools)
def test_the_qr_blocks_scan_back_to_the_address(tmp_path) -> None:
    from host.qr import matrix_of, qr_lines

    url = "http://10.1.2.3:8080"
    matrix, scale = matrix_of(qr_lines(url)), 6
    image = tmp_path / "qr.pgm"
    with image.open("wb") as f:
        f.write(f"P5 {len(matrix[0]) * scale} {len(matrix) * scale} 255\n".encode())
        for row in matrix:
            f.write(bytes(0 if dark else 255 for dark in row for _ in range(scale)) * scale)
    out = subprocess.run(["zbarimg", "-q", "--raw", str(image)], capture_output=True,
                         text=True, timeout=30)
    assert out.stdout.strip() == url


@pytest.mark.parametrize("header,lang", [("hu-HU,hu;q=0.9,en;q=0.8", "hu"),
                                         ("fr-FR,de;q=0.7", "de"), ("fr", None), ("", None),
                                         (None, None)])
def test_a_browser_guest_gets_the_first_language_it_asks_for_that_hexnet_speaks(
        header, lang) -> None:
    assert guests.browser_language(header) == lang


def test_an_ssh_guest_gets_the_language_of_the_locale_its_client_sent() -> None:
    assert guests.locale_language({"LANG": "cs_CZ.UTF-8"}) == "cs"
    assert guests.locale_language({"LC_ALL": "de_DE.UTF-8", "LANG": "hu_HU.UTF-8"}) == "de"
    assert guests.locale_language({"LANG": "C.UTF-8"}) == "en"
    assert guests.locale_language({}) is None
