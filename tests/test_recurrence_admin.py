"""The admin's recurrence section: a series written for people, occurrences marked and filtered, the scope asked."""

import datetime as dt
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from events.models import Event, PostStatus, Series

from .test_admin import PASSWORD, event_form, staff_client

pytestmark = pytest.mark.django_db

PREVIEW = "/admin/events/event/recurrence-preview/"


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


def test_fields_of_another_frequency_are_ignored_as_their_help_says():
    # Without scripts every field of the section shows: a daily series ignores weekdays and "Monthly on".
    editor = staff_client("editor")
    page = editor.get("/admin/events/event/add/").content.decode()
    assert "Weekly only (ignored otherwise)" in page
    assert "Monthly only (ignored otherwise)" in page
    data = event_form(
        **repeat(
            repeat="DAILY",
            repeat_weekdays=["TU", "FR"],
            repeat_monthly="last",
            repeat_end="count",
            repeat_count="3",
            repeat_until="2030-07-20",
        )
    )
    assert editor.post("/admin/events/event/add/", data).status_code == 302
    first = Event.objects.get(post_parent=None)
    assert Series.objects.get(pk=first.pk).rules == ["FREQ=DAILY;COUNT=3"]


def test_a_bad_rule_is_shown_on_the_form_and_writes_nothing():
    editor = staff_client("editor")
    data = event_form(**repeat(repeat="DAILY", repeat_end="count", repeat_count="5000"))
    response = editor.post("/admin/events/event/add/", data)
    assert response.status_code == 200
    assert response.context["adminform"].form.errors == {
        "repeat_count": ["The series would have more than 1000 occurrences: choose a smaller number."]
    }
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


# --- how far a save goes: the series on its first occurrence, the scope asked on the others -----


def daily_series(editor, count=5):
    """Daily from Monday 1 July 2030, `count` times: [first, second, ...]."""
    data = event_form(**repeat(repeat="DAILY", repeat_end="count", repeat_count=str(count)))
    assert editor.post("/admin/events/event/add/", data).status_code == 302
    return list(Event.objects.order_by("start_local"))


def titles_by_day(series_id=None):
    """{day of July 2030: title} of the live occurrences (of one series, or all of them)."""
    events = Event.objects.exclude(status=PostStatus.TRASH)
    if series_id is not None:
        events = events.filter(series_id=series_id)
    return {event.start_local.day: event.title_en for event in events.order_by("start_local")}


def change_form(event, **fields):
    """The change form of `event` as its page posts it, with `fields` typed."""
    clock = event.start_local
    return event_form(
        slug=event.slug,
        start_0=f"{clock:%Y-%m-%d}",
        end_0=f"{clock:%Y-%m-%d}",
        **repeat(repeat="DAILY", repeat_end="count", repeat_count="5"),
        **fields,
    )


def test_the_first_occurrences_page_says_a_save_changes_the_whole_series_and_asks_no_scope():
    editor = staff_client("editor")
    first, second, *_others = daily_series(editor)
    Event.objects.filter(pk=second.pk).update(series_edits=["title_en"])
    page = editor.get(f"/admin/events/event/{first.pk}/change/").content.decode()
    assert 'name="recurrence_scope"' not in page
    assert "This event is the first of a series of 5 occurrences: saving it changes all of them." in page
    assert "1 occurrence keeps what was changed on it alone." in page
    # The other occurrences ask.
    page = editor.get(f"/admin/events/event/{second.pk}/change/").content.decode()
    assert 'name="recurrence_scope"' in page
    assert "the first of a series" not in page


