"""WordPress text formatting: titles, content paragraphs, slugs, plain text and escaping.

Most expectations are WordPress's own: they come from core's PHPUnit suite (wpTexturize,
wpAutop, sanitizeTitleWithDashes) or from running the PHP functions on the same input.
"""

import re

import pytest

from events.text import (
    autop,
    escape_html,
    escape_url,
    excerpt_words,
    is_email,
    normalize_lookup_slug,
    sanitize_text_field,
    sanitize_title,
    strip_tags,
    texturize,
    unique_slug,
)


def case(value, expected, id):
    return pytest.param(value, expected, id=id)


# ---------------------------------------------------------------------------------------------
# texturize
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "title, expected",
    [
        case("", "", "empty"),
        case("Event 01", "Event 01", "plain-title-unchanged"),
        case("  Padded title \n", "Padded title", "trimmed"),
        case("Tom & Jerry", "Tom &#038; Jerry", "bare-ampersand"),
        case("Tom&Jerry", "Tom&#038;Jerry", "bare-ampersand-inside-word"),
        case("Tom &amp; Jerry", "Tom &amp; Jerry", "named-entity-kept"),
        case("Tom &#038; Jerry", "Tom &#038; Jerry", "numeric-entity-kept"),
        case("Rock&#8217;n roll", "Rock&#8217;n roll", "curly-entity-kept"),
        case("No&nbsp;break", "No&nbsp;break", "nbsp-kept"),
        case("Fish &# chips", "Fish &#038;# chips", "incomplete-numeric-entity-escaped"),
        case('"Quoted" title', "&#8220;Quoted&#8221; title", "double-quotes-at-start"),
        case('The "big" night', "The &#8220;big&#8221; night", "double-quotes-after-space"),
        case('Gala ("formal")', "Gala (&#8220;formal&#8221;)", "double-quotes-in-parentheses"),
        case("Joe's Bar", "Joe&#8217;s Bar", "apostrophe-in-word"),
        case("'Single' quotes", "&#8216;Single&#8217; quotes", "single-quotes"),
        case("Rock 'n' roll", "Rock &#8216;n&#8217; roll", "single-quotes-after-space"),
        case("Class of '99", "Class of &#8217;99", "abbreviated-year"),
        case("'Tis the season", "&#8216;Tis the season", "cockney-words-are-case-sensitive"),
        case("'tis the season", "&#8217;tis the season", "cockney-word-apostrophe"),
        case("A 6' 2\" player", "A 6&#8242; 2&#8243; player", "feet-and-inches-primes"),
        case("Room 10x12", "Room 10&#215;12", "dimensions"),
        case("Colour 0x1F", "Colour 0x1F", "hex-is-not-a-dimension"),
        case("Rock -- Roll", "Rock &#8212; Roll", "spaced-double-dash-em"),
        case("A---B", "A&#8212;B", "triple-dash-em"),
        case("1990--2000", "1990&#8211;2000", "double-dash-en"),
        case("Mon - Fri", "Mon &#8211; Fri", "spaced-dash-en"),
        case("well-known", "well-known", "hyphen-unchanged"),
        case("xn--bcher-kva.example", "xn--bcher-kva.example", "punycode-prefix-unchanged"),
        case("Wait...", "Wait&#8230;", "ellipsis"),
        case("Brand (tm) launch", "Brand &#8482; launch", "trademark"),
        case("Copyright (c) 2024 (r)", "Copyright (c) 2024 (r)", "no-copyright-or-registered-rule"),
        case('中文 "引用"', "中文 &#8220;引用&#8221;", "chinese-text-with-quotes"),
    ],
)
def test_texturize_text(title, expected):
    assert texturize(title) == expected


