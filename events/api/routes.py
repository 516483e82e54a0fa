"""The route tables: the calendar's namespace, in WordPress registration order, and the few `wp/v2`
routes that WordPress clients call for their credentials.

Dispatch, the namespace index, OPTIONS answers and the OpenAPI document are all read from here.
"""

from dataclasses import dataclass, field
from functools import cached_property

from django.utils.module_loading import import_string

UPDATE_METHODS = ("POST", "PUT", "PATCH")


@dataclass(frozen=True)
class Endpoint:
    methods: tuple
    action: str


@dataclass(frozen=True)
class Route:
    # The pattern after the namespace, as WordPress registers it (it is published in the index).
    pattern: str
    viewset_path: str
    endpoints: tuple = field(default_factory=tuple)
    # None: the calendar's namespace (`tribe/events/v1` by default, a setting).
    namespace_override: str = None

    @property
    def namespace(self):
        from ..conf import events_settings

        return self.namespace_override or events_settings.namespace

    @cached_property
    def viewset(self):
        return import_string(self.viewset_path)

    @cached_property
    def views(self):
        """One DRF view per endpoint, keyed by the endpoint's action."""
        views = {}
        for endpoint in self.endpoints:
            actions = {method.lower(): endpoint.action for method in endpoint.methods}
            views[endpoint.action] = self.viewset.as_view(actions)
        return views

    @property
    def methods(self):
        seen = []
        for endpoint in self.endpoints:
            seen.extend(method for method in endpoint.methods if method not in seen)
        return seen

    def endpoint_for(self, method):
        return next((endpoint for endpoint in self.endpoints if method in endpoint.methods), None)

    @property
    def has_path_variable(self):
        return "(?P<" in self.pattern


def _collection(path, viewset):
    return Route(path, viewset, (Endpoint(("GET",), "list"), Endpoint(("POST",), "create")))


def _post_single(path, viewset, suffix=""):
    return Route(
        path,
        viewset,
        (
            Endpoint(("GET",), f"retrieve{suffix}"),
            Endpoint(("DELETE",), f"destroy{suffix}"),
            Endpoint(UPDATE_METHODS, f"update{suffix}"),
        ),
    )


def _term_single(path, viewset):
    return Route(
        path,
        viewset,
        (Endpoint(("GET",), "retrieve"), Endpoint(UPDATE_METHODS, "update"), Endpoint(("DELETE",), "destroy")),
    )


ID = r"(?P<id>\d+)"
SLUG = r"(?P<slug>[^/]+)"
VIEWS = "events.api.views"

ROUTES = (
    Route("", f"{VIEWS}.discovery.NamespaceIndexViewSet", (Endpoint(("GET",), "index"),)),
    Route("/doc", f"{VIEWS}.discovery.DocViewSet", (Endpoint(("GET",), "doc"),)),
    _collection("/events", f"{VIEWS}.events.EventViewSet"),
    _post_single(f"/events/{ID}", f"{VIEWS}.events.EventViewSet"),
    _post_single(f"/events/by-slug/{SLUG}", f"{VIEWS}.events.EventViewSet", "_by_slug"),
    _collection("/venues", f"{VIEWS}.venues.VenueViewSet"),
    _post_single(f"/venues/{ID}", f"{VIEWS}.venues.VenueViewSet"),
    _post_single(f"/venues/by-slug/{SLUG}", f"{VIEWS}.venues.VenueViewSet", "_by_slug"),
    _collection("/organizers", f"{VIEWS}.organizers.OrganizerViewSet"),
    _post_single(f"/organizers/{ID}", f"{VIEWS}.organizers.OrganizerViewSet"),
    _post_single(f"/organizers/by-slug/{SLUG}", f"{VIEWS}.organizers.OrganizerViewSet", "_by_slug"),
    _collection("/categories", f"{VIEWS}.terms.CategoryViewSet"),
    _term_single(f"/categories/{ID}", f"{VIEWS}.terms.CategoryViewSet"),
    _collection("/tags", f"{VIEWS}.terms.TagViewSet"),
    _term_single(f"/tags/{ID}", f"{VIEWS}.terms.TagViewSet"),
)


