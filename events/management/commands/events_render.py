"""Render every record into the API's rendering store again, or check that the store is true."""

from django.core.management.base import BaseCommand, CommandError

from events import store


class Command(BaseCommand):
    help = (
        "Store every event, venue, organizer, image and term as the API renders it, in every language "
        "(after a bulk import, or a change of the settings that shape records). With --check, only "
        "compare the stored renderings with fresh ones and fail if any differs."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--check", action="store_true", help="Compare instead of rebuilding; exit 1 on a difference."
        )

    def handle(self, *args, check=False, **options):
        if check:
            stale = store.stale_rows()
            for kind, record_id, language in stale:
                self.stderr.write(f"stale: {kind} {record_id} ({language})")
            if stale:
                raise CommandError(f"{len(stale)} stored renderings differ from a fresh rendering.")
            self.stdout.write("Every stored rendering equals a fresh one.")
            return
        store.render_all(stdout=self.stdout)
        self.stdout.write("Rendering store rebuilt.")
