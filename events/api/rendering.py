"""Records rendered when they change, not when they are read (the `RenderedRecord` store).

A record's JSON depends on the record and the language, almost never on the request. So each event,
venue, organizer, image and term is rendered by its serializer once per language and stored:

- what depends on the request is left as markers and spliced in at read time: the site home with
  its language prefix, the REST root, the host of global IDs and the origin of image URLs;
- an event embeds its venue, organizers, terms and image by reference ("\\x00venue:12"), joined at
  read time, so a venue edit re-renders one venue, not every event that shows it. Venues and
  organizers carry their image inline: images are edited far less often than they are shown;
- single reads add schema.org JSON-LD, stored beside each record as its own fragment ("*_ld").

Writes keep the store true. Every save, delete and link change of a record marks it stale: its rows
are deleted in the writer's transaction at once, and it is rendered again (all languages) either
by `flush()` at the end of the service that wrote it, inside the same transaction, or right after
the commit. A reader that finds no row builds the record the slow way, answers, and stores what it
built only if no row exists by then (insert-or-nothing): a writer's rows always win, so a reader
that read before a commit can never leave a stale row behind a writer that rendered after it.

A row is read only under the current `epoch`, a digest of the settings that shape records (time
zone, currency defaults, namespace, media URL, languages) and of FORMAT_VERSION: change one, or
the code of a serializer, and every stored row is ignored until `manage.py events_render` rebuilds.
"""
import hashlib
import json
import re
import threading
from functools import lru_cache
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.core.signals import setting_changed
from django.db import DEFAULT_DB_ALIAS, connections, transaction
from django.db.models import Prefetch
from django.db.models.signals import m2m_changed, post_delete, post_save, pre_delete
from django.utils import translation
from django.utils.encoding import iri_to_uri

from ..conf import events_settings
from .. import changes, list_versions
from ..memory import RecentValues, VersionedValues
from .renderers import to_json
from ..models import Attachment, Event, EventOrganizer, Organizer, PostKind, RenderedRecord, Term, Venue

# Bump whenever a serializer's output or a row's columns change, so rows of the old shape are never served.
FORMAT_VERSION = "2"

HOME = "\x01home\x01"
GLOBAL_ID_HOST = "\x01gid\x01"
ORIGIN = "\x01origin\x01"
REFERENCE = "\x00"

# The kinds of rows and what each holds.
EVENT, EVENT_LD = "event", "event_ld"
VENUE, VENUE_LD = "venue", "venue_ld"
ORGANIZER, ORGANIZER_LD = "organizer", "organizer_ld"
IMAGE = "image"
# A term as events embed it, and its standalone record (the categories and tags routes).
TERM, TERM_RECORD = "term", "term_record"
ROW_KINDS = {
    EVENT: (EVENT, EVENT_LD), VENUE: (VENUE, VENUE_LD), ORGANIZER: (ORGANIZER, ORGANIZER_LD), IMAGE: (IMAGE,),
    TERM: (TERM, TERM_RECORD),
}
SOURCE_OF_ROW = {row: source for source, rows in ROW_KINDS.items() for row in rows}
SOURCE_KINDS = {Event: EVENT, Venue: VENUE, Organizer: ORGANIZER, Attachment: IMAGE, Term: TERM}
RECORD_KINDS = {EVENT: PostKind.EVENT, VENUE: PostKind.VENUE, ORGANIZER: PostKind.ORGANIZER}
# Deletes and renders in slices, whatever a bulk change marks (SQLite caps the parameters of a statement).
SLICE = 500


class NotRenderable(Exception):
    """A record whose output would depend on the request in a way markers cannot stand for."""


def reference(kind, record_id):
    return f"{REFERENCE}{kind}:{record_id}"


# --- the epoch -------------------------------------------------------------------------------------

_epoch = None


def current_epoch():
    global _epoch
    if _epoch is None:
        shaping = [
            FORMAT_VERSION,
            settings.TIME_ZONE,
            settings.MEDIA_URL,
            [code for code, _name in settings.LANGUAGES],
            getattr(settings, "MODELTRANSLATION_FALLBACK_LANGUAGES", None),
            events_settings.namespace,
            events_settings.DEFAULT_CURRENCY_SYMBOL,
            events_settings.DEFAULT_CURRENCY_CODE,
            str(settings.STORAGES.get("default", {}).get("BACKEND", "")),
        ]
        _epoch = hashlib.sha256(repr(shaping).encode()).hexdigest()[:16]
    return _epoch


def _forget_epoch(**kwargs):
    global _epoch
    _epoch = None


