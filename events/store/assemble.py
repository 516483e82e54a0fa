"""Answers made of stored rows: the Assembler joins them for one request and language, the request's
values (MarkerValues) spliced in where the stored texts hold markers."""

import json
import re
from dataclasses import dataclass
from typing import NamedTuple

from django.db import DEFAULT_DB_ALIAS, connections

from .. import list_versions, roles
from ..json_text import to_json
from ..memory import memory
from ..models import Event, PostKind, RenderedRecord
from .epoch import current_epoch
from .reads import fetch_rows, stored_with_linked_sql
from .rows import (
    EVENT,
    EVENT_LD,
    GLOBAL_ID_HOST,
    HOME,
    ORGANIZER,
    ORGANIZER_LD,
    ORIGIN,
    RECORD_KINDS,
    REFERENCE_TEXT,
    SOURCE_OF_ROW,
    VENUE,
    VENUE_LD,
    references_in,
)
from .writes import keep_if_absent

# A list of term references: its terms are joined in name order (the name of the language).
_TERM_LIST_TEXT = re.compile(r'\[("\\u0000term:\d+"(?:,"\\u0000term:\d+")*)\]')

# What each memory holds, under what key and why it cannot answer stale: docs/architecture-memories.md.
_stored_rows = memory("stored-rows", max_entries=4096, max_bytes=16 * 1024 * 1024, size=lambda row: len(row[0]))
_event_facts = memory("event-facts", max_entries=4096)
_anonymous_single_texts = memory("anonymous-single-reads", max_entries=1024)


class MarkerValues(NamedTuple):
    """What the markers of stored texts stand for in one request's answers (the API works them out)."""

    rest_root: str
    home: str
    global_id_base: str
    origin: str


def _in_json_string(value):
    return to_json(value)[1:-1]


class Unresolved(Exception):
    """A stored event refers to a row that is not there (not rendered yet, or the record is gone)."""


