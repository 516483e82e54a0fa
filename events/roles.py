"""The five WordPress roles as Django groups, and the record-level rules built on their rights.

One place answers "may this user do X to this record?", for the API and the admin alike.
"""

import datetime as dt
import functools

from django.conf import settings
from django.core.exceptions import FieldDoesNotExist
from django.db import DEFAULT_DB_ALIAS, connection, connections, router

from .internals import keep_model_backend_rights, model_backend_rights_known
from .models import PostKind, PostStatus

ADMINISTRATOR, EDITOR, AUTHOR, CONTRIBUTOR, SUBSCRIBER = (
    "administrator",
    "editor",
    "author",
    "contributor",
    "subscriber",
)
ROLES = [ADMINISTRATOR, EDITOR, AUTHOR, CONTRIBUTOR, SUBSCRIBER]

# The plural word of each kind in permission codenames (events.edit_venues, ...).
KIND_PLURAL = {PostKind.EVENT: "events", PostKind.VENUE: "venues", PostKind.ORGANIZER: "organizers"}

EDIT, PUBLISH, EDIT_PUBLISHED, EDIT_OTHERS = "edit", "publish", "edit_published", "edit_others"
MANAGE_CATEGORIES = "manage_event_categories"
MANAGE_TAGS = "manage_event_tags"
UPLOAD_FILES = "upload_files"


def _kind_permissions(*rights):
    return [f"{right}_{plural}" for plural in KIND_PLURAL.values() for right in rights]


# docs/contract/auth.md §2: editors and administrators hold every right of the calendar.
ROLE_PERMISSIONS = {
    ADMINISTRATOR: _kind_permissions(EDIT, PUBLISH, EDIT_PUBLISHED, EDIT_OTHERS)
    + [MANAGE_CATEGORIES, MANAGE_TAGS, UPLOAD_FILES],
    EDITOR: _kind_permissions(EDIT, PUBLISH, EDIT_PUBLISHED, EDIT_OTHERS)
    + [MANAGE_CATEGORIES, MANAGE_TAGS, UPLOAD_FILES],
    AUTHOR: _kind_permissions(EDIT, PUBLISH, EDIT_PUBLISHED) + [MANAGE_CATEGORIES, UPLOAD_FILES],
    CONTRIBUTOR: _kind_permissions(EDIT),
    SUBSCRIBER: [],
}


def create_role_groups(app_config, using=DEFAULT_DB_ALIAS, apps=None, **kwargs):
    """Create any missing role group with its rights (migration 0002, and every `post_migrate`).

    Migration 0002 alone is not enough: a flush (`TransactionTestCase`, `manage.py flush`) empties
    the groups table and sends `post_migrate` again, but never re-runs migrations.
    Existing groups are left as they are, so rights an administrator changed survive a migrate.
    """
    from django.apps import apps as global_apps
    from django.contrib.auth.management import create_permissions

    apps = apps or global_apps
    try:
        Group = apps.get_model("auth", "Group")
        Permission = apps.get_model("auth", "Permission")
    except LookupError:  # auth is not installed, or not migrated yet in this state
        return
    # The calendar's permissions are created by the same signal, possibly after this receiver.
    create_permissions(app_config, verbosity=0, using=using, apps=apps)
    for role, codenames in ROLE_PERMISSIONS.items():
        group, created = Group.objects.using(using).get_or_create(name=role)
        if created:
            group.permissions.set(
                Permission.objects.using(using).filter(content_type__app_label=app_config.label, codename__in=codenames)
            )


# The backends whose rights are ModelBackend's own (events.backends only adds the login throttle).
MODEL_BACKENDS = ("django.contrib.auth.backends.ModelBackend", "events.backends.ThrottledModelBackend")


def load_rights(user):
    """Read the user's rights in one query, where Django's ModelBackend would run two.

    ModelBackend keeps the set it computes (the user's own permissions and their groups') on the
    user object, for that request (events.internals.keep_model_backend_rights); filling it with the
    same set from one prepared statement saves a query, and the ORM's compilation of two, on every
    signed request.
    Other authentication backends are still asked as usual.
    """
    if model_backend_rights_known(user) or not _rights_read_here(user):
        return
    from django.contrib.auth.models import Permission

    with connections[router.db_for_read(Permission)].cursor() as cursor:
        cursor.execute(_rights_sql(), [user.pk, user.pk])
        keep_model_backend_rights(user, {f"{app_label}.{codename}" for app_label, codename in cursor.fetchall()})


def _rights_read_here(user):
    """Whether ModelBackend's rights of `user` are read by this module (else the backends ask)."""
    return (
        user.is_active
        and not user.is_superuser
        and any(backend in settings.AUTHENTICATION_BACKENDS for backend in MODEL_BACKENDS)
        # None: a user model without PermissionsMixin
        and _rights_sql() is not None
    )


def rights_column(user_column):
    """A SQL expression of the rights of the user whose ID is `user_column` (a column of the
    enclosing statement), as "app_label.codename" words separated by spaces, or None when this
    module does not read rights. The authentication statement selects it, so that a signed
    request reads its user and the user's rights in one round trip (adopt_rights)."""
    sql = _rights_sql(user_column, aggregated=True)
    return f"({sql})" if sql is not None else None


def adopt_rights(user, rights_text):
    """Keep the rights read by rights_column() as `user`'s, as load_rights() would have read them."""
    if not model_backend_rights_known(user) and _rights_read_here(user):
        keep_model_backend_rights(user, set(rights_text.split()))


