"""What writes tell the rest of the app beyond Django's model signals.

Bulk link writes and queryset updates send no model signal, so they are announced here:
`changed(Model, ids)` after such a write (every `update()` of the calendar's querysets does it, see
AnnouncedUpdates), and `finished()` as the last step of a service's transaction (or of a
`batch()` of several). Whatever derives
data from the records (the API's rendering store) listens, so writers need not know it.
"""

from contextlib import contextmanager
from contextvars import ContextVar

from django.db import DEFAULT_DB_ALIAS, models, transaction
from django.dispatch import Signal

# sender: the model class (Event, Venue, Organizer, Attachment, Term); ids: its changed records;
# fields: the names of the fields written, or None when not known.
records_changed = Signal()
# sender: the model class; records: instances a write just created in bulk, as written (see made()).
records_made = Signal()
# sent when a service's writes are complete, still inside its transaction.
writes_finished = Signal()
# sent when a write's change-log entries are appended (events.changelog), inside its transaction.
log_appended = Signal()


def changed(model, ids, using=DEFAULT_DB_ALIAS, fields=None):
    ids = list(ids)
    if ids:
        records_changed.send(sender=model, ids=ids, using=using, fields=fields)


def made(model, records, using=DEFAULT_DB_ALIAS):
    """After a bulk create of `records`, announced with changed() as any write, and every link it
    gives them: what derives data from records may derive it from these instances now rather than
    read them back (the store renders a series' new occurrences so). A later write to them in the
    transaction announces itself again, as any does."""
    if records:
        records_made.send(sender=model, records=records, using=using)


# Set inside batch(): the services' finished() waits for the batch's end.
_batched = ContextVar("changes_batched", default=False)


def finished(using=DEFAULT_DB_ALIAS):
    if not _batched.get():
        writes_finished.send(sender=None, using=using)


@contextmanager
def batch(using=DEFAULT_DB_ALIAS):
    """Several service writes (a bulk action) as one write, in one transaction, finished once at
    the end: each record gets one change-log entry, and the log's lock, which is held until the
    commit, is taken after every row lock the writes take rather than between them."""
    token = _batched.set(True)
    try:
        with transaction.atomic(using=using):
            yield
            _batched.reset(token)
            token = None
            finished(using)
    finally:
        if token is not None:
            _batched.reset(token)


class AnnouncedUpdates(models.QuerySet):
    """A queryset whose `update()` announces the rows it changed (it sends no model signal)."""

    def update(self, **kwargs):
        ids = list(self.order_by().values_list("pk", flat=True))
        count = super().update(**kwargs)
        changed(self.model, ids, using=self.db, fields=list(kwargs))
        return count
