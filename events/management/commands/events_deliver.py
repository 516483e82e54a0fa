"""Run the webhook deliveries due now through the workers' task code (for cron, tests and checks)."""

from django.core.management.base import BaseCommand

from events.changelog.feed import remove_expired
from events.notifications import delivery
from events.notifications.tasks import deliver_changes


class Command(BaseCommand):
    help = (
        "Deliver the webhooks due now, as a worker would (manage.py db_worker runs them continuously). "
        "With --until-idle, repeat until nothing is due now, then exit. Also removes change-log entries "
        "past the retention."
    )

    def add_arguments(self, parser):
        parser.add_argument("--until-idle", action="store_true", help="Repeat until no delivery is due now.")

    def handle(self, *args, until_idle=False, **options):
        rounds = 0
        while True:
            rounds += 1
            deliver_changes.call()
            if not until_idle or not delivery.due_subscriptions():
                break
        removed = remove_expired()
        self.stdout.write(f"Deliveries done ({rounds} round(s)); {removed} expired change-log entries removed.")
