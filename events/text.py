"""WordPress-identical text formatting: title texturizing, content paragraphs, slugs, sanitising, escaping."""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Callable
from html.entities import name2codepoint
from urllib.parse import quote, quote_from_bytes, unquote_to_bytes

# PHP's trim() strips exactly these characters, not Unicode whitespace: a title ending in a
# no-break space keeps it in WordPress, so it must here too.
_PHP_TRIM = " \t\n\r\0\x0b"
# PHP's isspace(), used by strip_tags() to tell "a < b" from the start of a tag.
_PHP_ISSPACE = " \t\n\r\x0b\x0c"


def _php_trim(value: str) -> str:
    return value.strip(_PHP_TRIM)


# --- Tags ----------------------------------------------------------------------------------------


def strip_tags(value: str) -> str:
    """PHP `strip_tags()`: drop tags and comments, keep the text between them."""
    out = []
    i, n = 0, len(value)
    while i < n:
        ch = value[i]
        # PHP keeps a "<" followed by whitespace as text ("a < b"); any other "<" opens a tag,
        # even an unterminated one, which then swallows the rest of the string.
        if ch == "<" and not (i + 1 < n and value[i + 1] in _PHP_ISSPACE):
            i = _end_of_markup(value, i)
            continue
        if ch != "\0":
            out.append(ch)
        i += 1
    return "".join(out)


def _end_of_markup(value: str, start: int) -> int:
    """Index just past the tag or comment that opens at `value[start]` (a "<")."""
    if value.startswith("<!--", start):
        # PHP ends a comment at the first "-->", counting the dashes of "<!--" itself ("<!-->").
        end = value.find("-->", start + 2)
        return len(value) if end == -1 else end + 3
    depth, quote_char, n = 0, "", len(value)
    i = start + 1
    while i < n:
        ch = value[i]
        if quote_char:
            # A ">" inside a quoted attribute value does not close the tag.
            if ch == quote_char:
                quote_char = ""
        elif ch in "\"'":
            quote_char = ch
        elif ch == "<" and not (i + 1 < n and value[i + 1] in _PHP_ISSPACE):
            depth += 1
        elif ch == ">":
            if depth == 0:
                return i + 1
            depth -= 1
        i += 1
    return n


# What WordPress removes with `<(script|style)[^>]*?>.*?</\1>` (case-insensitive, across lines).
_SCRIPT_OR_STYLE_START = re.compile(r"<(script|style)", re.IGNORECASE)
_PHP_WHITESPACE_RUN = re.compile(r"[\r\n\t ]+")


def _strip_all_tags(value: str) -> str:
    # wp_strip_all_tags(): unlike strip_tags() it also drops what <script>/<style> contain.
    return _php_trim(strip_tags(_without_scripts_and_styles(value)))


def _without_scripts_and_styles(value: str) -> str:
    """`value` less each <script>/<style> element, as WordPress's pattern removes them, in linear time.

    The pattern itself rescans the rest of the text from every "<script" that has no end ("<script>"
    * 5,000 costs seconds): here each search goes on from where the last one ended, and an end tag
    found missing once is not looked for again, since no later start could find it either.
    """
    lowered = value.lower()
    kept, position, unended = [], 0, set()
    for start in _SCRIPT_OR_STYLE_START.finditer(value):
        if start.start() < position:
            continue
        name = start.group(1).lower()
        if name in unended:
            continue
        opened = lowered.find(">", start.end())
        if opened == -1:
            break
        ended = lowered.find(f"</{name}>", opened + 1)
        if ended == -1:
            unended.add(name)
            continue
        kept.append(value[position : start.start()])
        position = ended + len(name) + 3
    kept.append(value[position:])
    return "".join(kept)


# --- texturize (wptexturize + convert_chars + trim, the default `the_title` filters) -------------

_OPENING_QUOTE = "&#8220;"
_CLOSING_QUOTE = "&#8221;"
_APOSTROPHE = "&#8217;"
_OPENING_SINGLE_QUOTE = "&#8216;"
_CLOSING_SINGLE_QUOTE = "&#8217;"
_PRIME = "&#8242;"
_DOUBLE_PRIME = "&#8243;"
_EN_DASH = "&#8211;"
_EM_DASH = "&#8212;"

# WordPress marks decisions with HTML comments and resolves them later; the markers cannot
# occur in a text segment because "<" always starts a tag segment.
_OPEN_QUOTE_FLAG = "<!--oq-->"
_OPEN_SINGLE_QUOTE_FLAG = "<!--osq-->"
_APOSTROPHE_FLAG = "<!--apos-->"
_PRIME_OR_QUOTE_FLAG = "<!--wp-prime-or-quote-->"