setting_changed.connect(_forget_epoch, dispatch_uid="events.rendering.epoch")


def languages():
    return [code for code, _name in settings.LANGUAGES]


# --- rendering -------------------------------------------------------------------------------------


class RenderingRequest:
    """What the serializers read of a request, with markers where the real request's values go."""

    user = AnonymousUser()
    raw_params = {}

    def __init__(self):
        self.rest_root = f"{HOME}wp-json/"
        # links.global_id() takes the host of global IDs from here when the REST root matches.
        self._events_global_id_base = (self.rest_root, GLOBAL_ID_HOST)

    def build_absolute_uri(self, location):
        location = str(location)
        parts = urlsplit(location)
        if parts.scheme and parts.netloc:
            return iri_to_uri(location)
        if location.startswith("/") and not location.startswith("//") and "/./" not in location and "/../" not in location:
            return ORIGIN + iri_to_uri(location)
        raise NotRenderable(location)


def _event_queryset():
    return Event.objects.select_related("image").prefetch_related(
        "terms", Prefetch("organizer_links", queryset=EventOrganizer.objects.order_by("position", "id"))
    )


def _linked_queryset(model):
    return model.objects.select_related("image")


def _render_rows(kind, records, language):
    """{(row kind, record ID): (JSON text, sort name)} of these records in `language`."""
    from .serializers.events import EventRecordSerializer
    from .serializers.images import image_record
    from .serializers.json_ld import event_json_ld, organizer_json_ld, venue_json_ld
    from .serializers.organizers import OrganizerRecordSerializer
    from .serializers.terms import CategoryTree, TermRecordSerializer, embedded_term
    from .serializers.venues import VenueRecordSerializer

    request = RenderingRequest()
    category_tree = CategoryTree()
    rows = {}
    with translation.override(language):
        for record in records:
            try:
                if kind == EVENT:
                    rows[(EVENT, record.pk)] = EventRecordSerializer(record, context={"request": request, "references": True}).data, ""
                    rows[(EVENT_LD, record.pk)] = event_json_ld(record, request, linked=False), ""
                elif kind == VENUE:
                    context = {"request": request, "json_ld": False, "embedded": True}
                    rows[(VENUE, record.pk)] = VenueRecordSerializer(record, context=context).data, ""
                    rows[(VENUE_LD, record.pk)] = venue_json_ld(record, request), ""
                elif kind == ORGANIZER:
                    context = {"request": request, "json_ld": False, "embedded": True}
                    rows[(ORGANIZER, record.pk)] = OrganizerRecordSerializer(record, context=context).data, ""
                    rows[(ORGANIZER_LD, record.pk)] = organizer_json_ld(record, request), ""
                elif kind == IMAGE:
                    rows[(IMAGE, record.pk)] = image_record(record, request), ""
                elif kind == TERM:
                    rows[(TERM, record.pk)] = embedded_term(record, request), record.name or ""
                    context = {"request": request, "category_tree": category_tree}
                    rows[(TERM_RECORD, record.pk)] = TermRecordSerializer(record, context=context).data, ""
            except NotRenderable:
                continue
    return {key: (to_json(data), sort_name) for key, (data, sort_name) in rows.items()}


def _source_records(kind, ids, using, lock=False):
    if kind == EVENT:
        queryset = _event_queryset()
    elif kind in (VENUE, ORGANIZER):
        queryset = _linked_queryset(Venue if kind == VENUE else Organizer)
    elif kind == IMAGE:
        queryset = Attachment.objects.all()
    else:
        queryset = Term.objects.all()
    queryset = queryset.using(using).filter(pk__in=ids).order_by("pk")
    features = connections[using].features
    if lock and features.has_select_for_update_of:
        # Serialises this rendering with any writer of the same rows: it reads them after that
        # writer commits, so a rendering made after a commit always shows that commit. NO KEY
        # UPDATE, as writers take it, so that inserting links to these rows (KEY SHARE) still goes on.
        queryset = queryset.select_for_update(of=("self",), no_key=features.has_select_for_no_key_update)
    return list(queryset)


def _model_rows(kind, ids, using, lock, only_language=None):
    epoch = current_epoch()
    made = []
    for record_slice in _slices(sorted(ids)):
        records = _source_records(kind, record_slice, using, lock)
        for language in [only_language] if only_language else languages():
            for (row_kind, record_id), (body, sort_name) in _render_rows(kind, records, language).items():
                links = " ".join(f"{ref_kind}:{ref_id}" for ref_kind, ref_id in references_in(body)) if row_kind == EVENT else ""
                made.append(RenderedRecord(
                    kind=row_kind, record_id=record_id, language=language, epoch=epoch, body=body,
                    sort_name=sort_name[:200], links=links,
                ))
    return made


