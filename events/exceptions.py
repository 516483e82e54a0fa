"""The calendar's refusals, named in the domain: models and services raise them, each way in shows them its own way.

Each carries a human message (a lazily translated string, read in the language active when it is
shown) and, where the refusal is about one field, that field's domain name in `field`. The API maps
them to the contract's codes at its edge (events.api.errors); the admin shows them on its forms.
"""

from django.db import InterfaceError, OperationalError
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

CREATE, UPDATE, DELETE = "create", "update", "delete"

# What a database that is down, unreachable, restarting, past its statement timeout, or ending a
# transaction in a deadlock raises: a fault to retry, never a refusal of what was asked. Services let
# these through (the API answers 503 with Retry-After); other database errors refuse the write.
DATABASE_FAULTS = (OperationalError, InterfaceError)
# Seconds a client is asked to wait after such a fault (Retry-After): long enough for a restart or failover.
RETRY_AFTER = 5


class CalendarError(Exception):
    """A refusal of the calendar's rules; `message` says why, `field` names the field it is about, if one."""

    message = ""
    field = None

    def __str__(self):
        return str(self.message)


class NotPermitted(CalendarError):
    """The caller may not do this (name another author, say)."""

    message = _("Sorry, you are not allowed to do that.")


class InvalidValue(CalendarError):
    """The value given for `field` cannot be used; `reason`, when given, says why."""

    def __init__(self, field, reason=None):
        super().__init__(field, reason)
        self.field = field
        self.reason = reason

    @property
    def message(self):
        return self.reason or _("Invalid parameter.")


class TermExists(CalendarError):
    """A term of this name already exists at this level (`term_id`: the existing one)."""

    field = "name"

    def __init__(self, taxonomy, term_id):
        from .models import Taxonomy  # models may raise these exceptions: imported when one is made

        super().__init__(term_id)
        self.taxonomy = taxonomy
        self.term_id = term_id
        if taxonomy == Taxonomy.CATEGORY:
            self.message = _("A term with the name provided already exists with this parent.")
        else:
            self.message = _("A term with the name provided already exists in this taxonomy.")


class SlugTaken(CalendarError):
    """Another term of the taxonomy has this slug."""

    field = "slug"

    def __init__(self, slug):
        super().__init__(slug)
        self.slug = slug
        self.message = _("The slug “%(slug)s” is already in use by another term.") % {"slug": slug}


class NotHierarchical(CalendarError):
    """A parent was given for a term of a taxonomy without levels (tags)."""

    field = "parent"
    message = _("Can not set resource parent, taxonomy is not hierarchical.")


class CouldNotWrite(CalendarError):
    """A record of `kind` (event, venue, organizer, term) could not be created, updated or deleted (`action`)."""

    MESSAGES = {
        ("event", DELETE): _("The event could not be moved to the trash."),
        ("venue", CREATE): _("No venue could be created from the data given."),
        ("venue", UPDATE): _("The venue could not be updated."),
        ("venue", DELETE): _("The venue could not be moved to the trash."),
        ("organizer", CREATE): _("No organizer could be created from the data given."),
        ("organizer", UPDATE): _("The organizer could not be updated."),
        ("organizer", DELETE): _("The organizer could not be moved to the trash."),
        ("term", DELETE): _("The term cannot be deleted."),
    }

    def __init__(self, kind, action):
        super().__init__(kind, action)
        self.kind = kind
        self.action = action
        self.message = self.MESSAGES[kind, action]


class RecordRefusal(CalendarError):
    """A refusal about one record, worded per kind of record (MESSAGES, with its ID)."""

    MESSAGES = {}

    def __init__(self, kind, record_id):
        super().__init__(kind, record_id)
        self.kind = kind
        self.record_id = record_id
        self.message = self.MESSAGES[kind] % {"id": record_id}


class RecordGone(RecordRefusal):
    """The record was deleted for good by another write while this one waited for its turn."""

    MESSAGES = {
        "event": _("No event was found with the ID %(id)s."),
    }


class InTrash(RecordRefusal):
    """The record is in the trash already: deleted a second time, or trashed by another write meanwhile."""

    MESSAGES = {
        "event": _("The event with the ID %(id)s is already in the trash."),
    }


class ReadCacheUnavailable(CalendarError):
    """A write could not retire the shared read cache's answers, so it wrote nothing."""

    message = _("The calendar's shared cache is not available right now, so nothing was written. Try again shortly.")


class CursorExpired(CalendarError):
    """A changes-feed cursor older than the change log keeps: entries after it may be gone."""

    message = _(
        "This cursor is older than the change log keeps. Read the calendar again, then follow the changes from a new cursor."
    )


class DuplicateApplicationName(CalendarError):
    """The user already has an application password of this name."""

    field = "name"
    message = _("Each application name should be unique.")

    def __init__(self, name):
        super().__init__(name)
        self.name = name


class TooManyFailedLogins(CalendarError):
    """Sign-ins for this account or from this address failed too often: refused for `retry_after` seconds."""

    def __init__(self, retry_after):
        super().__init__(retry_after)
        self.retry_after = retry_after
        minutes = max(1, -(-retry_after // 60))
        self.message = ngettext_lazy(
            "Too many failed login attempts. Please try again in %(minutes)d minute.",
            "Too many failed login attempts. Please try again in %(minutes)d minutes.",
            "minutes",
        ) % {"minutes": minutes}


class EmptyApplicationName(CalendarError):
    """An application password's name holds nothing once its tags and blanks are taken out."""

    field = "name"
    message = _("An application name is required to create an application password.")