@pytest.mark.parametrize(
    "title, expected",
    [
        case(
            '<span class="big">"Hello"</span>',
            '<span class="big">&#8220;Hello&#8221;</span>',
            "quotes-in-attributes-untouched",
        ),
        case(
            '<a href="/x" title="Joe\'s">Joe\'s</a>',
            '<a href="/x" title="Joe\'s">Joe&#8217;s</a>',
            "apostrophe-in-attribute-untouched",
        ),
        case(
            '<a href="/search?a=1&b=2">Link</a>',
            '<a href="/search?a=1&#038;b=2">Link</a>',
            "ampersand-in-attribute-escaped-as-wordpress-does",
        ),
        case(
            '<img src="/uploads/image-300x216.gif" /> -- x',
            '<img src="/uploads/image-300x216.gif" /> &#8212; x',
            "dimensions-in-attribute-untouched",
        ),
        case('Intro <!-- "draft" --> x', 'Intro <!-- "draft" --> x', "comment-untouched"),
        case('<code>"raw" --</code> "text"', '<code>"raw" --</code> &#8220;text&#8221;', "code-element-untouched"),
        case("<pre>a & b</pre>", "<pre>a &#038; b</pre>", "convert-chars-still-escapes-inside-pre"),
    ],
)
def test_texturize_leaves_markup_alone(title, expected):
    assert texturize(title) == expected


def test_texturize_wordpress_docblock_example():
    source = "'cause today's effort makes it worth tomorrow's \"holiday\" ..."
    assert texturize(source) == (
        "&#8217;cause today&#8217;s effort makes it worth tomorrow&#8217;s &#8220;holiday&#8221; &#8230;"
    )


# ---------------------------------------------------------------------------------------------
# autop
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "content, expected",
    [
        case("", "", "empty"),
        case("  \n\t \n", "", "whitespace-only"),
        case("Event 01 description", "<p>Event 01 description</p>", "single-paragraph"),
        case("a\nb", "<p>a<br />\nb</p>", "single-newline-becomes-br"),
        case("a\n\nb", "<p>a</p>\n<p>b</p>", "blank-line-splits-paragraphs"),
        case("a\n\n\n\nb", "<p>a</p>\n<p>b</p>", "many-blank-lines-split-once"),
        case("a\r\n\r\nb\rc", "<p>a</p>\n<p>b<br />\nc</p>", "windows-and-mac-newlines"),
        case("line  \nnext", "<p>line<br />\nnext</p>", "spaces-before-newline-dropped"),
        case("\n\nTrailing\n\n", "<p>Trailing</p>", "outer-newlines-dropped"),
        case("<p>Already</p>", "<p>Already</p>", "existing-paragraph-kept"),
        case("<h2>Title</h2>\nBody", "<h2>Title</h2>\n<p>Body</p>", "heading-not-wrapped"),
        case("Intro\n<ul><li>x</li></ul>", "<p>Intro</p>\n<ul>\n<li>x</li>\n</ul>", "list-on-its-own-line"),
        case("a<div>b</div>", "<p>a</p>\n<div>b</div>", "text-before-block-wrapped"),
        case("<blockquote>foo</blockquote>", "<blockquote><p>foo</p></blockquote>", "blockquote-content-wrapped"),
        case("paragraph1<hr>paragraph2", "<p>paragraph1</p>\n<hr>\n<p>paragraph2</p>", "hr-separates"),
        case("<pre>a\n\nb</pre>", "<pre>a\n\nb</pre>", "pre-untouched"),
        case("Hello <a\nhref='world'>", "<p>Hello <a\nhref='world'></p>", "newline-inside-tag-kept"),
        case(
            "<em>One</em>\n\n<strong>Two</strong>",
            "<p><em>One</em></p>\n<p><strong>Two</strong></p>",
            "inline-elements-wrapped",
        ),
        case(
            "line 1<br>\n<br/>\nline 2",
            "<p>line 1</p>\n<p>line 2</p>",
            "double-br-is-a-paragraph-break",
        ),
        case("中文第一段\n\n第二段", "<p>中文第一段</p>\n<p>第二段</p>", "chinese-paragraphs"),
    ],
)
def test_autop(content, expected):
    assert autop(content) == expected


