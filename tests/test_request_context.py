"""What the API and the renderers learn about a request travel in one context, under one attribute of the request."""

import pytest
from django.http import JsonResponse
from django.test import RequestFactory
from django.urls import path
from rest_framework.request import Request

from calendar_site.urls import urlpatterns as site_urlpatterns
from events import store
from events.api.context import ApiContext, api_context, request_copy
from events.presentation.links import set_rest_root
from events.presentation.rendering import RenderingContext, rendering_context
from events.presentation.store_rows import RenderingRequest

from .conftest import API
from .factories import make_event

pytestmark = [pytest.mark.django_db, pytest.mark.urls(__name__)]

# What the API's layers once set on the request each for themselves: now fields of the context.
FORMER_ATTRIBUTES = (
    "raw_params",
    "rest_root",
    "matched_route",
    "api_user",
    "read_cache_entry",
    "_events_global_id_base",
)
# DRF's own: setting the user or auth of its Request sets them on the Django request too.
DRF_ATTRIBUTES = {"user", "auth"}


def plain_view(request):
    # Evaluates the lazy user, as the API's handling does, so both requests carry what it caches.
    request.user.is_authenticated
    return JsonResponse({})


urlpatterns = [path("plain/", plain_view), *site_urlpatterns]


def added_by_the_api(client, response):
    """The attributes of the answered request that a plain Django view's request does not carry,
    leaving out what Django's request computes lazily and caches under its own names (`GET`, `headers`)."""
    plain = client.get("/plain/").wsgi_request
    request = response.wsgi_request
    own = {name for name in vars(request) if hasattr(type(request), name)}
    return set(vars(request)) - set(vars(plain)) - own - DRF_ATTRIBUTES


@pytest.fixture
def event(db):
    return make_event("Concert")


@pytest.mark.parametrize(
    "answer",
    [
        pytest.param(
            lambda api, editor, event: api.get(f"{API}/events", {"per_page": 2, "page": 1}), id="anonymous-list"
        ),
        pytest.param(lambda api, editor, event: editor.get(f"{API}/events/{event.pk}"), id="signed-read"),
        pytest.param(lambda api, editor, event: api.options(f"{API}/events"), id="options"),
        pytest.param(lambda api, editor, event: api.get(API), id="namespace-index"),
        pytest.param(lambda api, editor, event: api.get("/wp-json/"), id="rest-root"),
        pytest.param(lambda api, editor, event: api.get(f"{API}/no-such-route"), id="no-route"),
        pytest.param(
            lambda api, editor, event: editor.post(
                f"{API}/events/{event.pk}", {"title": "New"}, format="json", HTTP_IF_MATCH='W/"old"'
            ),
            id="write-refused-by-if-match",
        ),
    ],
)
def test_the_api_sets_one_attribute_on_the_request_it_answers(api, editor, event, answer):
    response = answer(api, editor, event)
    assert added_by_the_api(api, response) == {"events_context"}
    request = response.wsgi_request
    assert isinstance(request.events_context, ApiContext)
    assert request.events_context.rest_root == "http://testserver/wp-json/"
    assert not [name for name in FORMER_ATTRIBUTES if hasattr(request, name)]


def test_a_public_page_keeps_its_rest_root_in_a_rendering_context_not_the_api_s(api):
    request = api.get("/").wsgi_request
    assert type(request.events_context) is RenderingContext
    assert rendering_context(request).rest_root == "http://testserver/wp-json/"
    assert not [name for name in FORMER_ATTRIBUTES if hasattr(request, name)]


def test_the_context_is_the_same_through_drf_s_request():
    http_request = RequestFactory().get("/")
    assert api_context(Request(http_request)) is api_context(http_request)


def test_the_api_s_context_keeps_what_the_rendering_context_learnt_before_it():
    request = RequestFactory().get("/")
    set_rest_root(request, "http://testserver/zh-hans/wp-json/")
    context = api_context(request)
    assert isinstance(context, ApiContext) and context.rest_root == "http://testserver/zh-hans/wp-json/"
    assert rendering_context(request) is context


def test_a_request_copy_learns_on_a_context_of_its_own():
    request = RequestFactory().post("/")
    api_context(request).rest_root = "http://testserver/wp-json/"
    copied = request_copy(request)
    assert api_context(copied).rest_root == "http://testserver/wp-json/"
    api_context(copied).raw_params = {"title": "Probe"}
    api_context(copied).caller = object()
    assert api_context(request).caller is None
    assert "title" not in api_context(request).raw_params


def test_the_store_s_rendering_request_has_a_context_with_markers():
    context = rendering_context(RenderingRequest())
    assert context.rest_root == f"{store.HOME}wp-json/"
    assert context.global_id_base == (context.rest_root, store.GLOBAL_ID_HOST)
    assert context.raw_params == {}
