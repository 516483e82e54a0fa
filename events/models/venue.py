"""Venues: where events happen."""

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from .identity import PostKind
from .post import Post


class Venue(Post):
    KIND = PostKind.VENUE

    address = models.CharField(_("address"), max_length=255, blank=True, default="")
    city = models.CharField(_("city"), max_length=255, blank=True, default="")
    country = models.CharField(_("country"), max_length=255, blank=True, default="")
    province = models.CharField(_("province"), max_length=255, blank=True, default="")
    state = models.CharField(_("state"), max_length=255, blank=True, default="")
    zip = models.CharField(_("postal code"), max_length=64, blank=True, default="")
    phone = models.CharField(_("phone"), max_length=64, blank=True, default="")
    website = models.CharField(_("website"), max_length=2000, blank=True, default="")
    stateprovince = models.CharField(_("state or province"), max_length=255, blank=True, default="")
    geo_lat = models.FloatField(
        _("latitude"), null=True, blank=True, validators=[MinValueValidator(-90), MaxValueValidator(90)]
    )
    geo_lng = models.FloatField(
        _("longitude"), null=True, blank=True, validators=[MinValueValidator(-180), MaxValueValidator(180)]
    )
    # None = never stored, which WordPress reads as true.
    show_map = models.BooleanField(_("show map"), null=True, blank=True)
    show_map_link = models.BooleanField(_("show map link"), null=True, blank=True)

    class Meta:
        verbose_name = _("venue")
        verbose_name_plural = _("venues")
        permissions = [
            ("edit_venues", "Can create venues and edit their own unpublished venues"),
            ("publish_venues", "Can publish venues"),
            ("edit_published_venues", "Can edit and delete their own published venues"),
            ("edit_others_venues", "Can edit, delete and read others' venues"),
        ]
        ordering = ["-date", "-id"]
        indexes = [models.Index(fields=["date", "id"], name="events_venue_date_id")]

    @property
    def has_coordinates(self):
        return bool(self.geo_lat) and bool(self.geo_lng)

    @staticmethod
    def derive_stateprovince(state, province, country):
        """The plugin's rule: a US (or country-less) venue uses its state, others their province."""
        if state and (country or "").strip() in {"", "US", "United States"}:
            return state
        return province or ""