# ---------------------------------------------------------------------------------------------
# Slugs
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "title, expected",
    [
        case("", "", "empty"),
        case("Event 01", "event-01", "lower-case-and-dash"),
        case("Café Déjà Vu", "cafe-deja-vu", "accents-removed"),
        case("Straße Øresund Łódź", "strase-oresund-lodz", "letters-without-decomposition"),
        case("Ελληνικά", "%ce%b5%ce%bb%ce%bb%ce%b7%ce%bd%ce%b9%ce%ba%ce%ac", "greek-keeps-its-accents"),
        case("中文", "%e4%b8%ad%e6%96%87", "chinese-percent-encoded"),
        case("が", "%e3%81%8c", "kana-voicing-mark-kept"),
        case("Captain <strong>Awesome</strong>", "captain-awesome", "tags-stripped"),
        case("my.event/2024", "my-event-2024", "dot-and-slash-become-dash"),
        case("snake_case name", "snake_case-name", "underscore-kept"),
        case("Hello, World! (Again?)", "hello-world-again", "punctuation-dropped"),
        case("a    \n\n\nt", "a-t", "whitespace-run-one-dash"),
        case("--a----t----", "a-t", "dash-runs-collapsed-and-trimmed"),
        case("Tom &amp; Jerry", "tom-jerry", "entity-removed"),
        case("Tom & Jerry", "tom-jerry", "bare-ampersand-dropped"),
        case("Do &ndash; the &mdash; Dash", "do-the-dash", "dash-entities"),
        case("Do – the — Dash", "do-the-dash", "unicode-dashes"),
        case("Don’t “quote” me…", "dont-quote-me", "curly-quotes-and-ellipsis-dropped"),
        case("Fancy • Title ™ ©", "fancy-title", "symbols-dropped"),
        case("6×7 is 42", "6x7-is-42", "multiplication-sign"),
        case("fran%c3%a7%ois", "fran%c3%a7ois", "stray-percent-dropped-octets-kept"),
        case("a%2Fb", "a-b", "encoded-slash-is-a-slash"),
        case("50%20off", "50-off", "encoded-space-is-a-space"),
        case("a%41b", "aab", "encoded-letter-is-the-letter"),
        case("100%25 sure", "100-sure", "encoded-percent-dropped"),
        case("a%2%41b", "ab", "octet-spelled-by-an-octet"),
        case("%3Cb%3Ebold", "bold", "encoded-tag-stripped"),
        case("!!!", "", "nothing-sluggable"),
    ],
)
def test_sanitize_title(title, expected):
    assert sanitize_title(title) == expected


def test_sanitize_title_cuts_at_200_characters():
    assert sanitize_title("x" * 250) == "x" * 200


def test_sanitize_title_cut_never_leaves_a_trailing_dash():
    assert sanitize_title("a" * 199 + " b") == "a" * 199


def test_sanitize_title_cut_never_splits_an_encoded_character():
    slug = sanitize_title("中" * 80)
    assert slug == "%e4%b8%ad" * 22
    assert len(slug) == 198  # a 23rd character would need 207


def test_sanitize_title_custom_max_length():
    assert sanitize_title("中文字", max_length=20) == "%e4%b8%ad%e6%96%87"


@pytest.mark.parametrize(
    "segment, expected",
    [
        case("Event-01", "event-01", "lower-cased"),
        case("my.slug", "my-slug", "dot-becomes-dash"),
        case("%E4%B8%AD%E6%96%87", "%e4%b8%ad%e6%96%87", "encoded-chinese"),
        case("%e4%b8%ad%e6%96%87", "%e4%b8%ad%e6%96%87", "stored-form"),
        case("中文", "%e4%b8%ad%e6%96%87", "raw-chinese"),
        case("my slug", "my-slug", "space"),
        case("my%20slug", "my-slug", "encoded-space"),
        case("/event-01/", "event-01", "outer-slashes-trimmed"),
        case("café", "caf%c3%a9", "accents-kept-in-query-context"),
        case("joe's", "joe%27s", "punctuation-encoded-as-wordpress-does"),
        case("a%2Fb", "a/b", "encoded-slash-makes-a-path"),
    ],
)
def test_normalize_lookup_slug(segment, expected):
    assert normalize_lookup_slug(segment) == expected


