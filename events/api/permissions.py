"""Route-level permission checks. Record-level rules live in events.roles and are applied by views."""

from rest_framework.permissions import BasePermission

from .. import roles


class Public(BasePermission):
    """Reads: everybody; what they see is scoped by the view's queryset and read rules."""

    def has_permission(self, request, view):
        return True


class KindRight(BasePermission):
    """The caller holds a kind-level right (e.g. "edit" events) on the view's record kind."""

    right = roles.EDIT

    def has_permission(self, request, view):
        return roles.has_right(request.user, view.kind, self.right)


class CanEditKind(KindRight):
    right = roles.EDIT


class CanManageCategories(BasePermission):
    def has_permission(self, request, view):
        return roles.has_right(request.user, "tribe_events", roles.EDIT) and roles.has_capability(
            request.user, roles.MANAGE_CATEGORIES
        )


class CanManageTags(BasePermission):
    def has_permission(self, request, view):
        return roles.has_right(request.user, "tribe_events", roles.EDIT) and roles.has_capability(
            request.user, roles.MANAGE_TAGS
        )
