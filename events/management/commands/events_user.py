"""Create or update a user holding exactly one calendar role."""
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from events.roles import ADMINISTRATOR, ROLES


class Command(BaseCommand):
    help = "Create or update USERNAME with exactly the given role (administrator, editor, author, contributor, subscriber)."

    def add_arguments(self, parser):
        parser.add_argument("username")
        parser.add_argument("--password", help="Set this password (left unchanged when omitted for an existing user).")
        parser.add_argument("--role", required=True, choices=ROLES)
        parser.add_argument("--email", default="")

    @transaction.atomic
    def handle(self, username, password, role, email, **options):
        user_model = get_user_model()
        user, created = user_model.objects.get_or_create(username=username, defaults={"email": email})
        if created and not password:
            raise CommandError("A new user needs --password.")
        if password:
            user.set_password(password)
        if email:
            user.email = email
        # Administrators may use the Django admin fully; editors, authors and contributors get staff
        # access so they can edit content there within their role's rights.
        user.is_staff = role != "subscriber"
        user.is_superuser = role == ADMINISTRATOR
        user.save()
        user.groups.remove(*Group.objects.filter(name__in=ROLES))
        user.groups.add(Group.objects.get(name=role))
        verb = "Created" if created else "Updated"
        self.stdout.write(f"{verb} user {username!r} with role {role}.")