def test_renaming_the_first_occurrence_with_a_rule_change_renames_every_occurrence():
    editor = staff_client("editor")
    first, *_others = daily_series(editor, count=3)
    # A scope sent anyway is not a field of this page: the series changes as a whole.
    response = editor.post(
        f"/admin/events/event/{first.pk}/change/",
        change_form(first, title_en="Jazz nights", recurrence_scope="this"),
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    assert Series.objects.get(pk=first.pk).rules == ["FREQ=DAILY;COUNT=5"]
    assert titles_by_day() == dict.fromkeys((1, 2, 3, 4, 5), "Jazz nights")
    assert set(Event.objects.values_list("series_id", flat=True)) == {first.pk}


def test_renaming_the_first_occurrence_keeps_what_was_changed_on_an_occurrence_alone():
    editor = staff_client("editor")
    first, second, third, *_others = daily_series(editor)
    assert (
        editor.post(
            f"/admin/events/event/{third.pk}/change/",
            change_form(third, title_en="Jazz and poetry", recurrence_scope="this"),
        ).status_code
        == 302
    )
    assert (
        editor.post(f"/admin/events/event/{first.pk}/change/", change_form(first, title_en="Jazz nights")).status_code
        == 302
    )
    assert titles_by_day() == {
        1: "Jazz nights",
        2: "Jazz nights",
        3: "Jazz and poetry",
        4: "Jazz nights",
        5: "Jazz nights",
    }


@pytest.mark.parametrize(
    ("scope", "titles", "new_series"),
    [
        pytest.param(
            "this",
            {1: "Jazz night", 2: "Jazz night", 3: "Late jazz", 4: "Jazz night", 5: "Jazz night"},
            False,
            id="this-occurrence-only",
        ),
        pytest.param(
            "following",
            {1: "Jazz night", 2: "Jazz night", 3: "Late jazz", 4: "Late jazz", 5: "Late jazz"},
            True,
            id="this-and-the-following",
        ),
        pytest.param("all", dict.fromkeys((1, 2, 3, 4, 5), "Late jazz"), False, id="all-occurrences"),
    ],
)
def test_another_occurrence_is_changed_as_far_as_the_scope_chosen(scope, titles, new_series):
    editor = staff_client("editor")
    first, _second, third, *_others = daily_series(editor)
    response = editor.post(
        f"/admin/events/event/{third.pk}/change/", change_form(third, title_en="Late jazz", recurrence_scope=scope)
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    assert titles_by_day() == titles
    if new_series:
        # The third occurrence starts a new series of three; the old one ends before it.
        assert titles_by_day(third.pk) == {3: "Late jazz", 4: "Late jazz", 5: "Late jazz"}
        assert Series.objects.get(pk=third.pk).rules == ["FREQ=DAILY;COUNT=3"]
        assert titles_by_day(first.pk) == {1: "Jazz night", 2: "Jazz night"}
    else:
        assert titles_by_day(first.pk) == titles
        assert Series.objects.get(pk=first.pk).rules == ["FREQ=DAILY;COUNT=5"]


# --- the live preview of the next dates ----------------------------------------------------------


def typed(**fields):
    """What recurrence_preview.js sends: the form's inputs of the section, the start and its zone."""
    return {
        "start_0": "2027-10-24",
        "start_1": "19:00",
        "timezone_name": "America/New_York",
        **repeat(**fields),
    }


def test_the_preview_is_for_editors_only():
    anonymous = Client().get(PREVIEW, typed(repeat="WEEKLY"))
    assert anonymous.status_code == 302
    assert anonymous["Location"].startswith("/admin/login/")
    # Subscribers are not staff: the admin sends them to its login too.
    assert staff_client("subscriber").get(PREVIEW, typed(repeat="WEEKLY")).status_code == 302
    # Staff without the right to edit events.
    get_user_model().objects.create_user("clerk", password=PASSWORD, is_staff=True)
    clerk = Client()
    assert clerk.login(username="clerk", password=PASSWORD)
    assert clerk.get(PREVIEW, typed(repeat="WEEKLY")).status_code == 403
    # Contributors may write events (their own drafts), series included.
    assert staff_client("contributor").get(PREVIEW, typed(repeat="WEEKLY")).status_code == 200
    assert staff_client("editor").post(PREVIEW, typed(repeat="WEEKLY")).status_code == 405


def test_the_preview_keeps_the_wall_clock_across_the_end_of_daylight_saving_time():
    # New York leaves daylight-saving time on Sunday 7 November 2027.
    response = staff_client("editor").get(
        PREVIEW, typed(repeat="WEEKLY", repeat_weekdays=["SU", "WE"], repeat_end="count", repeat_count="6")
    )
    assert response.status_code == 200
    answer = response.json()
    assert answer["rules"] == ["Every Wednesday and Sunday, 6 times"]
    assert [date["start"] for date in answer["dates"]] == [
        "2027-10-24T19:00:00-04:00",
        "2027-10-27T19:00:00-04:00",
        "2027-10-31T19:00:00-04:00",
        "2027-11-03T19:00:00-04:00",
        "2027-11-07T19:00:00-05:00",
        "2027-11-10T19:00:00-05:00",
    ]
    assert answer["dates"][4]["text"] == "Sun 7 Nov 2027, 19:00 EST"
    assert (answer["count"], answer["open_ended"], answer["summary"]) == (6, False, "6 occurrences in all.")


def test_the_preview_lists_ten_dates_with_extra_and_excluded_ones_in_the_editors_language():
    response = staff_client("editor").get(
        "/zh-hans/admin/events/event/recurrence-preview/",
        typed(
            repeat="DAILY",
            repeat_interval="2",
            repeat_end="until",
            repeat_until="2027-12-31",
            repeat_dates="2027-10-25 08:00",
            repeat_exclusions="2027-10-26 19:00",
        ),
    )
    assert response.status_code == 200
    answer = response.json()
    starts = [date["start"][:16] for date in answer["dates"]]
    assert starts[:4] == ["2027-10-24T19:00", "2027-10-25T08:00", "2027-10-28T19:00", "2027-10-30T19:00"]
    assert len(starts) == 10
    assert answer["count"] == 1 + 1 + 34 - 1
    assert answer["rules"] == ["每2天，直到2027年12月31日"]
    # The count says why it differs from the rule's (test_the_previews_count_says_why_it_differs_from_the_rules).
    assert "35" in answer["summary"]
    assert answer["heading"] == "接下来的日期（America/New_York）"


@pytest.mark.parametrize(
    ("fields", "summary"),
    [
        pytest.param({}, "6 occurrences in all.", id="as-the-rule-says"),
        pytest.param(
            {"repeat_exclusions": "2027-11-02 19:00"}, "5 occurrences in all (1 excluded).", id="an-exclusion"
        ),
        pytest.param({"repeat_exclusions": "2027-11-03 19:00"}, "6 occurrences in all.", id="an-exclusion-of-no-date"),
        pytest.param({"repeat_dates": "2027-11-04 19:00"}, "7 occurrences in all (1 extra date).", id="an-extra-date"),
        pytest.param({"repeat_dates": "2027-11-09 19:00"}, "6 occurrences in all.", id="an-extra-date-the-rule-gives"),
        pytest.param(
            {"repeat_dates": "2027-11-04 19:00\n2027-11-05", "repeat_exclusions": "2027-11-02 19:00"},
            "7 occurrences in all (1 excluded and 2 extra dates).",
            id="both",
        ),
        pytest.param(
            {"start_0": "2027-10-24"},
            "7 occurrences in all (the first occurrence, which the rule skips).",
            id="a-start-the-rule-skips",
        ),
    ],
)
def test_the_previews_count_says_why_it_differs_from_the_rules(fields, summary):
    # Tuesdays from Tuesday 26 October 2027, six times.
    answer = (
        staff_client("editor")
        .get(
            PREVIEW,
            typed(
                **{
                    "start_0": "2027-10-26",
                    "repeat": "WEEKLY",
                    "repeat_weekdays": ["TU"],
                    "repeat_end": "count",
                    "repeat_count": "6",
                    **fields,
                }
            ),
        )
        .json()
    )
    assert answer["rules"] == ["Every Tuesday, 6 times"]
    assert answer["summary"] == summary
    assert answer["summary"].startswith(f"{answer['count']} occurrences")


def test_an_open_ended_series_count_says_its_exclusions_too():
    answer = (
        staff_client("editor")
        .get(PREVIEW, typed(repeat="WEEKLY", repeat_exclusions="2027-10-31 19:00\n2027-11-07 19:00"))
        .json()
    )
    assert answer["summary"].startswith(f"{answer['count']} occurrences until ")
    assert answer["summary"].endswith(" (2 excluded), then more as time goes on.")


def test_an_open_ended_series_is_previewed_up_to_the_horizon_as_a_save_makes_it():
    answer = staff_client("editor").get(PREVIEW, typed(repeat="WEEKLY")).json()
    assert answer["open_ended"] is True
    assert len(answer["dates"]) == 10
    assert answer["summary"].endswith("then more as time goes on.")
    # Past the horizon: the first occurrence alone, until the horizon reaches the others.
    answer = staff_client("editor", "far").get(PREVIEW, typed(repeat="WEEKLY", start_0="2035-01-07")).json()
    assert [date["start"] for date in answer["dates"]] == ["2035-01-07T19:00:00-05:00"]


def test_an_open_ended_series_past_the_horizon_is_saved_with_its_first_occurrence():
    editor = staff_client("editor")
    data = event_form(start_0="2035-01-07", end_0="2035-01-07", **repeat(repeat="WEEKLY"))
    assert editor.post("/admin/events/event/add/", data).status_code == 302
    first = Event.objects.get()
    assert (first.series_id, first.series_position) == (first.pk, 1)


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        pytest.param(
            {"repeat": "DAILY", "repeat_end": "count", "repeat_count": "5000"},
            "Number of times: The series would have more than 1000 occurrences: choose a smaller number.",
            id="too-many-times",
        ),
        pytest.param(
            {"repeat": "DAILY", "repeat_end": "until", "repeat_until": "2031-12-31"},
            "End date: The series would have more than 1000 occurrences: choose an earlier date.",
            id="an-end-date-too-far",
        ),
        pytest.param(
            {"repeat": "DAILY", "repeat_end": "count", "repeat_count": "two"},
            "Number of times: Enter a whole number.",
            id="not-a-number",
        ),
        pytest.param(
            {"repeat": "WEEKLY", "repeat_end": "until", "repeat_until": "2027-10-01"},
            "End date: The first occurrence starts after this date.",
            id="an-end-date-before-the-start",
        ),
        pytest.param({"repeat": "WEEKLY", "start_1": ""}, "Start: This field is required.", id="no-start"),
        pytest.param(
            # 22:00 on the calendar's last day in New York is already past its end in UTC, as a save says.
            {"repeat": "WEEKLY", "start_0": "9999-12-31", "start_1": "22:00"},
            "Start: Invalid parameter.",
            id="a-start-past-the-calendars-end",
        ),
    ],
)
def test_the_preview_shows_the_forms_own_refusal(fields, message):
    response = staff_client("editor").get(PREVIEW, typed(**fields))
    assert response.status_code == 400
    assert response.json() == {"errors": [message]}