# The calendar's own namespace, beside the v1 one: what the plugin has no route for (the change
# log's feed, webhooks). Never inside the v1 namespace, whose routes stay the plugin's.
CALENDAR_NAMESPACE = "events-calendar/v1"

CALENDAR_ROUTES = (
    Route("/doc", f"{VIEWS}.feed.CalendarDocViewSet", (Endpoint(("GET",), "doc"),), CALENDAR_NAMESPACE),
    Route("/changes", f"{VIEWS}.feed.ChangesViewSet", (Endpoint(("GET",), "list"),), CALENDAR_NAMESPACE),
    Route(
        "/webhooks",
        f"{VIEWS}.webhooks.WebhookViewSet",
        (Endpoint(("GET",), "list"), Endpoint(("POST",), "create")),
        CALENDAR_NAMESPACE,
    ),
    Route(
        f"/webhooks/{ID}",
        f"{VIEWS}.webhooks.WebhookViewSet",
        (
            Endpoint(("GET",), "retrieve"),
            Endpoint(UPDATE_METHODS, "update"),
            Endpoint(("DELETE",), "destroy"),
        ),
        CALENDAR_NAMESPACE,
    ),
    Route(
        f"/webhooks/{ID}/deliveries",
        f"{VIEWS}.webhooks.WebhookViewSet",
        (Endpoint(("GET",), "deliveries"),),
        CALENDAR_NAMESPACE,
    ),
    Route(
        "/imports",
        f"{VIEWS}.imports.ImportViewSet",
        (Endpoint(("GET",), "list"), Endpoint(("POST",), "create")),
        CALENDAR_NAMESPACE,
    ),
    Route(
        f"/imports/{ID}",
        f"{VIEWS}.imports.ImportViewSet",
        (
            Endpoint(("GET",), "retrieve"),
            Endpoint(UPDATE_METHODS, "update"),
            Endpoint(("DELETE",), "destroy"),
        ),
        CALENDAR_NAMESPACE,
    ),
    Route(f"/imports/{ID}/runs", f"{VIEWS}.imports.ImportViewSet", (Endpoint(("GET",), "runs"),), CALENDAR_NAMESPACE),
    Route(f"/imports/{ID}/run", f"{VIEWS}.imports.ImportViewSet", (Endpoint(("POST",), "run"),), CALENDAR_NAMESPACE),
    # Where an event came from: beside the v1 record, which stays the plugin's.
    Route(
        f"/imports/events/{ID}", f"{VIEWS}.imports.ImportViewSet", (Endpoint(("GET",), "origin"),), CALENDAR_NAMESPACE
    ),
)


# WordPress core's application-password routes (WP_REST_Application_Passwords_Controller), which
# clients written for WordPress call to make, list, check and revoke their credentials.
WP_NAMESPACE = "wp/v2"
APP_PASSWORDS = r"/users/(?P<user_id>(?:\d+|me))/application-passwords"
APP_PASSWORD_VIEWS = f"{VIEWS}.application_passwords.ApplicationPasswordViewSet"

USER_ROUTES = (
    Route(
        APP_PASSWORDS,
        APP_PASSWORD_VIEWS,
        (Endpoint(("GET",), "list"), Endpoint(("POST",), "create"), Endpoint(("DELETE",), "destroy_all")),
        WP_NAMESPACE,
    ),
    # Before the UUID route, whose pattern would match "introspect" too.
    Route(f"{APP_PASSWORDS}/introspect", APP_PASSWORD_VIEWS, (Endpoint(("GET",), "introspect"),), WP_NAMESPACE),
    Route(
        rf"{APP_PASSWORDS}/(?P<uuid>[\w\-]+)",
        APP_PASSWORD_VIEWS,
        (Endpoint(("GET",), "retrieve"), Endpoint(UPDATE_METHODS, "update"), Endpoint(("DELETE",), "destroy")),
        WP_NAMESPACE,
    ),
)
