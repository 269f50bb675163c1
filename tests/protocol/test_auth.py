"""Room codes, proofs, identity signatures, rate limits, fingerprints, known_hosts."""

from __future__ import annotations

import pytest

from protocol import auth, identity, known_hosts, tls


def test_room_code_has_at_least_40_bits_from_a_human_alphabet() -> None:
    code = auth.new_room_code()
    assert len(code) == 11 and code[5] == "-"
    assert len(auth.ALPHABET) ** auth.CODE_LEN >= 2**40
    assert all(c in auth.ALPHABET for c in code.replace("-", ""))
    assert auth.normalise_code(code.lower().replace("-", " ")) == code.replace("-", "")


def test_look_alike_letters_are_forgiven_and_junk_refused() -> None:
    assert auth.normalise_code("o1il0-abcde") == "0111" + "0ABCDE"
    with pytest.raises(ValueError):
        auth.normalise_code("short")


def test_proofs_bind_code_fingerprint_nonces_and_identity() -> None:
    fp = "ab" * 32
    k = auth.room_key("7K3QF-9XM2D", fp)
    cn, hn, ident = b"c" * 16, b"h" * 16, b"i" * 32
    p = auth.client_proof(k, fp, cn, hn, ident)
    assert auth.proofs_equal(p, auth.client_proof(auth.room_key("7k3qf9xm2d", fp), fp, cn, hn,
                                                  ident))
    assert not auth.proofs_equal(p, auth.client_proof(auth.room_key("7K3QF-9XM2E", fp), fp, cn,
                                                      hn, ident))
    assert not auth.proofs_equal(p, auth.client_proof(auth.room_key("7K3QF-9XM2D", "cd" * 32),
                                                      "cd" * 32, cn, hn, ident))
    assert not auth.proofs_equal(p, auth.client_proof(k, fp, cn, b"x" * 16, ident))
    assert not auth.proofs_equal(p, auth.host_proof(k, fp, cn, hn, ident))


def test_identity_signature_verifies_only_for_its_handshake(tmp_path) -> None:
    key = identity.load_or_create_identity(tmp_path)
    assert identity.load_or_create_identity(tmp_path).private_bytes_raw() == key.private_bytes_raw()
    pub = identity.public_bytes(key)
    sig = auth.sign_auth(key, "ab" * 32, b"c" * 16, b"h" * 16)
    assert auth.verify_auth(pub, sig, "ab" * 32, b"c" * 16, b"h" * 16)
    assert not auth.verify_auth(pub, sig, "ab" * 32, b"c" * 16, b"H" * 16)
    assert (tmp_path / identity.IDENTITY_FILE).stat().st_mode & 0o077 == 0


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def guess(rl: auth.RateLimiter, clock: Clock, identity: bytes, address: str) -> float:
    """One wrong code, sent as soon as its turn comes; the wait it had."""
    admitted, wait = rl.reserve(identity, address)
    assert admitted
    clock.now += wait
    rl.fail(identity, address)
    return wait


def test_a_guessing_identity_backs_off_doubling_up_to_the_cap() -> None:
    clock = Clock()
    rl = auth.RateLimiter(clock=clock, address_free=1000)
    waits = [guess(rl, clock, b"eve", "10.0.0.1") for _ in range(12)]
    assert waits == [0, 0, 0, 0.25, 0.5, 1, 2, 4, 8, 16, 30, 30]  # three free, then doubling


def test_a_guessing_address_gets_one_check_per_half_second_whatever_identities() -> None:
    clock = Clock()
    rl = auth.RateLimiter(clock=clock, address_max=0.5)
    waits = [guess(rl, clock, bytes([i]), "10.0.0.1") for i in range(40)]
    assert waits[:11] == [0] * 10 + [0.25] and set(waits[11:]) == {0.5}
    assert clock.now == 14.75  # ten free, then at most two checks a second


def test_parallel_attempts_from_one_address_queue_instead_of_guessing_at_once() -> None:
    clock = Clock()
    rl = auth.RateLimiter(clock=clock, address_free=0, address_max=0.5)
    turns = [rl.reserve(bytes([i]), "10.0.0.1")[1] for i in range(5)]
    assert turns == [0, 0.25, 0.5, 0.75, 1.0]


def test_a_neighbour_behind_a_guessers_address_gets_in_with_the_right_code() -> None:
    clock = Clock()
    rl = auth.RateLimiter(clock=clock, address_max=0.5)
    for i in range(200):
        guess(rl, clock, b"eve%d" % (i % 3), "10.0.0.1")
    admitted, wait = rl.reserve(b"neighbour", "10.0.0.1", limit=5.0)
    assert admitted and wait <= 0.5


def test_only_the_guessing_identity_is_told_to_come_back_later() -> None:
    clock = Clock()
    rl = auth.RateLimiter(clock=clock)
    for _ in range(8):
        guess(rl, clock, b"eve", "10.0.0.1")
    assert rl.reserve(b"eve", "10.0.0.1", limit=5.0) == (False, 8.0)
    clock.now += 8.0
    assert rl.reserve(b"eve", "10.0.0.1", limit=5.0) == (True, 0.0)  # the right code, now


def test_the_right_code_forgets_the_identitys_count_and_time_forgets_the_rest() -> None:
    clock = Clock()
    rl = auth.RateLimiter(clock=clock)
    for _ in range(6):
        guess(rl, clock, b"ada", "10.0.0.1")
    rl.reserve(b"ada", "10.0.0.1")
    rl.succeed(b"ada")
    clock.now += 2.0
    assert rl.reserve(b"ada", "10.0.0.1") == (True, 0.0)
    for _ in range(12):
        guess(rl, clock, b"bob", "10.0.0.2")
    clock.now += auth.BACKOFF_FORGET + 60
    assert rl.reserve(b"bob", "10.0.0.2") == (True, 0.0)
    assert rl.delay("identity", 3) == 0.25


def test_host_cert_persists_and_fingerprint_forms_agree(tmp_path) -> None:
    cert, key = tls.ensure_host_cert(tmp_path)
    fp = tls.fingerprint_of_pem(cert)
    assert tls.ensure_host_cert(tmp_path) == (cert, key) and tls.fingerprint_of_pem(cert) == fp
    human = tls.human_fingerprint(fp)
    assert len(human.split("-")) == 7
    assert tls.fingerprint_matches(fp, fp.upper()) and tls.fingerprint_matches(fp, human)
    assert not tls.fingerprint_matches(fp, human[:9])
    assert key.stat().st_mode & 0o077 == 0


def test_known_hosts_pins_once_and_warns_on_change(tmp_path) -> None:
    kh = known_hosts.KnownHosts(tmp_path / "known_hosts")
    assert kh.get("h:1") is None
    kh.add("h:1", "AB" * 32)
    assert kh.get("h:1") == "ab" * 32
    with pytest.raises(ValueError):
        kh.add("h:1", "cd" * 32)
    text = known_hosts.changed_key_warning("h:1", "ab" * 32, "cd" * 32, kh.path)
    assert "HAS CHANGED" in text and "h:1" in text
