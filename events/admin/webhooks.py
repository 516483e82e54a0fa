"""Administrators' webhooks: subscriptions made, changed and deleted through the same service as the API,
their delivery log, and "resend"."""

from django import forms
from django.contrib import admin, messages
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from .. import roles
from ..exceptions import InvalidValue
from ..models import WebhookDelivery, WebhookSubscription
from ..models.webhook import ALL_ACTIONS, ALL_KINDS
from ..notifications import delivery as deliveries
from ..notifications import subscriptions


def _is_administrator(request):
    return roles.role_of(request.user) == roles.ADMINISTRATOR


class AdministratorsOnly:
    def has_module_permission(self, request):
        return _is_administrator(request)

    def has_view_permission(self, request, obj=None):
        return _is_administrator(request)

    def has_add_permission(self, request, obj=None):
        return _is_administrator(request)

    def has_change_permission(self, request, obj=None):
        return _is_administrator(request)

    def has_delete_permission(self, request, obj=None):
        return _is_administrator(request)


class SubscriptionForm(forms.ModelForm):
    # Checked by the subscriptions service, as the API's are.
    url = forms.CharField(label=_("URL"), max_length=2000)
    kinds = forms.MultipleChoiceField(
        label=_("kinds"),
        choices=[(kind, kind) for kind in ALL_KINDS],
        widget=forms.CheckboxSelectMultiple,
        initial=ALL_KINDS,
    )
    actions = forms.MultipleChoiceField(
        label=_("actions"),
        choices=[(action, action) for action in ALL_ACTIONS],
        widget=forms.CheckboxSelectMultiple,
        initial=ALL_ACTIONS,
    )

    class Meta:
        model = WebhookSubscription
        fields = ("url", "kinds", "actions", "active")

    def clean_url(self):
        try:
            return subscriptions.checked_url(self.cleaned_data["url"])
        except InvalidValue as refusal:
            raise forms.ValidationError(str(refusal)) from None


# A delivery as its log shows it, on a webhook's page and in the list of all deliveries.
DELIVERY_COLUMNS = (
    "position",
    "kind",
    "record_id",
    "action",
    "status",
    "attempts",
    "response_status",
    "last_attempt",
    "next_attempt",
)


class DeliveryInline(admin.TabularInline):
    model = WebhookDelivery
    fields = (*DELIVERY_COLUMNS, "error", "message_id")
    readonly_fields = fields
    ordering = ("-position",)
    extra = 0
    max_num = 0
    can_delete = False
    show_change_link = True


@admin.register(WebhookSubscription)
class WebhookSubscriptionAdmin(AdministratorsOnly, admin.ModelAdmin):
    form = SubscriptionForm
    list_display = ("url", "active", "disabled_reason", "created")
    readonly_fields = ("secret", "disabled_reason", "created")
    inlines = [DeliveryInline]

    def save_model(self, request, obj, form, change):
        data = form.cleaned_data
        if change:
            subscriptions.update_subscription(
                obj, url=data["url"], kinds=data["kinds"], actions=data["actions"], active=data["active"]
            )
        else:
            made = subscriptions.create_subscription(data["url"], data["kinds"], data["actions"], data["active"])
            obj.pk, obj.secret = made.pk, made.secret

    def delete_model(self, request, obj):
        subscriptions.delete_subscription(obj)

    def delete_queryset(self, request, queryset):
        for subscription in queryset:
            subscriptions.delete_subscription(subscription)


@admin.action(description=_("Send the selected deliveries again"))
def resend(modeladmin, request, queryset):
    count = deliveries.resend(list(queryset))
    from ..notifications.tasks import wake_workers

    wake_workers()
    modeladmin.message_user(
        request,
        ngettext("%d delivery will be sent again.", "%d deliveries will be sent again.", count) % count,
        messages.SUCCESS,
    )


@admin.register(WebhookDelivery)
class WebhookDeliveryAdmin(AdministratorsOnly, admin.ModelAdmin):
    list_display = ("message_id", "subscription", *DELIVERY_COLUMNS)
    list_filter = ("status", "subscription")
    readonly_fields = (
        "subscription",
        "position",
        "kind",
        "record_id",
        "action",
        "change_time",
        "message_id",
        "body",
        "status",
        "attempts",
        "next_attempt",
        "last_attempt",
        "response_status",
        "error",
    )
    actions = [resend]

    def has_add_permission(self, request, obj=None):
        return False