@pytest.mark.parametrize(
    ("fields", "label"),
    [
        pytest.param({"repeat": "WEEKLY", "repeat_dates": "next Tuesday"}, "Extra dates", id="an-extra-date"),
        pytest.param(
            {"repeat": "WEEKLY", "repeat_dates": "2027-10-01 19:00"}, "Extra dates", id="an-extra-date-too-early"
        ),
        pytest.param({"repeat": "", "repeat_dates": "next Tuesday"}, "Extra dates", id="dates-alone"),
        pytest.param({"repeat": "WEEKLY", "repeat_exclusions": "next Tuesday"}, "Excluded dates", id="an-exclusion"),
        pytest.param(
            {"repeat": "WEEKLY", "repeat_exclusions": "2027-10-24 19:00"}, "Excluded dates", id="the-first-excluded"
        ),
    ],
)
def test_the_preview_says_which_dates_are_refused(fields, label):
    [message] = staff_client("editor").get(PREVIEW, typed(**fields)).json()["errors"]
    assert message.startswith(f"{label}: ")


def test_the_previews_refusals_name_the_forms_fields_not_the_rules_parts(settings):
    settings.EVENTS = {"MAX_OCCURRENCES_PER_SERIES": 20}
    editor = staff_client("editor")
    refusals = {
        "repeat_end": typed(repeat="DAILY"),
        "repeat_count": typed(repeat="DAILY", repeat_end="count", repeat_count="21"),
        "repeat_until": typed(repeat="DAILY", repeat_end="until", repeat_until="2027-11-30"),
        "repeat_dates": typed(repeat="", repeat_dates="\n".join(f"2027-11-{day:02} 19:00" for day in range(1, 25))),
    }
    labels = {"repeat_end": "Ends", "repeat_count": "Number of times", "repeat_until": "End date"}
    for field, query in refusals.items():
        [message] = editor.get(PREVIEW, query).json()["errors"]
        assert message.startswith(f"{labels.get(field, 'Extra dates')}: The series would have more than 20 "), field
        assert not {"COUNT", "UNTIL", "RRULE", "FREQ"} & set(message.replace(".", " ").split()), message


