"""The gettext catalogs: complete, compiled from their sources, and what every error message is served from."""

import ast
import base64
import gettext
import re
from functools import cache
from pathlib import Path

import pytest
from django.utils import translation
from rest_framework.test import APIClient

from events.api.parameters.fields import Params
from events.api.routes import ROUTES
from events.models import PostStatus

from .conftest import API
from .factories import make_category, make_event, make_organizer, make_tag, make_user, make_venue

APP = Path(__file__).resolve().parent.parent / "events"
LOCALES = {"zh-hans": "zh_Hans", "zh-hant": "zh_Hant"}
# The position of the msgid among each gettext function's arguments.
GETTEXT_FUNCTIONS = {
    "_": 0,
    "gettext": 0,
    "gettext_lazy": 0,
    "gettext_noop": 0,
    "ngettext": 0,
    "ngettext_lazy": 0,
    "pgettext": 1,
    "pgettext_lazy": 1,
    "npgettext": 1,
}
TEMPLATE_STRING = re.compile(r"""{%\s*(?:translate|trans)\s+(["'])(.*?)\1""")
PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]")


def read_po(path):
    """{msgid: (msgstr, flags)} of a .po file; enough of the format for what makemessages writes."""
    entries, flags, field, current = {}, set(), None, {}

    def close():
        if "msgid" in current:
            # Chinese has one plural form, so a plural entry has one msgstr[0].
            entries[current["msgid"]] = (current.get("msgstr", current.get("msgstr[0]", "")), set(flags))

    for line in path.read_text(encoding="utf-8").splitlines() + [""]:
        if not line.strip():
            close()
            flags, field, current = set(), None, {}
        elif line.startswith("#,"):
            flags.update(flag.strip() for flag in line[2:].split(","))
        elif line.startswith("#"):
            continue
        elif line.startswith('"'):
            current[field] += ast.literal_eval(line)
        else:
            field, _, value = line.partition(" ")
            current[field] = ast.literal_eval(value)
    return entries


def po_path(locale):
    return APP / "locale" / locale / "LC_MESSAGES" / "django.po"


def read_mo(locale):
    with open(APP / "locale" / locale / "LC_MESSAGES" / "django.mo", "rb") as handle:
        catalog = gettext.GNUTranslations(handle)._catalog
    # Plural entries are keyed (msgid, form).
    return {key[0] if isinstance(key, tuple) else key: value for key, value in catalog.items()}


@cache
def marked_strings():
    """Every msgid the app marks: gettext calls in its Python code and translate tags in its templates."""
    found = {}
    for path in APP.rglob("*.py"):
        if "migrations" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            name = getattr(node, "func", None) and getattr(node.func, "id", getattr(node.func, "attr", None))
            if isinstance(node, ast.Call) and name in GETTEXT_FUNCTIONS:
                position = GETTEXT_FUNCTIONS[name]
                literal = node.args[position] if len(node.args) > position else None
                if isinstance(literal, ast.Constant) and isinstance(literal.value, str):
                    found[literal.value] = f"{path.relative_to(APP)}:{node.lineno}"
    for path in APP.rglob("templates/**/*.html"):
        for match in TEMPLATE_STRING.finditer(path.read_text(encoding="utf-8")):
            found[match.group(2)] = str(path.relative_to(APP))
    return found


@pytest.mark.parametrize("locale", LOCALES.values())
def test_every_entry_is_translated_and_not_fuzzy(locale):
    entries = read_po(po_path(locale))
    header = entries.pop("")
    assert f"Language: {locale}" in header[0]
    assert "charset=UTF-8" in header[0]
    assert "fuzzy" not in header[1]
    untranslated = [msgid for msgid, (msgstr, _) in entries.items() if not msgstr.strip()]
    fuzzy = [msgid for msgid, (_, flags) in entries.items() if "fuzzy" in flags]
    assert untranslated == []
    assert fuzzy == []


@pytest.mark.parametrize("locale", LOCALES.values())
def test_placeholders_survive_translation(locale):
    for msgid, (msgstr, _) in read_po(po_path(locale)).items():
        if not msgstr:
            continue
        assert sorted(PLACEHOLDER.findall(msgid)) == sorted(PLACEHOLDER.findall(msgstr)), msgid


