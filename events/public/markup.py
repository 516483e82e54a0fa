"""Stored rich text reduced to a safe HTML subset before a public page shows it.

Writes keep descriptions as their authors sent them (the API returns them so, as WordPress does),
so pages read by anyone must not trust them: only an allow-list of tags and attributes survives,
URLs keep only web, mail and phone schemes, and scripts, styles and embeds vanish with their content.
nh3 (html5ever) reads the HTML in time linear in its length; its tree grows with tags x depth, so
text past the caps of events.html_shape (stored before they existed) is shown as plain text instead
(docs/decisions.md, "Public pages").
"""

import re
from html import escape, unescape

import nh3
from django.utils.safestring import mark_safe

from ..html_shape import RAW_TEXT_ELEMENTS, within_caps
from ..text import strip_tags

INLINE_TAGS = {
    **dict.fromkeys(
        (
            "b",
            "br",
            "cite",
            "code",
            "del",
            "em",
            "i",
            "ins",
            "kbd",
            "mark",
            "s",
            "small",
            "span",
            "strong",
            "sub",
            "sup",
            "u",
        ),
        frozenset(),
    ),
    "a": {"href", "title"},
    "abbr": {"title"},
    "q": {"cite"},
    "time": {"datetime"},
}
BLOCK_TAGS = {
    **INLINE_TAGS,
    **dict.fromkeys(
        (
            "dd",
            "div",
            "dl",
            "dt",
            "figcaption",
            "figure",
            "h2",
            "h3",
            "h4",
            "h5",
            "h6",
            "hr",
            "li",
            "p",
            "pre",
            "table",
            "tbody",
            "tfoot",
            "thead",
            "tr",
            "ul",
        ),
        frozenset(),
    ),
    "blockquote": {"cite"},
    "img": {"src", "alt", "width", "height", "title"},
    "ol": {"start"},
    "td": {"colspan", "rowspan"},
    "th": {"colspan", "rowspan", "scope"},
}
# Their content is code or a foreign document, never text a reader should see.
DROPPED_WITH_CONTENT = {
    "script",
    "style",
    "iframe",
    "object",
    "embed",
    "template",
    "noscript",
    "svg",
    "math",
    "textarea",
    "select",
    "title",
    "head",
}
URL_ATTRIBUTES = {"href", "src", "cite"}
SAFE_SCHEMES = {"http", "https", "mailto", "tel"}
_IGNORED_IN_URLS = re.compile(r"[\x00-\x20\x7f]+")
_SCHEME = re.compile(r"^([a-z][a-z0-9+.\-]*):", re.IGNORECASE)
_NUMBER = re.compile(r"^\d{1,4}%?$")
NUMERIC_ATTRIBUTES = {"width", "height", "colspan", "rowspan", "start"}
LINK_REL = "nofollow noopener"
# The elements dropped with their content whose content is text up to their own end tag whatever
# "<" it holds: the plain-text reading drops them without parsing what they hold.
_DROPPED_RAW_TEXT = sorted(DROPPED_WITH_CONTENT & RAW_TEXT_ELEMENTS)
_DROPPED_RAW_TEXT_START = re.compile(rf"<({'|'.join(_DROPPED_RAW_TEXT)})[\t\n\f\r />]", re.IGNORECASE)
_DROPPED_RAW_TEXT_END = {name: re.compile(rf"</{name}[\t\n\f\r />]", re.IGNORECASE) for name in _DROPPED_RAW_TEXT}


def safe_url(value):
    """The URL if it is relative or uses a safe scheme, else None (`javascript:` and the like)."""
    # Browsers ignore whitespace and control characters inside a scheme ("java\tscript:").
    probe = _IGNORED_IN_URLS.sub("", value)
    match = _SCHEME.match(probe)
    if match and match.group(1).lower() not in SAFE_SCHEMES:
        return None
    return value.strip()


def _attribute_value(tag, name, value):
    """The value an allowed attribute keeps, or None to drop it (nh3 has already refused unsafe
    `href` and `src` schemes; `cite` it does not check, and numbers it does not read)."""
    if name in URL_ATTRIBUTES:
        return safe_url(value)
    if name in NUMERIC_ATTRIBUTES and not _NUMBER.match(value.strip()):
        return None
    return value


def _markup(html, allowed):
    return nh3.clean(
        html,
        tags=set(allowed),
        attributes={tag: set(attributes) for tag, attributes in allowed.items()},
        clean_content_tags=DROPPED_WITH_CONTENT,
        attribute_filter=_attribute_value,
        url_schemes=SAFE_SCHEMES,
        # On every link (nh3 adds it whether or not an href survived): user-written links should
        # not pass ranking or the opener to their targets.
        link_rel=LINK_REL,
        strip_comments=True,
    )


def _plain_text(html):
    """`html` as escaped text: its markup stripped, and what scripts, styles and frames hold dropped."""
    kept, position = [], 0
    while (opened := _DROPPED_RAW_TEXT_START.search(html, position)) is not None:
        kept.append(html[position : opened.start()])
        closed = _DROPPED_RAW_TEXT_END[opened.group(1).lower()].search(html, opened.end())
        # Its end tag is stripped with the other markup; unclosed, it holds the rest of the text.
        position = len(html) if closed is None else closed.start()
    kept.append(html[position:])
    return escape(unescape(strip_tags("".join(kept))), quote=False)


def clean_html(html, inline=False):
    """`html` with only allowed markup left, marked safe for templates; past the HTML caps, its text."""
    if not html:
        return mark_safe("")
    if not within_caps(html):
        return mark_safe(_plain_text(html))  # noqa: S308 - escaped text, no markup
    return mark_safe(_markup(html, INLINE_TAGS if inline else BLOCK_TAGS))  # noqa: S308 - nh3 keeps only allow-listed markup
