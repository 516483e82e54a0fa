"""Events: the calendar's main record."""

from django.db import models
from django.db.models import Prefetch
from django.utils.translation import gettext_lazy as _

from .identity import PostKind
from .post import Post


class Event(Post):
    KIND = PostKind.EVENT

    # Instants in UTC, plus the same moments as the event's wall clock. List filters compare the
    # wall clock (the plugin's default "event" time-zone mode), so it is stored, not recomputed.
    # The wall-clock columns hold naive local times tagged as UTC.
    start_utc = models.DateTimeField(_("start (UTC)"))
    end_utc = models.DateTimeField(_("end (UTC)"))
    start_local = models.DateTimeField(_("start (event time zone)"), editable=False)
    end_local = models.DateTimeField(_("end (event time zone)"), editable=False)
    timezone_name = models.CharField(_("time zone"), max_length=64, blank=True, default="")
    timezone_abbr = models.CharField(_("time zone abbreviation"), max_length=16, blank=True, default="", editable=False)
    all_day = models.BooleanField(_("all day"), default=False)

    # The cost as entered: one or several strings ("$20", ["0$", "20$"]).
    cost = models.JSONField(_("cost"), default=list, blank=True)
    currency_symbol = models.CharField(_("currency symbol"), max_length=16, blank=True, default="")
    currency_position = models.CharField(
        _("currency position"),
        max_length=8,
        blank=True,
        default="",
        choices=[("", _("none")), ("prefix", _("before the amount")), ("postfix", _("after the amount"))],
    )
    currency_code = models.CharField(_("currency code"), max_length=8, blank=True, default="")

    # None = never stored: the API then shows the event page URL.
    website = models.CharField(_("website"), max_length=2000, null=True, blank=True)
    # None = never stored, which reads as true.
    show_map = models.BooleanField(_("show map"), null=True, blank=True)
    show_map_link = models.BooleanField(_("show map link"), null=True, blank=True)
    hide_from_listings = models.BooleanField(_("hide from listings"), default=False)
    sticky = models.BooleanField(_("sticky"), default=False)
    featured = models.BooleanField(_("featured"), default=False, db_index=True)

    post_parent = models.ForeignKey(
        "self",
        verbose_name=_("parent event"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="children",
    )
    # An occurrence of a series (docs/recurrence.md): the series, the occurrence's place in it
    # (1 for the first), the start the rules gave it (RECURRENCE-ID: it stays when the occurrence
    # alone is moved) and the columns edited on this occurrence alone, which series-wide changes
    # leave as they are.
    series = models.ForeignKey(
        "events.Series",
        verbose_name=_("series"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="occurrences",
        editable=False,
    )
    series_position = models.PositiveIntegerField(_("position in the series"), null=True, blank=True, editable=False)
    occurrence_start = models.DateTimeField(_("start given by the series"), null=True, blank=True, editable=False)
    series_edits = models.JSONField(_("edited on this occurrence"), default=list, blank=True, editable=False)
    venue = models.ForeignKey(
        "events.Venue",
        verbose_name=_("venue"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="events",
    )
    organizers = models.ManyToManyField(
        "events.Organizer",
        verbose_name=_("organizers"),
        through="EventOrganizer",
        blank=True,
        related_name="events",
    )
    # Categories and tags in one link table: both are terms, and term counts query one table.
    terms = models.ManyToManyField(
        "events.Term", verbose_name=_("categories and tags"), blank=True, related_name="events"
    )

    def shown_terms(self):
        """The event's terms: as a queryset with links_prefetched() read them, else read now."""
        prefetched = self.__dict__.get(_PREFETCHED_TERMS)
        return prefetched if prefetched is not None else list(self.terms.all())

    def shown_organizer_links(self):
        """The event's organizer links in their order: as links_prefetched() read them, else read now."""
        prefetched = self.__dict__.get(_PREFETCHED_ORGANIZER_LINKS)
        return prefetched if prefetched is not None else list(self.organizer_links.all())

    class Meta:
        verbose_name = _("event")
        verbose_name_plural = _("events")
        permissions = [
            ("edit_events", "Can create events and edit their own unpublished events"),
            ("publish_events", "Can publish events"),
            ("edit_published_events", "Can edit and delete their own published events"),
            ("edit_others_events", "Can edit, delete and read others' events"),
        ]
        ordering = ["start_local", "id"]
        indexes = [
            models.Index(fields=["start_local", "id"], name="events_event_start_id"),
            models.Index(fields=["end_local"], name="events_event_end"),
            models.Index(fields=["start_utc"], name="events_event_start_utc"),
            models.Index(fields=["end_utc"], name="events_event_end_utc"),
            # The default list and its total, COUNT(id) over status, hide_from_listings and the date
            # window: with every column it reads in the index, PostgreSQL counts from the index alone
            # instead of scanning the wide event rows.
            models.Index(
                fields=["status", "hide_from_listings", "start_local", "end_local", "id"],
                name="events_event_listing_window",
            ),
        ]
        constraints = [
            # One live occurrence per start of a series, whoever writes it (services.recurrence).
            models.UniqueConstraint(
                fields=["series", "occurrence_start"],
                condition=~models.Q(status="trash"),
                name="events_event_series_start_unique",
            ),
        ]


class EventOrganizer(models.Model):
    """An organizer linked to an event; `position` keeps the order the client wrote them in."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="organizer_links")
    organizer = models.ForeignKey("events.Organizer", on_delete=models.CASCADE, related_name="event_links")
    position = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["position", "id"]
        constraints = [
            models.UniqueConstraint(fields=["event", "organizer"], name="events_event_organizer_unique"),
        ]

    def __str__(self):
        # The admin labels each organizer row of an event with it.
        return str(self.organizer)


# Where links_prefetched() keeps what it read: plain lists. Read through `.all()`, a prefetched
# relation makes a manager and a queryset per event (each rewritten by the translation layer),
# which costs more than reading the rows (bench/README.md, "Series writes").
_PREFETCHED_TERMS, _PREFETCHED_ORGANIZER_LINKS = "prefetched_terms", "prefetched_organizer_links"


def links_prefetched(events, organizer_links=None, terms=None):
    """`events` (a queryset) with the terms and organizer links that Event.shown_terms() and
    shown_organizer_links() give (`terms`, `organizer_links`: the querysets to read them with)."""
    return events.prefetch_related(*link_prefetches(organizer_links, terms))


def link_prefetches(organizer_links=None, terms=None):
    """What links_prefetched() prefetches, for prefetch_related_objects() on events in hand."""
    return (
        Prefetch("terms", queryset=terms, to_attr=_PREFETCHED_TERMS),
        Prefetch("organizer_links", queryset=organizer_links, to_attr=_PREFETCHED_ORGANIZER_LINKS),
    )