# Plain string replacements, applied in this order. WordPress has no (c) or (r) rule, and
# only converts "(tm)" after a space.
_STATIC_REPLACEMENTS = (
    ("...", "&#8230;"),
    ("``", _OPENING_QUOTE),
    ("''", _CLOSING_QUOTE),
    (" (tm)", " &#8482;"),
    # The "cockney" words start with an apostrophe, not an opening quote.
    ("'tain't", "&#8217;tain&#8217;t"),
    ("'twere", "&#8217;twere"),
    ("'twas", "&#8217;twas"),
    ("'tis", "&#8217;tis"),
    ("'twill", "&#8217;twill"),
    ("'til", "&#8217;til"),
    ("'bout", "&#8217;bout"),
    ("'nuff", "&#8217;nuff"),
    ("'round", "&#8217;round"),
    ("'cause", "&#8217;cause"),
    ("'em", "&#8217;em"),
)

# wp_spaces_regexp(): ASCII spaces, a raw no-break space, or the &nbsp; entity. Python needs
# fixed-width look-behinds, hence the split forms.
_SPACE = r"(?:[\r\n\t \xa0]|&nbsp;)"
_AFTER_SPACE = r"(?<=[\r\n\t \xa0])|(?<=&nbsp;)"
_AT_START_OR_AFTER_SPACE = rf"(?:^|{_AFTER_SPACE})"
_NOT_AFTER_SPACE = r"(?<![\r\n\t \xa0])(?<!&nbsp;)"
# What may follow a closing quote. PHP's \Z and Python's $ both allow one final newline.
_QUOTE_CLOSER_AHEAD = rf"(?=$|[.,:;!?)}}\-\]]|&gt;|{_SPACE})"


def _rules(*pairs: tuple[str, str]) -> tuple[tuple[re.Pattern[str], str], ...]:
    # PHP regexes without the /u flag are ASCII-only for \d, \s and \b.
    return tuple((re.compile(pattern, re.ASCII), replacement) for pattern, replacement in pairs)


_APOSTROPHE_RULES = _rules(
    # '99' and '99" are abbreviated years at the end of a quotation.
    (rf"'(\d\d)'{_QUOTE_CLOSER_AHEAD}", _APOSTROPHE_FLAG + r"\1" + _CLOSING_SINGLE_QUOTE),
    (rf"'(\d\d)\"{_QUOTE_CLOSER_AHEAD}", _APOSTROPHE_FLAG + r"\1" + _CLOSING_QUOTE),
    # '99 '99s '99's are apostrophes, but never '9, '99%, '999 or '99.0.
    (r"'(?=\d\d(?:$|(?![%\d]|[.,]\d)))", _APOSTROPHE_FLAG),
    # Quoted numbers like '0.42'.
    (rf"{_AT_START_OR_AFTER_SPACE}'(\d[.,\d]*)'", _OPEN_SINGLE_QUOTE_FLAG + r"\1" + _CLOSING_SINGLE_QUOTE),
    # A quote at the start, or after ( { [ " - &lt; or a space, opens.
    (rf"(?:^|(?<=[(\[{{\"\-])|(?<=&lt;)|{_AFTER_SPACE})'", _OPEN_SINGLE_QUOTE_FLAG),
    # Inside a word (not before space, punctuation or another quote) it is an apostrophe.
    (rf"{_NOT_AFTER_SPACE}'(?!$|[.,:;!?\"'(){{}}\[\]\-]|&[lg]t;|{_SPACE})", _APOSTROPHE_FLAG),
)

_DOUBLE_QUOTE_RULES = _rules(
    # Quoted numbers like "42".
    (rf"{_AT_START_OR_AFTER_SPACE}\"(\d[.,\d]*)\"", _OPEN_QUOTE_FLAG + r"\1" + _CLOSING_QUOTE),
    # A quote at the start, or after ( { [ - &lt; or a space, and not before a space, opens.
    (rf"(?:^|(?<=[(\[{{\-])|(?<=&lt;)|{_AFTER_SPACE})\"(?!{_SPACE})", _OPEN_QUOTE_FLAG),
)

_DASH_RULES = _rules(
    (r"---", _EM_DASH),
    (rf"{_AT_START_OR_AFTER_SPACE}--(?=$|{_SPACE})", _EM_DASH),
    # "xn--" is an IDN prefix in host names, not a dash.
    (r"(?<!xn)--", _EN_DASH),
    (rf"{_AT_START_OR_AFTER_SPACE}-(?=$|{_SPACE})", _EN_DASH),
)

