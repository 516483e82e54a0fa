"""Records as the API renders them, stored per record and language so that reads do not build them.

A row holds the JSON text of one record (an event, venue, organizer, image or term) in one language,
with what depends on the request (the site's origin and language prefix, the host of global IDs)
left as markers, and the records an event embeds left as references. `events.store` writes
the rows when a record changes and joins them at read time; a row whose `epoch` is not the current
one (the settings that shape records changed) is never read.
"""

from django.db import models


class RowText(models.TextField):
    """A text column bulk-inserted as one parameter per row.

    On PostgreSQL, Django's bulk insert sends each column as one array (`UNNEST`) unless a field
    declares its own placeholder; psycopg quotes a text array element by element in Python, which
    for JSON, full of quotes, cost a third of storing a new series of 730 occurrences
    (bench/README.md, "Series and change log writes"). One parameter per row is quoted by the driver.
    """

    def get_placeholder(self, value, compiler, connection):
        return "%s"


class RenderedRecord(models.Model):
    kind = models.CharField(max_length=16)
    record_id = models.BigIntegerField()
    language = models.CharField(max_length=16)
    epoch = models.CharField(max_length=16)
    body = RowText()
    # Embedded terms are listed by name (in the language), then ID, as WordPress lists them.
    sort_name = models.CharField(max_length=200, blank=True, default="")
    # The rows an event's body refers to, as "kind:id" separated by spaces: PostgreSQL joins them
    # in the same statement as the event without reading the body (empty for other kinds).
    links = models.TextField(blank=True, default="")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["kind", "record_id", "language"], name="events_rendered_record_unique"),
        ]

    def __str__(self):
        return f"{self.kind} {self.record_id} ({self.language})"
