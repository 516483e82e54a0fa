"""What a calendar file needs of the recurring series its events belong to (events/public/ical.py)."""

from dataclasses import dataclass

from ..models import Event, EventOrganizer, PostStatus, Series, Term, links_prefetched


@dataclass
class SeriesInFeed:
    """A series as a feed shows it: its rules, its first occurrence, and which occurrences an
    anonymous reader sees (`visible`: {start the rules gave: event}, every column loaded)."""

    series: Series
    first: Event
    visible: dict


def visible_in_feeds(event):
    """What a feed lists of a series: published, listed, without a password (public/queries.feed_events)."""
    return event.status == PostStatus.PUBLISH and not event.hide_from_listings and not event.password


def series_in_feed(series_ids):
    """{series ID: SeriesInFeed} for these series, in three statements whatever their length."""
    if not series_ids:
        return {}
    occurrences = links_prefetched(
        Event.objects.filter(series_id__in=series_ids)
        .exclude(status=PostStatus.TRASH)
        .select_related("image", "venue"),
        EventOrganizer.objects.select_related("organizer"),
        terms=Term.objects.order_by("name", "id"),
    )
    found = {series.pk: SeriesInFeed(series, None, {}) for series in Series.objects.filter(pk__in=series_ids)}
    firsts = {}
    for event in occurrences:
        entry = found.get(event.series_id)
        if entry is None:
            continue
        if event.pk == event.series_id:
            entry.first = event
        if visible_in_feeds(event):
            entry.visible[event.occurrence_start] = event
    missing = [series_id for series_id, entry in found.items() if entry.first is None]
    if missing:
        # A trashed first occurrence still holds the series' rules and start.
        firsts = {event.pk: event for event in Event.objects.filter(pk__in=missing)}
        for series_id in missing:
            found[series_id].first = firsts[series_id]
    return found


def next_occurrences(series_id, after, count):
    """The next `count` occurrences of a series an anonymous reader sees, starting after `after` (an instant)."""
    return list(
        Event.objects.filter(
            series_id=series_id, status=PostStatus.PUBLISH, hide_from_listings=False, start_utc__gt=after
        ).order_by("start_utc", "pk")[:count]
    )
