"""Create the five WordPress roles as groups holding the calendar's rights (docs/contract/auth.md §2).

The same receiver also runs on `post_migrate` (events/apps.py), which recreates the groups after a
flush; this migration makes them part of the schema's history, reversible with the app's migrations.
"""
from django.db import migrations


def create_roles(apps, schema_editor):
    from django.apps import apps as global_apps

    from events.roles import create_role_groups

    create_role_groups(global_apps.get_app_config("events"), using=schema_editor.connection.alias, apps=apps)


def remove_roles(apps, schema_editor):
    from events.roles import ROLES

    apps.get_model("auth", "Group").objects.using(schema_editor.connection.alias).filter(name__in=ROLES).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("events", "0001_initial"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(create_roles, remove_roles)]
