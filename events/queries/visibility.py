"""Which rows of a post kind (events, venues, organizers) a caller may list, by status and role."""

from django.db.models import Q

from .. import roles
from ..models import PostStatus

# Accepted in `status` filters as "every status this caller lists by default", so that a client
# following `next_rest_url` (which echoes `status=any` for editors) gets the same rows again.
ANY_STATUS = "any"


def may_filter_status(user, kind):
    """Callers without the "edit" right on `kind` list published rows only (docs/contract/auth.md §2.2)."""
    return roles.may_list_unpublished(user, kind)


def check_status_filter(user, kind, statuses):
    """Whether a `status` filter (a list of words) is acceptable from this caller."""
    if not statuses:
        return False
    if not may_filter_status(user, kind):
        return statuses == [PostStatus.PUBLISH.value]
    registered = set(PostStatus.registered()) | {ANY_STATUS}
    return all(isinstance(status, str) and status in registered for status in statuses)


def listed_statuses(user, kind, requested=None):
    """The statuses a list shows: the caller's default, or the validated `requested` ones."""
    if not may_filter_status(user, kind):
        return [PostStatus.PUBLISH.value]
    if not requested:
        return [str(status) for status in PostStatus.default_visible()]
    statuses = []
    for status in requested:
        expanded = PostStatus.default_visible() if status == ANY_STATUS else [status]
        statuses.extend(str(item) for item in expanded if str(item) not in statuses)
    return statuses


def echoed_status(user, kind, requested=None):
    """The `status` value list links repeat: `publish`, `any`, or the statuses as requested."""
    if not may_filter_status(user, kind):
        return PostStatus.PUBLISH.value
    if not requested:
        return ANY_STATUS
    return ",".join(requested)


def listable(user, kind, statuses, prefix=""):
    """A Q keeping rows of `statuses` the caller may see.

    Contributors and authors see every published row but only their own non-published ones, so a
    list never shows what a single read would refuse (the Recommended rule of docs/contract/auth.md §2.2).
    """
    status_field, author_field = f"{prefix}status", f"{prefix}author_id"
    published = [status for status in statuses if status == PostStatus.PUBLISH]
    others = [status for status in statuses if status != PostStatus.PUBLISH]
    if roles.may_read_others_unpublished(user, kind) or not others:
        return Q(**{f"{status_field}__in": statuses})
    condition = Q(**{f"{status_field}__in": published}) if published else Q(pk__in=[])
    if user is not None and user.is_authenticated:
        condition |= Q(**{f"{status_field}__in": others, author_field: user.pk})
    return condition