def render(kind, ids, using=DEFAULT_DB_ALIAS):
    """Store again what these records (all of them still existing) look like, in every language."""
    ids = set(ids)
    if not ids:
        return
    with transaction.atomic(using=using):
        _delete_rows(kind, ids, using)
        rows = _model_rows(kind, ids, using, lock=True)
        RenderedRecord.objects.using(using).bulk_create(
            rows, batch_size=SLICE, update_conflicts=True,
            unique_fields=["kind", "record_id", "language"], update_fields=["epoch", "body", "sort_name", "links"],
        )


def render_all(using=DEFAULT_DB_ALIAS, stdout=None):
    """Rebuild the whole store (management command `events_render`, seeding)."""
    RenderedRecord.objects.using(using).exclude(epoch=current_epoch()).delete()
    for model, kind in SOURCE_KINDS.items():
        ids = list(model.objects.using(using).order_by("pk").values_list("pk", flat=True))
        for id_slice in _slices(ids, SLICE):
            render(kind, id_slice, using)
        if stdout is not None:
            stdout.write(f"{kind}: {len(ids)}")


def stale_rows(using=DEFAULT_DB_ALIAS):
    """[(row kind, record ID, language)] of stored rows that differ from a fresh rendering: none,
    as long as every write keeps the store true (tests and `events_render --check` ask)."""
    stored = {
        (kind, record_id, language): (body, sort_name, links)
        for kind, record_id, language, body, sort_name, links in RenderedRecord.objects.using(using)
        .filter(epoch=current_epoch())
        .values_list("kind", "record_id", "language", "body", "sort_name", "links")
    }
    by_source = {}
    for kind, record_id, _language in stored:
        by_source.setdefault(SOURCE_OF_ROW[kind], set()).add(record_id)
    fresh = {}
    for source, ids in by_source.items():
        for row in _model_rows(source, ids, using, lock=False):
            fresh[(row.kind, row.record_id, row.language)] = (row.body, row.sort_name, row.links)
    return sorted(key for key, value in stored.items() if fresh.get(key) != value)


def keep_if_absent(kind, ids, language, using=DEFAULT_DB_ALIAS):
    """A reader's fill: render these records in one language and store rows that do not exist yet."""
    rows = _model_rows(kind, ids, using, lock=False, only_language=language)
    if rows:
        # Rows of an older epoch are in the way (a writer's rows always have the current one).
        for id_slice in _slices(sorted(ids)):
            RenderedRecord.objects.using(using).filter(
                kind__in=ROW_KINDS[kind], record_id__in=id_slice, language=language
            ).exclude(epoch=current_epoch()).delete()
        RenderedRecord.objects.using(using).bulk_create(rows, batch_size=SLICE, ignore_conflicts=True)


def _delete_rows(kind, ids, using):
    for id_slice in _slices(sorted(ids)):
        RenderedRecord.objects.using(using).filter(kind__in=ROW_KINDS[kind], record_id__in=id_slice).delete()


def _slices(items, size=SLICE):
    items = list(items)
    return [items[start : start + size] for start in range(0, len(items), size)]


# --- marking stale ---------------------------------------------------------------------------------

_pending = threading.local()


def _pending_for(using):
    if not hasattr(_pending, "kinds"):
        _pending.kinds = {}
    return _pending.kinds.setdefault(using, {})


def mark_stale(kind, ids, using=DEFAULT_DB_ALIAS):
    """Forget the stored renderings of these records now; render them again before or at the commit."""
    ids = {record_id for record_id in ids if record_id is not None}
    if not ids:
        return
    _delete_rows(kind, ids, using)
    _pending_for(using).setdefault(kind, set()).update(ids)
    # Once per mark, not once per transaction: a rolled-back transaction's callbacks are dropped,
    # and flushing what is pending is a no-op when a service already did.
    transaction.on_commit(lambda: flush(using), using=using)


def flush(using=DEFAULT_DB_ALIAS):
    """Render what this thread marked stale (the services call it last in their transaction)."""
    pending = _pending_for(using)
    while pending:
        kind, ids = pending.popitem()
        render(kind, ids, using)


# --- receivers -------------------------------------------------------------------------------------


def _saved(sender, instance, using, **kwargs):
    kind = SOURCE_KINDS[_source_model(sender)]
    mark_stale(kind, [instance.pk], using)
    if kind == IMAGE:
        _mark_image_holders(instance.pk, using)
    elif kind == TERM:
        _mark_term_descendants([instance.pk], using)


