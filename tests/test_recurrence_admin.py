"""The admin's recurrence section: a series written for people, occurrences marked and filtered, the scope asked."""

import pytest

from events.models import Event, PostStatus, Series

from .test_admin import event_form, staff_client

pytestmark = pytest.mark.django_db


def repeat(**fields):
    return {"repeat_interval": "1", "repeat_end": "never", "repeat_dates": "", "repeat_exclusions": "", **fields}


def test_an_editor_creates_a_weekly_series_from_the_form():
    editor = staff_client("editor")
    data = event_form(**repeat(repeat="WEEKLY", repeat_weekdays=["MO", "WE"], repeat_end="count", repeat_count="5"))
    response = editor.post("/admin/events/event/add/", data)
    assert response.status_code == 302, response.content.decode()[:3000]
    first = Event.objects.get(post_parent=None)
    assert Series.objects.get(pk=first.pk).rules == ["FREQ=WEEKLY;BYDAY=MO,WE;COUNT=5"]
    # 1 July 2030 is a Monday: it counts among the five.
    assert Event.objects.filter(series_id=first.pk).count() == 5


def test_the_monthly_choice_says_the_second_tuesday():
    editor = staff_client("editor")
    # 9 July 2030 is the second Tuesday of July.
    data = event_form(
        start_0="2030-07-09",
        end_0="2030-07-09",
        **repeat(
            repeat="MONTHLY",
            repeat_monthly="weekday",
            repeat_end="until",
            repeat_until="2030-12-31",
        ),
    )
    assert editor.post("/admin/events/event/add/", data).status_code == 302
    first = Event.objects.get(post_parent=None)
    assert Series.objects.get(pk=first.pk).rules == ["FREQ=MONTHLY;BYDAY=2TU;UNTIL=20301231"]
    days = [event.start_local.day for event in Event.objects.filter(series_id=first.pk).order_by("start_local")]
    assert days == [9, 13, 10, 8, 12, 10]


def test_a_bad_rule_is_shown_on_the_form_and_writes_nothing():
    editor = staff_client("editor")
    data = event_form(**repeat(repeat="DAILY", repeat_end="count", repeat_count="5000"))
    response = editor.post("/admin/events/event/add/", data)
    assert response.status_code == 200
    assert "more than 1000 occurrences" in response.content.decode()
    assert not Event.objects.exists()


def test_the_changelist_marks_and_filters_series_and_an_edit_asks_its_scope():
    editor = staff_client("editor")
    data = event_form(**repeat(repeat="DAILY", repeat_end="count", repeat_count="3"))
    assert editor.post("/admin/events/event/add/", data).status_code == 302
    first = Event.objects.get(post_parent=None)
    assert editor.post("/admin/events/event/add/", event_form(title_en="Single")).status_code == 302
    listed = editor.get("/admin/events/event/", {"series": first.pk}).content.decode()
    assert listed.count("↻") == 3
    assert listed.count('name="_selected_action"') == 3
    second = Event.objects.filter(series_id=first.pk).order_by("start_local")[1]
    page = editor.get(f"/admin/events/event/{second.pk}/change/").content.decode()
    assert 'name="recurrence_scope"' in page
    change = event_form(
        title_en="Jazz nights",
        slug=second.slug,
        start_0="2030-07-02",
        end_0="2030-07-02",
        recurrence_scope="all",
        **repeat(repeat="DAILY", repeat_end="count", repeat_count="3"),
    )
    response = editor.post(f"/admin/events/event/{second.pk}/change/", change)
    assert response.status_code == 302, response.content.decode()[:3000]
    titles = set(
        Event.objects.filter(series_id=first.pk).exclude(status=PostStatus.TRASH).values_list("title_en", flat=True)
    )
    assert titles == {"Jazz nights"}