# 9x9 is a multiplication, but 0x9999 is hexadecimal.
_DIMENSIONS = re.compile(r"\b(0[\d.,]+|[1-9][\d.,]*)x(\d[\d.,]*)\b", re.ASCII)
# An "&" that does not already look like an entity.
_BARE_AMPERSAND = re.compile(r"&(?!#(?:\d+|x[a-f0-9]+);|[a-z1-4]{1,8};)", re.IGNORECASE | re.ASCII)
# convert_chars(), the next `the_title` filter, has its own (looser) idea of an entity.
_CONVERT_CHARS_AMPERSAND = re.compile(r"&([^#])(?![a-z1-4]{1,8};)", re.IGNORECASE | re.ASCII)

# Comments (possibly unclosed) and tags (possibly unclosed), as _get_wptexturize_split_regex().
_TEXTURIZE_SPLIT = re.compile(r"(<(?:(?=!--)!(?:-(?!->)[^\-]*+)*+(?:-->)?|(?!!--)[^>]*>?))")
# Text inside these elements is code, not prose, and is left alone.
_NO_TEXTURIZE_TAGS = frozenset({"pre", "code", "kbd", "style", "script", "tt"})


def texturize(text: str) -> str:
    """A post title as WordPress renders it: `wptexturize`, then `convert_chars`, then trim."""
    if not text:
        return ""
    no_texturize_stack: list[str] = []
    parts = []
    for part in filter(None, _TEXTURIZE_SPLIT.split(text)):
        if part.startswith("<"):
            if not part.startswith("<!--"):
                # WordPress escapes ampersands in attribute values too (href="?a=1&#038;b=2").
                part = _BARE_AMPERSAND.sub("&#038;", part)
                _track_no_texturize_element(part, no_texturize_stack)
        elif _php_trim(part) and not no_texturize_stack:
            part = _texturize_text(part)
        parts.append(part)
    result = "".join(parts)
    result = _CONVERT_CHARS_AMPERSAND.sub(r"&#038;\1", result)
    return _php_trim(result)


def _texturize_text(text: str) -> str:
    for old, new in _STATIC_REPLACEMENTS:
        text = text.replace(old, new)
    if "'" in text:
        for pattern, replacement in _APOSTROPHE_RULES:
            text = pattern.sub(replacement, text)
        text = _primes_and_closing_quotes(text, "'", _PRIME, _OPEN_SINGLE_QUOTE_FLAG, _CLOSING_SINGLE_QUOTE)
        text = text.replace(_APOSTROPHE_FLAG, _APOSTROPHE).replace(_OPEN_SINGLE_QUOTE_FLAG, _OPENING_SINGLE_QUOTE)
    if '"' in text:
        for pattern, replacement in _DOUBLE_QUOTE_RULES:
            text = pattern.sub(replacement, text)
        text = _primes_and_closing_quotes(text, '"', _DOUBLE_PRIME, _OPEN_QUOTE_FLAG, _CLOSING_QUOTE)
        text = text.replace(_OPEN_QUOTE_FLAG, _OPENING_QUOTE)
    if "-" in text:
        for pattern, replacement in _DASH_RULES:
            text = pattern.sub(replacement, text)
    text = _DIMENSIONS.sub(r"\1&#215;\2", text)
    return _BARE_AMPERSAND.sub("&#038;", text)


_FLAG_AFTER_DIGIT = re.compile(r"(?<=\d)" + re.escape(_PRIME_OR_QUOTE_FLAG), re.ASCII)
_FLAG_NOT_AFTER_DIGIT = re.compile(r"(?<!\d)" + re.escape(_PRIME_OR_QUOTE_FLAG), re.ASCII)
# For each quote character: where it can close a quotation, and where it follows a digit.
_CLOSING_OR_PRIME = {
    needle: (
        re.compile(re.escape(needle) + _QUOTE_CLOSER_AHEAD, re.ASCII),
        re.compile(r"(?<=\d)" + re.escape(needle), re.ASCII),
    )
    for needle in ("'", '"')
}


def _primes_and_closing_quotes(text: str, needle: str, prime: str, open_flag: str, close_quote: str) -> str:
    """wptexturize_primes(): decide whether a remaining quote is a prime (9' 9") or closes a quote."""
    quote_pattern, prime_pattern = _CLOSING_OR_PRIME[needle]
    sentences = text.split(open_flag)
    for index, sentence in enumerate(sentences):
        if needle not in sentence:
            continue
        if index != 0 and close_quote not in sentence:
            # After an opening quote that is still open: one of these quotes should close it.
            sentence, candidates = quote_pattern.subn(_PRIME_OR_QUOTE_FLAG, sentence)
            if candidates > 1:
                sentence, closed = _FLAG_NOT_AFTER_DIGIT.subn(close_quote, sentence)
                if closed == 0:
                    # All candidates follow digits: the rightmost one (before a period if any) closes.
                    position = sentence.rfind(_PRIME_OR_QUOTE_FLAG + ".")
                    if position == -1:
                        position = sentence.rfind(_PRIME_OR_QUOTE_FLAG)
                    sentence = sentence[:position] + close_quote + sentence[position + len(_PRIME_OR_QUOTE_FLAG) :]
                sentence = _FLAG_AFTER_DIGIT.sub(prime, sentence)
            # Flags and the entities they become end in no digit, so the primes may come last.
            sentence = prime_pattern.sub(prime, sentence.replace(_PRIME_OR_QUOTE_FLAG, close_quote))
        else:
            sentence = quote_pattern.sub(close_quote, prime_pattern.sub(prime, sentence))
        if needle == '"':
            sentence = sentence.replace('"', close_quote)
        sentences[index] = sentence
    return open_flag.join(sentences)


