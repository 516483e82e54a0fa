"""The app's settings, read lazily from the `EVENTS` dict of the Django settings (like DRF's api_settings)."""

from django.conf import settings
from django.core.signals import setting_changed
from django.utils.module_loading import import_string

DEFAULTS = {
    # The vendor word of the REST namespace `<vendor>/events/v1`.
    "NAMESPACE_VENDOR": "tribe",
    # Default and maximum page size of every list (the plugin's posts_per_page and max per page).
    "DEFAULT_PER_PAGE": 10,
    "MAX_PER_PAGE": 50,
    # Prefix of the language parameter: `<prefix>_language` (`wpml_language` by default).
    "LANGUAGE_PARAM_PREFIX": "wpml",
    # The REST API can be switched off; every route then answers 404 rest_no_route.
    "REST_API_ENABLED": True,
    # Multi-day cut-off: where a calendar day begins for whole-day date filters ("HH:MM").
    "MULTIDAY_CUTOFF": "00:00",
    # "event" compares list date filters with each event's wall clock; "site" with UTC fields.
    "TIMEZONE_MODE": "event",
    "DEFAULT_CURRENCY_SYMBOL": "$",
    "DEFAULT_CURRENCY_CODE": "USD",
    # Venue/organizer creation reuses an existing record with the same name.
    "AVOID_DUPLICATE_LINKED_RECORDS": True,
    # HTML a write may store in a title, description or excerpt (events/html_shape.py): its tags
    # (start and end tags, comments, formatting elements the parser re-opens) and nesting depth.
    # Past either, the write is refused (400); at both, filtering and rendering stay in milliseconds.
    "HTML_MAX_TAGS": 20000,
    "HTML_MAX_DEPTH": 256,
    # Radius of the geoloc_lat/geoloc_lng event filter, in kilometres.
    "GEOLOC_RADIUS_KM": 25,
    # Hosts the calendar's outbound requests (webhook deliveries, image imports) may reach although
    # they resolve to private addresses (events/services/outbound.py).
    "OUTBOUND_ALLOWED_HOSTS": [],
    # Its former name, still read beside it (deprecated: `manage.py check` warns, events.W005).
    "IMAGE_IMPORT_ALLOWED_HOSTS": [],
    "IMAGE_IMPORT_TIMEOUT": 10,
    "IMAGE_IMPORT_MAX_BYTES": 10 * 1024 * 1024,
    # HTTP Basic accepts a user's login password as well as their application passwords. WordPress
    # core accepts only application passwords there; False does the same.
    "BASIC_AUTH_LOGIN_PASSWORDS": True,
    # Seconds a process remembers a login password it verified (as a digest bound to the stored
    # hash), so signed requests do not pay the slow password hasher each time (0: never).
    "LOGIN_PASSWORD_MEMORY_SECONDS": 300,
    # Origins (e.g. "https://app.example.org") whose pages may send the visitor's session cookie to
    # the API: they get Access-Control-Allow-Credentials. Other origins get CORS for anonymous use.
    "CORS_CREDENTIALS_ORIGINS": [],
    # Seconds an anonymous API read may be served from the cache (0: never); see api/read_cache.py.
    "READ_CACHE_SECONDS": 0,
    # The entry of CACHES holding those reads; it must be shared by all the site's processes.
    "READ_CACHE_ALIAS": "default",
    # Days the change log keeps its entries: a changes-feed cursor older than that is refused
    # (410 changes_cursor_expired) and `events_deliver` removes older entries.
    "CHANGES_RETENTION_DAYS": 30,
    # The site's address ("https://calendar.example.org"), which the records in webhook payloads
    # link to: a worker has no request to read it from.
    "SITE_URL": "http://localhost",
    # Names of the process memories (events.memory) that always miss, or "all": read once, as each
    # memory is made at start-up, to measure what a memory buys (bench/run.py --without-memory).
    "FORGETFUL_MEMORIES": [],
    # Login throttling (events/services/login_throttle.py): this many failed sign-ins in a row for
    # one account, or failures from one client address, lock it for LOGIN_LOCKOUT_SECONDS (0: off).
    "LOGIN_FAILURES_PER_ACCOUNT": 20,
    "LOGIN_FAILURES_PER_ADDRESS": 100,
    "LOGIN_LOCKOUT_SECONDS": 900,
    # The entry of CACHES counting failures; shared by all the site's processes, as the read cache's.
    "LOGIN_THROTTLE_CACHE_ALIAS": "default",
    # Proxies in front of the site that append the client's address to X-Forwarded-For (0: none;
    # REMOTE_ADDR is then the client's address).
    "TRUSTED_PROXIES": 0,
    # Seconds the answer to a write sent with an Idempotency-Key is kept for its retries.
    "IDEMPOTENCY_KEY_SECONDS": 24 * 60 * 60,
    # Seconds an API request or public page may work before it is stopped, wherever it is, with a
    # 503 (events/deadline.py; 0: no limit).
    "REQUEST_SECONDS": 20,
    # Recurring events (docs/recurrence.md): open-ended rules are materialised this many months
    # ahead (the default window of the events list), and a series holds at most this many
    # occurrences; a rule that would give more is refused, never cut short.
    "RECURRENCE_HORIZON_MONTHS": 24,
    "MAX_OCCURRENCES_PER_SERIES": 1000,
    # What a client may write in a series' `recurrence`: this many rules (RFC 5545 asks for one),
    # this many extra dates and this many exclusions (every occurrence's record shows them all),
    # and every date of the series within this many years of its first occurrence.
    "RECURRENCE_MAX_RULES": 5,
    "RECURRENCE_MAX_DATES": 200,
    "RECURRENCE_MAX_YEARS": 100,
    # The FilterSet of a list, by the list's collection ("events", "venues", "organizers",
    # "categories", "tags"), as a dotted path: a site's subclass of the app's FilterSet adds filters
    # to the API list, its namespace index and its OpenAPI document (docs/install.md).
    "FILTERSETS": {},
    # Imports (docs/import.md): the most bytes read from a source (every page of a site together),
    # the seconds its reading may take (every request, every page, the parsing), and the most
    # events one run reads; past any of them the run stops, reports it, and trashes nothing.
    "IMPORT_MAX_BYTES": 20 * 1024 * 1024,
    "IMPORT_SECONDS": 120,
    "IMPORT_MAX_ITEMS": 20000,
}


