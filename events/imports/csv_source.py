"""Reading a CSV file in the columns of the plugin's own CSV importer: events, venues or organizers."""

import csv
import io

from django.utils.translation import gettext as _

from ..cost import parse_cost_input
from .items import Reading, RemoteEvent

# The plugin's column names, read case-insensitively.
EVENT_NAME = "event name"
VENUE_COLUMNS = {
    "venue name": "venue",
    "venue description": "description",
    "venue address": "address",
    "venue city": "city",
    "venue country": "country",
    "venue province": "province",
    "venue state": "state",
    "venue zip": "zip",
    "venue phone": "phone",
    "venue website": "website",
}
ORGANIZER_COLUMNS = {
    "organizer name": "organizer",
    "organizer description": "description",
    "organizer email": "email",
    "organizer phone": "phone",
    "organizer website": "website",
}
TRUE_WORDS = ("1", "yes", "true", "y")
# A spreadsheet's cell holds at most this much; more is not a calendar's CSV.
MAX_FIELD_CHARACTERS = 100_000


def looks_like_csv(fetched):
    if fetched.content_type in ("text/csv", "application/csv"):
        return True
    first_line = fetched.body[:2000].split(b"\n", 1)[0].decode("utf-8-sig", "replace").lower()
    return "," in first_line and any(name in first_line for name in (EVENT_NAME, "venue name", "organizer name"))


def read_csv(body):
    """Events (with their venue and organizer by name), or venues or organizers alone, one a row."""
    reading = Reading()
    text = body.decode("utf-8-sig", "replace")
    csv.field_size_limit(MAX_FIELD_CHARACTERS)
    rows = csv.reader(io.StringIO(text))
    try:
        header = [name.strip().lower() for name in next(rows)]
    except (StopIteration, csv.Error):
        reading.problem(_("file"), _("The CSV file has no header row."))
        reading.complete = False
        return reading
    for number, row in enumerate(rows, start=2):
        where = _("row %(number)s") % {"number": number}
        try:
            values = dict(zip(header, (cell.strip() for cell in row), strict=False))
            if not any(values.values()):
                continue
            event = _row_event(values)
        except (ValueError, csv.Error) as error:
            reading.problem(where, str(error))
            continue
        if event is not None and not reading.add(event):
            break
    return reading


def _row_event(values):
    if EVENT_NAME not in values:
        return _linked_only(values)
    name = values[EVENT_NAME]
    start_day = values.get("event start date", "")
    if not name or not start_day:
        raise ValueError(_("An event needs its name and start date."))
    all_day = values.get("all day event", "").lower() in TRUE_WORDS
    start_time = "00:00:00" if all_day else values.get("event start time") or "00:00:00"
    end_day = values.get("event end date") or start_day
    end_time = "23:59:59" if all_day else values.get("event end time") or start_time
    fields = {
        "title": name,
        "description": values.get("event description", ""),
        "excerpt": values.get("event excerpt", ""),
        "start_date": f"{start_day} {start_time}",
        "end_date": f"{end_day} {end_time}",
        "all_day": all_day,
        "website": values.get("event website", ""),
        "categories": _list(values.get("event category", "")),
        "tags": _list(values.get("event tags", "")),
    }
    if values.get("timezone") or values.get("event timezone"):
        fields["timezone"] = values.get("timezone") or values.get("event timezone")
    if values.get("event cost"):
        fields["cost"] = parse_cost_input(values.get("event currency symbol", "") + values["event cost"])
    if values.get("event venue name"):
        fields["venue"] = {"venue": values["event venue name"]}
    if values.get("event organizer name"):
        fields["organizer"] = [{"organizer": name} for name in _list(values["event organizer name"])]
    # The plugin's CSV importer finds an event again by its name and start.
    return RemoteEvent(key=f"{name}|{fields['start_date']}", fields=fields)


def _linked_only(values):
    """A row of a venues or organizers file, keyed by its name as the plugin finds them again."""
    for kind, columns in (("venue", VENUE_COLUMNS), ("organizer", ORGANIZER_COLUMNS)):
        fields = {field: values[column] for column, field in columns.items() if values.get(column)}
        if fields.get(kind):
            return RemoteEvent(key=f"{kind}|{fields[kind]}", fields=fields, kind=kind)
    raise ValueError(_("The row has no Event Name, Venue Name or Organizer Name."))


def _list(text):
    return [item.strip() for item in text.split(",") if item.strip()]
