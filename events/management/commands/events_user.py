"""Create or update a user holding exactly one calendar role, and issue application passwords."""

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from events.exceptions import DuplicateApplicationName
from events.models import ApplicationPassword
from events.roles import ADMINISTRATOR, ROLES
from events.services import credentials


class Command(BaseCommand):
    help = (
        "Create or update USERNAME with exactly the given role (administrator, editor, author, contributor, "
        "subscriber); with --app-password NAME, also issue an application password and print it once."
    )

    def add_arguments(self, parser):
        parser.add_argument("username")
        parser.add_argument("--password", help="Set this password (left unchanged when omitted for an existing user).")
        parser.add_argument("--role", choices=ROLES, help="The user's role (required for a new user).")
        parser.add_argument("--email", default="")
        parser.add_argument(
            "--app-password",
            metavar="NAME",
            help="Issue an application password of this name for HTTP Basic clients and print it (shown only once).",
        )

    @transaction.atomic
    def handle(self, username, password, role, email, app_password, **options):
        user_model = get_user_model()
        user = user_model._default_manager.filter(username=username).first()
        created = user is None
        if created:
            if not role:
                raise CommandError("A new user needs --role.")
            if not password and not app_password:
                raise CommandError("A new user needs --password or --app-password.")
            user = user_model(username=username, email=email)
            if not password:
                # Signed in only through application passwords: no login password exists to guess.
                user.set_unusable_password()
        elif not (role or password or email or app_password):
            raise CommandError("Nothing to change: give --role, --password, --email or --app-password.")
        if password:
            user.set_password(password)
        if email:
            user.email = email
        if role:
            # Administrators may use the Django admin fully; editors, authors and contributors get staff
            # access so they can edit content there within their role's rights.
            user.is_staff = role != "subscriber"
            user.is_superuser = role == ADMINISTRATOR
        user.save()
        if role:
            user.groups.remove(*Group.objects.filter(name__in=ROLES))
            user.groups.add(Group.objects.get(name=role))
        verb = "Created" if created else "Updated"
        self.stdout.write(f"{verb} user {username!r}" + (f" with role {role}." if role else "."))
        if app_password:
            name = app_password.strip()
            if not name:
                raise CommandError("--app-password needs a name.")
            try:
                secret = credentials.issue_application_password(ApplicationPassword(user=user, name=name))
            except DuplicateApplicationName:
                raise CommandError(f"{username!r} already has an application password named {name!r}.") from None
            self.stdout.write(f"Application password {name!r} (shown only once): {secret}")
