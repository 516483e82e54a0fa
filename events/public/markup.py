"""Stored rich text reduced to a safe HTML subset before a public page shows it.

Writes keep descriptions as their authors sent them (the API returns them so, as WordPress does),
so pages read by anyone must not trust them: only an allow-list of tags and attributes survives,
URLs keep only web, mail and phone schemes, and scripts, styles and embeds vanish with their content.
"""

import re
from collections import Counter
from html import escape
from html.parser import HTMLParser

from django.utils.safestring import mark_safe

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
VOID_TAGS = {"br", "hr", "img"}
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


def safe_url(value):
    """The URL if it is relative or uses a safe scheme, else None (`javascript:` and the like)."""
    # Browsers ignore whitespace and control characters inside a scheme ("java\tscript:").
    probe = _IGNORED_IN_URLS.sub("", value)
    match = _SCHEME.match(probe)
    if match and match.group(1).lower() not in SAFE_SCHEMES:
        return None
    return value.strip()


class _Cleaner(HTMLParser):
    def __init__(self, allowed):
        super().__init__(convert_charrefs=True)
        self.allowed = allowed
        self.out = []
        self.open = []
        # How many of each tag are open: an end tag of a tag not open is then ignored without a
        # scan of the open ones (a scan per end tag is quadratic in deep stored HTML).
        self.open_counts = Counter()
        self.dropping = []

    def handle_starttag(self, tag, attrs):
        if tag in DROPPED_WITH_CONTENT:
            self.dropping.append(tag)
            return
        if self.dropping or tag not in self.allowed:
            return
        self.out.append(f"<{tag}{self._attributes(tag, attrs)}>")
        if tag not in VOID_TAGS:
            self.open.append(tag)
            self.open_counts[tag] += 1

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in VOID_TAGS:
            self.handle_endtag(tag)

    def handle_endtag(self, tag):
        if self.dropping:
            if tag == self.dropping[-1]:
                self.dropping.pop()
            return
        if not self.open_counts[tag]:
            return
        while self.open:
            closed = self.open.pop()
            self.open_counts[closed] -= 1
            self.out.append(f"</{closed}>")
            if closed == tag:
                break

    def handle_data(self, data):
        if not self.dropping:
            self.out.append(escape(data, quote=False))

    def _attributes(self, tag, attrs):
        kept = []
        for name, value in attrs:
            if name not in self.allowed[tag] or value is None:
                continue
            if name in URL_ATTRIBUTES:
                value = safe_url(value)
                if value is None:
                    continue
            elif name in NUMERIC_ATTRIBUTES and not _NUMBER.match(value.strip()):
                continue
            kept.append(f' {name}="{escape(value, quote=True)}"')
        if tag == "a" and any(name == "href" for name, _ in attrs):
            # Links in user-written text should not pass ranking or the opener to their targets.
            kept.append(' rel="nofollow noopener"')
        return "".join(kept)

    def result(self):
        self.close()
        closing = [f"</{tag}>" for tag in reversed(self.open)]
        return "".join(self.out + closing)


def clean_html(html, inline=False):
    """`html` with only allowed markup left, marked safe for templates."""
    cleaner = _Cleaner(INLINE_TAGS if inline else BLOCK_TAGS)
    cleaner.feed(html or "")
    return mark_safe(cleaner.result())  # noqa: S308 - built from escaped text and allow-listed tags only
