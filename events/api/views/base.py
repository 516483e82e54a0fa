"""The base viewset: WordPress's request order (parameters validated before permissions) and errors."""
from django.contrib.auth.models import AnonymousUser
from rest_framework import viewsets
from rest_framework.negotiation import DefaultContentNegotiation

from .. import errors
from ..authentication import BasicAuthentication, SessionAuthentication, TokenAuthentication
from ..params import INVALID, Params, contains_nul
from ..permissions import Public
from ..renderers import WPJSONRenderer


class WPViewSet(viewsets.GenericViewSet):
    """A viewset whose actions each declare a `Params` serializer in `params_classes`.

    `self.params` holds the validated parameters, `self.sent` the names the client actually sent
    (updates change only those fields).
    """

    kind = None
    params_classes: dict = {}
    permission_classes_by_action: dict = {}
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
    filter_backends = []

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
        # Kept on the Django request so the router can compute the Allow header for this caller.
        request._request.api_user = request.user
        self.params = self.validate_params(request)
        self.check_permissions(request)
        self.check_throttles(request)

    def validate_params(self, request):
        raw = getattr(request._request, "raw_params", {})
        # One check for every parameter, declared or not: PostgreSQL can neither store nor compare
        # text holding NUL, so no such value may travel on towards a query.
        params_class = self.params_classes.get(self.action) or Params
        declared = params_class().fields
        # Undeclared parameters are ignored, as WordPress ignores them, and never reach a query.
        holding_nul = {name: INVALID for name, value in raw.items() if name in declared and contains_nul(value)}
        if holding_nul:
            # WordPress's order still holds: missing parameters are reported before invalid ones.
            missing = [name for name, field in declared.items() if field.required and name not in raw]
            raise errors.missing_params(missing) if missing else errors.invalid_params(holding_nul)
        self.sent = set(raw)
        return params_class.validate_request(raw, self.get_serializer_context())

    def permission_denied(self, request, message=None, code=None):
        raise errors.forbidden(request.user)

    @classmethod
    def allows(cls, action, request):
        """Whether `request`'s caller passes the route check of `action` (for the Allow header)."""
        view = cls()
        view.action = action
        return all(permission.has_permission(request, view) for permission in view.get_permissions())

    @property
    def rest_root(self):
        return self.request._request.rest_root
