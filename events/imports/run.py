"""One run of an import source: claimed so that two runs never interleave, read within its caps,
written, and recorded in the source's history."""

import datetime as dt
import logging

from django.contrib.auth import get_user_model
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from .. import roles
from ..conf import events_settings
from ..models import ImportKind, ImportRun, ImportSource
from .apply import Outcome, apply_reading
from .csv_source import looks_like_csv, read_csv
from .fetch import Budget, SourceUnreadable, fetch, is_url
from .ical import looks_like_ical, read_ical
from .tribe import read_tribe, tribe_events_url

logger = logging.getLogger(__name__)


class RunUnderWay(Exception):
    """Another run of the source holds its claim."""


# Runs kept in a source's history.
HISTORY_RUNS = 100
# How long a claim holds without being renewed: past it, the run's process is taken for dead.
CLAIM_SECONDS = 120


def claim(source):
    """Take the source for one run (its reading within IMPORT_SECONDS, then renewed before each
    batch of writes): False when another run holds it."""
    now = timezone.now()
    until = now + dt.timedelta(seconds=events_settings.IMPORT_SECONDS + CLAIM_SECONDS)
    taken = ImportSource.objects.filter(Q(claimed_until__isnull=True) | Q(claimed_until__lt=now), pk=source.pk).update(
        claimed_until=until
    )
    return bool(taken)


def renew_claim(source):
    until = timezone.now() + dt.timedelta(seconds=CLAIM_SECONDS)
    ImportSource.objects.filter(pk=source.pk).update(claimed_until=until)


def release(source):
    ImportSource.objects.filter(pk=source.pk).update(claimed_until=None)


def importing_user(source):
    """Whose rights the run writes with: the source's owner, else the first administrator."""
    if source.owner is not None and source.owner.is_active:
        return source.owner
    users = get_user_model().objects.filter(is_active=True).order_by("-is_superuser", "pk")
    return next((user for user in users if roles.role_of(user) == roles.ADMINISTRATOR), None)


# The account the command imports as on a calendar that has no administrator yet.
IMPORT_ACCOUNT = "events-import"


def import_account():
    """An administrator that cannot sign in (no usable password, no staff access), made the first
    time a calendar without administrators imports from the command line."""
    user, created = get_user_model().objects.get_or_create(
        username=IMPORT_ACCOUNT, defaults={"is_superuser": True, "is_staff": False}
    )
    if created:
        user.set_unusable_password()
        user.save(update_fields=["password"])
    return user


def run_source(source, *, conditional=True):
    """Run `source` once; the ImportRun recorded (its `failure` says why a source could not be read).
    RunUnderWay when another run of it is under way."""
    budget = Budget.for_run()
    if not claim(source):
        raise RunUnderWay(source.pk)
    run = ImportRun(source=source, started=timezone.now())
    outcome = Outcome()
    try:
        user = importing_user(source)
        if user is None:
            raise SourceUnreadable(_("No administrator to import as: give the source an owner."))
        fetched = _first_fetch(source, budget, conditional)
        if fetched.not_modified:
            run.not_modified = True
        else:
            kind, reading = _read(source, fetched, budget)
            outcome = apply_reading(source, reading, user, still_running=lambda: renew_claim(source))
            source.kind = kind
            # Validators are kept only when everything was written: what failed is tried again next time.
            clean = reading.complete and not outcome.errors and kind != ImportKind.TRIBE
            source.etag = fetched.etag if clean else ""
            source.last_modified = fetched.last_modified if clean else ""
    except SourceUnreadable as failure:
        run.failure = str(failure)
    finally:
        run.finished = timezone.now()
        for name in ("created", "updated", "trashed", "unchanged", "skipped", "errors"):
            setattr(run, name, getattr(outcome, name))
        run.messages = outcome.messages
        run.save()
        _prune_history(source)
        source.last_run = run.finished
        source.next_run = (
            run.finished + dt.timedelta(minutes=source.interval_minutes) if source.interval_minutes else None
        )
        source.claimed_until = None
        source.save(update_fields=["kind", "etag", "last_modified", "last_run", "next_run", "claimed_until"])
    return run


def _prune_history(source):
    """Keep the latest HISTORY_RUNS runs of the source: a source refreshed hourly would otherwise grow without end."""
    older = ImportRun.objects.filter(source=source).order_by("-started", "-id").values_list("pk", flat=True)
    stale = list(older[HISTORY_RUNS:])
    if stale:
        ImportRun.objects.filter(pk__in=stale).delete()


def _location(source):
    if source.url:
        return source.url
    if source.path:
        return source.path
    if source.file:
        return source.file.path
    raise SourceUnreadable(_("The source has neither a URL nor a file."))


def _first_fetch(source, budget, conditional):
    location = _location(source)
    if source.kind == ImportKind.TRIBE:
        location = tribe_events_url(location)
        # Each page of a site's list has its own validator: an unchanged first page says nothing of
        # the others, so a site is read whole each time (its unchanged events cost a digest each).
        conditional = False
    validators = (source.etag, source.last_modified) if conditional else ("", "")
    try:
        return fetch(location, budget, *validators)
    except SourceUnreadable:
        if source.kind or not is_url(location) or "/wp-json" in location:
            raise
        # A site's home page may answer an error where its API answers: its events list is tried before giving up.
        try:
            return fetch(tribe_events_url(location), budget, accept="application/json")
        except SourceUnreadable:
            pass
        raise


def _read(source, fetched, budget):
    """(kind, Reading) of what the source served: the kind it was found to be, else what it looks like."""
    kind = source.kind
    if not kind:
        if looks_like_ical(fetched.body):
            kind = ImportKind.ICAL
        elif looks_like_csv(fetched):
            kind = ImportKind.CSV
        else:
            kind = ImportKind.TRIBE
    if kind == ImportKind.ICAL:
        return kind, read_ical(fetched.body)
    if kind == ImportKind.CSV:
        return kind, read_csv(fetched.body)
    return kind, read_tribe(fetched, budget)


def due_sources(now=None):
    now = now or timezone.now()
    return ImportSource.objects.filter(active=True, interval_minutes__gt=0).filter(
        Q(next_run__isnull=True) | Q(next_run__lte=now)
    )


def run_due_sources():
    """Run every source whose interval has passed (the worker's refresh); how many ran, and how many failed."""
    ran = failed = 0
    for source in due_sources():
        try:
            run = run_source(source)
        except RunUnderWay:
            continue
        ran += 1
        if run.failure:
            failed += 1
            logger.warning("Import source %s could not be read: %s", source.pk, run.failure)
    return {"imports_run": ran, "imports_failed": failed}