class EventsSettings:
    """Attribute access to EVENTS settings with defaults; cached until settings change (tests)."""

    def __init__(self, defaults):
        self.defaults = defaults
        self._cache = {}

    def __getattr__(self, name):
        if name not in self.defaults:
            raise AttributeError(f"Unknown events setting: {name}")
        if name not in self._cache:
            user_settings = getattr(settings, "EVENTS", {}) or {}
            self._cache[name] = user_settings.get(name, self.defaults[name])
        return self._cache[name]

    @property
    def namespace(self):
        return f"{self.NAMESPACE_VENDOR}/events/v1"

    @property
    def language_param(self):
        return f"{self.LANGUAGE_PARAM_PREFIX}_language"

    def filterset(self, collection, default):
        """The FilterSet class of the list `collection`: FILTERSETS names it, else `default`."""
        key = ("FILTERSETS", collection)
        if key not in self._cache:
            path = self.FILTERSETS.get(collection)
            self._cache[key] = import_string(path) if path else default
        return self._cache[key]

    def reload(self):
        self._cache.clear()


events_settings = EventsSettings(DEFAULTS)
# How many times a setting has changed in this process (only tests change them): what a process
# works out from the settings is remembered under this number (events.memory).
_settings_changes = 0


def settings_version():
    return _settings_changes


def _reload_events_settings(*, setting, **kwargs):
    global _settings_changes
    _settings_changes += 1
    if setting == "EVENTS":
        events_settings.reload()


setting_changed.connect(_reload_events_settings)
