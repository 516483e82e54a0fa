"""Application passwords: each user's own, every user's for administrators; shown once on creation."""

from django.contrib import admin
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.cache import patch_cache_control
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from .. import roles
from ..models import ApplicationPassword
from ..services import credentials
from .authorize import authorize_application
from .writes import RefusalsShown


@admin.register(ApplicationPassword)
class ApplicationPasswordAdmin(RefusalsShown, admin.ModelAdmin):
    """Everyone with admin access manages their own application passwords; administrators everyone's.

    A new password is shown once, on the page that follows its creation, and never stored in clear.
    """

    list_display = ("name", "user", "created", "last_used", "last_ip")
    list_select_related = ("user",)
    search_fields = ("name",)
    readonly_fields = ("user", "uuid", "app_id", "created", "last_used", "last_ip")
    actions = ("revoke",)

    @staticmethod
    def _is_administrator(request):
        return roles.role_of(request.user) == roles.ADMINISTRATOR

    def has_view_permission(self, request, obj=None):
        if not (request.user.is_active and request.user.is_staff):
            return False
        return obj is None or obj.user_id == request.user.pk or self._is_administrator(request)

    has_change_permission = has_delete_permission = has_view_permission

    def has_module_permission(self, request):
        return self.has_view_permission(request)

    has_add_permission = has_module_permission

    def get_queryset(self, request):
        queryset = super().get_queryset(request)
        return queryset if self._is_administrator(request) else queryset.filter(user=request.user)

    def get_list_filter(self, request):
        # The user filter would list every username: only for those who may see every user's rows.
        return ("user",) if self._is_administrator(request) else ()

    def get_search_fields(self, request):
        return ("name", "user__username") if self._is_administrator(request) else ("name",)

    def get_fields(self, request, obj=None):
        if obj is None:
            return ("user", "name") if self._is_administrator(request) else ("name",)
        return ("name", "user", "uuid", "app_id", "created", "last_used", "last_ip")

    def get_readonly_fields(self, request, obj=None):
        return () if obj is None else self.readonly_fields

    def get_changeform_initial_data(self, request):
        return {"user": request.user.pk, **super().get_changeform_initial_data(request)}

    def save_model(self, request, obj, form, change):
        if change:
            # The form gave `obj` the name typed; the service cleans and saves it, as the API's rename.
            credentials.rename_application_password(obj, obj.name)
            return
        if not self._is_administrator(request):
            obj.user = request.user
        # A name the user already gave is refused here, under the service's lock, as a form error.
        obj.issued_password = credentials.issue_application_password(obj)

    def response_add(self, request, obj, post_url_continue=None):
        """The one page that shows the new password, instead of a redirect that could not carry it."""
        context = {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "title": _("Your new application password"),
            "application_password": obj,
            "password": obj.issued_password,
            "changelist_url": reverse("admin:events_applicationpassword_changelist", current_app=self.admin_site.name),
        }
        response = TemplateResponse(request, "admin/events/applicationpassword/issued.html", context)
        # Nothing may keep the page: it holds a credential.
        patch_cache_control(response, no_store=True)
        return response

    def get_urls(self):
        """WordPress's authorize-application page, beside the list (events/admin/authorize.py)."""
        page = path(
            "authorize/",
            lambda request: authorize_application(request, self.admin_site),
            name="events_authorize_application",
        )
        return [page, *super().get_urls()]

    def delete_model(self, request, obj):
        """The delete page revokes, as the action does."""
        credentials.revoke_application_passwords(ApplicationPassword.objects.filter(pk=obj.pk))

    def get_actions(self, request):
        actions = super().get_actions(request)
        actions.pop("delete_selected", None)
        return actions

    @admin.action(description=_("Revoke the selected application passwords"))
    def revoke(self, request, queryset):
        count = credentials.revoke_application_passwords(queryset)
        self.message_user(
            request,
            ngettext("Revoked %(count)d application password.", "Revoked %(count)d application passwords.", count)
            % {"count": count},
        )