def _mark_term_descendants(ids, using):
    """A category's record URL holds its ancestors' slugs: a change of one changes its descendants'."""
    children = {}
    for pk, parent_id in Term.objects.using(using).exclude(parent_id=None).values_list("pk", "parent_id"):
        children.setdefault(parent_id, []).append(pk)
    descendants, waiting = set(), list(ids)
    while waiting:
        for child in children.get(waiting.pop(), ()):
            if child not in descendants:
                descendants.add(child)
                waiting.append(child)
    mark_stale(TERM, descendants, using)


def _mark_image_holders(image_id, using):
    """Venues and organizers carry their image inline."""
    for model in (Venue, Organizer):
        mark_stale(SOURCE_KINDS[model], model.objects.using(using).filter(image_id=image_id).values_list("pk", flat=True), using)


def _deleting(sender, instance, using, **kwargs):
    """What refers to a record about to go: the deletion rewrites those references without signals."""
    kind = SOURCE_KINDS[_source_model(sender)]
    events = Event.objects.using(using)
    if kind == VENUE:
        mark_stale(EVENT, events.filter(venue_id=instance.pk).values_list("pk", flat=True), using)
    elif kind == ORGANIZER:
        mark_stale(EVENT, events.filter(organizer_links__organizer_id=instance.pk).values_list("pk", flat=True), using)
    elif kind == TERM:
        mark_stale(EVENT, events.filter(terms__pk=instance.pk).values_list("pk", flat=True), using)
        _mark_term_descendants([instance.pk], using)
    elif kind == IMAGE:
        mark_stale(EVENT, events.filter(image_id=instance.pk).values_list("pk", flat=True), using)
        _mark_image_holders(instance.pk, using)


def _deleted(sender, instance, using, **kwargs):
    mark_stale(SOURCE_KINDS[_source_model(sender)], [instance.pk], using)


def _organizer_link_changed(sender, instance, using, **kwargs):
    mark_stale(EVENT, [instance.event_id], using)


def _term_links_changed(sender, instance, action, reverse, pk_set, using, **kwargs):
    if not action.startswith("post_"):
        if action == "pre_clear" and reverse:
            mark_stale(EVENT, instance.events.using(using).values_list("pk", flat=True), using)
        return
    if reverse:
        mark_stale(EVENT, pk_set or (), using)
    else:
        mark_stale(EVENT, [instance.pk], using)


def _author_deleting(sender, instance, using, **kwargs):
    """Deleting a user sets `author` to none on their records, without signals."""
    for model in (Event, Venue, Organizer):
        mark_stale(SOURCE_KINDS[model], model.objects.using(using).filter(author_id=instance.pk).values_list("pk", flat=True), using)


def _records_changed(sender, ids, using, fields=None, **kwargs):
    kind = SOURCE_KINDS[_source_model(sender)]
    mark_stale(kind, ids, using)
    if kind == TERM and (fields is None or {"slug", "parent", "parent_id"} & set(fields)):
        _mark_term_descendants(ids, using)


def _writes_finished(sender, using, **kwargs):
    flush(using)


def _source_model(sender):
    for model in SOURCE_KINDS:
        if issubclass(sender, model):
            return model
    raise LookupError(sender)


def connect_rendering():
    """Keep the store true on every per-record write (from `ready`); bulk writes mark themselves."""
    from django.contrib.auth import get_user_model

    from ..models import Category, Tag

    for model in (Event, Venue, Organizer, Attachment, Term, Category, Tag):
        name = model.__name__
        post_save.connect(_saved, sender=model, dispatch_uid=f"events.rendering.save.{name}")
        pre_delete.connect(_deleting, sender=model, dispatch_uid=f"events.rendering.deleting.{name}")
        post_delete.connect(_deleted, sender=model, dispatch_uid=f"events.rendering.delete.{name}")
    post_save.connect(_organizer_link_changed, sender=EventOrganizer, dispatch_uid="events.rendering.organizer_link.save")
    post_delete.connect(_organizer_link_changed, sender=EventOrganizer, dispatch_uid="events.rendering.organizer_link.delete")
    m2m_changed.connect(_term_links_changed, sender=Event.terms.through, dispatch_uid="events.rendering.term_links")
    pre_delete.connect(_author_deleting, sender=get_user_model(), dispatch_uid="events.rendering.author")
    changes.records_changed.connect(_records_changed, dispatch_uid="events.rendering.changed")
    changes.writes_finished.connect(_writes_finished, dispatch_uid="events.rendering.finished")


# --- reading ---------------------------------------------------------------------------------------

