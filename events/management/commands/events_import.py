"""`manage.py events_import SOURCE`: import (again) from an iCalendar feed, an events site or a CSV file (docs/import.md)."""

import os

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from events.imports.fetch import is_url
from events.imports.run import RunUnderWay, import_account, importing_user, run_source
from events.models import ImportPolicy, ImportSource
from events.models.imports import IMPORT_STATUSES


class Command(BaseCommand):
    help = (
        "Import the events of SOURCE (an http or https URL, or a file): an iCalendar feed, a site serving "
        "tribe/events/v1, or a CSV file in the plugin's columns. Running it again for the same SOURCE updates "
        "what it imported. Prints one summary line; exits with an error when the source could not be read."
    )

    def add_arguments(self, parser):
        parser.add_argument("source", help="An http(s) URL or a file path.")
        parser.add_argument(
            "--status", choices=[value for value, _label in IMPORT_STATUSES], help="Status of new events."
        )
        parser.add_argument(
            "--policy", choices=ImportPolicy.values, help="What a new import does to events edited here."
        )
        parser.add_argument(
            "--category", action="append", default=None, help="A category given to every event (repeat for several)."
        )
        parser.add_argument("--user", help="The username whose rights the import writes with (an administrator).")
        parser.add_argument(
            "--refresh-minutes",
            type=int,
            default=None,
            help="Refresh it from the worker every so many minutes (0: never).",
        )

    def handle(self, source, status=None, policy=None, category=None, user=None, refresh_minutes=None, **options):
        record = self.source_record(source)
        for name, value in (("status", status), ("policy", policy), ("categories", category)):
            if value is not None:
                setattr(record, name, value)
        if refresh_minutes is not None:
            record.interval_minutes = max(0, refresh_minutes)
        if user is not None:
            record.owner = get_user_model().objects.filter(username=user).first()
            if record.owner is None:
                raise CommandError(f"There is no user {user!r}.")
        if record.owner is None and importing_user(record) is None:
            # The operator runs the command: a calendar without administrators imports as an account of its own.
            record.owner = import_account()
        record.save()
        try:
            run = run_source(record, conditional=False)
        except RunUnderWay as error:
            raise CommandError("Another run of this source is under way.") from error
        for message in run.messages:
            self.stderr.write(message)
        if run.failure:
            raise CommandError(f"The source could not be read: {run.failure}")
        self.stdout.write(
            f"imported: {run.created} created, {run.updated} updated, {run.trashed} trashed, "
            f"{run.unchanged} unchanged, {run.skipped} skipped, {run.errors} errors"
        )

    def source_record(self, source):
        """The source already imported from this URL or file, else a new one (refreshed by the command only)."""
        if is_url(source):
            found = ImportSource.objects.filter(url=source).order_by("pk").first()
            return found or ImportSource(url=source, interval_minutes=0)
        path = os.path.abspath(source)
        found = ImportSource.objects.filter(path=path).order_by("pk").first()
        return found or ImportSource(path=path, interval_minutes=0)
