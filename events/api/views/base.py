"""The base viewset: WordPress's request order (parameters validated before permissions) and errors."""

from django.contrib.auth.models import AnonymousUser
from rest_framework import viewsets
from rest_framework.negotiation import DefaultContentNegotiation

from ... import roles
from ...conf import events_settings
from ...presentation.links import namespace_url
from ...queries.pages import fetch_page
from .. import errors
from ..authentication import BasicAuthentication, SessionAuthentication, TokenAuthentication
from ..context import api_context
from ..filters import ListFilterBackend
from ..pagination import list_response, page_links, remembered_list
from ..parameters.fields import Params
from ..parameters.lists import list_params
from ..permissions import Public
from ..renderers import WPJSONRenderer

WRITE_ACTIONS = ("create", "update", "update_by_slug", "destroy", "destroy_by_slug")


class WPViewSet(viewsets.GenericViewSet):
    """A viewset whose actions each declare a `Params` serializer in `params_classes`; a list
    filtered by a FilterSet (`filterset_class`) takes the parameters generated from it instead.

    `self.params` holds the validated parameters, `self.sent` the names the client actually sent
    (updates change only those fields).
    """

    kind = None
    # The path segment of the resource's routes, and the key of its list.
    collection = None
    params_classes: dict = {}
    permission_classes_by_action: dict = {}
    # The resource's own refusals: {name: (code, message with %(id)s, status)}.
    refusals: dict = {}
    # Every policy DRF would otherwise take from the site's REST_FRAMEWORK setting is the app's own:
    # the contract's authentication and errors must not depend on how a site configures its other APIs.
    authentication_classes = [BasicAuthentication, SessionAuthentication, TokenAuthentication]
    renderer_classes = [WPJSONRenderer]
    # Bodies are read once, WordPress-style, by events.api.parsing (bracket syntax, precedence).
    parser_classes = []
    content_negotiation_class = DefaultContentNegotiation
    # The contract has no rate limit (and no 429); a site's throttles are for its own APIs.
    throttle_classes = []
    versioning_class = None
    pagination_class = None
    filter_backends = [ListFilterBackend]
    # The FilterSet of the list (events.queries.filtersets), unless EVENTS["FILTERSETS"] names a
    # site's own for the collection; and the word the `per_page` help uses for the records.
    filterset_class = None
    per_page_noun = "records"

    def get_exception_handler(self):
        return errors.exception_handler

    def get_permissions(self):
        classes = self.permission_classes_by_action.get(self.action, [Public])
        return [permission() for permission in classes]

    def perform_content_negotiation(self, request, force=False):
        renderer = self.renderer_classes[0]()
        return (renderer, renderer.media_type)

    def initial(self, request, *args, **kwargs):
        """DRF's initial(), reordered: authenticate, validate parameters, then check permissions."""
        self.format_kwarg = None
        request.accepted_renderer, request.accepted_media_type = self.perform_content_negotiation(request)
        self.perform_authentication(request)
        if request.user is None:
            # A site's UNAUTHENTICATED_USER = None must not reach the role checks, which expect a user.
            request.user = AnonymousUser()
        # Kept in the context so the router can compute the Allow header for this caller.
        api_context(request).caller = request.user
        self.params = self.validate_params(request)
        self.check_permissions(request)
        self.check_throttles(request)

    def validate_params(self, request):
        raw = api_context(request).raw_params
        self.sent = set(raw)
        return self.get_params_class(self.action).validate_request(raw, self.get_serializer_context())

    @classmethod
    def get_filterset_class(cls):
        return events_settings.filterset(cls.collection, cls.filterset_class)

    @classmethod
    def get_params_class(cls, action):
        """The Params of `action`: a filtered list's are generated from its FilterSet."""
        if action == "list" and cls.filterset_class is not None:
            return list_params(cls.get_filterset_class(), cls.per_page_noun)
        return cls.params_classes.get(action) or Params

    def filter_data(self):
        """The FilterSet's data: the validated values of the filters' parameters, the defaults of
        those not sent included (ListFilterBackend also hands it the names that were sent)."""
        params = self.params
        return {name: params[name] for name in self.get_filterset_class().base_filters if name in params}

    def list_filterset(self):
        """The list's FilterSet for this request, through the filter backend: what the list's
        statement depends on (its key, what it reads) is known before the statement is built."""
        # No queryset: this FilterSet only says what the statement depends on; filter_queryset()
        # filters the one the view builds.
        return self.filter_backends[0]().get_filterset(self.request, None, self)

    def answer_list(self, statement, per_page, echoed):
        """The page of `statement` the request asks for, in the list envelope whose links repeat
        `echoed`; a page past the last is the resource's 404."""
        page = fetch_page(statement, self.params["page"], per_page)
        if page.page > 1 and not page.rows:
            raise self.refusal("page_not_found")

        def answer():
            links = page_links(namespace_url(self.request, f"/{self.collection}/"), echoed, page)
            return list_response(self.collection, self.page_records(page), page, links)

        return remembered_list(self.request, statement, page, echoed, answer)

    def check_may_edit(self, record):
        """docs/contract/auth.md §3.2, the same by slug as by ID (§3.3)."""
        if not roles.can_edit(self.request.user, record):
            raise errors.forbidden(self.request.user)

    def path_record_id(self):
        """The ID of the record the path names: `id`, or `slug` as its Params validated it to an ID."""
        return self.params["slug" if self.action.endswith("_by_slug") else "id"]

    def refusal(self, name, record_id=None):
        code, message, status = self.refusals[name]
        return errors.ApiError(code, message % {"id": record_id}, status)

    def permission_denied(self, request, message=None, code=None):
        raise errors.forbidden(request.user)

    @classmethod
    def allows(cls, action, request):
        """Whether `request`'s caller passes the route check of `action` (for the Allow header)."""
        view = cls()
        view.action = action
        return all(permission.has_permission(request, view) for permission in view.get_permissions())
