"""A small thread-safe memory of recent values, bounded in size: what a process may keep between requests.

Only for values that can never be stale (each entry names what it is valid for: the versions of
the tables a list reads, a stored password hash), so one process's memory never contradicts another's.
"""
import threading
from collections import OrderedDict


class RecentValues:
    """A mapping that keeps its `max_entries` most recently used keys and, with `max_bytes`, no more
    than that many bytes of values (as `size` counts them: their length by default); a value larger
    than that is not kept at all."""

    def __init__(self, max_entries, max_bytes=None, size=len):
        self.max_entries = max_entries
        self.max_bytes = max_bytes
        self.size = size
        self._entries = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()

    def size_of(self, value):
        return self.size(value)

    def get(self, key):
        with self._lock:
            value = self._entries.get(key)
            if value is not None:
                self._entries.move_to_end(key)
            return value

    def put(self, key, value):
        size = self.size_of(value) if self.max_bytes is not None else 0
        if self.max_bytes is not None and size > self.max_bytes:
            return
        with self._lock:
            previous = self._entries.pop(key, None)
            if previous is not None and self.max_bytes is not None:
                self._bytes -= self.size_of(previous)
            self._entries[key] = value
            self._bytes += size
            while len(self._entries) > self.max_entries or (self.max_bytes is not None and self._bytes > self.max_bytes):
                _key, dropped = self._entries.popitem(last=False)
                if self.max_bytes is not None:
                    self._bytes -= self.size_of(dropped)

    def clear(self):
        with self._lock:
            self._entries.clear()
            self._bytes = 0


class VersionedValues(RecentValues):
    """Values remembered with what they were read under (events.list_versions): a value is recalled
    only under exactly that, so a change anywhere (a newer version) makes it a miss, never stale."""

    def size_of(self, value):
        return self.size(value[1])

    def recall(self, key, version):
        found = self.get(key)
        if found is not None and found[0] == version:
            return found[1]
        return None

    def remember(self, key, version, value):
        self.put(key, (version, value))
