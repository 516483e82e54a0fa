"""Test data builders: records as the API would store them, with sensible defaults."""

import datetime as dt
import itertools

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.utils import timezone

from events import pipeline
from events.models import Attachment, Category, Event, EventOrganizer, Organizer, PostStatus, Tag, Venue
from events.services.schedule import set_event_times
from events.text import sanitize_title

_sequence = itertools.count(1)


def make_user(role=None, username=None, password="secret-pass-123", **fields):
    """A user holding exactly `role` (administrator, editor, author, contributor, subscriber)."""
    username = username or f"{role or 'user'}{next(_sequence)}"
    user = get_user_model().objects.create_user(username=username, password=password, **fields)
    if role:
        user.groups.add(Group.objects.get(name=role))
    return user


def _slug_for(model, title, status, slug):
    if slug is not None:
        return slug
    base = sanitize_title(title)
    candidate, n = base, 2
    while model.objects.filter(slug=candidate).exists():
        candidate, n = f"{base}-{n}", n + 1
    return candidate


def make_event(
    title=None,
    *,
    start=None,
    end=None,
    timezone_name="UTC",
    status=PostStatus.PUBLISH,
    slug=None,
    venue=None,
    organizers=(),
    categories=(),
    tags=(),
    all_day=False,
    **fields,
):
    """An event starting `start` (naive wall clock in `timezone_name`; default: tomorrow 10:00)."""
    title = title or f"Event {next(_sequence)}"
    start = start or dt.datetime.combine(timezone.now().date() + dt.timedelta(days=1), dt.time(10, 0))
    end = end or start + dt.timedelta(hours=2)
    event = Event(title=title, status=status, slug=_slug_for(Event, title, status, slug), venue=venue, **fields)
    set_event_times(event, start, end, timezone_name, all_day)
    event.save()
    for position, organizer in enumerate(organizers):
        EventOrganizer.objects.create(event=event, organizer=organizer, position=position)
    if categories or tags:
        event.terms.add(*categories, *tags)
    return event


def make_venue(title=None, *, status=PostStatus.PUBLISH, slug=None, **fields):
    title = title or f"Venue {next(_sequence)}"
    return Venue.objects.create(title=title, status=status, slug=_slug_for(Venue, title, status, slug), **fields)


def make_organizer(title=None, *, status=PostStatus.PUBLISH, slug=None, **fields):
    title = title or f"Organizer {next(_sequence)}"
    return Organizer.objects.create(
        title=title, status=status, slug=_slug_for(Organizer, title, status, slug), **fields
    )


def make_category(name=None, *, slug=None, parent=None, **fields):
    name = name or f"Category {next(_sequence)}"
    return Category.objects.create(name=name, slug=slug or sanitize_title(name), parent=parent, **fields)


def make_tag(name=None, *, slug=None, **fields):
    name = name or f"Tag {next(_sequence)}"
    return Tag.objects.create(name=name, slug=slug or sanitize_title(name), **fields)


def make_image(name="photo.png", size=(640, 480), **fields):
    """An image attachment backed by a real PNG file (stored under the test MEDIA_ROOT)."""
    from io import BytesIO

    from django.core.files.uploadedfile import SimpleUploadedFile
    from PIL import Image

    buffer = BytesIO()
    Image.new("RGB", size, (200, 80, 40)).save(buffer, format="PNG")
    upload = SimpleUploadedFile(name, buffer.getvalue(), content_type="image/png")
    return Attachment.objects.create(file=upload, filesize=len(buffer.getvalue()), mime_type="image/png", **fields)


def finish_writes():
    """Finish what the factories wrote: they save models directly, outside any unit of work, and the
    fallback finishes such writes at the commit, which never comes inside a test. A unit opened
    in the same transaction takes them over: the store renders them, the log appends them."""
    with pipeline.unit():
        pass
