"""File modes: hexnet's directories are the owner's alone, tightened when they already exist."""

from __future__ import annotations

from protocol import known_hosts, paths


def mode(path) -> int:
    return path.stat().st_mode & 0o777


def test_new_config_and_data_directories_are_0700(tmp_path) -> None:
    assert mode(paths.config_dir(tmp_path / "c")) == 0o700
    assert mode(paths.data_dir(tmp_path / "d")) == 0o700


def test_existing_loose_config_and_data_directories_are_tightened(tmp_path) -> None:
    for name in ("c", "d"):
        (tmp_path / name).mkdir(mode=0o755)
        (tmp_path / name).chmod(0o755)
    assert mode(paths.config_dir(tmp_path / "c")) == 0o700
    assert mode(paths.data_dir(tmp_path / "d")) == 0o700


def test_a_shared_sticky_directory_is_left_alone(tmp_path) -> None:
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o1777)
    paths.private_dir(shared)
    assert shared.stat().st_mode & 0o7777 == 0o1777


def test_the_known_hosts_file_is_the_owners_alone(tmp_path) -> None:
    kh = known_hosts.KnownHosts(tmp_path / "known_hosts")
    kh.add("127.0.0.1:7878", "ab" * 32)
    assert mode(tmp_path / "known_hosts") == 0o600


def test_secret_files_found_at_0644_are_tightened_to_0600(tmp_path) -> None:
    from protocol import identity, tls

    cfg = tmp_path / "cfg"
    cert, key = tls.ensure_host_cert(paths.config_dir(cfg))
    identity.load_or_create_identity(cfg)
    (cfg / "room_code").write_text("7K3QF-9XM2D")
    (cfg / "guest_secret").write_bytes(b"s" * 32)
    for name in paths.SECRET_FILES:
        (cfg / name).chmod(0o644)
    cert.chmod(0o644)
    paths.config_dir(cfg)
    assert {name: mode(cfg / name) for name in paths.SECRET_FILES} == dict.fromkeys(
        paths.SECRET_FILES, 0o600)
    assert mode(cert) == 0o644  # the certificate is public
    # a key handed over in another directory (not opened as a config dir) is tightened on use
    other = tmp_path / "other"
    other.mkdir()
    (other / identity.IDENTITY_FILE).write_bytes((cfg / identity.IDENTITY_FILE).read_bytes())
    (other / identity.IDENTITY_FILE).chmod(0o640)
    identity.load_or_create_identity(other)
    assert mode(other / identity.IDENTITY_FILE) == 0o600
    (cfg / tls.KEY_FILE).chmod(0o604)
    tls.ensure_host_cert(cfg)
    assert mode(cfg / tls.KEY_FILE) == 0o600


async def test_a_host_started_on_a_config_dir_with_loose_key_and_code_tightens_them(
        tmp_path) -> None:
    from host.server import Host

    cfg = tmp_path / "cfg"
    Host("h", cfg, tmp_path / "data", journal=False)  # makes key, certificate and room code
    for name in ("host_key.pem", "room_code"):
        (cfg / name).chmod(0o644)
    host = Host("h", cfg, tmp_path / "data", journal=False)
    assert mode(cfg / "host_key.pem") == mode(cfg / "room_code") == 0o600
    assert host.room_code == (cfg / "room_code").read_text().strip()