class Assembler:
    """Builds records from stored rows for one request and language; with the `state` its page was
    read under (Page.state: PostgreSQL outside a transaction), rows this process remembers under the
    same version of the store are taken from memory rather than read again."""

    def __init__(self, marker_values, language, state=None):
        self.marker_values = marker_values
        self.replacements = [
            (_in_json_string(marker), _in_json_string(value))
            for marker, value in zip((f"{HOME}wp-json/", HOME, GLOBAL_ID_HOST, ORIGIN), marker_values)
        ]
        self.language = language
        self.rows = {}
        self.absent = set()
        self._texts = {}
        self._references = {}
        self.store_version = None if state is None else list_versions.store_version(state)

    def _spliced(self, body):
        for marker, value in self.replacements:
            if marker in body:
                body = body.replace(marker, value)
        return body

    def fetch(self, keys):
        wanted = self._recalled([key for key in keys if key not in self.rows and key not in self.absent])
        if not wanted:
            return
        self._keep(fetch_rows(wanted, self.language))
        self.absent.update(key for key in wanted if key not in self.rows)

    def _recalled(self, keys):
        """Takes what memory holds of `keys` under this request's version; returns the others."""
        if self.store_version is None:
            return keys
        missing = []
        epoch = current_epoch()
        for key in keys:
            row = _stored_rows.recall((*key, self.language, epoch), self.store_version)
            if row is not None:
                self.rows[key] = row
            else:
                missing.append(key)
        return missing

    def _keep(self, rows):
        """Rows just read: this request's, and memory's under the version the request saw (they
        were read after it, so they are at least that new: never older than what they stand for)."""
        found = {(kind, record_id): (body, sort_name) for kind, record_id, body, sort_name in rows}
        self.rows.update(found)
        if self.store_version is not None:
            epoch = current_epoch()
            for key, row in found.items():
                _stored_rows.remember((*key, self.language, epoch), self.store_version, row)

    def fetch_events(self, event_ids):
        """The stored events and every row they embed: one query on PostgreSQL, two elsewhere, none
        when this process remembers them all under the request's version of the store."""
        connection = connections[DEFAULT_DB_ALIAS]
        keys = [(EVENT, pk) for pk in event_ids]
        if connection.vendor != "postgresql" or not self._recalled(keys):
            # Elsewhere, or every event is remembered: only rows that memory lacks are read.
            self._fetch_with_references(event_ids)
            return
        table = connection.ops.quote_name(RenderedRecord._meta.db_table)
        sql = stored_with_linked_sql(table, f"kind = '{EVENT}' AND record_id = ANY(%(ids)s::bigint[])", json_ld=False)
        with connection.cursor() as cursor:
            cursor.execute(sql, {"language": self.language, "epoch": current_epoch(), "ids": list(event_ids)})
            self._keep(cursor.fetchall())
        self._absent_unless_found([*keys, *(key for pk in event_ids for key in self.references_of(pk))])

    def _fetch_with_references(self, event_ids):
        self.fetch([(EVENT, pk) for pk in event_ids])
        self.fetch({key for pk in event_ids for key in self.references_of(pk)})

    def event_facts(self, event_id, anonymous=False):
        """The event's RecordFacts (None when there is no such event) and its own rows, in one query;
        on PostgreSQL also every row a single read of it needs (Assembler.single_event).

        On PostgreSQL outside a transaction, the versions are read first: when this process
        remembers the event's facts and every row of its single read (or, for an `anonymous`
        caller, the finished text) under them, that small statement is the only one.
        """
        connection = connections[DEFAULT_DB_ALIAS]
        facts_version = None
        if connection.vendor == "postgresql" and not connection.in_atomic_block:
            state = list_versions.read_state(connection)
            self.store_version = list_versions.store_version(state)
            facts_version = list_versions.tables_key((Event._meta.db_table,), state)
            facts = _event_facts.recall((connection.alias, event_id), facts_version)
            if facts is not None and anonymous and not facts.password and self._anonymous_text(event_id) is not None:
                return facts
            if facts is not None and self._recalled_single(event_id):
                return facts
        events = connection.ops.quote_name(Event._meta.db_table)
        rows = connection.ops.quote_name(RenderedRecord._meta.db_table)
        own = f"kind IN ('{EVENT}', '{EVENT_LD}') AND record_id = %(id)s"
        if connection.vendor == "postgresql":
            stored = stored_with_linked_sql(rows, own, json_ld=True)
        else:
            stored = f"SELECT kind, record_id, body, sort_name FROM {rows} WHERE {own} AND language = %(language)s AND epoch = %(epoch)s"
        sql = (
            f"SELECT e.status, e.author_id, e.password, e.status_before_trash, r.kind, r.record_id, r.body, r.sort_name "
            f"FROM {events} e LEFT JOIN ({stored}) r ON true WHERE e.id = %(id)s"
        )
        with connection.cursor() as cursor:
            cursor.execute(sql, {"language": self.language, "epoch": current_epoch(), "id": event_id})
            found = cursor.fetchall()
        if not found:
            return None
        self._keep([row[4:] for row in found if row[4] is not None])
        wanted = [(EVENT, event_id), (EVENT_LD, event_id)]
        if connection.vendor == "postgresql":
            wanted += self.single_keys(event_id)
        self._absent_unless_found(wanted)
        status, author_id, password, status_before_trash = found[0][:4]
        facts = RecordFacts(PostKind.EVENT, event_id, status, author_id, password, status_before_trash)
        if facts_version is not None:
            # Read after the versions were: at least as new as what they stand for.
            _event_facts.remember((connection.alias, event_id), facts_version, facts)
        return facts

    def _recalled_single(self, event_id):
        """Whether memory holds every row a single read of the event needs (now in self.rows)."""
        return not self._recalled([(EVENT, event_id)]) and not self._recalled(self.single_keys(event_id))

    def _absent_unless_found(self, keys):
        self.absent.update(key for key in keys if key not in self.rows)

    def record_texts(self, kind, ids, build, stored=None):
        """{ID: JSON text} of a list page's venues, organizers or terms (row `kind`), in `ids` order:
        stored renderings, and `build(ids)` → {id: text} for the others, which are then stored.
        `stored(id)` false: the record's text depends on the request and is always built."""
        keys = {pk: (kind, pk) for pk in ids if stored is None or stored(pk)}
        self.fetch(keys.values())
        texts = {pk: self.fragment_text(key) for pk, key in keys.items() if key in self.rows}
        missing = [pk for pk in ids if pk not in texts]
        if missing:
            texts.update(build(missing))
            self.keep_missing()
        return {pk: texts[pk] for pk in ids if pk in texts}

    def keep_missing(self, embedded_too=True):
        """Store what this request looked for and did not find (rows that exist by then are kept),
        and what the events stored here embed, so that the next read finds them all."""
        absent, self.absent = self.absent, set()
        by_source = {}
        for kind, record_id in absent:
            by_source.setdefault(SOURCE_OF_ROW[kind], set()).add(record_id)
        for kind, ids in by_source.items():
            keep_if_absent(kind, ids, self.language)
        if EVENT in by_source and embedded_too:
            self._fetch_with_references(by_source[EVENT])
            self.keep_missing(embedded_too=False)

    def references_of(self, event_id):
        """The rows the event's stored text refers to, found once per request and event: a read
        asks for them several times (which rows to fetch, which are missing, what to join)."""
        found = self._references.get(event_id)
        if found is None:
            row = self.rows.get((EVENT, event_id))
            if row is None:
                return ()
            found = self._references[event_id] = references_in(row[0])
        return found

    def event_text(self, event_id):
        """The event's JSON text with its linked records and terms joined in, without parsing it."""
        row = self.rows.get((EVENT, event_id))
        if row is None:
            raise Unresolved((EVENT, event_id))
        text = _TERM_LIST_TEXT.sub(self._terms_text, self._spliced(row[0]))
        return REFERENCE_TEXT.sub(self._reference_text, text)

    def _terms_text(self, match):
        keys = [(kind, int(record_id)) for kind, record_id in REFERENCE_TEXT.findall(match.group(0))]
        for key in keys:
            if key not in self.rows:
                raise Unresolved(key)
        keys.sort(key=lambda key: (self.rows[key][1], key[1]))
        return f"[{','.join(self.fragment_text(key) for key in keys)}]"

    def _reference_text(self, match):
        return self.fragment_text((match.group(1), int(match.group(2))))

    def fragment_text(self, key):
        """A stored record's JSON text for this request (linked records are stored whole)."""
        if key not in self._texts:
            if key not in self.rows:
                raise Unresolved(key)
            self._texts[key] = self._spliced(self.rows[key][0])
        return self._texts[key]

    def _anonymous_key(self, event_id):
        return (event_id, self.language, current_epoch(), self.marker_values)

    def _anonymous_text(self, event_id):
        if self.store_version is None:
            return None
        return _anonymous_single_texts.recall(self._anonymous_key(event_id), self.store_version)

    def single_event(self, event_id, user, protected):
        """The single read's JSON text (docs/contract/events.md §1.5) for `user`, after event_facts(): the list
        record, its venue and organizers with their JSON-LD where `user` may read them, and the
        event's own JSON-LD unless it is password-protected. Joined as text, as lists are; an
        anonymous caller's is remembered under the store's version (what it shows of linked
        records depends on their stored status alone)."""
        remembered = not user.is_authenticated and not protected and self.store_version is not None
        if remembered:
            text = self._anonymous_text(event_id)
            if text is not None:
                return text
        self.fetch(self.single_keys(event_id))
        venue_refs = self._references_of(event_id, VENUE)
        organizer_refs = self._references_of(event_id, ORGANIZER)
        for ref in venue_refs:
            self._give_json_ld(VENUE, ref, "show_map", user)
        for ref in organizer_refs:
            self._give_json_ld(ORGANIZER, ref, "global_id", user)
        # Joined here, never kept: the venue and organizers above carry this caller's JSON-LD.
        text = self.event_text(event_id)
        if protected:
            return text
        linked = [f'"location":{self.fragment_text((VENUE_LD, ref))}' for ref in venue_refs[:1]]
        linked += [f'"organizer":{self.fragment_text((ORGANIZER_LD, ref))}' for ref in organizer_refs[:1]]
        json_ld = _text_inserted_after(self.fragment_text((EVENT_LD, event_id)), "endDate", ",".join(linked))
        text = f'{text[:-1]},"json_ld":{json_ld}}}'
        if remembered:
            _anonymous_single_texts.remember(self._anonymous_key(event_id), self.store_version, text)
        return text

    def single_keys(self, event_id):
        """The rows a single read needs beyond the event's: those it refers to, and the JSON-LD rows."""
        references = self.references_of(event_id)
        linked_ld = [(f"{kind}_ld", ref) for kind, ref in references if kind in (VENUE, ORGANIZER)]
        return [*references, (EVENT_LD, event_id), *linked_ld]

    def _references_of(self, event_id, kind):
        return [record_id for ref_kind, record_id in self.references_of(event_id) if ref_kind == kind]

    def _give_json_ld(self, kind, record_id, before, user):
        """A linked record's text in this read gets its `json_ld` (before the key `before`), unless
        it is blanked (password-protected: its name key holds []) or `user` may not read it."""
        key = (kind, record_id)
        text = self.fragment_text(key)
        data = json.loads(text)
        blanked = isinstance(data.get(kind), list)
        if blanked or not roles.can_read(user, RecordFacts.of_stored(RECORD_KINDS[kind], data)):
            return
        json_ld = self.fragment_text((f"{kind}_ld", record_id))
        # Never the first key: the record starts with its `id`.
        self._texts[key] = _text_inserted_at(text, text.find(f',"{before}":'), f'"json_ld":{json_ld}')


