"""The HTML a writer without WordPress's `unfiltered_html` may store (WordPress's kses, via nh3).

WordPress filters the title, content and excerpt of authors and contributors on save (administrators
and editors keep unfiltered HTML): scripts, event handlers and `javascript:` URLs never reach the
database, and clients written for WordPress rely on that when they show what the API returns. The
allowed tags, attributes and URL schemes below are WordPress's `$allowedposttags` (content, excerpt,
linked records' descriptions) and `$allowedtags` (titles), applied by nh3, a maintained binding of
the Rust sanitiser ammonia.
"""

import nh3

# Attributes WordPress allows on every post tag (`_wp_add_global_attributes`), besides aria-* and data-*.
_GLOBAL_ATTRIBUTES = {"class", "dir", "id", "lang", "role", "title", "xml:lang"}

_POST_TAG_ATTRIBUTES = {
    "address": set(),
    "a": {"href", "rel", "rev", "name", "target", "download", "referrerpolicy"},
    "abbr": set(),
    "acronym": set(),
    "area": {"alt", "coords", "href", "nohref", "shape", "target"},
    "article": {"align"},
    "aside": {"align"},
    "audio": {"autoplay", "controls", "loop", "muted", "preload", "src"},
    "b": set(),
    "bdo": set(),
    "big": set(),
    "blockquote": {"cite"},
    "br": set(),
    "button": {"disabled", "name", "type", "value"},
    "caption": {"align"},
    "cite": set(),
    "code": set(),
    "col": {"align", "char", "charoff", "span", "valign", "width"},
    "colgroup": {"align", "char", "charoff", "span", "valign", "width"},
    "del": {"datetime"},
    "dd": set(),
    "dfn": set(),
    "details": {"align", "open"},
    "div": {"align"},
    "dl": set(),
    "dt": set(),
    "em": set(),
    "fieldset": set(),
    "figure": {"align"},
    "figcaption": {"align"},
    "font": {"color", "face", "size"},
    "footer": {"align"},
    "h1": {"align"},
    "h2": {"align"},
    "h3": {"align"},
    "h4": {"align"},
    "h5": {"align"},
    "h6": {"align"},
    "header": {"align"},
    "hgroup": {"align"},
    "hr": {"align", "noshade", "size", "width"},
    "i": set(),
    "img": {
        "alt",
        "align",
        "border",
        "height",
        "hspace",
        "loading",
        "longdesc",
        "vspace",
        "src",
        "usemap",
        "width",
        "decoding",
        "srcset",
        "sizes",
    },
    "ins": {"datetime", "cite"},
    "kbd": set(),
    "label": {"for"},
    "legend": {"align"},
    "li": {"align", "value"},
    "main": {"align"},
    "map": {"name"},
    "mark": set(),
    "menu": {"type"},
    "nav": {"align"},
    "p": {"align"},
    "pre": {"width"},
    "q": {"cite"},
    "rb": set(),
    "rp": set(),
    "rt": set(),
    "rtc": set(),
    "ruby": set(),
    "s": set(),
    "samp": set(),
    "span": {"align"},
    "section": {"align"},
    "small": set(),
    "strike": set(),
    "strong": set(),
    "sub": set(),
    "summary": {"align"},
    "sup": set(),
    "table": {"align", "bgcolor", "border", "cellpadding", "cellspacing", "rules", "summary", "width"},
    "tbody": {"align", "char", "charoff", "valign"},
    "td": {
        "abbr",
        "align",
        "axis",
        "bgcolor",
        "char",
        "charoff",
        "colspan",
        "headers",
        "height",
        "nowrap",
        "rowspan",
        "scope",
        "valign",
        "width",
    },
    "textarea": {"cols", "rows", "disabled", "name", "readonly"},
    "tfoot": {"align", "char", "charoff", "valign"},
    "th": {
        "abbr",
        "align",
        "axis",
        "bgcolor",
        "char",
        "charoff",
        "colspan",
        "headers",
        "height",
        "nowrap",
        "rowspan",
        "scope",
        "valign",
        "width",
    },
    "thead": {"align", "char", "charoff", "valign"},
    "title": set(),
    "tr": {"align", "bgcolor", "char", "charoff", "valign"},
    "track": {"default", "kind", "label", "src", "srclang"},
    "tt": set(),
    "u": set(),
    "ul": {"type"},
    "ol": {"start", "type", "reversed"},
    "var": set(),
    "video": {"autoplay", "controls", "height", "loop", "muted", "playsinline", "poster", "preload", "src", "width"},
}
POST_TAGS = {tag: attributes | _GLOBAL_ATTRIBUTES for tag, attributes in _POST_TAG_ATTRIBUTES.items()}

TITLE_TAGS = {
    "a": {"href", "title"},
    "abbr": {"title"},
    "acronym": {"title"},
    "b": set(),
    "blockquote": {"cite"},
    "cite": set(),
    "code": set(),
    "del": {"datetime"},
    "em": set(),
    "i": set(),
    "q": {"cite"},
    "s": set(),
    "strike": set(),
    "strong": set(),
}

# wp_allowed_protocols()
URL_SCHEMES = {
    "http",
    "https",
    "ftp",
    "ftps",
    "mailto",
    "news",
    "irc",
    "irc6",
    "ircs",
    "gopher",
    "nntp",
    "feed",
    "telnet",
    "mms",
    "rtsp",
    "sms",
    "svn",
    "tel",
    "fax",
    "xmpp",
    "webcal",
    "urn",
}


def _clean(value, tags, prefixes):
    if not value or "<" not in value:
        # Nothing a browser would read as markup: stored exactly as sent (ammonia would re-escape `&`).
        return value
    return nh3.clean(
        value,
        tags=set(tags),
        attributes={tag: set(attributes) for tag, attributes in tags.items()},
        url_schemes=URL_SCHEMES,
        link_rel=None,
        generic_attribute_prefixes=prefixes,
        strip_comments=False,
    )


def filter_post_html(value):
    """Content, excerpt and linked records' descriptions of a writer without unfiltered HTML."""
    return _clean(value, POST_TAGS, {"aria-", "data-"})


def filter_title_html(value):
    """A title of a writer without unfiltered HTML: only WordPress's few inline tags."""
    return _clean(value, TITLE_TAGS, set())