@functools.cache
def _rights_sql(user_column=None, aggregated=False):
    """The SQL of a user's own and group permissions, from the models' table and column names:
    for the user `user_column` names, or for a user ID given twice as a parameter; rows of
    (app_label, codename), or `aggregated` into one text of "app_label.codename" words."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group, Permission
    from django.contrib.contenttypes.models import ContentType

    user_model = get_user_model()
    try:
        own = user_model._meta.get_field("user_permissions").remote_field.through._meta
        membership = user_model._meta.get_field("groups").remote_field.through._meta
    except FieldDoesNotExist:
        return None
    granted = Group._meta.get_field("permissions").remote_field.through._meta
    quote = connection.ops.quote_name
    user = user_column or "%s"

    def column(meta, model):
        return quote(next(f.column for f in meta.fields if f.is_relation and f.related_model is model))

    selected = f"ct.{quote('app_label')}, p.{quote('codename')}"
    if aggregated:
        concatenate = "string_agg" if connection.vendor == "postgresql" else "group_concat"
        selected = f"{concatenate}(ct.{quote('app_label')} || '.' || p.{quote('codename')}, ' ')"
    return (
        f"SELECT {selected} "
        f"FROM {quote(Permission._meta.db_table)} p "
        f"JOIN {quote(ContentType._meta.db_table)} ct ON ct.{quote('id')} = p.{quote('content_type_id')} "
        f"WHERE p.{quote('id')} IN ("
        f"SELECT {column(own, Permission)} FROM {quote(own.db_table)} WHERE {column(own, user_model)} = {user} "
        f"UNION SELECT g.{column(granted, Permission)} FROM {quote(granted.db_table)} g "
        f"JOIN {quote(membership.db_table)} m ON m.{column(membership, Group)} = g.{column(granted, Group)} "
        f"WHERE m.{column(membership, user_model)} = {user})"
    )


def has_right(user, kind, right):
    """Kind-level right (`edit`, `publish`, `edit_published`, `edit_others`) of `user` on `kind`."""
    return has_capability(user, f"{right}_{KIND_PLURAL[kind]}")


def has_capability(user, codename):
    """A right that is not per kind: manage_event_categories, manage_event_tags, upload_files."""
    if user is None or not user.is_authenticated:
        return False
    load_rights(user)
    return user.has_perm(f"events.{codename}")


def may_write_unfiltered_html(user):
    """WordPress's `unfiltered_html`: administrators and editors (here, whoever may edit others'
    events) store HTML as sent; everyone else's is filtered on save (events.kses)."""
    return has_right(user, PostKind.EVENT, EDIT_OTHERS)


def is_owner(user, record):
    return user is not None and user.is_authenticated and record.author_id is not None and record.author_id == user.pk


def effective_status(record):
    """A trashed record is judged by the status it had before trashing (docs/contract/auth.md §3.2)."""
    if record.status == PostStatus.TRASH and record.status_before_trash:
        return record.status_before_trash
    return record.status


def can_edit(user, record):
    """May `user` update or delete this event, venue or organizer (docs/contract/auth.md §3.2)?"""
    kind = record.KIND
    if not has_right(user, kind, EDIT):
        return False
    if has_right(user, kind, EDIT_OTHERS):
        return True
    if not is_owner(user, record):
        return False
    if effective_status(record) in PostStatus.published_states():
        return has_right(user, kind, EDIT_PUBLISHED)
    return True


def can_read(user, record):
    """May `user` read this record singly, status-wise (docs/contract/auth.md §2.1; trashed events are refused elsewhere)."""
    if record.status == PostStatus.PUBLISH:
        return True
    if user is None or not user.is_authenticated:
        return False
    if has_right(user, record.KIND, EDIT_OTHERS):
        return True
    return is_owner(user, record)


def may_publish(user, kind):
    return has_right(user, kind, PUBLISH)


# WordPress stores `publish` dated at least a minute ahead as `future`, and `future` dated any
# closer as `publish` (wp_insert_post; docs/contract/events.md §4.1).
SCHEDULING_MARGIN = dt.timedelta(minutes=1)
# Statuses WordPress registers for its own use; a record of ours cannot hold them.
INTERNAL_STATUSES = {"auto-draft": PostStatus.DRAFT, "inherit": PostStatus.DRAFT}


def scaled_status(user, kind, status):
    """The status a save keeps: without the publish right, `publish`, `future` and `private` become
    `pending` (docs/contract/events.md §4.1; scaling `private` is docs/contract/auth.md's Recommended rule)."""
    status = INTERNAL_STATUSES.get(status, status)
    if status in (PostStatus.PUBLISH, PostStatus.FUTURE, PostStatus.PRIVATE) and not may_publish(user, kind):
        return PostStatus.PENDING
    return status


def scheduled_status(status, publication_date, now):
    """`publish` and `future` follow the publication date: `future` from one minute ahead on, else
    `publish` (docs/contract/events.md §4.1). Other statuses are kept."""
    if status not in PostStatus.published_states():
        return status
    if publication_date is not None and publication_date >= now + SCHEDULING_MARGIN:
        return PostStatus.FUTURE
    return PostStatus.PUBLISH


def default_status(user, kind):
    """The status of a record created without one: `publish` for callers who may publish, else `draft`."""
    return PostStatus.PUBLISH if may_publish(user, kind) else PostStatus.DRAFT


def may_list_unpublished(user, kind):
    return has_right(user, kind, EDIT)


def may_read_others_unpublished(user, kind):
    return has_right(user, kind, EDIT_OTHERS)


def role_of(user):
    """The user's role name (superusers act as administrators), or None."""
    if user is None or not user.is_authenticated:
        return None
    if user.is_superuser:
        return ADMINISTRATOR
    names = {group.name for group in user.groups.all()}
    return next((role for role in ROLES if role in names), None)
