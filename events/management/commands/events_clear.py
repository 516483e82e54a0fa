"""Empty the calendar (events, venues, organizers, terms, their links, images and files); keep users and roles."""

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from events import pipeline
from events.models import Attachment, Event, EventOrganizer, Organizer, PostIdentity, Term, Venue
from events.services.images import delete_files


def clear_calendar():
    """Delete every calendar record; returns {label: rows deleted}. Files go once the rows are gone."""
    # Every term recounted once at the end: a lookup per deleted event would cost a query each on a
    # large calendar.
    with pipeline.unit() as work:
        work.recount_all_terms()
        attachments = list(Attachment.objects.only("id", "file", "sizes"))
        counts = {
            "organizer links": EventOrganizer.objects.all().delete()[0],
            "term links": Event.terms.through.objects.all().delete()[0],
        }
        # Clearing the self and cross references first lets every table go in one statement each.
        Event.objects.update(post_parent=None, venue=None, image=None)
        Venue.objects.update(image=None)
        Organizer.objects.update(image=None)
        Term.objects.update(parent=None)
        for label, model in (
            ("events", Event),
            ("venues", Venue),
            ("organizers", Organizer),
            ("categories and tags", Term),
            ("images", Attachment),
            ("record IDs", PostIdentity),
        ):
            counts[label] = model.objects.all().delete()[0]
        transaction.on_commit(lambda: [delete_files(attachment) for attachment in attachments])
    return counts


class Command(BaseCommand):
    help = (
        "Empty the calendar: events, venues, organizers, categories, tags, their links, images and image "
        "files. Users, roles and tokens are kept. Requires --yes."
    )

    def add_arguments(self, parser):
        parser.add_argument("--yes", action="store_true", help="Confirm that the whole calendar may be deleted.")

    def handle(self, *args, yes=False, **options):
        if not yes:
            raise CommandError(
                "This deletes every event, venue, organizer, category, tag and image. Run it again with --yes to confirm."
            )
        counts = clear_calendar()
        summary = ", ".join(f"{count} {label}" for label, count in counts.items() if label != "record IDs")
        self.stdout.write(f"Calendar emptied ({summary}); users and roles kept.")