def _track_no_texturize_element(tag: str, stack: list[str]) -> None:
    # _wptexturize_pushpop_element(): the name runs up to the first space, or to the final
    # character; an opening <pre> etc. disables texturizing until its own closing tag.
    if len(tag) > 1 and tag[1] != "/":
        opening, name_offset = True, 1
    elif not stack:
        return
    else:
        opening, name_offset = False, 2
    space = tag.find(" ")
    name = tag[name_offset:space] if space != -1 else tag[name_offset:-1]
    if name not in _NO_TEXTURIZE_TAGS:
        return
    if opening:
        stack.append(name)
    elif stack[-1] == name:
        stack.pop()


# --- autop (wpautop) -----------------------------------------------------------------------------

_ALL_BLOCKS = (
    r"(?:table|thead|tfoot|caption|col|colgroup|tbody|tr|td|th|div|dl|dd|dt|ul|ol|li|pre|form|map|area"
    r"|blockquote|address|style|p|h[1-6]|hr|fieldset|legend|section|article|aside|hgroup|header|footer"
    r"|nav|figure|figcaption|details|menu|summary)"
)


@functools.cache
def _ascii_regex(pattern: str, flags: int = 0) -> re.Pattern[str]:
    # wpautop's PHP regexes have no /u flag, so \s must not eat a no-break space.
    return re.compile(pattern, flags | re.ASCII)


def _sub(pattern: str, replacement, text: str, flags: int = 0) -> str:
    # Compiled once per pattern: re.sub() would look each one up (and combine its flags) on every call.
    return _ascii_regex(pattern, flags).sub(replacement, text)


# get_html_split_regex(): comments, CDATA sections and elements, each possibly unclosed.
_HTML_SPLIT = re.compile(
    r"(<(?:(?=!--)!(?:-(?!->)[^\-]*+)*+(?:-->)?"
    r"|(?=!\[CDATA\[)!\[CDATA\[[^\]]*+(?:\](?!\]>)[^\]]*+)*+(?:\]\]>)?"
    r"|(?!!--|!\[CDATA\[)[^>]*>?))"
)
_NEWLINE_IN_TAG = " <!-- wpnl --> "


