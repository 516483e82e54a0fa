"""Absolute URLs records carry: REST URLs, public page URLs and global IDs, in the request's language."""

from urllib.parse import quote, urlencode, urlsplit

from django.urls import NoReverseMatch, reverse
from django.utils import translation
from django.utils.encoding import iri_to_uri

from ..conf import events_settings
from ..models import PostKind, PostStatus, Taxonomy
from ..store import MarkerValues
from .rendering import rendering_context

REST_SEGMENT = "wp-json/"
PUBLIC_PATHS = {PostKind.EVENT: "event", PostKind.VENUE: "venue", PostKind.ORGANIZER: "organizer"}
# WordPress links unpublished posts by query string, since they have no pretty permalink yet.
UNPUBLISHED_URL_STATUSES = {PostStatus.DRAFT, PostStatus.PENDING, PostStatus.FUTURE}


def rest_root(request):
    """The REST root the request's links start from: the router's, or what set_rest_root() said."""
    return rendering_context(request).rest_root


def set_rest_root(request, root):
    """Start the links of a request served outside the REST router (a public page, the API
    browser) from `root`: they find the site home in the request's language from it."""
    rendering_context(request).rest_root = root


def reversed_rest_root(request):
    """The absolute REST root in the active language (`…/zh-hans/wp-json/`), from the URLconf."""
    return request.build_absolute_uri(reverse("events_api:rest", kwargs={"path": ""}))


def mounted_rest_root(request):
    """reversed_rest_root(), or None if the site does not mount the REST root."""
    try:
        return reversed_rest_root(request)
    except NoReverseMatch:
        return None


def namespace_url(request, path=""):
    """`{root}{ns}{path}`, e.g. namespace_url(request, "/events/12")."""
    return f"{rest_root(request)}{events_settings.namespace}{path}"


def site_url(request):
    """The site home (with the language prefix of the REST root), ending with a slash."""
    root = rest_root(request)
    return root[: -len(REST_SEGMENT)] if root.endswith(REST_SEGMENT) else root


def post_url(request, record):
    """The public page of an event, venue or organizer (docs/contract/README.md §6)."""
    home = site_url(request)
    if record.status in UNPUBLISHED_URL_STATUSES or not record.slug:
        # The post types are plain words and the ID a number: nothing to escape.
        return f"{home}?post_type={record.KIND}&p={record.pk}"
    return f"{home}{PUBLIC_PATHS[record.KIND]}/{record.slug}/"


def term_url(request, term, ancestors=()):
    home = site_url(request)
    if term.taxonomy == Taxonomy.CATEGORY:
        path = "".join(f"{ancestor.slug}/" for ancestor in ancestors)
        return f"{home}events/category/{path}{term.slug}/"
    return f"{home}tag/{term.slug}/"


def global_id(request, record_id):
    """`"{host}{path}?id={id}"`: the home URL without scheme or port (the plugin's global ID).

    It names the record, not a translation of it, so the language prefix of the request is left
    out; the path the site is mounted under (SCRIPT_NAME) stays.
    """
    return f"{_global_id_base(request)}?id={record_id}"


def _global_id_base(request):
    """`{host}{path}` of the global IDs, worked out once per request and REST root: a list page
    holds one per event, venue and organizer."""
    context = rendering_context(request)
    root = context.rest_root
    cached = context.global_id_base
    if cached is None or cached[0] != root:
        parts = urlsplit(site_url(request))
        path = _without_language_prefix(request, parts.path).rstrip("/")
        cached = context.global_id_base = (root, f"{parts.hostname or ''}{path}")
    return cached[1]


def _without_language_prefix(request, path):
    """`path` (which starts with the request's script prefix) without the `/{language}` that
    i18n_patterns put at the start of the request's path_info."""
    path_info = request.path_info
    language = translation.get_language_from_path(path_info)
    if not language or not path_info.startswith(f"/{language}/"):
        return path
    # As build_absolute_uri() wrote it into `path`.
    script_prefix = iri_to_uri(request.path[: len(request.path) - len(path_info)])
    language_home = f"{script_prefix}/{language}/"
    if not path.startswith(language_home):
        return path
    return f"{script_prefix}/{path[len(language_home) :]}"


def marker_values(request):
    """What the markers of stored records stand for in this request's answers (events/store)."""
    return MarkerValues(
        rest_root=rest_root(request),
        home=site_url(request),
        global_id_base=_global_id_base(request),
        origin=f"{request.scheme}://{request.get_host()}",
    )


def with_query(base, pairs):
    """`base?k=v&...` with values percent-encoded (lists as CSV); no `?` when there are no pairs."""
    pairs = [(key, _query_value(value)) for key, value in pairs if value is not None]
    if not pairs:
        return base
    return f"{base}?{urlencode(pairs, quote_via=quote, safe=',:')}"


def _query_value(value):
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, (list, tuple)):
        return ",".join(str(item) for item in value)
    return str(value)
