"""An occurrence's page says its series' rules in words, in the page's language, and links the next dates."""

import datetime as dt

import pytest
from django.test import Client
from django.utils import timezone

from events.models import Event
from events.recurrence_words import rule_in_words

from .conftest import API

pytestmark = pytest.mark.django_db

NEW_YORK = "America/New_York"


@pytest.fixture
def series(editor):
    start = timezone.now().date() + dt.timedelta(days=1)
    response = editor.post(
        f"{API}/events",
        {
            "title": "Choir",
            "status": "publish",
            "timezone": NEW_YORK,
            "start_date": f"{start} 19:00",
            "end_date": f"{start} 21:00",
            "recurrence": {"rules": [f"FREQ=WEEKLY;BYDAY=TU,TH;UNTIL={start.year + 1}0630T235959Z"]},
        },
        format="json",
    )
    assert response.status_code == 201, response.json()
    return response.json()


@pytest.mark.parametrize(
    "prefix, words",
    [
        ("", "Every Tuesday and Thursday until June 30, {year}"),
        ("/zh-hans", "每星期二和星期四，直到{year}年6月30日"),
        ("/zh-hant", "每星期二和星期四，直到{year}年6月30日"),
    ],
    ids=["en", "zh-hans", "zh-hant"],
)
def test_the_page_says_the_rule_in_its_language(series, prefix, words):
    year = timezone.now().year + 1
    second = Event.objects.filter(series_id=series["id"]).order_by("start_utc")[1]
    html = Client().get(f"{prefix}/event/{second.slug}/").content.decode()
    assert words.format(year=year) in html


def test_the_page_links_the_next_dates(series):
    occurrences = list(Event.objects.filter(series_id=series["id"]).order_by("start_utc")[:5])
    html = Client().get(f"/event/{occurrences[0].slug}/").content.decode()
    section = html.split('class="series-next"', 1)[1].split("</section>", 1)[0]
    for occurrence in occurrences[1:]:
        assert f'href="http://testserver/event/{occurrence.slug}/"' in section
    # The page's own occurrence is listed, not linked.
    assert f"/event/{occurrences[0].slug}/" not in section


@pytest.mark.parametrize(
    "rule, words",
    [
        ("FREQ=DAILY", "Every day"),
        ("FREQ=DAILY;INTERVAL=3;COUNT=5", "Every 3 days, 5 times"),
        ("FREQ=WEEKLY;INTERVAL=2;BYDAY=MO", "Every 2 weeks on Monday"),
        ("FREQ=MONTHLY;BYDAY=2TU", "Every month on the second Tuesday"),
        ("FREQ=MONTHLY;BYDAY=-1FR;COUNT=1", "Every month on the last Friday, 1 time"),
        ("FREQ=MONTHLY;BYMONTHDAY=1,15", "Every month on days 1 and 15"),
        ("FREQ=YEARLY;BYMONTH=3", "Every year in March"),
        ("FREQ=MONTHLY;BYDAY=MO,TU;BYSETPOS=-1", "Repeats monthly"),
    ],
)
def test_rules_in_english_words(rule, words):
    assert rule_in_words(rule, dt.UTC) == words