def autop(text: str) -> str:
    """Post content as `wpautop` formats it: blank-line paragraphs in <p>, other newlines as <br />."""
    if _php_trim(text) == "":
        return ""
    text += "\n"

    # <pre> blocks are set aside and put back untouched.
    pre_blocks: dict[str, str] = {}
    if "<pre" in text:
        *pieces, last = text.split("</pre>")
        text = ""
        for piece in pieces:
            start = piece.find("<pre")
            if start == -1:
                text += piece
                continue
            placeholder = f"<pre wp-pre-tag-{len(pre_blocks)}></pre>"
            pre_blocks[placeholder] = piece[start:] + "</pre>"
            text += piece[:start] + placeholder
        text += last

    text = _sub(r"<br\s*/?>\s*<br\s*/?>", "\n\n", text)
    # Block-level tags always stand in paragraphs of their own.
    text = _sub(rf"(<{_ALL_BLOCKS}[\s/>])", r"\n\n\1", text)
    text = _sub(rf"(</{_ALL_BLOCKS}>)", r"\1\n\n", text)
    text = _sub(r"(<hr\s*?/?>)", r"\1\n\n", text)
    text = text.replace("\r\n", "\n").replace("\r", "\n")

    # A newline inside a tag's attributes must not become a <br />.
    pieces = _HTML_SPLIT.split(text)
    for index in range(1, len(pieces), 2):
        pieces[index] = pieces[index].replace("\n", _NEWLINE_IN_TAG)
    text = "".join(pieces)

    if "<option" in text:
        text = _sub(r"\s*<option", "<option", text)
        text = _sub(r"</option>\s*", "</option>", text)
    if "</object>" in text:
        text = _sub(r"(<object[^>]*>)\s*", r"\1", text)
        text = _sub(r"\s*</object>", "</object>", text)
        text = _sub(r"\s*(</?(?:param|embed)[^>]*>)\s*", r"\1", text)
    if "<source" in text or "<track" in text:
        text = _sub(r"([<\[](?:audio|video)[^>\]]*[>\]])\s*", r"\1", text)
        text = _sub(r"\s*([<\[]/(?:audio|video)[>\]])", r"\1", text)
        text = _sub(r"\s*(<(?:source|track)[^>]*>)\s*", r"\1", text)
    if "<figcaption" in text:
        text = _sub(r"\s*(<figcaption[^>]*>)", r"\1", text)
        text = _sub(r"</figcaption>\s*", "</figcaption>", text)

    text = _sub(r"\n\n+", "\n\n", text)
    paragraphs = [p for p in _ascii_regex(r"\n\s*\n").split(text) if p]
    text = "".join("<p>" + paragraph.strip("\n") + "</p>\n" for paragraph in paragraphs)

    # Undo the <p> wrapping wherever it landed around or against block-level tags.
    text = _sub(r"<p>\s*</p>", "", text)
    text = _sub(r"<p>([^<]+)</(div|address|form)>", r"<p>\1</p></\2>", text)
    text = _sub(rf"<p>\s*(</?{_ALL_BLOCKS}[^>]*>)\s*</p>", r"\1", text)
    text = _unwrap_list_items(text)
    text = _sub(r"<p><blockquote([^>]*)>", r"<blockquote\1><p>", text, re.IGNORECASE)
    text = text.replace("</blockquote></p>", "</p></blockquote>")
    text = _sub(rf"<p>\s*(</?{_ALL_BLOCKS}[^>]*>)", r"\1", text)
    text = _sub(rf"(</?{_ALL_BLOCKS}[^>]*>)\s*</p>", r"\1", text)

    # Remaining single newlines become <br />, except inside script/style/svg/math.
    text = _sub(
        r"<(script|style|svg|math).*?</\1>",
        lambda match: match.group(0).replace("\n", "<WPPreserveNewline />"),
        text,
        re.DOTALL,
    )
    text = text.replace("<br>", "<br />").replace("<br/>", "<br />")
    text = _ascii_regex(r"\s+").sub(_line_break, text)
    text = text.replace("<WPPreserveNewline />", "\n")

    text = _sub(rf"(</?{_ALL_BLOCKS}[^>]*>)\s*<br />", r"\1", text)
    text = _sub(r"<br />(\s*</?(?:p|li|div|dl|dd|dt|th|pre|td|ul|ol)[^>]*>)", r"\1", text)
    text = _sub(r"\n</p>$", "</p>", text)

    for placeholder, block in pre_blocks.items():
        text = text.replace(placeholder, block)
    if "<!-- wpnl -->" in text:
        text = text.replace(_NEWLINE_IN_TAG, "\n").replace("<!-- wpnl -->", "\n")
    # wpautop leaves a trailing newline; The Events Calendar trims `the_content` output.
    return _php_trim(text)


def _line_break(match: re.Match[str]) -> str:
    """wpautop's `(?<!<br />)\\s*\\n` → "<br />\\n", applied to each run of white space at once.
    The pattern itself rescans a long run of blanks from each of its characters (seconds for
    100 KB); a run read once gives the same text: the match starts where the run does (one
    character later just after a "<br />") and ends at the run's last newline."""
    run, start = match.group(0), match.start()
    if "\n" not in run:
        return run
    skip = 1 if match.string.endswith("<br />", 0, start) else 0
    last_newline = run.rfind("\n")
    if last_newline < skip:
        return run
    return run[:skip] + "<br />\n" + run[last_newline + 1 :]


def _unwrap_list_items(text: str) -> str:
    """wpautop's `<p>(<li.+?)</p>` → `\\1`, in one pass. The pattern scans from every "<p><li" to
    the end of its line when no "</p>" follows (minutes for 100 KB of them); here the next "</p>"
    and the next newline are each found once and reused until passed."""
    pieces, copied, searched = [], 0, 0
    close = newline = -1
    end = len(text)
    while (start := text.find("<p><li", searched)) != -1:
        item = start + 3
        # `.+?` takes at least one character after "<li", and never a newline.
        if close < item + 4:
            close = text.find("</p>", item + 4)
            if close == -1:
                break
        if newline < item:
            newline = text.find("\n", item)
            if newline == -1:
                newline = end
        if newline < close:
            searched = start + 1
            continue
        pieces += [text[copied:start], text[item:close]]
        copied = searched = close + 4
    pieces.append(text[copied:])
    return "".join(pieces)


# --- Slugs (sanitize_title / sanitize_title_for_query / wp_unique_post_slug) ---------------------

