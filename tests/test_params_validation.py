"""Parameter validation: Params.validate_request() (only the sent parameters are bound and
validated) gives exactly what DRF's Serializer.is_valid() gives, for every route's parameters, the
list routes' generated from their FilterSets included, and refuses exactly what it refuses, with
the same error."""

import datetime as dt

import pytest
from django.contrib.auth.models import AnonymousUser
from django.test import RequestFactory
from django.utils import timezone
from rest_framework.request import Request

from events.api import errors
from events.api.parameters.fields import Params, refusal
from events.api.routes import ROUTES, USER_ROUTES
from events.queries.params import contains_nul

from .factories import make_category, make_event, make_organizer, make_tag, make_user, make_venue

pytestmark = pytest.mark.django_db

FROZEN_NOW = dt.datetime(2026, 11, 25, 12, 30, 15, tzinfo=dt.UTC)


def every_params_class():
    classes = {Params}
    for route in (*ROUTES, *USER_ROUTES):
        classes.update(route.viewset.get_params_class(endpoint.action) for endpoint in route.endpoints)
        classes.update(route.viewset.params_classes.values())
    return sorted(classes, key=lambda cls: (cls.__module__, cls.__name__))


@pytest.fixture
def requests_of(db):
    """Request sets: each a dict of raw parameters, as the router collects them (strings, lists, dicts)."""
    hall, band = make_venue("Hall"), make_organizer("Band")
    music, free = make_category("Music"), make_tag("Free entry")
    concert = make_event("Concert", venue=hall, organizers=[band], categories=[music], tags=[free])
    return [
        {},
        {"per_page": "3", "page": "2"},
        {"per_page": 500, "page": 1},
        {"per_page": "abc"},
        {"page": "0"},
        {"search": "concert", "status": "publish"},
        {"status": "draft"},
        {"status": ["publish", "private"]},
        {"start_date": "2026-01-01", "end_date": "2027-01-01 10:00:00", "strict_dates": "true"},
        {"start_date": "not a date"},
        {"categories": "music", "tags": [free.pk]},
        {"categories": "no-such-category"},
        {"venue": str(hall.pk), "organizer": f"{band.pk}"},
        {"venue": "999999"},
        {"geoloc": "true", "geoloc_lat": "52.5", "geoloc_lng": "13.4"},
        {"geoloc_lat": "52.5"},
        {"featured": "1", "ticketed": "false", "include": f"{concert.pk}"},
        {"ticketed": "true"},
        {"id": str(concert.pk)},
        {"id": "abc"},
        {"slug": concert.slug},
        {"slug": "no-such-event"},
        {"password": "secret"},
        {"hide_empty": "0", "orderby": "name", "order": "desc", "exclude": [music.pk]},
        {"event": str(concert.pk), "has_events": "true", "only_with_upcoming": "1"},
        {"wpml_language": "zh-hans"},
        {"wpml_language": "fr"},
        {"title": "New", "start_date": "2027-01-01 10:00", "end_date": "2027-01-01 11:00", "all_day": "false"},
        {"title": "New", "venue": {"venue": "Barn", "city": "Rome"}, "organizer": [{"organizer": "Duo"}]},
        {"venue": "Barn", "organizer": "Duo", "name": "Jazz", "description": "<p>Hi</p>", "parent": str(music.pk)},
        {"name": ["not", "a", "string"]},
        {"title": "Nul\x00byte"},
        {"user_id": "me", "uuid": "0c0ffee0-0000-4000-8000-000000000000", "app_id": "x"},
    ]


def outcome(validate):
    try:
        return "valid", validate()
    except errors.ApiError as error:
        return "refused", error.as_body()


def validated_by_drf(params_class, raw, context):
    """DRF's own validation of every declared parameter, refused as the contract words it."""
    params = params_class(data=raw, context=context)
    if params.is_valid():
        return params.validated_data
    raise refusal(list(params.fields), params.errors)


@pytest.mark.parametrize("role", [None, "editor"])
@pytest.mark.parametrize("params_class", every_params_class(), ids=lambda cls: cls.__name__)
def test_requests_are_validated_as_drf_validates_them(requests_of, params_class, role, monkeypatch):
    monkeypatch.setattr(timezone, "now", lambda: FROZEN_NOW)
    request = Request(RequestFactory().get("/"))
    request._user = make_user(role) if role else AnonymousUser()
    context = {"request": request}
    for raw in requests_of:
        ours = outcome(lambda: params_class.validate_request(dict(raw), context))
        drf = outcome(lambda: validated_by_drf(params_class, dict(raw), context))
        if any(name in params_class.declared() and contains_nul(value) for name, value in raw.items()):
            # Refused before any field runs (PostgreSQL cannot compare text holding NUL).
            assert ours[0] == "refused"
            continue
        assert ours == drf, (params_class.__name__, raw)
