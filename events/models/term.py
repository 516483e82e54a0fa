"""Event categories (hierarchical) and tags: WordPress terms, sharing one ID sequence."""

import html

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from .updates import AnnouncedUpdates


class Taxonomy(models.TextChoices):
    # The values are WordPress's taxonomy names; the API returns them in `taxonomy`.
    CATEGORY = "tribe_events_cat", _("Event category")
    TAG = "post_tag", _("Tag")


class TermQuerySet(AnnouncedUpdates):
    def categories(self):
        return self.filter(taxonomy=Taxonomy.CATEGORY)

    def tags(self):
        return self.filter(taxonomy=Taxonomy.TAG)


class Term(models.Model):
    id = models.BigAutoField(primary_key=True)
    taxonomy = models.CharField(_("taxonomy"), max_length=32, choices=Taxonomy.choices, db_index=True)
    name = models.CharField(_("name"), max_length=200)
    slug = models.CharField(_("slug"), max_length=200)
    description = models.TextField(_("description"), blank=True, default="")
    parent = models.ForeignKey(
        "self",
        verbose_name=_("parent"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="children",
        limit_choices_to={"taxonomy": Taxonomy.CATEGORY},
    )
    term_group = models.IntegerField(default=0, editable=False)
    # Published events carrying the term (WordPress's term_taxonomy.count), hence the label "events".
    # Stored because counting the links of every listed term per request scans the events table;
    # kept right by events.term_counts, when a write's unit of work finishes (events.pipeline).
    count = models.PositiveIntegerField(_("events"), default=0, editable=False)

    objects = TermQuerySet.as_manager()

    class Meta:
        verbose_name = _("term")
        verbose_name_plural = _("terms")
        permissions = [
            ("manage_event_categories", "Can create, edit and delete event categories"),
            ("manage_event_tags", "Can create, edit and delete tags"),
        ]
        ordering = ["name", "id"]
        constraints = [
            models.UniqueConstraint(fields=["taxonomy", "slug"], name="events_term_unique_slug"),
            models.CheckConstraint(
                condition=Q(parent__isnull=True) | Q(taxonomy=Taxonomy.CATEGORY),
                name="events_term_only_categories_have_parents",
            ),
        ]

    def __str__(self):
        # Names are stored as WordPress stores them ("Arts &amp; Culture", which the API returns as it
        # is); people read them as plain text.
        return html.unescape(self.name)

    def save(self, *args, **kwargs):
        # `count` is written by recount_terms() alone: a term read before a recount and saved after
        # it (an edit of its name) must not write its old count back.
        if not self._state.adding and kwargs.get("update_fields") is None and not kwargs.get("force_insert"):
            deferred = self.get_deferred_fields()
            kwargs["update_fields"] = [
                field.attname
                for field in self._meta.concrete_fields
                if not field.primary_key and field.name != "count" and field.attname not in deferred
            ]
        super().save(*args, **kwargs)

    @property
    def parent_id_or_zero(self):
        return self.parent_id or 0

    @classmethod
    def descendant_ids(cls, ids, using="default"):
        """IDs of the categories below these terms: a category's record URL holds its ancestors'
        slugs, so a change of one changes its descendants' records."""
        children = {}
        for pk, parent_id in cls.objects.using(using).exclude(parent_id=None).values_list("pk", "parent_id"):
            children.setdefault(parent_id, []).append(pk)
        descendants, waiting = set(), list(ids)
        while waiting:
            for child in children.get(waiting.pop(), ()):
                if child not in descendants:
                    descendants.add(child)
                    waiting.append(child)
        return descendants

    def ancestors(self):
        """Parents from the root down (for `/events/category/{ancestors/}{slug}/` URLs)."""
        chain, seen, node = [], {self.pk}, self.parent
        while node is not None and node.pk not in seen:
            chain.append(node)
            seen.add(node.pk)
            node = node.parent
        return list(reversed(chain))


class CategoryManager(models.Manager.from_queryset(TermQuerySet)):
    def get_queryset(self):
        return super().get_queryset().filter(taxonomy=Taxonomy.CATEGORY)


class TagManager(models.Manager.from_queryset(TermQuerySet)):
    def get_queryset(self):
        return super().get_queryset().filter(taxonomy=Taxonomy.TAG)


class Category(Term):
    TAXONOMY = Taxonomy.CATEGORY
    objects = CategoryManager()

    class Meta:
        proxy = True
        verbose_name = _("event category")
        verbose_name_plural = _("event categories")

    def save(self, *args, **kwargs):
        self.taxonomy = Taxonomy.CATEGORY
        super().save(*args, **kwargs)


class Tag(Term):
    TAXONOMY = Taxonomy.TAG
    objects = TagManager()

    class Meta:
        proxy = True
        verbose_name = _("tag")
        verbose_name_plural = _("tags")

    def save(self, *args, **kwargs):
        self.taxonomy = Taxonomy.TAG
        super().save(*args, **kwargs)