def test_the_form_shows_the_same_refusal_as_the_preview_on_the_same_field():
    editor = staff_client("editor")
    data = event_form(**repeat(repeat="WEEKLY", repeat_end="until", repeat_until="2030-06-01"))
    response = editor.post("/admin/events/event/add/", data)
    assert response.status_code == 200
    assert response.context["adminform"].form.errors == {
        "repeat_until": ["The first occurrence starts after this date."]
    }
    assert not Event.objects.exists()
    preview = editor.get(PREVIEW, {**data, "start_1": "19:30"}).json()
    assert preview == {"errors": ["End date: The first occurrence starts after this date."]}


def test_the_preview_writes_nothing():
    editor = staff_client("editor")
    assert (
        editor.post(
            "/admin/events/event/add/", event_form(**repeat(repeat="DAILY", repeat_end="count", repeat_count="3"))
        ).status_code
        == 302
    )
    before = (Event.objects.count(), list(Series.objects.values_list("pk", "rules")))
    with CaptureQueriesContext(connection) as queries:
        assert editor.get(PREVIEW, typed(repeat="DAILY", repeat_end="count", repeat_count="30")).status_code == 200
        assert editor.get(PREVIEW, typed(repeat="DAILY", repeat_end="count", repeat_count="5000")).status_code == 400
    written = [query["sql"] for query in queries if not query["sql"].lstrip().upper().startswith("SELECT")]
    assert written == []
    assert (Event.objects.count(), list(Series.objects.values_list("pk", "rules"))) == before


