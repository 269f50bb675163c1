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


def test_rate_limiter_blocks_after_five_failures_per_minute() -> None:
    now = [0.0]
    rl = auth.RateLimiter(limit=5, window=60, clock=lambda: now[0])
    for _ in range(5):
        assert not rl.blocked("10.0.0.1")
        rl.fail("10.0.0.1")
    assert rl.blocked("10.0.0.1") and not rl.blocked("10.0.0.2")
    now[0] = 61.0
    assert not rl.blocked("10.0.0.1")


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