_REFERENCE_TEXT = re.compile(r'"\\u0000(\w+):(\d+)"')
# A list of term references: its terms are joined in name order (the name of the language).
_TERM_LIST_TEXT = re.compile(r'\[("\\u0000term:\d+"(?:,"\\u0000term:\d+")*)\]')


# (REST root, origin) → the marker replacements of requests with them.
_splices = RecentValues(max_entries=64)
# (splicer key, event row, rows it refers to) → the event's joined text: a few pages of events
# (each entry holds its stored texts and the joined one, some 10 kB).
_joined_event_texts = RecentValues(max_entries=512)
# (row kind, record ID, language, epoch) → (version of the rendering store, (body, sort name)): the
# rows this process read recently, current while the store's version is the one they were read
# under (PostgreSQL; list_versions). Events are the largest rows, a few kB each; 16 MB of bodies at most.
_stored_rows = VersionedValues(max_entries=4096, max_bytes=16 * 1024 * 1024, size=lambda row: len(row[0]))
# (database, event ID) → (version of the events table, RecordFacts): what a single read checks.
_event_facts = VersionedValues(max_entries=4096)
# (event ID, language, epoch, splicer key) → (version of the rendering store, text): an event's
# single read as anonymous callers get it, a function of stored rows and the splicer's values alone.
_anonymous_single_texts = VersionedValues(max_entries=1024)


class Splicer:
    """Turns stored JSON text into this request's JSON: markers replaced by its URLs and host."""

    def __init__(self, request):
        from .links import _global_id_base, rest_root, site_url

        http_request = getattr(request, "_request", request)
        root = rest_root(request)
        origin = f"{http_request.scheme}://{http_request.get_host()}"
        # The REST root (scheme, host, script and language prefix) and the origin determine every
        # value, and a site's requests come with a handful of them: they key the replacements,
        # and every text spliced with them.
        self.key = (root, origin)
        self.replacements = _splices.get(self.key)
        if self.replacements is None:
            self.replacements = [
                (_marker_text(f"{HOME}wp-json/"), _text(root)),
                (_marker_text(HOME), _text(site_url(request))),
                (_marker_text(GLOBAL_ID_HOST), _text(_global_id_base(request))),
                (_marker_text(ORIGIN), _text(origin)),
            ]
            _splices.put(self.key, self.replacements)

    def text(self, body):
        for marker, value in self.replacements:
            if marker in body:
                body = body.replace(marker, value)
        return body


def _marker_text(marker):
    return to_json(marker)[1:-1]


def _text(value):
    return to_json(value)[1:-1]


@lru_cache(maxsize=2048)
def references_in(body):
    """((row kind, record ID), …) an event's stored text refers to.

    Remembered per text (a function of the text alone): a read asks it of each event several
    times (which rows to fetch, which are missing, what to join), and a page's events come back
    request after request."""
    return tuple((kind, int(record_id)) for kind, record_id in _REFERENCE_TEXT.findall(body))


def fetch_rows(keys, language):
    """{(row kind, record ID): (body, sort name)} of the current epoch, in one query.

    Plain SQL: stored reads run this (or _stored_with_linked_sql) on every request, and the ORM
    would spend longer compiling the statement than the database spends answering it.
    """
    wanted = sorted({(kind, int(record_id)) for kind, record_id in keys})
    if not wanted:
        return {}
    connection = connections[DEFAULT_DB_ALIAS]
    table = connection.ops.quote_name(RenderedRecord._meta.db_table)
    if connection.vendor == "postgresql":
        # One statement whatever the keys (so it runs prepared), looked up key by key in the unique
        # index; two array parameters rather than one per key, as binding them costs more than
        # the lookups.
        sql = (
            f"SELECT r.kind, r.record_id, r.body, r.sort_name FROM {table} r "
            f"JOIN unnest(%s::text[], %s::bigint[]) AS wanted(kind, record_id) "
            f"ON r.kind = wanted.kind AND r.record_id = wanted.record_id "
            f"WHERE r.language = %s AND r.epoch = %s"
        )
        params = [[kind for kind, _ in wanted], [record_id for _, record_id in wanted], language, current_epoch()]
    else:
        by_kind = {}
        for kind, record_id in wanted:
            by_kind.setdefault(kind, []).append(record_id)
        conditions, params = [], [language, current_epoch()]
        for kind, ids in by_kind.items():
            conditions.append(f"(kind = %s AND record_id IN ({', '.join(['%s'] * len(ids))}))")
            params.extend([kind, *ids])
        sql = (
            f"SELECT kind, record_id, body, sort_name FROM {table} "
            f"WHERE language = %s AND epoch = %s AND ({' OR '.join(conditions)})"
        )
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return {(kind, record_id): (body, sort_name) for kind, record_id, body, sort_name in cursor.fetchall()}


