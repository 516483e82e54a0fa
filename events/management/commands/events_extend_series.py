"""Make the occurrences of open-ended recurring series up to the horizon: meant to run daily (cron)."""

from django.core.management.base import BaseCommand, CommandError

from events.services.recurrence import extend_open_series


class Command(BaseCommand):
    help = (
        "Materialise the occurrences of every open-ended recurring series up to RECURRENCE_HORIZON_MONTHS "
        "ahead. Run it daily. A series that would pass MAX_OCCURRENCES_PER_SERIES is left unchanged and "
        "reported; the command then exits with an error."
    )

    def handle(self, *args, **options):
        extended, refused = extend_open_series()
        self.stdout.write(f"Series extended: {len(extended)}.")
        for series_id, refusal in refused:
            self.stderr.write(f"series {series_id}: {refusal}")
        if refused:
            raise CommandError(f"{len(refused)} series could not be extended.")
