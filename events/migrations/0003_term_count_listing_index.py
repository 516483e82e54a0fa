"""Store each term's `count` (published events carrying it), filled for the terms already there; index the
default event list's window so its total is counted from the index alone."""
from django.db import migrations, models
from django.db.models import Count, IntegerField, OuterRef, Subquery
from django.db.models.functions import Coalesce


def fill_term_counts(apps, schema_editor):
    # The historical models, as events.services.terms.published_event_count() counts with the current ones.
    Term = apps.get_model("events", "Term")
    links = apps.get_model("events", "Event")._meta.get_field("terms").remote_field.through.objects
    alias = schema_editor.connection.alias
    published = links.using(alias).filter(term_id=OuterRef("pk"), event__status="publish")
    counted = published.order_by().values("term_id").annotate(n=Count("event_id")).values("n")
    Term.objects.using(alias).update(count=Coalesce(Subquery(counted, output_field=IntegerField()), 0))


class Migration(migrations.Migration):
    dependencies = [
        ("events", "0002_roles"),
    ]

    operations = [
        migrations.AddField(
            model_name="term",
            name="count",
            field=models.PositiveIntegerField(default=0, editable=False, verbose_name="events"),
        ),
        migrations.RunPython(fill_term_counts, migrations.RunPython.noop),
        # The three-column index is a prefix of the new one: it would only cost writes.
        migrations.RemoveIndex(model_name="event", name="events_event_listing"),
        migrations.AddIndex(
            model_name="event",
            index=models.Index(
                fields=["status", "hide_from_listings", "start_local", "end_local", "id"], name="events_event_listing_window"
            ),
        ),
    ]
