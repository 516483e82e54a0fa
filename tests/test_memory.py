"""What a process keeps between requests: bounded in number and in bytes, recalled only under the
versions it was read at."""
from events.memory import RecentValues, VersionedValues


def test_the_bodies_a_process_keeps_are_bounded_by_their_total_size():
    kept = RecentValues(max_entries=10, max_bytes=100)
    for n in range(4):
        kept.put(n, bytes(30))
    assert [kept.get(n) is not None for n in range(4)] == [False, True, True, True]
    kept.put("large", bytes(101))  # larger than the whole memory: not kept, nothing dropped
    assert kept.get("large") is None and kept.get(3) is not None
    kept.put(3, bytes(80))  # replacing an entry counts its new size only
    assert kept.get(3) is not None and kept.get(1) is None and kept.get(2) is None


def test_remembered_versions_count_the_size_of_their_values_only():
    rows = VersionedValues(max_entries=10, max_bytes=100, size=lambda row: len(row[0]))
    rows.remember("a", (1,), ("x" * 60, "name"))
    rows.remember("b", (1,), ("x" * 30, "name"))
    assert rows.recall("a", (1,)) is not None and rows.recall("b", (1,)) is not None
    rows.remember("c", (2,), ("x" * 30, "name"))  # 120 bytes: the least recently used goes
    assert rows.recall("a", (1,)) is None and rows.recall("c", (2,)) is not None
    assert rows.recall("c", (1,)) is None  # another version: a miss, never a stale value
