"""Settings of the demo/deployment site, read from the environment (twelve-factor style).

Every variable is listed, with its default, in docs/configuration.md; `.env.example` is a production
environment that `manage.py check --deploy` passes (docs/deployment.md).
"""

import os
import sys
from pathlib import Path

import dj_database_url

BASE_DIR = Path(__file__).resolve().parent.parent


def env_flag(name, default=False):
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


DEBUG = env_flag("DEBUG", default=False)
# The fallback key only suits development; deployments must set SECRET_KEY.
SECRET_KEY = os.environ.get("SECRET_KEY", "insecure-development-key-change-me")


def env_list(name, default=""):
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost,testserver")
# The scheme and host of each HTTPS origin whose forms post here (the admin behind a proxy), e.g.
# https://calendar.example.org.
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

# HTTPS=true: the site is served over TLS (directly or by a proxy that terminates it). Cookies are
# then sent over HTTPS only, plain HTTP is redirected, and browsers are told to use HTTPS from now on.
if env_flag("HTTPS"):
    SECURE_SSL_REDIRECT = env_flag("SECURE_SSL_REDIRECT", default=True)
    SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_flag("SECURE_HSTS_INCLUDE_SUBDOMAINS")
    SECURE_HSTS_PRELOAD = env_flag("SECURE_HSTS_PRELOAD")
# A proxy that terminates TLS says so in X-Forwarded-Proto; trust it only behind such a proxy, which
# must overwrite the header a client sends.
if env_flag("BEHIND_TLS_PROXY"):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

INSTALLED_APPS = [
    # modeltranslation must come before the admin so that translated fields appear there.
    "modeltranslation",
    # events precedes the admin so that its admin/base_site.html (the language switcher) wins.
    "events",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    # The task engine's database backend (django_tasks_db) under a translated name: webhook
    # deliveries run in its workers (`db_worker`).
    "events.delivery_queue.DeliveryQueueConfig",
    # The admin's drag-and-drop ordering of an event's organizers (its scripts and templates).
    "adminsortable2",
    # The admin's rich-text editor of descriptions and excerpts (its scripts, served locally).
    "django_prose_editor",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Static files (the admin's, the public pages') from the app server itself, compressed and, with
    # STATIC_MANIFEST, cached for ever under names that change with their content.
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "calendar_site.urls"
WSGI_APPLICATION = "calendar_site.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# The development server starts a thread per request, so a kept connection is never reused: it only
# piles up idle connections on the database server. Kept connections pay off under gunicorn.
_DEVELOPMENT_SERVER = sys.argv[1:2] == ["runserver"]

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("CONN_MAX_AGE", "0" if _DEVELOPMENT_SERVER else "60")),
        # A kept connection the server closed meanwhile is replaced before use, not failed on.
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # The same backend, with a health check that needs no round trip on a sound connection.
    DATABASES["default"]["ENGINE"] = "calendar_site.postgresql"
    # A database that accepts connections but never answers must not hold a worker: the API then
    # answers 503 with Retry-After (events.api.errors.database_unavailable).
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "connect_timeout": int(os.environ.get("DATABASE_CONNECT_TIMEOUT", "5")),
            "options": f"-c statement_timeout={int(os.environ.get('DATABASE_STATEMENT_TIMEOUT', '30')) * 1000}",
        }
    )
    if os.environ.get("DATABASE_PREPARED_STATEMENTS", "true").lower() not in {"0", "false", "no", "off"}:
        # Parameters bound by the server, and a statement run a second time on a connection runs
        # prepared: planning a read's few small statements cost more than executing them. Turn it
        # off behind a pooler that cannot keep prepared statements (PgBouncer in transaction mode
        # before 1.21).
        DATABASES["default"]["OPTIONS"].update({"server_side_binding": True, "prepare_threshold": 2})
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Webhook deliveries are tasks kept in the database and run by `manage.py db_worker` (docs/changes.md).
TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}

# Sign-ins through Django (the admin's login form) share the API's login throttle (docs/install.md).
AUTHENTICATION_BACKENDS = ["events.backends.ThrottledModelBackend"]

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
]

LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", "English"),
    ("zh-hans", "简体中文"),
    ("zh-hant", "繁體中文"),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
USE_TZ = True
TIME_ZONE = os.environ.get("TIME_ZONE", "UTC")

MODELTRANSLATION_DEFAULT_LANGUAGE = "en"
MODELTRANSLATION_FALLBACK_LANGUAGES = ("en",)

STATIC_URL = "static/"
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", BASE_DIR / "staticfiles"))
# In development (where runserver serves the apps' own static files) WhiteNoise looks for
# collected files on each request instead of once at start-up.
WHITENOISE_AUTOREFRESH = DEBUG
# STATIC_MANIFEST=true (production, after `manage.py collectstatic`): file names carry a hash of
# their content, so browsers may keep them for ever. Off by default, since it needs collectstatic.
if env_flag("STATIC_MANIFEST"):
    STORAGES = {
        "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
        "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
    }
MEDIA_URL = "media/"
MEDIA_ROOT = Path(os.environ.get("MEDIA_ROOT", BASE_DIR / "media"))

# REDIS_URL (e.g. redis://127.0.0.1:6379/1) gives every process one shared cache; without it each
# process keeps its own in memory, which is fine for one process but not for the read cache below.
if os.environ.get("REDIS_URL"):
    CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": os.environ["REDIS_URL"]}
    }

# The events app reads its own settings from this one dict (see events/conf.py for defaults).
# Hosts webhook receivers and image URLs may be on although private (EVENTS_IMAGE_IMPORT_ALLOWED_HOSTS
# is the variable's former name). The development server (DEBUG) allows this machine's own receivers.
_OUTBOUND_ALLOWED_HOSTS = os.environ.get(
    "EVENTS_OUTBOUND_ALLOWED_HOSTS",
    os.environ.get("EVENTS_IMAGE_IMPORT_ALLOWED_HOSTS", "127.0.0.1,localhost,::1" if DEBUG else ""),
)

EVENTS = {
    "OUTBOUND_ALLOWED_HOSTS": [host.strip() for host in _OUTBOUND_ALLOWED_HOSTS.split(",") if host.strip()],
    # Anonymous API reads served from the cache for this long (0: off); needs REDIS_URL with >1 process.
    "READ_CACHE_SECONDS": int(os.environ.get("EVENTS_READ_CACHE_SECONDS", "0")),
    # The site's address, which webhook payloads' records link to (docs/changes.md).
    "SITE_URL": os.environ.get("EVENTS_SITE_URL", "http://localhost:8000"),
    "CHANGES_RETENTION_DAYS": int(os.environ.get("EVENTS_CHANGES_RETENTION_DAYS", "30")),
    # Proxies in front of the site that append the client's address to X-Forwarded-For: the login
    # throttle then counts failures per client, not per proxy.
    "TRUSTED_PROXIES": int(os.environ.get("EVENTS_TRUSTED_PROXIES", "0")),
}

# No REST_FRAMEWORK setting: the events API sets its own authentication, error handling and
# rendering on its views, and nothing else on this site is a DRF view. A REST_FRAMEWORK block added
# for other APIs would not change the events API.

CSRF_HEADER_NAME = "HTTP_X_CSRFTOKEN"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
    # Django's own console handler (DEBUG only) would print every record of the "django" loggers a
    # second time beside the root's: they reach the root's handler alone.
    "loggers": {"django": {"handlers": [], "level": "INFO"}},
}
