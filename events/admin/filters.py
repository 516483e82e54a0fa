"""The changelists' filters."""
from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from ..models import Category
from ..numbers import is_ascii_digits


class CategoryListFilter(admin.SimpleListFilter):
    title = _("event category")
    parameter_name = "category"

    def lookups(self, request, model_admin):
        return [(str(category.pk), str(category)) for category in Category.objects.order_by("name_en", "pk")]

    def queryset(self, request, queryset):
        if is_ascii_digits(self.value()):
            return queryset.filter(terms__pk=int(self.value()))
        return queryset
