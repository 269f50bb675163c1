"""The seeded generator: same seed, same draws; uniform enough; state survives msgpack."""

from collections import Counter

import msgpack

from hexnet import rng


def fresh(seed: int = 1) -> dict:
    return {"rng": rng.seed_state(seed)}


def test_same_seed_gives_same_draws():
    a, b = fresh(42), fresh(42)
    assert [rng.next64(a) for _ in range(50)] == [rng.next64(b) for _ in range(50)]


def test_different_seeds_give_different_draws():
    assert [rng.next64(fresh(1)) for _ in range(3)] != [rng.next64(fresh(2)) for _ in range(3)]


def test_generator_state_round_trips_through_msgpack():
    s = fresh(7)
    rng.next64(s)
    copy = msgpack.unpackb(msgpack.packb(s))
    assert [rng.roll(s) for _ in range(20)] == [rng.roll(copy) for _ in range(20)]


def test_die_rolls_are_one_to_six_and_roughly_uniform():
    s = fresh(3)
    counts = Counter(rng.roll(s) for _ in range(6000))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    assert all(850 < c < 1150 for c in counts.values())


def test_shuffle_is_a_permutation():
    s = fresh(5)
    items = list(range(78))
    rng.shuffle(s, items)
    assert sorted(items) == list(range(78)) and items != list(range(78))


def test_sample_draws_distinct_items():
    s = fresh(9)
    picked = rng.sample(s, "abcdefgh", 5)
    assert len(set(picked)) == 5 and set(picked) <= set("abcdefgh")


def test_seed_may_be_text_or_bytes():
    assert rng.seed_state("x") == rng.seed_state(b"x") != rng.seed_state(1)