def test_the_preview_is_offered_where_the_section_can_be_edited():
    editor = staff_client("editor")
    assert 'id="events-recurrence-preview"' in editor.get("/admin/events/event/add/").content.decode()
    assert (
        editor.post(
            "/admin/events/event/add/", event_form(**repeat(repeat="DAILY", repeat_end="count", repeat_count="3"))
        ).status_code
        == 302
    )
    first, second, _third = Event.objects.order_by("start_local")
    page = editor.get(f"/admin/events/event/{first.pk}/change/").content.decode()
    assert 'id="events-recurrence-preview"' in page
    assert 'data-url="/admin/events/event/recurrence-preview/"' in page
    # Another occurrence does not edit the rules: its page lists the series' dates as they are.
    page = editor.get(f"/admin/events/event/{second.pk}/change/").content.decode()
    assert 'id="events-recurrence-preview"' not in page
    assert "Next dates: 2030-07-02 19:30, 2030-07-03 19:30" in page


# --- the changelist's bulk actions on occurrences ------------------------------------------------


def weekly_series(editor, **fields):
    """Four Mondays from 4 January 2027 (within the horizon, so an open-ended rule is extended)."""
    data = event_form(start_0="2027-01-04", end_0="2027-01-04", **repeat(repeat="WEEKLY", **fields))
    # Followed: the page after the save shows (and so clears) its message.
    assert editor.post("/admin/events/event/add/", data, follow=True).redirect_chain[0][1] == 302
    return list(Event.objects.order_by("start_local"))


def act(editor, action, events):
    response = editor.post(
        "/admin/events/event/",
        {"action": action, "_selected_action": [e.pk for e in events], "post": "yes"},
        follow=True,
    )
    assert response.status_code == 200
    return [str(message) for message in response.context["messages"]]


def live_days(series_id):
    return [
        event.start_local.day
        for event in Event.objects.filter(series_id=series_id).exclude(status=PostStatus.TRASH).order_by("start_local")
    ]


def test_trashing_occurrences_in_the_changelist_trashes_each_alone():
    editor = staff_client("editor")
    first, second, third, _fourth = weekly_series(editor, repeat_end="count", repeat_count="4")
    assert act(editor, "move_to_trash", [second, third]) == ["2 records moved to the trash."]
    assert live_days(first.pk) == [4, 25]
    assert Series.objects.get(pk=first.pk).exclusions == ["2027-01-11 19:30:00", "2027-01-18 19:30:00"]


