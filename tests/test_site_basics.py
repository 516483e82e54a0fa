"""What a newcomer meets on the demo site beyond the API: the icon, and each log record printed once."""

import pytest
from django.test import Client

from .factories import make_event
from .processes import site_process_output

pytestmark = pytest.mark.django_db


def test_public_pages_link_the_icon_and_the_conventional_path_leads_to_it():
    make_event(title="Icon check")
    page = Client().get("/events/")
    assert page.status_code == 200
    assert b'rel="icon"' in page.content and b"events/favicon.svg" in page.content
    icon = Client().get("/favicon.ico")
    assert icon.status_code == 301
    assert icon["Location"].endswith("events/favicon.svg")


# Counts, in a process of its own configured by the site's settings (pytest adds handlers of its own),
# the console handlers a record of each logger reaches and that let it through.
PRINTING_HANDLERS = """
import logging, django
django.setup()
for name in ("django.request", "django.server", "django.security.csrf", "events.api"):
    record = logging.LogRecord(name, logging.ERROR, "check", 1, "boom", None, None)
    logger, reached = logging.getLogger(name), 0
    while logger is not None:
        reached += sum(1 for handler in logger.handlers if isinstance(handler, logging.StreamHandler) and handler.filter(record))
        logger = logger.parent if logger.propagate else None
    print(name, reached)
"""


@pytest.mark.parametrize("debug", ["true", "false"])
def test_a_log_record_is_printed_once(debug):
    output = site_process_output(PRINTING_HANDLERS, DEBUG=debug)
    assert dict(line.split() for line in output.splitlines()) == {
        "django.request": "1",
        "django.server": "1",
        "django.security.csrf": "1",
        "events.api": "1",
    }


# The kept-connection age a process of the site gets, started as `manage.py <command>` would be.
CONNECTION_AGE = """
import django
from django.conf import settings
django.setup()
print(settings.DATABASES["default"]["CONN_MAX_AGE"])
"""


@pytest.mark.parametrize(("command", "age"), [("runserver", "0"), ("migrate", "60")])
def test_connections_are_kept_only_outside_the_development_server(command, age):
    assert site_process_output(CONNECTION_AGE, command, CONN_MAX_AGE=None).strip() == age
