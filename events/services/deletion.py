"""Deleting events, venues and organizers for good: the admin's delete (a record's page and the
bulk action).

The API never deletes an event for good (docs/contract/events.md §6: a delete moves it to the trash);
the admin does, and goes through here so that the series rules and the change log hold as for any
other write.
"""

from .. import pipeline
from ..models import Event, PostStatus
from .events import trash_event
from .recurrence import take_turn


def delete_events(events, user):
    """Delete `events` for good, in one transaction, as one write: each leaves the change log a
    `deleted` entry and the rendering store no row.

    An occurrence first leaves its series as the trash takes it (its start joins the series'
    exclusions), or the series would make it again when next extended or changed; the first
    occurrence takes its series with it, and the other occurrences stay, events of their own.
    Each event is taken in the turn a write to it takes and read again in it: Django's deletion
    would otherwise lock the occurrences before their series, against every series write.
    """
    events = sorted(events, key=lambda event: event.pk)
    leaving = {event.pk for event in events}
    with pipeline.unit():
        for event in events:
            take_turn(event)
        for event in events:
            live_occurrence = event.series_id not in (None, event.pk) and event.status != PostStatus.TRASH
            if live_occurrence and event.series_id not in leaving:
                trash_event(event, user)
        _rows, by_model = Event.objects.filter(pk__in=leaving).delete()
    return by_model.get(Event._meta.label, 0)


def delete_linked(records):
    """Delete venues or organizers for good, in one unit of work, as one write: each leaves the
    change log a `deleted` entry and the rendering store no row, and the events that showed one
    lose the link (their records change, and are logged as updated)."""
    with pipeline.unit():
        for record in sorted(records, key=lambda record: record.pk):
            record.delete()