def _stored_with_linked_sql(table, own_condition, json_ld):
    """PostgreSQL: the rows `own_condition` selects, plus every row their events refer to (their
    `links`) and, with `json_ld`, the JSON-LD rows of their venues and organizers, in one round
    trip. Named parameters: language, epoch, and those of `own_condition`."""
    linked_ld = (
        f"UNION ALL SELECT kind || '_ld', record_id FROM linked WHERE kind IN ('{VENUE}', '{ORGANIZER}')"
        if json_ld
        else ""
    )
    return (
        f"WITH own AS (SELECT kind, record_id, body, sort_name, links FROM {table} "
        f"WHERE {own_condition} AND language = %(language)s AND epoch = %(epoch)s), "
        f"linked AS (SELECT DISTINCT split_part(link, ':', 1) AS kind, split_part(link, ':', 2)::bigint AS record_id "
        f"FROM own, unnest(string_to_array(own.links, ' ')) AS link WHERE own.links <> ''), "
        f"wanted AS (SELECT kind, record_id FROM linked {linked_ld}) "
        f"SELECT kind, record_id, body, sort_name FROM own UNION ALL "
        f"SELECT r.kind, r.record_id, r.body, r.sort_name FROM {table} r "
        f"JOIN wanted ON r.kind = wanted.kind AND r.record_id = wanted.record_id "
        f"WHERE r.language = %(language)s AND r.epoch = %(epoch)s"
    )


class Unresolved(Exception):
    """A stored event refers to a row that is not there (not rendered yet, or the record is gone)."""


