"""A small thread-safe memory of recent values, bounded in size: what a process may keep between requests.

Only for values that can never be stale (each entry names what it is valid for: the versions of
the tables a list reads, a stored password hash), so one process's memory never contradicts another's.
"""
import threading
from collections import OrderedDict


class RecentValues:
    """A mapping that keeps its `max_entries` most recently used keys."""

    def __init__(self, max_entries):
        self.max_entries = max_entries
        self._entries = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key):
        with self._lock:
            value = self._entries.get(key)
            if value is not None:
                self._entries.move_to_end(key)
            return value

    def put(self, key, value):
        with self._lock:
            self._entries[key] = value
            self._entries.move_to_end(key)
            while len(self._entries) > self.max_entries:
                self._entries.popitem(last=False)

    def clear(self):
        with self._lock:
            self._entries.clear()


class RecentBytes(RecentValues):
    """Recent byte strings, bounded by their total length as well as by their number."""

    def __init__(self, max_entries, max_bytes):
        super().__init__(max_entries)
        self.max_bytes = max_bytes
        self._bytes = 0

    def put(self, key, value):
        if len(value) > self.max_bytes:
            return
        with self._lock:
            previous = self._entries.pop(key, None)
            self._bytes += len(value) - (len(previous) if previous is not None else 0)
            self._entries[key] = value
            while len(self._entries) > self.max_entries or self._bytes > self.max_bytes:
                _key, dropped = self._entries.popitem(last=False)
                self._bytes -= len(dropped)

    def clear(self):
        with self._lock:
            self._entries.clear()
            self._bytes = 0


class VersionedValues(RecentValues):
    """Values remembered with what they were read under (events.list_versions): a value is recalled
    only under exactly that, so a change anywhere (a newer version) makes it a miss, never stale."""

    def recall(self, key, version):
        found = self.get(key)
        if found is not None and found[0] == version:
            return found[1]
        return None

    def remember(self, key, version, value):
        self.put(key, (version, value))