# remove_accents() maps these letters, which have no canonical decomposition, by hand.
_UNDECOMPOSABLE_LETTERS = {
    "ª": "a", "º": "o", "Æ": "AE", "æ": "ae", "Ð": "D", "ð": "d", "Ø": "O", "ø": "o",
    "Þ": "TH", "þ": "th", "ß": "s", "Đ": "D", "đ": "d", "Ħ": "H", "ħ": "h", "ı": "i",
    "Ĳ": "IJ", "ĳ": "ij", "ĸ": "k", "Ŀ": "L", "ŀ": "l", "Ł": "L", "ł": "l", "ŉ": "n",
    "Ŋ": "N", "ŋ": "n", "Œ": "OE", "œ": "oe", "Ŧ": "T", "ŧ": "t", "ſ": "s", "ɑ": "a",
    "€": "E", "£": "",
}  # fmt: skip
# The blocks remove_accents() covers: Latin-1 letters, Latin Extended-A, the Vietnamese and
# Pinyin letters of Extended-B, Romanian comma-below letters and Vietnamese Extended Additional.
# Other scripts (Greek, Cyrillic, CJK, kana with dakuten...) keep their marks.
_ACCENTED_LATIN_RANGES = (
    (0x00C0, 0x017F), (0x01A0, 0x01B0), (0x01CD, 0x01DC), (0x0218, 0x021B), (0x1EA0, 0x1EF9),
)  # fmt: skip


def _remove_accents(text: str) -> str:
    if text.isascii():
        return text
    # WordPress 6.1+ composes first, so a decomposed "é" is treated like a composed one.
    text = unicodedata.normalize("NFC", text)
    out = []
    for ch in text:
        if ch in _UNDECOMPOSABLE_LETTERS:
            out.append(_UNDECOMPOSABLE_LETTERS[ch])
        elif any(low <= ord(ch) <= high for low, high in _ACCENTED_LATIN_RANGES):
            out.append("".join(c for c in unicodedata.normalize("NFD", ch) if not unicodedata.combining(c)))
        else:
            out.append(ch)
    return "".join(out)


def _utf8_uri_encode(data: bytes, length: int = 0, encode_ascii: bool = False) -> str:
    """utf8_uri_encode(): percent-encode non-ASCII bytes, stopping before `length` would be exceeded.

    The limit counts encoded characters and never splits a multi-byte character, which is how
    WordPress keeps slugs within its 200-character `post_name` column.
    """
    out: list[str] = []
    out_length = 0
    pending: list[int] = []
    octets = 1
    for byte in data:
        if byte < 128:
            encoded = quote(chr(byte), safe="") if encode_ascii else chr(byte)
            if length and out_length + len(encoded) > length:
                break
            out.append(encoded)
            out_length += len(encoded)
            continue
        if not pending:
            octets = 2 if byte < 224 else 3 if byte < 240 else 4
        pending.append(byte)
        if length and out_length + octets * 3 > length:
            break
        if len(pending) == octets:
            out.extend(f"%{b:x}" for b in pending)
            out_length += octets * 3
            pending, octets = [], 1
    return "".join(out)


# sanitize_title_with_dashes() in the 'save' context: these encoded characters become a dash...
_SAVE_AS_DASH = (
    "%c2%a0", "%e2%80%93", "%e2%80%94",  # no-break space, en dash, em dash
    "&nbsp;", "&#160;", "&ndash;", "&#8211;", "&mdash;", "&#8212;",
    "/",
)  # fmt: skip
# ...these vanish (soft hyphen, ¡ ¿, angle and curly quotes, bullet, © ® ° … ™, stray accents,
# zero-width and direction marks, byte order mark)...
_SAVE_REMOVED = (
    "%c2%ad", "%c2%a1", "%c2%bf", "%c2%ab", "%c2%bb", "%e2%80%b9", "%e2%80%ba",
    "%e2%80%98", "%e2%80%99", "%e2%80%9c", "%e2%80%9d", "%e2%80%9a", "%e2%80%9b", "%e2%80%9e", "%e2%80%9f",
    "%e2%80%a2", "%c2%a9", "%c2%ae", "%c2%b0", "%e2%80%a6", "%e2%84%a2",
    "%c2%b4", "%cb%8a", "%cc%81", "%cd%81", "%cc%80", "%cc%84", "%cc%8c",
    "%e2%80%8b", "%e2%80%8c", "%e2%80%8d", "%e2%80%8e", "%e2%80%8f",
    "%e2%80%aa", "%e2%80%ab", "%e2%80%ac", "%e2%80%ad", "%e2%80%ae", "%ef%bb%bf",
)  # fmt: skip
# ...and these spaces with a width become a dash.
_SAVE_WIDE_SPACES = (
    "%e2%80%80", "%e2%80%81", "%e2%80%82", "%e2%80%83", "%e2%80%84", "%e2%80%85", "%e2%80%86",
    "%e2%80%87", "%e2%80%88", "%e2%80%89", "%e2%80%8a", "%e2%80%a8", "%e2%80%a9", "%e2%80%af",
)  # fmt: skip

