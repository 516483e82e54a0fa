"""Import sources (iCalendar feeds, other tribe/events/v1 sites, CSV files), what each imported, and its history (docs/import.md)."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from .event import Event
from .organizer import Organizer
from .status import PostStatus
from .venue import Venue


class ImportKind(models.TextChoices):
    ICAL = "ical", _("iCalendar feed")
    TRIBE = "tribe", _("events site (tribe/events/v1)")
    CSV = "csv", _("CSV file")


class ImportPolicy(models.TextChoices):
    OVERWRITE = "overwrite", _("overwrite with the source's changes")
    KEEP_LOCAL = "keep_local", _("keep fields edited here")
    NEW_ONLY = "new_only", _("import new events only")


# The statuses an imported event may be given (a trashed import would be nothing).
IMPORT_STATUSES = [
    (status.value, status.label)
    for status in (PostStatus.PUBLISH, PostStatus.DRAFT, PostStatus.PENDING, PostStatus.PRIVATE)
]


class ImportSource(models.Model):
    """Where events come from: a URL fetched again every `interval_minutes`, or a file uploaded once."""

    name = models.CharField(_("name"), max_length=200, blank=True, default="")
    url = models.URLField(_("URL"), max_length=2000, blank=True, default="")
    file = models.FileField(_("file"), upload_to="imports/", blank=True)
    # A file on the server, named on the command line only: the admin and the API never read paths.
    path = models.CharField(_("file on the server"), max_length=1000, blank=True, default="", editable=False)
    # Detected from what the source serves at its first run; kept to read it the same way after.
    kind = models.CharField(_("kind"), max_length=8, choices=ImportKind.choices, blank=True, default="")
    policy = models.CharField(_("policy"), max_length=16, choices=ImportPolicy.choices, default=ImportPolicy.OVERWRITE)
    status = models.CharField(
        _("status of new events"), max_length=20, choices=IMPORT_STATUSES, default=PostStatus.PUBLISH
    )
    # Category names given to every event of the source, besides its own.
    categories = models.JSONField(_("categories"), default=list, blank=True)
    # 0: only when asked (the admin's "Run now", the command, the API).
    interval_minutes = models.PositiveIntegerField(_("refresh every (minutes)"), default=24 * 60)
    active = models.BooleanField(_("active"), default=True)
    # Whose rights the import writes with: its events are theirs.
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, verbose_name=_("owner")
    )
    # The validators of the last answer, sent back so an unchanged feed costs one 304.
    etag = models.CharField(max_length=500, blank=True, default="", editable=False)
    last_modified = models.CharField(max_length=100, blank=True, default="", editable=False)
    last_run = models.DateTimeField(_("last run"), null=True, blank=True, editable=False)
    next_run = models.DateTimeField(_("next run"), null=True, blank=True, editable=False, db_index=True)
    # A run's claim on the source, so two runs never interleave; it lapses if the run's process died.
    claimed_until = models.DateTimeField(null=True, blank=True, editable=False)
    created = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("import source")
        verbose_name_plural = _("import sources")
        ordering = ["id"]

    def __str__(self):
        return self.name or self.url or self.path or (self.file.name if self.file else f"#{self.pk}")


class ImportedRecord(models.Model):
    """One record of a source, keyed by what the source calls it (a UID and RECURRENCE-ID, a remote ID)."""

    source = models.ForeignKey(ImportSource, on_delete=models.CASCADE, related_name="records")
    remote_key = models.CharField(_("identity in the source"), max_length=1000)
    event = models.ForeignKey(Event, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    venue = models.ForeignKey(Venue, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    organizer = models.ForeignKey(Organizer, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    # A digest of what the source said last time: the same digest means nothing to write.
    content_hash = models.CharField(max_length=64, blank=True, default="")
    # The local values as the import last left them: a field that differs now was edited here.
    written = models.JSONField(default=dict, blank=True)
    # The import moved it to the trash (gone from the source, cancelled): it comes back with the source.
    trashed_by_import = models.BooleanField(default=False)
    # An editor deleted it: the import never brings it back.
    ignored = models.BooleanField(_("ignored"), default=False)
    first_imported = models.DateTimeField(_("first imported"), auto_now_add=True)
    last_imported = models.DateTimeField(_("last imported"), auto_now=True)

    class Meta:
        verbose_name = _("imported record")
        verbose_name_plural = _("imported records")
        constraints = [
            models.UniqueConstraint(fields=["source", "remote_key"], name="events_imported_once_per_source"),
        ]
        indexes = [models.Index(fields=["event"], name="events_imported_event")]

    def __str__(self):
        return self.remote_key


class ImportRun(models.Model):
    """One run of a source: when, what changed, what went wrong."""

    source = models.ForeignKey(ImportSource, on_delete=models.CASCADE, related_name="runs")
    started = models.DateTimeField(_("started"))
    finished = models.DateTimeField(_("finished"), null=True, blank=True)
    created = models.PositiveIntegerField(_("created"), default=0)
    updated = models.PositiveIntegerField(_("updated"), default=0)
    trashed = models.PositiveIntegerField(_("trashed"), default=0)
    unchanged = models.PositiveIntegerField(_("unchanged"), default=0)
    skipped = models.PositiveIntegerField(_("skipped"), default=0)
    errors = models.PositiveIntegerField(_("errors"), default=0)
    # The source answered 304 Not Modified: nothing was read.
    not_modified = models.BooleanField(_("not modified"), default=False)
    # Why the source could not be read at all; empty when it was.
    failure = models.TextField(_("failure"), blank=True, default="")
    # What was skipped or refused, one line each (capped).
    messages = models.JSONField(_("messages"), default=list, blank=True)

    class Meta:
        verbose_name = _("import run")
        verbose_name_plural = _("import runs")
        ordering = ["-started", "-id"]

    def __str__(self):
        return f"{self.source} {self.started:%Y-%m-%d %H:%M}"
