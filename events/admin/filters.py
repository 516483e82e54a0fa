"""The changelists' filters."""

import datetime as dt

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.utils import timezone
from django.utils.functional import cached_property
from django.utils.translation import gettext_lazy as _

from ..dates import zone_for
from ..models import Category
from ..numbers import is_ascii_digits


class EventTimeListFilter(admin.SimpleListFilter):
    """Upcoming, today's or past events; "today" is the site's calendar day (its time zone)."""

    title = _("when")
    parameter_name = "when"

    def lookups(self, request, model_admin):
        return [("upcoming", _("Upcoming")), ("today", _("Today")), ("past", _("Past"))]

    def queryset(self, request, queryset):
        now = timezone.now()
        if self.value() == "upcoming":
            return queryset.filter(end_utc__gte=now)
        if self.value() == "past":
            return queryset.filter(end_utc__lt=now)
        if self.value() == "today":
            site_zone = zone_for("")
            midnight = dt.datetime.combine(now.astimezone(site_zone).date(), dt.time(), tzinfo=site_zone)
            return queryset.filter(end_utc__gte=midnight, start_utc__lt=midnight + dt.timedelta(days=1))
        return queryset


class CategoryListFilter(admin.SimpleListFilter):
    """A category and every category under it, listed as a tree."""

    title = _("event category")
    parameter_name = "category"

    @cached_property
    def categories(self):
        return list(Category.objects.order_by("name_en", "pk"))

    def lookups(self, request, model_admin):
        categories = self.categories
        children = {}
        for category in categories:
            children.setdefault(category.parent_id, []).append(category)
        known = {category.pk for category in categories}
        roots = [category for category in categories if category.parent_id not in known]
        choices, seen = [], set()

        def walk(category, depth):
            if category.pk in seen:
                return
            seen.add(category.pk)
            choices.append((str(category.pk), f"{'— ' * depth}{category}"))
            for child in children.get(category.pk, []):
                walk(child, depth + 1)

        for root in roots:
            walk(root, 0)
        return choices

    def queryset(self, request, queryset):
        if not is_ascii_digits(self.value()):
            return queryset
        chosen = int(self.value())
        wanted, frontier = {chosen}, [chosen]
        while frontier:
            frontier = [c.pk for c in self.categories if c.parent_id in frontier and c.pk not in wanted]
            wanted.update(frontier)
        return queryset.filter(terms__in=wanted).distinct()


class AuthorListFilter(admin.SimpleListFilter):
    """The user's own records first ("Mine"), then every author of the rows the user may see."""

    title = _("author")
    parameter_name = "author"

    def lookups(self, request, model_admin):
        author_ids = model_admin.get_queryset(request).exclude(author=None).values("author_id").distinct()
        authors = get_user_model().objects.filter(pk__in=author_ids).exclude(pk=request.user.pk).order_by("username")
        return [("mine", _("Mine")), *((str(user.pk), user.get_full_name() or user.get_username()) for user in authors)]

    def queryset(self, request, queryset):
        if self.value() == "mine":
            return queryset.filter(author=request.user)
        if is_ascii_digits(self.value()):
            return queryset.filter(author_id=int(self.value()))
        return queryset