_OCTET = re.compile(r"%([a-fA-F0-9][a-fA-F0-9])")
_ASCII_OCTET = re.compile(r"%([0-7][a-fA-F0-9])")
_PROTECTED_OCTET = re.compile(r"---([a-fA-F0-9][a-fA-F0-9])---")
_ENTITY_LIKE = re.compile(r"&.+?;")
_NOT_SLUG_CHAR = re.compile(r"[^%a-z0-9 _-]")
_ASCII_WHITESPACE_RUN = re.compile(r"\s+", re.ASCII)
_DASH_RUN = re.compile(r"-+")

SLUG_MAX_LENGTH = 200


def _decode_ascii_octets(title: str) -> str:
    """`title` with every octet of an ASCII character ("%2F", "%20", "%41") read as that character,
    until none is left ("%2%41" spells one too); an encoded "%" goes, as a stray "%" does."""
    while True:
        decoded = _ASCII_OCTET.sub(lambda match: "" if match[1] == "25" else chr(int(match[1], 16)), title)
        if decoded == title:
            return title
        title = decoded


def _sanitize_title_with_dashes(title: str, context: str, max_length: int = SLUG_MAX_LENGTH) -> str:
    if context == "save":
        # A stored slug becomes a path segment, and the server hands Django the path decoded: an
        # octet of an ASCII character would come back as that character ("%2f" as a "/" that splits
        # the path) and never match its record again. WordPress keeps such octets (its rewrite rules
        # read the raw path); here they are the characters they spell, sanitised as typed ones.
        title = _decode_ascii_octets(title)
    title = strip_tags(title)
    # Percent signs survive only as part of an escaped octet, which is kept verbatim.
    title = _OCTET.sub(r"---\1---", title)
    title = title.replace("%", "")
    title = _PROTECTED_OCTET.sub(r"%\1", title)
    title = _utf8_uri_encode(title.lower().encode("utf-8", "ignore"), max_length)
    title = title.lower()
    if context == "save":
        for needle in _SAVE_AS_DASH:
            title = title.replace(needle, "-")
        for needle in _SAVE_REMOVED:
            title = title.replace(needle, "")
        for needle in _SAVE_WIDE_SPACES:
            title = title.replace(needle, "-")
        title = title.replace("%c3%97", "x")  # the multiplication sign, as in "6×7"
    title = _ENTITY_LIKE.sub("", title)
    title = title.replace(".", "-")
    title = _NOT_SLUG_CHAR.sub("", title)
    title = _ASCII_WHITESPACE_RUN.sub("-", title)
    title = _DASH_RUN.sub("-", title)
    return title.strip("-")


def sanitize_title(title: str, max_length: int = SLUG_MAX_LENGTH) -> str:
    """The slug WordPress derives from a title (`sanitize_title`, 'save' context); may be ""."""
    return _sanitize_title_with_dashes(_remove_accents(title), "save", max_length)


def normalize_lookup_slug(segment: str) -> str:
    """A `by-slug/{slug}` segment normalised the way `get_page_by_path` does before matching `post_name`.

    WordPress decodes the segment once, re-encodes it with `rawurlencode` (so a raw "中" and an
    encoded "%E4%B8%AD" agree), turns encoded slashes and spaces back into "/" and " ", then runs
    each path part through `sanitize_title_for_query`. A slug that holds an encoded slash thus
    becomes a two-part path, which never equals a stored slug, in WordPress as here. The result
    may be "" (nothing sluggable), which callers should not match against unslugged drafts.
    """
    raw = unquote_to_bytes(segment.replace("+", " "))  # urldecode() also reads "+" as a space
    path = quote_from_bytes(raw, safe="").replace("%2F", "/").replace("%20", " ").strip("/")
    return "/".join(_sanitize_title_with_dashes(part, "query") for part in path.split("/"))


def truncate_post_slug(slug: str, length: int) -> str:
    """`_truncate_post_slug()`: `slug` shortened to `length` characters without splitting an encoded character."""
    raw = slug.encode("utf-8")
    if len(raw) > length:
        decoded = unquote_to_bytes(slug.replace("+", " "))
        if decoded == raw:
            slug = raw[:length].decode("utf-8", "ignore")
        else:
            slug = _utf8_uri_encode(decoded, length, encode_ascii=True)
    return slug.rstrip("-")


