"""How many tags a piece of HTML holds and how deep it nests, measured in one linear pass before any parser builds its tree.

An HTML5 parser (nh3's html5ever when a write is filtered) looks through its stack of open
elements and its list of formatting elements at every tag: its cost grows with tags × depth, and a
formatting element left open is re-opened in every paragraph that follows. `"<div>" * 300_000`
holds a worker for minutes; forty bytes of unclosed `<b id=…>` per level make every later `<p>`
cost a few hundred elements. The pass below follows the parser's tree-building rules closely enough
to count what the parser would build (overcounting where it simplifies), in time linear in the
input, and stops as soon as a cap is passed; docs/configuration.md gives the caps and what they
cost at their limit.
"""

import re

from django.utils.translation import gettext_lazy as _

from .conf import events_settings
from .exceptions import InvalidValue

VOID_ELEMENTS = frozenset(
    [
        "area",
        "base",
        "basefont",
        "bgsound",
        "br",
        "col",
        "embed",
        "frame",
        "hr",
        "img",
        "input",
        "keygen",
        "link",
        "meta",
        "param",
        "source",
        "track",
        "wbr",
    ]
)
# Their content is text up to their own end tag, whatever "<" it holds.
# (<noscript> is read as markup: a parser with scripting off reads it so, and that costs more.)
RAW_TEXT_ELEMENTS = frozenset(["iframe", "noembed", "noframes", "script", "style", "textarea", "title", "xmp"])
# Kept in the parser's list of active formatting elements, and re-opened when something else closed them.
FORMATTING_ELEMENTS = frozenset(
    ["a", "b", "big", "code", "em", "font", "i", "nobr", "s", "small", "strike", "strong", "tt", "u"]
)
# The parser's "has an element in scope" stops at these: an end tag does not close anything outside them.
SCOPE_BOUNDARIES = frozenset(["applet", "caption", "html", "marquee", "object", "table", "td", "template", "th"])
# Formatting elements opened inside these are forgotten when they close (the list's markers).
MARKER_ELEMENTS = frozenset(["applet", "caption", "marquee", "object", "td", "template", "th"])
# The parser's "special" elements: an unknown end tag never closes anything past one of them.
SPECIAL_ELEMENTS = VOID_ELEMENTS | frozenset(
    [
        "address",
        "applet",
        "article",
        "aside",
        "blockquote",
        "body",
        "button",
        "caption",
        "center",
        "colgroup",
        "dd",
        "details",
        "dialog",
        "dir",
        "div",
        "dl",
        "dt",
        "fieldset",
        "figcaption",
        "figure",
        "footer",
        "form",
        "frameset",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "head",
        "header",
        "hgroup",
        "html",
        "iframe",
        "li",
        "listing",
        "main",
        "marquee",
        "menu",
        "nav",
        "noembed",
        "noframes",
        "noscript",
        "object",
        "ol",
        "p",
        "plaintext",
        "pre",
        "script",
        "search",
        "section",
        "select",
        "style",
        "summary",
        "table",
        "tbody",
        "td",
        "template",
        "textarea",
        "tfoot",
        "th",
        "thead",
        "title",
        "tr",
        "ul",
        "xmp",
    ]
)
# Start tags that close an open <p> first.
CLOSES_PARAGRAPH = frozenset(
    [
        "address",
        "article",
        "aside",
        "blockquote",
        "center",
        "details",
        "dialog",
        "dir",
        "div",
        "dl",
        "dd",
        "dt",
        "fieldset",
        "figcaption",
        "figure",
        "footer",
        "form",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "header",
        "hgroup",
        "hr",
        "li",
        "listing",
        "main",
        "menu",
        "nav",
        "ol",
        "p",
        "pre",
        "search",
        "section",
        "summary",
        "table",
        "ul",
        "xmp",
    ]
)
HEADINGS = frozenset(["h1", "h2", "h3", "h4", "h5", "h6"])
# Start tags that close an open element of the same group first (the items of a list or a table).
IMPLIED_CLOSES = {
    "li": ("li",),
    "dd": ("dd", "dt"),
    "dt": ("dd", "dt"),
    "td": ("td", "th"),
    "th": ("td", "th"),
    "tr": ("tr", "td", "th"),
    "tbody": ("tbody", "thead", "tfoot", "tr", "td", "th"),
    "thead": ("tbody", "thead", "tfoot", "tr", "td", "th"),
    "tfoot": ("tbody", "thead", "tfoot", "tr", "td", "th"),
    "option": ("option",),
}
# Where the closing of an item stops looking: an <li> closes no <li> of an outer list.
ITEM_CONTAINERS = {"li": ("ul", "ol"), "dd": ("dl",), "dt": ("dl",), "option": ("select", "datalist")}

