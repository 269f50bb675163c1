"""Journals: durable records, torn last records dropped, damage refused, games verifiable."""

import random
import re
import struct
import zlib
from pathlib import Path

import msgpack
import pytest

from hexnet import rng
from hexnet.fairness import commitment, events_digest, verify_game
from host.journal import MAGIC, Journal, JournalError, read_journal
from host.recovery import Recorder
from host.verify import verify_contents
from tests.host.dice_race import DiceRace

GAME = DiceRace()


def record_game(path: Path, seed: int = 11, salt: bytes = b"s" * 16, finish: bool = True):
    """Play the dice race with random moves and journal it as the host does."""
    players = ["ana", "ben", "cas"]
    journal = Journal.create(path, {"game": GAME.name, "players": players, "options": {},
                                    "seed": rng.seed_bytes(seed), "salt": salt,
                                    "rng": rng.ALGORITHM,
                                    "commitment": commitment(seed, salt, {})})
    state = GAME.setup(players, seed, {})
    r = random.Random(seed)
    while GAME.outcome(state) is None:
        seat = r.choice(GAME.waiting_for(state))
        action = r.choice(GAME.legal_actions(state, seat))
        events = GAME.apply(state, seat, action)
        journal.append({"kind": "step", "seat": seat, "action": action,
                        "digest": events_digest(events)})
    if finish:
        journal.append({"kind": "end", "outcome": GAME.outcome(state)})
    journal.close()
    return state


def test_a_journal_reads_back_every_step(tmp_path):
    state = record_game(tmp_path / "t.journal")
    contents = read_journal(tmp_path / "t.journal")
    assert contents.header["players"] == ["ana", "ben", "cas"]
    assert len(contents.steps) == state["version"]
    assert contents.finished and not contents.torn


def test_a_torn_last_record_is_dropped_and_nothing_else(tmp_path):
    path = tmp_path / "t.journal"
    record_game(path, finish=False)
    whole = read_journal(path)
    path.write_bytes(path.read_bytes()[:-3])
    torn = read_journal(path)
    assert torn.torn
    assert torn.steps == whole.steps[:-1]


def test_reopening_a_torn_journal_cuts_the_tail_and_appends_cleanly(tmp_path):
    path = tmp_path / "t.journal"
    record_game(path, finish=False)
    path.write_bytes(path.read_bytes()[:-3])
    torn = read_journal(path)
    journal = Journal.reopen(torn)
    journal.append({"kind": "end", "outcome": {"scores": [], "winners": []}})
    journal.close()
    again = read_journal(path)
    assert not again.torn and again.finished and again.steps == torn.steps


def test_damage_before_the_last_record_is_refused(tmp_path):
    path = tmp_path / "t.journal"
    record_game(path)
    data = bytearray(path.read_bytes())
    data[len(MAGIC) + 12] ^= 0xFF
    path.write_bytes(bytes(data))
    with pytest.raises(JournalError):
        read_journal(path)


def test_a_file_that_is_not_a_journal_is_refused(tmp_path):
    path = tmp_path / "x"
    path.write_bytes(b"hello")
    with pytest.raises(JournalError, match="not a hexnet journal"):
        read_journal(path)


def test_an_honest_journal_verifies(tmp_path):
    record_game(tmp_path / "t.journal")
    verdict = verify_contents(read_journal(tmp_path / "t.journal"), GAME)
    assert verdict.ok, verdict.lines


def test_a_swapped_seed_fails_the_commitment(tmp_path):
    record_game(tmp_path / "t.journal")
    contents = read_journal(tmp_path / "t.journal")
    contents.header["seed"] = rng.seed_bytes(12)
    verdict = verify_contents(contents, GAME)
    assert not verdict.ok and "commitment" in verdict.lines[0]


def test_a_journal_of_the_retired_64_bit_generator_is_named_not_misjudged(tmp_path):
    record_game(tmp_path / "t.journal")
    contents = read_journal(tmp_path / "t.journal")
    del contents.header["rng"]
    contents.header["seed"] = 11
    verdict = verify_contents(contents, GAME)
    assert not verdict.ok
    assert verdict.lines == ["This journal was written with the generator 'splitmix64'; this "
                             "hexnet replays only 'chacha20-v1' (use the hexnet version that "
                             "wrote it)."]


def test_other_options_than_the_committed_ones_fail_the_commitment(tmp_path):
    record_game(tmp_path / "t.journal")
    contents = read_journal(tmp_path / "t.journal")
    contents.header["options"] = {"target": 5}
    verdict = verify_contents(contents, GAME)
    assert not verdict.ok and "commitment" in verdict.lines[0]


def test_a_journal_is_readable_by_its_owner_only(tmp_path):
    record_game(tmp_path / "j" / "t.journal")
    assert (tmp_path / "j" / "t.journal").stat().st_mode & 0o777 == 0o600
    assert (tmp_path / "j").stat().st_mode & 0o777 == 0o700