def unique_slug(base: str, taken: Callable[[str], bool], max_length: int = SLUG_MAX_LENGTH) -> str:
    """`base`, or the first free `base-2`, `base-3`… shortened so the suffix still fits (`wp_unique_post_slug`)."""
    if not base or not taken(base):
        return base
    suffix = 2
    while True:
        candidate = f"{truncate_post_slug(base, max_length - len(str(suffix)) - 1)}-{suffix}"
        if not taken(candidate):
            return candidate
        suffix += 1


# --- Plain text, excerpts and escaping -----------------------------------------------------------

_LESS_THAN = re.compile(r"<[^>]*?((?=<)|>|$)")
_ANY_OCTET = re.compile(r"%[a-f0-9]{2}", re.IGNORECASE)
_SPACE_RUN = re.compile(r" +")


def sanitize_text_field(value: str) -> str:
    """`sanitize_text_field`: one trimmed line of plain text, without tags or percent-encoded octets."""
    if "<" in value:
        # wp_pre_kses_less_than(): a "<" that never closes into a tag is text, kept as &lt;.
        value = _LESS_THAN.sub(lambda m: m.group(0) if ">" in m.group(0) else escape_html(m.group(0)), value)
        value = _strip_all_tags(value)
        value = value.replace("<\n", "&lt;\n")
    value = _php_trim(_PHP_WHITESPACE_RUN.sub(" ", value))
    found = False
    while match := _ANY_OCTET.search(value):
        value = value.replace(match.group(0), "")
        found = True
    if found:
        value = _php_trim(_SPACE_RUN.sub(" ", value))
    return value


_EMAIL_LOCAL_PART = re.compile(r"[a-zA-Z0-9!#$%&'*+/=?^_`{|}~.-]+")
_EMAIL_DOMAIN_LABEL = re.compile(r"[a-z0-9-]+", re.IGNORECASE | re.ASCII)


def is_email(value: str) -> bool:
    """WordPress's `is_email()`: an address of at least six bytes, a local part of the characters
    it allows, and a domain of at least two dot-separated labels of letters, digits and hyphens."""
    if len(value.encode("utf-8")) < 6 or value.find("@", 1) == -1:
        return False
    local, domain = value.split("@", 1)
    if not _EMAIL_LOCAL_PART.fullmatch(local) or ".." in domain or domain.strip(_PHP_TRIM + ".") != domain:
        return False
    labels = domain.split(".")
    return len(labels) >= 2 and all(
        label.strip(_PHP_TRIM + "-") == label and _EMAIL_DOMAIN_LABEL.fullmatch(label) for label in labels
    )


def excerpt_words(html: str, words: int = 55) -> str:
    """`wp_trim_words`: the text of `html` cut to `words` words, with "&hellip;" when something was cut."""
    all_words = [word for word in _PHP_WHITESPACE_RUN.split(_strip_all_tags(html)) if word]
    if len(all_words) > words:
        return " ".join(all_words[:words]) + "&hellip;"
    return " ".join(all_words)


# wp_kses_normalize_entities(): which "&...;" sequences count as entities worth keeping.
_AMPERSAND_OR_ENTITY = re.compile(
    r"&(?:(?P<name>[A-Za-z]{2,8}[0-9]{0,2})|#(?P<decimal>0*[0-9]{1,7})|#[Xx](?P<hex>0*[0-9A-Fa-f]{1,6}));|&"
)
_HTML_SPECIAL_CHARS = str.maketrans({"<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#039;"})


def _is_valid_code_point(number: int) -> bool:
    return (
        number in (0x9, 0xA, 0xD)
        or 0x20 <= number <= 0xD7FF
        or 0xE000 <= number <= 0xFFFD
        or 0x10000 <= number <= 0x10FFFF
    )


def _normalize_entity(match: re.Match[str]) -> str:
    name, decimal, hexadecimal = match.group("name", "decimal", "hex")
    if name is not None:
        return match.group(0) if name in name2codepoint else "&amp;" + match.group(0)[1:]
    if decimal is None and hexadecimal is None:
        return "&amp;"
    if "0" in (decimal, hexadecimal):  # PHP's empty("0"): WordPress drops the entity altogether
        return ""
    if not _is_valid_code_point(int(decimal) if decimal is not None else int(hexadecimal, 16)):
        return "&amp;" + match.group(0)[1:]
    return f"&#{decimal.lstrip('0').rjust(3, '0')};" if decimal is not None else f"&#x{hexadecimal.lstrip('0')};"


def escape_html(value: str) -> str:
    """`esc_html`: escape < > " ' and any "&" that does not start a valid entity."""
    return _AMPERSAND_OR_ENTITY.sub(_normalize_entity, value).translate(_HTML_SPECIAL_CHARS)


def escape_url(value: str) -> str:
    """A URL as the API returns it: trimmed, with each bare "&" written as "&amp;"."""
    return _BARE_AMPERSAND.sub("&amp;", _php_trim(value))