@dataclass(slots=True)
class RecordFacts:
    """The columns of an event, venue or organizer the read rules look at (roles, password), without
    a model instance: from a page or single-read query, or from a stored record."""

    COLUMNS = ("pk", "status", "author_id", "password", "status_before_trash")
    KIND: str
    pk: int = None
    status: str = None
    author_id: int = None
    password: str = ""
    status_before_trash: str = ""

    @classmethod
    def of_event(cls, row):
        """From a row of the columns COLUMNS of an event."""
        return cls(PostKind.EVENT, *(row[name] for name in cls.COLUMNS))

    @classmethod
    def of_stored(cls, kind, data):
        """From a stored record, which writes its author as a string ("0", or left out, for none)."""
        author = data.get("author")
        return cls(kind, data.get("id"), data.get("status"), int(author) if author not in (None, "", "0") else None)


def _text_inserted_after(text, key, members):
    """The JSON object `text` with `members` put after the value of its top-level `key`."""
    name = f'"{key}":'
    position = text.find(name)
    if position >= 0:
        position = _JSON_DECODER.raw_decode(text, position + len(name))[1]
    return _text_inserted_at(text, position, members)


def _text_inserted_at(text, position, members):
    """The compact JSON object `text` (never empty: stored records have an ID or a type) with
    `members` ('"name":value,…') put at `position`, or at its end when the key they follow or
    precede is absent (-1)."""
    if not members:
        return text
    position = len(text) - 1 if position < 0 else position
    return f"{text[:position]},{members}{text[position:]}"


_JSON_DECODER = json.JSONDecoder()