def test_loose_journals_and_their_directory_are_tightened_by_the_host(tmp_path):
    journals = tmp_path / "journals"
    record_game(journals / "old.journal", finish=False)
    journals.chmod(0o755)
    (journals / "old.journal").chmod(0o644)
    Recorder(tmp_path, lambda line: None)
    assert journals.stat().st_mode & 0o777 == 0o700
    assert (journals / "old.journal").stat().st_mode & 0o777 == 0o600


def test_a_host_that_rigged_a_roll_is_caught():
    # The host committed to seed 5 but dealt the table the rolls of seed 6.
    players = ["ana", "ben"]
    salt = b"x" * 16
    state = GAME.setup(players, 6, {})
    steps = []
    while GAME.outcome(state) is None:
        seat = GAME.waiting_for(state)[0]
        action = GAME.legal_actions(state, seat)[0]
        steps.append((seat, action, events_digest(GAME.apply(state, seat, action))))
    verdict = verify_game(GAME, players, {}, 5, salt, commitment(5, salt), steps)
    assert not verdict.ok and "differs" in verdict.lines[-1]


# --- every way read_journal refuses a damaged journal (host/journal.py's branches) ------------

_HEAD = struct.Struct(">II")


def raw_record(payload: bytes, crc: int | None = None, length: int | None = None) -> bytes:
    """One record in the documented format: length, CRC-32 of the payload, the payload."""
    return _HEAD.pack(len(payload) if length is None else length,
                      zlib.crc32(payload) if crc is None else crc) + payload


def record(obj) -> bytes:
    return raw_record(msgpack.packb(obj, use_bin_type=True))


HEADER = record({"kind": "header", "game": "dice_race", "players": ["a", "b"], "options": {},
                 "seed": 1, "salt": b"s" * 16, "commitment": ""})
STEP = record({"kind": "step", "seat": 0, "action": {"type": "stop"}, "digest": None})
END = record({"kind": "end", "outcome": {"scores": [0, 0], "winners": []}})


@pytest.mark.parametrize("body, message", [
    (b"", "the journal has no header record"),
    (STEP + HEADER, "the journal has no header record"),
    (HEADER + record([1, 2, 3]) + STEP, "is not a journal record"),
    (HEADER + record({"seat": 0}) + STEP, "is not a journal record"),
    (HEADER + raw_record(b"\xc1\xc1\xc1") + STEP, "does not decode"),
    (HEADER + raw_record(b"x", length=(1 << 20) + 1) + b"x" * 64, "claims 1048577 bytes"),
    (HEADER + raw_record(STEP[8:], crc=1) + STEP, "is damaged (checksum)"),
    (HEADER + END + STEP, "a step follows the end of the game"),
    (HEADER + record({"kind": "nap"}), "unknown record kind 'nap'"),
], ids=["empty", "step first", "a list", "no kind", "not msgpack", "huge length",
        "checksum mid-file", "step after end", "unknown kind"])
def test_each_kind_of_damage_is_refused_with_its_reason(tmp_path, body, message):
    path = tmp_path / "bad.journal"
    path.write_bytes(MAGIC + body)
    with pytest.raises(JournalError, match=re.escape(message)):
        read_journal(path)


@pytest.mark.parametrize("cut", [1, _HEAD.size - 1, _HEAD.size + 2])
def test_a_last_record_cut_anywhere_is_torn_not_damage(tmp_path, cut):
    path = tmp_path / "t.journal"
    path.write_bytes(MAGIC + HEADER + STEP + STEP[:cut])
    contents = read_journal(path)
    assert contents.torn and len(contents.steps) == 1


def test_a_last_record_with_a_bad_checksum_is_torn(tmp_path):
    path = tmp_path / "t.journal"
    path.write_bytes(MAGIC + HEADER + STEP + raw_record(STEP[8:], crc=1))
    contents = read_journal(path)
    assert contents.torn and len(contents.steps) == 1


def test_a_path_that_cannot_be_read_is_refused_with_the_reason(tmp_path):
    with pytest.raises(JournalError, match="cannot read .*: Is a directory"):
        read_journal(tmp_path)
    with pytest.raises(JournalError, match="cannot read .*: No such file or directory"):
        read_journal(tmp_path / "missing.journal")


def test_a_record_too_large_to_write_is_refused_and_the_journal_stays_readable(tmp_path):
    path = tmp_path / "t.journal"
    journal = Journal.create(path, {"game": "dice_race"})
    with pytest.raises(JournalError, match="too large"):
        journal.append({"kind": "step", "blob": b"x" * (1 << 20)})
    journal.close()
    assert read_journal(path).steps == []


def test_hexnet_verify_refuses_a_damaged_journal_in_one_line(tmp_path, capsys):
    from hexnet.cli import main

    path = tmp_path / "bad.journal"
    path.write_bytes(MAGIC + HEADER + END + STEP)
    assert main(["verify", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert err == "hexnet verify: a step follows the end of the game"
