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
