"""Bulk actions of the changelists: trash and restore touch the selected rows the user may edit,
duplicate copies those the user may read; each goes through the API's service for the kind."""

from django.contrib import admin
from django.db import transaction
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from .. import pipeline, roles
from ..models import PostKind, PostStatus
from ..services.events import duplicate_event, restore_event, trash_event
from ..services.linked import restore_organizer, restore_venue, trash_organizer, trash_venue

TRASH = {PostKind.EVENT: trash_event, PostKind.VENUE: trash_venue, PostKind.ORGANIZER: trash_organizer}
RESTORE = {PostKind.EVENT: restore_event, PostKind.VENUE: restore_venue, PostKind.ORGANIZER: restore_organizer}


def write_editable(request, records, write):
    """`write` each of `records` the user may edit, in one transaction; returns how many it wrote."""
    written = 0
    with transaction.atomic():
        for record in records:
            if roles.can_edit(request.user, record):
                write(record)
                written += 1
    return written


@admin.action(description=_("Move selected records to the trash"), permissions=["trash"])
def move_to_trash(modeladmin, request, queryset):
    with pipeline.unit():
        # The API's trash: a venue or organizer also leaves the events that named it.
        moved = write_editable(
            request, queryset.exclude(status=PostStatus.TRASH), lambda record: TRASH[record.KIND](record)
        )
    modeladmin.message_user(
        request, ngettext("%d record moved to the trash.", "%d records moved to the trash.", moved) % moved
    )


@admin.action(description=_("Restore selected records from the trash"), permissions=["trash"])
def restore_from_trash(modeladmin, request, queryset):
    with pipeline.unit():
        # The API's restore: the old slug made unique again under the same lock.
        restored = write_editable(
            request, queryset.filter(status=PostStatus.TRASH), lambda record: RESTORE[record.KIND](record, request.user)
        )
    modeladmin.message_user(request, ngettext("%d record restored.", "%d records restored.", restored) % restored)


@admin.action(description=_("Duplicate selected events as drafts"), permissions=["add"])
def duplicate_as_draft(modeladmin, request, queryset):
    with pipeline.unit():
        copies = [duplicate_event(event, request.user) for event in queryset if roles.can_read(request.user, event)]
    modeladmin.message_user(
        request,
        ngettext("%d event copied as a draft.", "%d events copied as drafts.", len(copies)) % len(copies),
    )