class Assembler:
    """Builds event records from stored rows for one request and language.

    `state` is what the request's page was read under (Page.state, which only PostgreSQL outside a
    transaction has): stored rows this process remembers under the same version of the store are
    taken from memory rather than read again. A transaction may see its own uncommitted writes,
    which no version stands for yet, so it always reads.
    """

    def __init__(self, request, language, state=None):
        self.splicer = Splicer(request)
        self.language = language
        self.rows = {}
        self.absent = set()
        self._texts = {}
        self.store_version = None
        if state is not None:
            self._use_state(state)

    def _use_state(self, state):
        self.store_version = list_versions.tables_key((list_versions.RENDERED_TABLE,), state)

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
        for key in keys:
            row = _stored_rows.recall((*key, self.language, current_epoch()), self.store_version)
            if row is not None:
                self.rows[key] = row
            else:
                missing.append(key)
        return missing

    def _keep(self, found):
        """Rows just read: this request's, and memory's under the version the request saw (they
        were read after it, so they are at least that new: never older than what they stand for)."""
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
        if not self._recalled(keys):
            # Every event is remembered: only rows they embed that memory lacks are read.
            self.fetch({key for pk in event_ids for key in self.references_of(pk)})
            return
        if connection.vendor != "postgresql":
            self.fetch(keys)
            self.fetch({key for pk in event_ids for key in self.references_of(pk)})
            return
        table = connection.ops.quote_name(RenderedRecord._meta.db_table)
        sql = _stored_with_linked_sql(table, f"kind = '{EVENT}' AND record_id = ANY(%(ids)s::bigint[])", json_ld=False)
        with connection.cursor() as cursor:
            cursor.execute(sql, {**self._sql_params(), "ids": list(event_ids)})
            self._found(cursor.fetchall())
        self._absent_unless_found([*keys, *(key for pk in event_ids for key in self.references_of(pk))])

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
            self._use_state(state)
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
            stored = _stored_with_linked_sql(rows, own, json_ld=True)
        else:
            stored = f"SELECT kind, record_id, body, sort_name FROM {rows} WHERE {own} AND language = %(language)s AND epoch = %(epoch)s"
        sql = (
            f"SELECT e.status, e.author_id, e.password, e.status_before_trash, r.kind, r.record_id, r.body, r.sort_name "
            f"FROM {events} e LEFT JOIN ({stored}) r ON true WHERE e.id = %(id)s"
        )
        with connection.cursor() as cursor:
            cursor.execute(sql, {**self._sql_params(), "id": event_id})
            found = cursor.fetchall()
        if not found:
            return None
        self._found([row[4:] for row in found if row[4] is not None])
        wanted = [(EVENT, event_id), (EVENT_LD, event_id)]
        if connection.vendor == "postgresql":
            wanted += [*self.references_of(event_id), *self.single_keys(event_id)]
        self._absent_unless_found(wanted)
        status, author_id, password, status_before_trash = found[0][:4]
        facts = RecordFacts(PostKind.EVENT, event_id, status, author_id, password, status_before_trash)
        if facts_version is not None:
            # Read after the versions were: at least as new as what they stand for.
            _event_facts.remember((connection.alias, event_id), facts_version, facts)
        return facts

    def _recalled_single(self, event_id):
        """Whether memory holds every row a single read of the event needs (now in self.rows)."""
        if self._recalled([(EVENT, event_id), (EVENT_LD, event_id)]):
            return False
        return not self._recalled([*self.references_of(event_id), *self.single_keys(event_id)])

    def _sql_params(self):
        return {"language": self.language, "epoch": current_epoch()}

    def _found(self, rows):
        self._keep({(kind, record_id): (body, sort_name) for kind, record_id, body, sort_name in rows})

    def _absent_unless_found(self, keys):
        self.absent.update(key for key in keys if key not in self.rows)

    def record_texts(self, kind, ids, build, stored=None):
        """The JSON texts of a list page's venues, organizers or terms (row `kind`), in `ids` order:
        stored renderings, and `build(ids)` → {id: text} for the others, which are then stored.
        `stored(id)` false: the record's text depends on the request and is always built."""
        keys = {pk: (kind, pk) for pk in ids if stored is None or stored(pk)}
        self.fetch(keys.values())
        texts = {pk: self.fragment_text(key) for pk, key in keys.items() if key in self.rows}
        missing = [pk for pk in ids if pk not in texts]
        if missing:
            texts.update(build(missing))
            self.keep_missing()
        return [texts[pk] for pk in ids if pk in texts]

    def keep_missing(self, embedded_too=True):
        """Store what this request looked for and did not find (rows that exist by then are kept),
        and what the events stored here embed, so that the next read finds them all."""
        absent, self.absent = self.absent, set()
        by_source = {}
        for kind, record_id in absent:
            by_source.setdefault(SOURCE_OF_ROW[kind], set()).add(record_id)
        for kind, ids in by_source.items():
            keep_if_absent(kind, ids, self.language)
        stored_events = [(EVENT, record_id) for record_id in by_source.get(EVENT, ())]
        if stored_events and embedded_too:
            self.fetch(stored_events)
            self.fetch({key for _kind, record_id in stored_events for key in self.references_of(record_id)})
            self.keep_missing(embedded_too=False)

    def references_of(self, event_id):
        row = self.rows.get((EVENT, event_id))
        return references_in(row[0]) if row else ()

    def event_text(self, event_id):
        """The event's JSON text with its linked records and terms joined in, without parsing it.

        The text is a function of the event's stored row, the rows it refers to and the splicer's
        values alone, so a process keeps the texts it joined recently under exactly those (a list
        page shows the same events to request after request; joining one costs about 25 µs).
        """
        row = self.rows.get((EVENT, event_id))
        if row is None:
            raise Unresolved((EVENT, event_id))
        referred = references_in(row[0])
        for key in referred:
            if key not in self.rows:
                raise Unresolved(key)
        made_of = (self.splicer.key, row, *(self.rows[key] for key in referred))
        text = _joined_event_texts.get(made_of)
        if text is None:
            text = self._joined(row)
            _joined_event_texts.put(made_of, text)
        return text

    def _joined(self, row):
        text = _TERM_LIST_TEXT.sub(self._terms_text, self.splicer.text(row[0]))
        return _REFERENCE_TEXT.sub(self._reference_text, text)

    def _terms_text(self, match):
        keys = [(kind, int(record_id)) for kind, record_id in _REFERENCE_TEXT.findall(match.group(0))]
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
            self._texts[key] = self.splicer.text(self.rows[key][0])
        return self._texts[key]

    def _anonymous_key(self, event_id):
        return (event_id, self.language, current_epoch(), self.splicer.key)

    def _anonymous_text(self, event_id):
        if self.store_version is None:
            return None
        return _anonymous_single_texts.recall(self._anonymous_key(event_id), self.store_version)

    def single_event(self, event_id, user, protected):
        """The single read's JSON text (events.md §1.5) for `user`, after event_facts(): the list
        record, its venue and organizers with their JSON-LD where `user` may read them, and the
        event's own JSON-LD unless it is password-protected. Joined as text, as lists are; an
        anonymous caller's is remembered under the store's version (what it shows of linked
        records depends on their stored status alone)."""
        from .. import roles

        remembered = not user.is_authenticated and not protected and self.store_version is not None
        if remembered:
            text = self._anonymous_text(event_id)
            if text is not None:
                return text
        self.fetch([*self.references_of(event_id), *self.single_keys(event_id)])
        venue_ref = self._reference_of(event_id, VENUE)
        organizer_refs = self._references_of(event_id, ORGANIZER)
        if venue_ref is not None:
            self._give_json_ld(VENUE, venue_ref, "show_map", user, roles)
        for ref in organizer_refs:
            self._give_json_ld(ORGANIZER, ref, "global_id", user, roles)
        row = self.rows.get((EVENT, event_id))
        if row is None:
            raise Unresolved((EVENT, event_id))
        # Joined here, never kept: the venue and organizers above carry this caller's JSON-LD.
        text = self._joined(row)
        if protected:
            return text
        linked = []
        if venue_ref is not None:
            linked.append(f'"location":{self.fragment_text((VENUE_LD, venue_ref))}')
        if organizer_refs:
            linked.append(f'"organizer":{self.fragment_text((ORGANIZER_LD, organizer_refs[0]))}')
        json_ld = _text_inserted_after(self.fragment_text((EVENT_LD, event_id)), "endDate", ",".join(linked))
        text = f'{text[:-1]},"json_ld":{json_ld}}}'
        if remembered:
            _anonymous_single_texts.remember(self._anonymous_key(event_id), self.store_version, text)
        return text

    def single_keys(self, event_id):
        """The JSON-LD rows a single read needs beyond the list record's."""
        keys = [(EVENT_LD, event_id)]
        venue_ref = self._reference_of(event_id, VENUE)
        if venue_ref is not None:
            keys.append((VENUE_LD, venue_ref))
        keys.extend((ORGANIZER_LD, ref) for ref in self._references_of(event_id, ORGANIZER))
        return keys

    def _references_of(self, event_id, kind):
        body = self.rows.get((EVENT, event_id), ("", ""))[0]
        return [record_id for ref_kind, record_id in references_in(body) if ref_kind == kind]

    def _reference_of(self, event_id, kind):
        found = self._references_of(event_id, kind)
        return found[0] if found else None

    def _give_json_ld(self, kind, record_id, before, user, roles):
        """A linked record's text in this read gets its `json_ld` (before the key `before`), unless
        it is blanked (password-protected: its name key holds []) or `user` may not read it."""
        key = (kind, record_id)
        data = json.loads(self.fragment_text(key))
        if isinstance(data.get(kind), list):
            return
        if not roles.can_read(user, RecordFacts.of_stored(RECORD_KINDS[kind], data)):
            return
        json_ld = self.fragment_text((f"{kind}_ld", record_id))
        self._texts[key] = _text_inserted_before(self.fragment_text(key), before, f'"json_ld":{json_ld}')