def test_trashing_a_series_first_occurrence_alone_says_what_stays():
    editor = staff_client("editor")
    first, *_others = weekly_series(editor, repeat_end="count", repeat_count="4")
    shown = act(editor, "move_to_trash", [first])
    assert shown[0] == "1 record moved to the trash."
    assert shown[1].startswith(
        "“Jazz night” is the first occurrence of a series and went to the trash alone: its 3 other occurrences stay."
    )
    assert live_days(first.pk) == [11, 18, 25]
    assert Series.objects.get(pk=first.pk).rules == ["FREQ=WEEKLY;COUNT=4"]
    # Already in the trash: nothing moved, nothing more to say.
    assert act(editor, "move_to_trash", [first]) == ["0 records moved to the trash."]


def test_trashing_a_whole_series_says_nothing_more():
    editor = staff_client("editor")
    events = weekly_series(editor, repeat_end="count", repeat_count="4")
    assert act(editor, "move_to_trash", events) == ["4 records moved to the trash."]
    assert live_days(events[0].pk) == []


def test_an_occurrence_deleted_for_good_is_not_made_again():
    editor = staff_client("editor")
    first, second, *_others = weekly_series(editor)
    made = Event.objects.count()
    assert act(editor, "delete_selected", [second]) == ["Successfully deleted 1 event."]
    assert "2027-01-11 19:30:00" in Series.objects.get(pk=first.pk).exclusions
    # The daily extension of open-ended series makes what the rules give, and the 11th is excluded.
    call_command("events_extend_series", stdout=StringIO())
    assert not Event.objects.filter(start_local__date=dt.date(2027, 1, 11)).exists()
    assert Event.objects.count() == made - 1


def test_deleting_a_series_first_occurrence_for_good_says_the_series_ended():
    editor = staff_client("editor")
    first, second, *_others = weekly_series(editor, repeat_end="count", repeat_count="4")
    response = editor.post(f"/admin/events/event/{first.pk}/delete/", {"post": "yes"}, follow=True)
    shown = [str(message) for message in response.context["messages"]]
    assert shown == [
        "“Jazz night” was the first occurrence of a series: the series ended with it, and its 3 other "
        "occurrences stay, events of their own.",
        "The event “Jazz night” was deleted successfully.",
    ]
    assert not Series.objects.exists()
    assert Event.objects.filter(series=None).count() == 3


def test_the_delete_confirmation_of_a_series_first_occurrence_says_the_series_will_end():
    editor = staff_client("editor")
    first, second, *_others = weekly_series(editor, repeat_end="count", repeat_count="4")
    warning = (
        "“Jazz night” is the first occurrence of a series: deleting it ends the series, and its 3 other "
        "occurrences stay, events of their own."
    )
    page = editor.get(f"/admin/events/event/{first.pk}/delete/")
    assert [str(message) for message in page.context["messages"]] == [warning]
    # The bulk action's confirmation says it too; an occurrence that is not the first, nothing.
    bulk = editor.post("/admin/events/event/", {"action": "delete_selected", "_selected_action": [first.pk, second.pk]})
    assert [str(message) for message in bulk.context["messages"]] == [
        warning.replace("its 3 other occurrences stay, events", "its 2 other occurrences stay, events")
    ]
    alone = editor.get(f"/admin/events/event/{second.pk}/delete/")
    assert [str(message) for message in alone.context["messages"]] == []
    # Nothing deleted by looking.
    assert Series.objects.filter(pk=first.pk).exists()


@pytest.mark.parametrize(
    "rule",
    ["FREQ=DAILY;INTERVAL=abc;COUNT=5", "FREQ=DAILY;COUNT=five", "FREQ=DAILY;UNTIL=2030-07-09"],
    ids=["interval", "count", "until"],
)
def test_a_page_opens_for_a_series_whose_stored_rule_the_form_cannot_read(rule):
    """A rule stored before the grammar refused it (straight in the database here)."""
    editor = staff_client("editor")
    first, *_others = daily_series(editor)
    Series.objects.filter(pk=first.pk).update(rules=[rule])
    page = editor.get(f"/admin/events/event/{first.pk}/change/")
    assert page.status_code == 200
    assert Series.objects.get(pk=first.pk).rules == [rule]