@pytest.mark.parametrize(
    "title",
    [
        "Event 01",
        "Café Déjà Vu",
        "中文 活动 2024",
        "Москва — Петербург",
        'Tom & Jerry\'s "Big" Night!',
        "snake_case.v2/final",
        "%C3%89t%C3%A9 literal octets",
        "中" * 80,
        "word " * 60,
    ],
)
def test_stored_slug_is_found_by_its_own_lookup(title):
    slug = sanitize_title(title)
    assert slug
    assert normalize_lookup_slug(slug) == slug


@pytest.mark.parametrize(
    "value, expected",
    [
        case("ann@example.org", True, "plain"),
        case("o'brien+news@mail.example.co.uk", True, "punctuation-in-the-local-part"),
        case("a@b.co", True, "six-bytes"),
        case("a@b.c", False, "under-six-bytes"),
        case('">@x.com', False, "quote-and-angle-bracket"),
        case("ann@example", False, "one-label"),
        case("@example.org", False, "no-local-part"),
        case("ann@exa_mple.org", False, "underscore-in-the-domain"),
        case("ann@-example.org", False, "label-starting-with-a-hyphen"),
        case("ann@example..org", False, "empty-label"),
        case("ann@example.org.", False, "trailing-dot"),
        case("ann@@example.org", False, "second-at-sign"),
        case("ann@exämple.org", False, "non-ascii-domain"),
    ],
)
def test_is_email_follows_wordpress(value, expected):
    assert is_email(value) is expected


class TestUniqueSlug:
    def test_free_base_is_kept(self):
        assert unique_slug("event", lambda slug: False) == "event"

    def test_first_free_suffix_starting_at_two(self):
        taken = {"event", "event-2", "event-3"}
        assert unique_slug("event", taken.__contains__) == "event-4"

    def test_empty_base_is_never_suffixed(self):
        assert unique_slug("", lambda slug: True) == ""

    @pytest.mark.parametrize("length", [199, 200])
    def test_suffix_fits_within_the_limit(self, length):
        base = "b" * length
        assert unique_slug(base, {base}.__contains__) == "b" * 198 + "-2"

    def test_longer_suffix_trims_more(self):
        base = "b" * 200
        taken = {base} | {f"{'b' * 198}-{n}" for n in range(2, 10)}
        assert unique_slug(base, taken.__contains__) == "b" * 197 + "-10"

    def test_trimmed_base_loses_its_trailing_dash(self):
        base = "a" * 197 + "-bb"
        assert unique_slug(base, {base}.__contains__) == "a" * 197 + "-2"

    def test_encoded_base_is_trimmed_by_whole_characters(self):
        base = sanitize_title("中" * 80)  # 198 characters
        result = unique_slug(base, {base}.__contains__, max_length=198)
        assert result == "%e4%b8%ad" * 21 + "-2"


# ---------------------------------------------------------------------------------------------
# Plain text, excerpts and escaping
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "value, expected",
    [
        case("", "", "empty"),
        case("Hello <b>World</b>", "Hello World", "tags"),
        case('<a href="x" title="a>b">link</a> text', "link text", "quoted-greater-than-in-attribute"),
        case("a < b", "a < b", "less-than-before-space-is-text"),
        case("a <b", "a ", "unclosed-tag-swallows-the-rest"),
        case("keep <!-- hidden --> this", "keep  this", "comment"),
        case("  spaces stay  ", "  spaces stay  ", "no-trimming"),
    ],
)
def test_strip_tags(value, expected):
    assert strip_tags(value) == expected