_WHITESPACE = "\t\n\f\r "
# Where markup may start: any other "<" is text, skipped without a step of its own.
_MARKUP_START = re.compile(r"<[A-Za-z/!?]")
# A tag with its attributes; a quote only opens a value after "=". Possessive, so a tag that never
# ends is read once, to the end of the input, and never again.
_TAG = re.compile(
    r"<(/?)([A-Za-z][^\t\n\f\r />]*+)"
    r"(?:[^>\"'=]++|=[\t\n\f\r ]*+\"[^\"]*+\"|=[\t\n\f\r ]*+'[^']*+'|[=\"'])*+"
)


class HtmlTooComplex(Exception):
    """The HTML holds more tags, or nests deeper, than the caps allow; `reason` says which."""

    def __init__(self, reason):
        super().__init__(reason)
        self.reason = reason


def _raw_text_end(name):
    # Not memoised: re.compile's own cache answers as fast as functools.cache did.
    return re.compile(rf"</{name}[{_WHITESPACE}/>]", re.IGNORECASE)


def check_html(field, value):
    """InvalidValue(field) when `value` is HTML past the caps (HTML_MAX_TAGS, HTML_MAX_DEPTH)."""
    try:
        measure(value, events_settings.HTML_MAX_TAGS, events_settings.HTML_MAX_DEPTH)
    except HtmlTooComplex as error:
        raise InvalidValue(field, error.reason) from None


def within_caps(value):
    """Whether stored HTML is within the caps, so that a page may parse it (one written before them may not be)."""
    try:
        measure(value, events_settings.HTML_MAX_TAGS, events_settings.HTML_MAX_DEPTH)
    except HtmlTooComplex:
        return False
    return True


def measure(value, max_tags, max_depth):
    """(tags, depth) of `value`: its start and end tags plus the formatting elements the parser
    would re-open, and the deepest nesting of open elements. HtmlTooComplex as soon as one passes its cap."""
    if not value or "<" not in value:
        return 0, 0
    tree = _Tree(max_tags, max_depth)
    position, end = 0, len(value)
    while position < end:
        found = _MARKUP_START.search(value, position)
        start = found.start() if found else end
        if start > position:
            tree.text()
        if found is None:
            break
        position = _read_markup(value, start, tree)
    return tree.tags, tree.depth


def _read_markup(value, start, tree):
    """Read the markup that opens at `value[start]` into `tree`; the index just past it."""
    match = _TAG.match(value, start)
    if match is None:
        # A comment, a doctype, a processing instruction or "</" without a name. Each counts as a
        # tag: it is a step of this pass, so the cap bounds the pass as well.
        tree.comment()
        if value.startswith("<!--", start):
            # "<!-->" and "<!--->" are whole comments; any other runs to "-->" (or to the end).
            for short in ("<!-->", "<!--->"):
                if value.startswith(short, start):
                    return start + len(short)
            close = value.find("-->", start + 4)
            return len(value) if close == -1 else close + 3
        close = value.find(">", start + 1)
        return len(value) if close == -1 else close + 1
    closing, name = match.group(1) == "/", match.group(2).lower()
    after = min(match.end() + 1, len(value))  # past the ">" (a tag without one runs to the end)
    if closing:
        tree.end_tag(name)
        return after
    tree.start_tag(name)
    if name == "plaintext":
        return len(value)
    if name in RAW_TEXT_ELEMENTS:
        close = _raw_text_end(name).search(value, after)
        if close is None:
            return len(value)
        tree.text()
        return close.start()
    return after