class RecordFacts:
    """The columns of an event, venue or organizer the read rules look at (roles, password), without
    a model instance: from a page or single-read query, or from a stored record."""

    COLUMNS = ("pk", "status", "author_id", "password", "status_before_trash")
    __slots__ = ("KIND", *COLUMNS)

    def __init__(self, kind, pk=None, status=None, author_id=None, password="", status_before_trash=""):
        self.KIND = kind
        self.pk = pk
        self.status = status
        self.author_id = author_id
        self.password = password
        self.status_before_trash = status_before_trash

    @classmethod
    def of_event(cls, row):
        """From a row of the columns COLUMNS of an event."""
        return cls(PostKind.EVENT, *(row[name] for name in cls.COLUMNS))

    @classmethod
    def of_stored(cls, kind, data):
        """From a stored record, which writes its author as a string ("0", or left out, for none)."""
        author = data.get("author")
        return cls(kind, data.get("id"), data.get("status"), int(author) if author not in (None, "", "0") else None)


def _text_inserted_before(text, key, member):
    """The JSON object `text` with `member` ('"name":value') put before its top-level `key`, or
    at its end when it has none (the stored texts are compact, their keys unique)."""
    if text.startswith(f'{{"{key}":'):
        return f"{{{member},{text[1:]}"
    position = text.find(f',"{key}":')
    if position < 0:
        return f"{text[:-1]},{member}}}" if text != "{}" else f"{{{member}}}"
    return f"{text[:position]},{member}{text[position:]}"


def _text_inserted_after(text, key, members):
    """The JSON object `text` with `members` put after the value of its top-level `key`, or at its
    end when it has none."""
    if not members:
        return text
    name = f'"{key}":'
    position = text.find(name)
    if position < 0:
        return f"{text[:-1]},{members}}}" if text != "{}" else f"{{{members}}}"
    _value, end = _JSON_DECODER.raw_decode(text, position + len(name))
    return f"{text[:end]},{members}{text[end:]}"


_JSON_DECODER = json.JSONDecoder()