@pytest.mark.parametrize(
    "value, expected",
    [
        case("", "", "empty"),
        case("  Main   Hall \n", "Main Hall", "whitespace-collapsed-and-trimmed"),
        case("Line one\r\nLine\ttwo", "Line one Line two", "line-breaks-and-tabs"),
        case("<b>Bold</b> venue", "Bold venue", "tags-stripped"),
        case("<script>alert(1)</script>Safe", "Safe", "script-content-removed"),
        case("a < b", "a &lt; b", "lone-less-than-escaped"),
        case("Save 100%25 now", "Save 100 now", "percent-octets-removed"),
        case("Tom &amp; Jerry", "Tom &amp; Jerry", "entities-kept"),
        case("中文 场馆", "中文 场馆", "chinese"),
    ],
)
def test_sanitize_text_field(value, expected):
    assert sanitize_text_field(value) == expected


@pytest.mark.parametrize(
    "html, words, expected",
    [
        pytest.param("", 55, "", id="empty"),
        pytest.param("<p>One two three</p>", 55, "One two three", id="short-text-untouched"),
        pytest.param("<p>One two three four</p>", 3, "One two three&hellip;", id="cut-with-hellip"),
        pytest.param("<p>One two three</p>", 3, "One two three", id="exact-count-not-cut"),
        pytest.param("<p>One</p>\n<p>two\tthree</p>", 55, "One two three", id="whitespace-normalised"),
        pytest.param("<style>p {}</style><p>Visible text</p>", 55, "Visible text", id="style-content-removed"),
    ],
)
def test_excerpt_words(html, words, expected):
    assert excerpt_words(html, words) == expected


def test_excerpt_words_defaults_to_55_words():
    text = " ".join(f"w{n}" for n in range(60))
    assert excerpt_words(text) == " ".join(f"w{n}" for n in range(55)) + "&hellip;"


@pytest.mark.parametrize(
    "value, expected",
    [
        case("", "", "empty"),
        case("Tom & Jerry", "Tom &amp; Jerry", "bare-ampersand"),
        case("Tom &amp; Jerry", "Tom &amp; Jerry", "existing-entity-not-double-escaped"),
        case("&#8217; &#x41;", "&#8217; &#x41;", "numeric-entities-kept"),
        case("&#38;", "&#038;", "short-decimal-entity-padded"),
        case("&bogus;", "&amp;bogus;", "unknown-entity-escaped"),
        case('<b>"Joe\'s"</b>', "&lt;b&gt;&quot;Joe&#039;s&quot;&lt;/b&gt;", "markup-and-quotes"),
        case("中文", "中文", "chinese"),
    ],
)
def test_escape_html(value, expected):
    assert escape_html(value) == expected


@pytest.mark.parametrize(
    "value, expected",
    [
        case("", "", "empty"),
        case("  https://example.com/  ", "https://example.com/", "trimmed"),
        case("https://example.com/?a=1&b=2", "https://example.com/?a=1&amp;b=2", "bare-ampersand"),
        case("https://example.com/?a=1&amp;b=2", "https://example.com/?a=1&amp;b=2", "already-escaped"),
        case("https://example.com/?a=1&copy=2", "https://example.com/?a=1&amp;copy=2", "parameter-named-like-entity"),
    ],
)
def test_escape_url(value, expected):
    assert escape_url(value) == expected


# WordPress's own pattern (wp_strip_all_tags), the reference the linear scan must agree with.
WORDPRESS_SCRIPT_OR_STYLE = re.compile(r"<(script|style)[^>]*?>.*?</\1>", re.IGNORECASE | re.DOTALL)


@pytest.mark.parametrize(
    "value",
    [
        "a<script>x</script>b",
        "<STYLE type=x>p{}</style>kept<script>1</SCRIPT>",
        "<script>never ended",
        "<script>" * 50 + "</script>tail",
        "<script" * 50 + ">",
        "<style>a</style><script>b</script><style>c",
        "<scriptx>inside</script>after",
        "<p>no script</p>",
        "</script><script>",
    ],
)
def test_scripts_and_styles_are_removed_as_wordpress_removes_them(value):
    from events.text import _without_scripts_and_styles

    assert _without_scripts_and_styles(value) == WORDPRESS_SCRIPT_OR_STYLE.sub("", value)
