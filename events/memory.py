"""What a process remembers between requests: one mechanism, one rule (docs/architecture-memories.md).

A value is remembered with what it is valid for and recalled only when asked with exactly that
again; nothing is deleted to invalidate. Each memory is registered by name (MEMORIES): the names
are what `EVENTS["FORGETFUL_MEMORIES"]` switches off, to measure what each memory buys.
"""

import threading
from collections import OrderedDict

from .conf import events_settings

# The `valid_for` of values their key alone determines.
ALWAYS = "always"

# Every memory of this process, by name.
MEMORIES = {}


class Memory:
    """Values by key, each valid for what it was remembered with; the `max_entries` most recently
    used and, with `max_bytes`, no more than that many bytes of values (as `size` counts them:
    their length by default). A value larger than that is not kept at all."""

    def __init__(self, name, max_entries, max_bytes=None, size=len):
        self.name = name
        self.max_entries = max_entries
        self.max_bytes = max_bytes
        self.size = size
        self._entries = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()

    def recall(self, key, valid_for):
        """The value remembered under `key` with exactly `valid_for`, else None."""
        with self._lock:
            found = self._entries.get(key)
            if found is None or found[0] != valid_for:
                return None
            self._entries.move_to_end(key)
            return found[1]

    def holds(self, key):
        """Whether a value is remembered under `key`, whatever it is valid for: a caller can skip
        finding out its `valid_for` (a statement) when no value could answer."""
        return key in self._entries

    def remember(self, key, valid_for, value):
        size = self.size(value) if self.max_bytes is not None else 0
        if self.max_bytes is not None and size > self.max_bytes:
            return
        with self._lock:
            previous = self._entries.pop(key, None)
            if previous is not None and self.max_bytes is not None:
                self._bytes -= self.size(previous[1])
            self._entries[key] = (valid_for, value)
            self._bytes += size
            while len(self._entries) > self.max_entries or (
                self.max_bytes is not None and self._bytes > self.max_bytes
            ):
                _key, (_valid_for, dropped) = self._entries.popitem(last=False)
                if self.max_bytes is not None:
                    self._bytes -= self.size(dropped)

    def clear(self):
        with self._lock:
            self._entries.clear()
            self._bytes = 0


def memory(name, *, max_entries, max_bytes=None, size=len):
    """A new memory named `name`; one the settings name is forgetful (no entry: every recall misses,
    as on a process's first request), decided here, once, so that a memory that is on pays nothing."""
    if name in MEMORIES:
        raise ValueError(f"A memory named {name!r} exists already.")
    forgetful = events_settings.FORGETFUL_MEMORIES
    if name in forgetful or "all" in forgetful:
        max_entries = 0
    MEMORIES[name] = made = Memory(name, max_entries, max_bytes, size)
    return made


def forget_all():
    """Empty every memory of this process, as a process that just started has them (tests)."""
    for each in MEMORIES.values():
        each.clear()