class _Tree:
    """The parser's stack of open elements and list of active formatting elements, as far as they
    decide how much it builds. Every operation is constant time, or paid by the tags it counts."""

    def __init__(self, max_tags, max_depth):
        self.max_tags = max_tags
        self.max_depth = max_depth
        self.tags = 0
        self.depth = 0
        self.stack = []
        # Indices in `stack` of each open element name, of the scope boundaries and of the special elements.
        self.positions = {}
        self.boundaries = [-1]
        self.specials = [-1]
        # Per marker: formatting elements still in the list ({name: count}), and those the stack lost.
        self.sections = [({}, [])]

    def _count(self, tags=1):
        self.tags += tags
        if self.tags > self.max_tags:
            raise HtmlTooComplex(
                _("The HTML holds more than %(count)d tags.") % {"count": self.max_tags},
            )

    def _push(self, name):
        index = len(self.stack)
        self.stack.append(name)
        self.positions.setdefault(name, []).append(index)
        if name in SCOPE_BOUNDARIES:
            self.boundaries.append(index)
        if name in SPECIAL_ELEMENTS:
            self.specials.append(index)
        if name in MARKER_ELEMENTS:
            self.sections.append(({}, []))
        if len(self.stack) > self.depth:
            self.depth = len(self.stack)
            if self.depth > self.max_depth:
                raise HtmlTooComplex(
                    _("The HTML nests deeper than %(depth)d elements.") % {"depth": self.max_depth},
                )

    def _pop(self, closed_by_own_tag):
        name = self.stack.pop()
        index = len(self.stack)
        self.positions[name].pop()
        if self.boundaries[-1] == index:
            self.boundaries.pop()
        if self.specials[-1] == index:
            self.specials.pop()
        if name in MARKER_ELEMENTS:
            self.sections.pop()
        elif not closed_by_own_tag and name in FORMATTING_ELEMENTS:
            live, detached = self.sections[-1]
            if live.get(name):
                detached.append(name)
        return name

    def _nearest(self, name):
        found = self.positions.get(name)
        return found[-1] if found else -1

    def _in_scope(self, name):
        """Index of the open `name` an end tag would close, or -1."""
        index = self._nearest(name)
        if index == -1 or self.boundaries[-1] > index:
            return -1
        if name == "li" and max(self._nearest("ul"), self._nearest("ol")) > index:
            return -1  # an </li> closes no item of an outer list
        return index

    def _close(self, index):
        while len(self.stack) > index + 1:
            self._pop(closed_by_own_tag=False)
        self._pop(closed_by_own_tag=True)

    def _reconstruct(self):
        """Re-open the formatting elements something else closed, as the parser does before content."""
        live, detached = self.sections[-1]
        if detached:
            self._count(len(detached))
            reopened, detached[:] = list(detached), []
            for name in reopened:
                self._push(name)

    def text(self):
        self._reconstruct()

    def comment(self):
        self._count()

    def start_tag(self, name):
        self._count()
        if name in CLOSES_PARAGRAPH:
            paragraph = self._in_scope("p")
            if paragraph != -1:
                self._close(paragraph)
        if name in HEADINGS and self.stack and self.stack[-1] in HEADINGS:
            self._close(len(self.stack) - 1)
        if name in IMPLIED_CLOSES:
            self._close_item(name)
        if name in ("a", "nobr") and self.sections[-1][0].get(name):
            self.end_tag(name)
        if name not in SPECIAL_ELEMENTS or name in VOID_ELEMENTS:
            self._reconstruct()
        if name in VOID_ELEMENTS:
            return
        self._push(name)
        if name in FORMATTING_ELEMENTS:
            live = self.sections[-1][0]
            live[name] = live.get(name, 0) + 1

    def _close_item(self, name):
        """An item start tag (<li>, <td>, <tr>…) closes the open items of its group in the same
        container, innermost first (a <tr> closes the open cell, then the open row)."""
        containers = ITEM_CONTAINERS.get(name, ("table",))
        for item in reversed(IMPLIED_CLOSES[name]):
            index = self._in_scope(item)
            if index != -1 and all(self._nearest(container) < index for container in containers):
                self._close(index)

    def end_tag(self, name):
        self._count()
        if name == "br":  # "</br>" is read as "<br>"
            self._reconstruct()
            return
        live, detached = self.sections[-1]
        if name in FORMATTING_ELEMENTS and live.get(name):
            live[name] -= 1
            index = self._in_scope(name)
            if index != -1:
                self._close(index)
            elif name in detached:
                detached.remove(name)
            return
        index = self._in_scope(name)
        if index == -1:
            return
        if name not in SPECIAL_ELEMENTS and self.specials[-1] > index:
            return  # an unknown end tag never closes past a special element
        self._close(index)
