"""What a process keeps between requests: bounded in number and in bytes, recalled only with exactly
what it was remembered with, every memory registered by name and switched off by name."""

import re
from pathlib import Path

import pytest
from django.test import override_settings

from events import memory as memory_module
from events.memory import ALWAYS, Memory, forget_all, memory


@pytest.fixture
def made():
    """memory() for this test: what it makes is unregistered afterwards."""
    names = []

    def make(name, **bounds):
        names.append(name)
        return memory(name, **bounds)

    yield make
    for name in names:
        memory_module.MEMORIES.pop(name, None)


def test_the_bodies_a_process_keeps_are_bounded_by_their_total_size():
    kept = Memory("bodies", max_entries=10, max_bytes=100)
    for n in range(4):
        kept.remember(n, ALWAYS, bytes(30))
    assert [kept.recall(n, ALWAYS) is not None for n in range(4)] == [False, True, True, True]
    kept.remember("large", ALWAYS, bytes(101))  # larger than the whole memory: not kept, nothing dropped
    assert kept.recall("large", ALWAYS) is None and kept.recall(3, ALWAYS) is not None
    kept.remember(3, ALWAYS, bytes(80))  # replacing an entry counts its new size only
    assert kept.recall(3, ALWAYS) is not None and kept.recall(1, ALWAYS) is None and kept.recall(2, ALWAYS) is None


def test_remembered_versions_count_the_size_of_their_values_only():
    rows = Memory("rows", max_entries=10, max_bytes=100, size=lambda row: len(row[0]))
    rows.remember("a", (1,), ("x" * 60, "name"))
    rows.remember("b", (1,), ("x" * 30, "name"))
    assert rows.recall("a", (1,)) is not None and rows.recall("b", (1,)) is not None
    rows.remember("c", (2,), ("x" * 30, "name"))  # 120 bytes: the least recently used goes
    assert rows.recall("a", (1,)) is None and rows.recall("c", (2,)) is not None
    assert rows.recall("c", (1,)) is None  # another version: a miss, never a stale value


def test_a_value_is_recalled_only_with_what_it_was_remembered_with():
    totals = Memory("totals", max_entries=10)
    totals.remember("list", (4, None), 12)
    assert totals.recall("list", (4, None)) == 12
    assert totals.recall("list", (5, None)) is None and totals.holds("list")
    assert totals.recall("list", (4, None)) == 12  # a miss deletes nothing
    totals.remember("list", (5, None), 13)
    assert totals.recall("list", (4, None)) is None and totals.recall("list", (5, None)) == 13


def test_every_memory_is_registered_by_a_name_of_its_own(made):
    lists = made("test lists", max_entries=4)
    assert memory_module.MEMORIES["test lists"] is lists
    with pytest.raises(ValueError):
        memory("test lists", max_entries=4)
    lists.remember("key", ALWAYS, "value")
    forget_all()
    assert lists.recall("key", ALWAYS) is None and not lists.holds("key")


@pytest.mark.parametrize("forgetful", [["test pages"], ["all"]], ids=["by name", "all"])
def test_a_memory_the_settings_name_is_made_forgetful(made, forgetful):
    with override_settings(EVENTS={"FORGETFUL_MEMORIES": forgetful}):
        pages = made("test pages", max_entries=4)
        other = made("test others", max_entries=4)
    later = made("test later", max_entries=4)
    for each in (pages, other, later):
        each.remember("key", ALWAYS, "value")
    assert pages.recall("key", ALWAYS) is None and not pages.holds("key")
    assert (other.recall("key", ALWAYS) is None) == (forgetful == ["all"])
    # Decided as the memory is made: a memory made later with the switch off remembers.
    assert later.recall("key", ALWAYS) == "value"


def test_every_memory_the_app_makes_has_its_row_in_the_documented_table():
    from bench.run import memory_names

    table = (Path(__file__).resolve().parent.parent / "docs" / "architecture-memories.md").read_text()
    assert set(re.findall(r"^\| `([a-z-]+)` \| `", table, re.MULTILINE)) == set(memory_names())
