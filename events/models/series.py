"""Series of recurring events: the rule that the occurrences, ordinary events, were made from."""

from django.db import models
from django.utils.translation import gettext_lazy as _

from .event import Event


class Series(models.Model):
    """The recurrence of a series whose first occurrence is `first` (RFC 5545 RRULE, RDATE, EXDATE).

    The first occurrence's start is the rules' DTSTART, and its ID is the series' ID in the API
    (each other occurrence's `post_parent`). Dates are wall clocks of the first occurrence's zone.
    """

    first = models.OneToOneField(
        Event, primary_key=True, on_delete=models.CASCADE, related_name="+", verbose_name=_("first occurrence")
    )
    # RRULE values ("FREQ=WEEKLY;BYDAY=TU"), as written.
    rules = models.JSONField(_("rules"), default=list, blank=True)
    # RDATE and EXDATE: starts as "Y-m-d H:i:s" wall clocks, sorted.
    dates = models.JSONField(_("extra dates"), default=list, blank=True)
    exclusions = models.JSONField(_("excluded dates"), default=list, blank=True)
    # Open-ended rules have occurrences up to this wall clock (events_extend_series moves it on).
    materialised_until = models.DateTimeField(_("occurrences made until"), null=True, blank=True, editable=False)

    class Meta:
        verbose_name = _("series")
        verbose_name_plural = _("series")

    def __str__(self):
        return f"series #{self.pk}"
