"""What writes tell the rest of the app beyond Django's model signals.

Bulk link writes and queryset updates send no model signal, so they are announced here:
`changed(Model, ids)` after such a write (every `update()` of the calendar's querysets does it, see
AnnouncedUpdates), and `finished()` as the last step of a service's transaction. Whatever derives
data from the records (the API's rendering store) listens, so writers need not know it.
"""
from django.db import DEFAULT_DB_ALIAS, models
from django.dispatch import Signal

# sender: the model class (Event, Venue, Organizer, Attachment, Term); ids: its changed records;
# fields: the names of the fields written, or None when not known.
records_changed = Signal()
# sent when a service's writes are complete, still inside its transaction.
writes_finished = Signal()


def changed(model, ids, using=DEFAULT_DB_ALIAS, fields=None):
    ids = list(ids)
    if ids:
        records_changed.send(sender=model, ids=ids, using=using, fields=fields)


def finished(using=DEFAULT_DB_ALIAS):
    writes_finished.send(sender=None, using=using)


class AnnouncedUpdates(models.QuerySet):
    """A queryset whose `update()` announces the rows it changed (it sends no model signal)."""

    def update(self, **kwargs):
        ids = list(self.order_by().values_list("pk", flat=True))
        count = super().update(**kwargs)
        changed(self.model, ids, using=self.db, fields=list(kwargs))
        return count