@pytest.mark.parametrize("locale", LOCALES.values())
def test_compiled_catalog_matches_its_source(locale):
    # msgfmt leaves out untranslated and fuzzy entries (both refused by the test above).
    source = {
        msgid: msgstr
        for msgid, (msgstr, flags) in read_po(po_path(locale)).items()
        if msgid and msgstr and "fuzzy" not in flags
    }
    compiled = {msgid: msgstr for msgid, msgstr in read_mo(locale).items() if msgid}
    assert compiled == source


@pytest.mark.parametrize("locale", LOCALES.values())
def test_catalogs_cover_every_marked_string(locale):
    compiled = read_mo(locale)
    missing = {msgid: where for msgid, where in marked_strings().items() if msgid not in compiled}
    assert missing == {}


def test_traditional_is_not_a_character_swap_of_simplified():
    simplified, traditional = read_mo("zh_Hans"), read_mo("zh_Hant")
    # Words Taiwan and Hong Kong write differently, not just in other characters.
    for msgid, expected in {
        "The file size, in bytes.": "檔案",
        "Default": "預設",
        "The record was created.": "建立",
        "The request needs an authenticated user.": "使用者",
        "Missing parameter(s): %(names)s": "參數",
        "The server could not complete the request.": "伺服器",
    }.items():
        assert expected in traditional[msgid], msgid
        assert msgid in simplified and simplified[msgid] != traditional[msgid]


def declared_params():
    for route in ROUTES:
        for endpoint in route.endpoints:
            params_class = route.viewset.get_params_class(endpoint.action)
            for name, field in params_class().fields.items():
                if field.help_text:
                    yield f"{route.pattern or '/'} {endpoint.action} {name}", field.help_text


@pytest.mark.parametrize("language", LOCALES)
def test_every_parameter_description_is_translated(language):
    english = {where: str(text) for where, text in declared_params()}
    with translation.override(language):
        translated = {where: str(text) for where, text in declared_params()}
    same = [where for where in english if translated[where] == english[where]]
    assert same == []


def message_pattern(msgid):
    parts = PLACEHOLDER.split(msgid)
    # split() alternates literal text and placeholder names.
    return re.compile("".join(re.escape(part) if i % 2 == 0 else ".+?" for i, part in enumerate(parts)) + r"\Z", re.S)


def catalog_entry_for(english_message):
    """The msgid an English message was made from (formatted messages included)."""
    with translation.override("en"):
        candidates = [msgid for msgid in marked_strings() if message_pattern(msgid).match(english_message)]
    assert candidates, english_message
    return max(candidates, key=len)


def basic(username, password):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Basic " + base64.b64encode(f"{username}:{password}".encode()).decode())
    return client


def client_as(role):
    user = make_user(role, password="secret-pass-123")
    return basic(user.username, "secret-pass-123")


def bad_nonce(prefix):
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(make_user("editor"))
    return client.post(f"{prefix}{API}/events", {"title": "x"}, HTTP_X_WP_NONCE="wrong")


# (code, status, request made in a given language prefix). Each builds its own records.
ERROR_CASES = {
    "rest_no_route": (404, lambda p: APIClient().get(f"{p}/wp-json/nope")),
    "rest_invalid_json": (400, lambda p: APIClient().post(f"{p}{API}/events", "{", content_type="application/json")),
    "rest_missing_callback_param": (400, lambda p: client_as("editor").post(f"{p}{API}/events", {})),
    "rest_invalid_param": (400, lambda p: APIClient().get(f"{p}{API}/events", {"page": "0"})),
    "rest_forbidden": (
        401,
        lambda p: APIClient().post(
            f"{p}{API}/events", {"title": "x", "start_date": "2030-01-01 10:00", "end_date": "2030-01-01 12:00"}
        ),
    ),
    "invalid_username": (401, lambda p: basic("nobody-here", "x").get(f"{p}{API}")),
    "incorrect_password": (401, lambda p: basic(make_user("editor").username, "wrong").get(f"{p}{API}")),
    "rest_cookie_invalid_nonce": (403, bad_nonce),
    "rest_invalid_namespace": (404, lambda p: APIClient().get(f"{p}{API}", {"namespace": "wp/v2"})),
    "rest-event-not-found": (404, lambda p: APIClient().get(f"{p}{API}/events/987654")),
    "rest-invalid-event-id": (400, lambda p: APIClient().get(f"{p}{API}/events/{make_venue().pk}")),
    "event-no-longer-available": (
        403,
        lambda p: APIClient().get(f"{p}{API}/events/{make_event(status=PostStatus.TRASH).pk}"),
    ),
    "event-not-accessible": (
        403,
        lambda p: APIClient().get(f"{p}{API}/events/{make_event(status=PostStatus.DRAFT).pk}"),
    ),
    "event-password-protected": (403, lambda p: APIClient().get(f"{p}{API}/events/{make_event(password='secret').pk}")),
    "event-is-in-trash": (
        410,
        lambda p: client_as("editor").delete(f"{p}{API}/events/{make_event(status=PostStatus.TRASH).pk}"),
    ),
    "event-archive-page-not-found": (404, lambda p: APIClient().get(f"{p}{API}/events", {"page": 9})),
    "venue-not-accessible": (
        403,
        lambda p: APIClient().get(f"{p}{API}/venues/{make_venue(status=PostStatus.DRAFT).pk}"),
    ),
    "organizer-not-accessible": (
        403,
        lambda p: APIClient().get(f"{p}{API}/organizers/{make_organizer(status=PostStatus.DRAFT).pk}"),
    ),
    "venue-is-in-trash": (
        410,
        lambda p: client_as("editor").delete(f"{p}{API}/venues/{make_venue(status=PostStatus.TRASH).pk}"),
    ),
    "organizer-is-in-trash": (
        410,
        lambda p: client_as("editor").delete(f"{p}{API}/organizers/{make_organizer(status=PostStatus.TRASH).pk}"),
    ),
    "venue-archive-page-not-found": (404, lambda p: APIClient().get(f"{p}{API}/venues", {"page": 9})),
    "organizer-archive-page-not-found": (404, lambda p: APIClient().get(f"{p}{API}/organizers", {"page": 9})),
    "term_exists": (400, lambda p: client_as("editor").post(f"{p}{API}/categories", {"name": make_category().name})),
    "rest_taxonomy_not_hierarchical": (
        400,
        lambda p: client_as("editor").post(
            f"{p}{API}/tags", {"name": make_tag().name + " again", "parent": make_tag().pk}
        ),
    ),
    "duplicate_term_slug": (
        400,
        lambda p: client_as("editor").post(f"{p}{API}/categories/{make_category().pk}", {"slug": make_category().slug}),
    ),
}


@pytest.mark.django_db
@pytest.mark.parametrize("code", list(ERROR_CASES))
def test_every_error_message_differs_per_language_and_comes_from_the_catalog(code):
    status, send = ERROR_CASES[code]
    messages = {}
    for language in ("en", "zh-hans", "zh-hant"):
        # LocaleMiddleware leaves the last request's language active; records are built in English.
        with translation.override("en"):
            response = send("" if language == "en" else f"/{language}")
        body = response.json()
        assert (response.status_code, body["code"]) == (status, code), body
        messages[language] = body["message"]
    assert len(set(messages.values())) == 3, messages
    msgid = catalog_entry_for(messages["en"])
    for language, locale in LOCALES.items():
        msgstr = read_mo(locale)[msgid]
        assert message_pattern(msgstr).match(messages[language]), (language, messages[language], msgstr)


@pytest.mark.django_db
def test_parameter_reasons_are_translated_too(api):
    english = api.get(f"{API}/doc", {"wpml_language": "xx"}).json()["data"]["params"]
    traditional = api.get(f"/zh-hant{API}/doc", {"wpml_language": "xx"}).json()["data"]["params"]
    assert english["wpml_language"] == "wpml_language is not one of en, zh-hans, zh-hant."
    assert traditional["wpml_language"] == "wpml_language 不是 en, zh-hans, zh-hant 其中之一。"
