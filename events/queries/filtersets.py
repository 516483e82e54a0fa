"""What each list's filters are: one django-filter FilterSet per listed resource, each filter naming
the parameter it reads, how that parameter's value is read, and what it does to the list.

The FilterSets are the one declaration of the list parameters: the API's parameter declarations
(events/api/parameters/lists.py) and the public feeds read each value with the parser its filter
names, once; the FilterSet then takes the typed values and applies them. A site adds a filter by
subclassing one of these FilterSets (docs/install.md, "Extending list filters").
"""

from django import forms
from django.forms.utils import ErrorDict
from django.utils.translation import gettext_lazy as _
from django_filters import FilterSet
from django_filters.constants import EMPTY_VALUES
from django_filters.filters import Filter

from ..exceptions import InvalidValue
from ..list_versions import Reads
from ..models import Event, EventOrganizer, Organizer, PostKind, Taxonomy, Term, Venue
from . import events as event_queries
from . import linked as linked_queries
from . import params, visibility
from . import terms as term_queries
from .syntax import is_truthy
from .window import RELATIVE_PARAMS, WINDOW_PARAMS, DateWindow, date_window, default_end_date, default_start_date

# A filter whose parameter has no default (`default=NO_DEFAULT`, the index then publishes none).
NO_DEFAULT = object()


# --- the filters: one list parameter each --------------------------------------------------------


class ParameterFilter(Filter):
    """A filter of one list parameter: `parse(name, value)` reads what a request gives (a parser of
    events.queries.params: it raises InvalidValue, WrongType or NotOneOf), `method` applies the typed
    value, as django-filter's `method` does.

    The other keywords describe the parameter for the namespace index and the OpenAPI document:
    `help_text`, `default` (a value or a callable), `wire_type`, `wire_format` and `wire_items` (the
    JSON Schema words WordPress publishes), `server_checked` (a value that fits the schema may still
    be refused: it names a record, or a date strtotime() must read), `wire_schema` (an OpenAPI
    schema replacing the one these give), and `reads` (a
    list_versions.Reads of the tables the filter joins, beside the list's own).
    """

    wire_type = None

    def __init__(
        self,
        *,
        parse=None,
        help_text="",
        default=NO_DEFAULT,
        wire_type=None,
        wire_format=None,
        wire_items=None,
        server_checked=False,
        wire_schema=None,
        reads=None,
        **kwargs,
    ):
        super().__init__(label=help_text, **kwargs)
        self.parse = parse
        self.help_text = help_text
        self.default = default
        self.wire_type = wire_type or self.wire_type
        self.wire_format = wire_format
        self.wire_items = wire_items
        self.server_checked = server_checked
        self.wire_schema = wire_schema
        self.reads = reads

    def default_value(self):
        return self.default() if callable(self.default) else self.default

    def applies(self, value):
        """Whether `value` filters anything (decisions.md, "Empty list filters")."""
        return not is_empty(value)


class TextParameter(ParameterFilter):
    """A typed string; `non_empty`, at most `max_length` characters when given."""

    wire_type = "string"

    def __init__(self, *, non_empty=True, max_length=None, **kwargs):
        super().__init__(**kwargs)
        self.non_empty = non_empty
        self.max_length = max_length
        if self.parse is None:
            self.parse = self.parse_text

    def parse_text(self, name, value):
        return params.text(name, value, non_empty=self.non_empty, max_length=self.max_length)


class BooleanParameter(ParameterFilter):
    """A boolean as WordPress reads one (events.queries.params.boolean)."""

    wire_type = "boolean"

    def __init__(self, **kwargs):
        kwargs.setdefault("parse", params.boolean)
        super().__init__(**kwargs)


class DateParameter(ParameterFilter):
    """A date strtotime() reads, kept as written (the events list folds its dates into one window)."""

    def __init__(self, **kwargs):
        super().__init__(parse=params.date, server_checked=True, **kwargs)


class ListParameter(ParameterFilter):
    """A list (JSON, bracket or comma-separated), at most MAX_LIST_ITEMS items; `parse(name, items)`
    reads the items."""

    def __init__(self, **kwargs):
        kwargs.setdefault("server_checked", True)
        super().__init__(**kwargs)

    def parse_value(self, parse, name, value):
        items = params.items(name, value)
        return items if parse is None else parse(name, items)


class ValueParameter(ParameterFilter):
    """An untyped parameter: anything passes unless `parse` says otherwise."""

    def __init__(self, **kwargs):
        kwargs.setdefault("server_checked", kwargs.get("parse") is not None)
        super().__init__(**kwargs)


class FlagParameter(ValueParameter):
    """Any value, read as true or false the way the plugin reads a flag: `""` is false, and false is
    applied too (`method` decides what each means), so unlike django-filter's method filters an
    empty value is not skipped."""

    def __init__(self, *, method, **kwargs):
        super().__init__(**kwargs)
        self.flag_method = method

    def filter(self, qs, value):
        if value is None:
            return qs
        return getattr(self.parent, self.flag_method)(qs, self.field_name, is_truthy(value))

    def applies(self, value):
        return value is not None


class StatusParameter(ListParameter):
    """`status`: the statuses a list shows, which only a caller who may edit records of the list's
    kind may widen (docs/contract/auth.md §2.2). It filters nothing itself: what a caller may list is
    the list's scope (visibility.listable), built with these statuses."""

    def __init__(self, **kwargs):
        super().__init__(wire_format="string", **kwargs)

    def filter(self, qs, value):
        return qs


def is_empty(value):
    """An empty value filters nothing: `""`, `[]`, None … and a term selection naming no term."""
    return value in EMPTY_VALUES or (isinstance(value, params.TermSelection) and not value.ids)


# --- the FilterSets --------------------------------------------------------------------------------


class TypedValuesForm(forms.Form):
    """A FilterSet's form over values already read and typed by their parameters' parsers: nothing is
    cleaned a second time (each value is validated once), so it has no fields to build or copy."""

    def __init__(self, values, prefix=None):
        super().__init__(data=values, prefix=prefix)
        self.cleaned_data = dict(values)
        self._errors = ErrorDict()


class ListFilterSet(FilterSet):
    """The base of each list's FilterSet: `data` holds typed values (see ParameterFilter), those a
    request sent (`sent` names them) and possibly defaults; a parameter missing from `data` takes
    its declared default.

    Beside django-filter's `qs`, a FilterSet says what its list's statement depends on
    (`statement_key()`, the key a process compiles it under) and what it reads (`reads()`).
    """

    # The record kind listed (visibility and the `status` parameter need it).
    kind = None
    # What the statement reads without any filter.
    listed_reads = None
    # Parameters that do not filter on their own: the FilterSet folds them into a value of its own
    # (the events list's date window).
    folded = ()

    def __init__(self, data=None, queryset=None, *, request=None, prefix=None, sent=None):
        # django-filter deep-copies every declared filter for each FilterSet: a list request builds
        # one or two, and the filters here keep no state. Copies are made only when filtering
        # (`filters`), shallow, so a site's filter that sets attributes while filtering still
        # works on its own copy. The default queryset, too, is made only when filtering.
        self.is_bound = data is not None
        self.data = data or {}
        # The names of `data` the request sent; the others hold their parameters' defaults (the
        # API's validated parameters hold both). All of them, unless said.
        self.sent = set(self.data) if sent is None else sent
        self._queryset = queryset
        self.request = request
        self.form_prefix = prefix

    @property
    def queryset(self):
        if self._queryset is None:
            self._queryset = self._meta.model._default_manager.all()
        return self._queryset

    @queryset.setter
    def queryset(self, value):
        self._queryset = value

    @property
    def filters(self):
        if "_filters" not in self.__dict__:
            self._filters = {name: self._own_copy(declared) for name, declared in self.base_filters.items()}
        return self._filters

    @filters.setter
    def filters(self, value):
        self._filters = value

    def _own_copy(self, declared):
        copied = object.__new__(type(declared))
        copied.__dict__.update(declared.__dict__)
        if declared.method is not None:
            # A FilterMethod points at the filter it was made for: made again for the copy.
            copied.method = declared.method
        copied.model = self.queryset.model
        copied.parent = self
        return copied

    @property
    def form(self):
        if not hasattr(self, "_form"):
            self._form = TypedValuesForm(self.values, prefix=self.form_prefix)
        return self._form

    @property
    def values(self):
        """{name: typed value} of every filter: the one sent, else the declared default."""
        if "_values" not in self.__dict__:
            values = {}
            for name, declared in self.base_filters.items():
                if name in self.data:
                    values[name] = self.data[name]
                elif getattr(declared, "default", NO_DEFAULT) is not NO_DEFAULT:
                    values[name] = declared.default_value()
            self._values = values
        return self._values

    def applied(self):
        """The values that filter the list (folded parameters out, empty values out): with the
        caller's scope and the ordering, everything the list's statement is built from."""
        if "_applied" not in self.__dict__:
            self._applied = self.applied_values()
        return self._applied

    def applied_values(self):
        applied = {}
        for name, value in self.values.items():
            declared = self.base_filters[name]
            if name in self.folded or isinstance(declared, StatusParameter):
                continue
            if declared.applies(value) if isinstance(declared, ParameterFilter) else not is_empty(value):
                applied[name] = value
        return applied

    def filter_queryset(self, queryset):
        for name, value in self.form.cleaned_data.items():
            if name not in self.folded:
                queryset = self.filters[name].filter(queryset, value)
        return queryset

    def statement_key(self):
        """The key of the list's statement (everything it is built from but the scope), or None
        when it must be built afresh each time."""
        return (type(self).__qualname__, repr(self.applied()))

    def search_applied(self):
        """Whether the list is searched: its statements are then planned as a search's (pages.ListStatement)."""
        return self.values.get("search") not in EMPTY_VALUES

    def reads(self):
        """What the list's statement reads: the listed table, and what each applied filter joins."""
        reads = self.listed_reads
        for name in self.applied():
            declared_reads = getattr(self.base_filters.get(name), "reads", None)
            if declared_reads is not None:
                reads = reads | declared_reads
        return reads

    @classmethod
    def parse_value(cls, name, value):
        """The typed value of the parameter `name`, read by the parser its filter declares (a
        callable, or the name of a class method of the FilterSet, for parsers that need it); a plain
        django-filter filter's value is cleaned by its form field."""
        declared = cls.base_filters[name]
        if not isinstance(declared, ParameterFilter):
            try:
                return declared.field.clean(value)
            except forms.ValidationError:
                raise InvalidValue(name) from None
        parse = getattr(cls, declared.parse) if isinstance(declared.parse, str) else declared.parse
        if isinstance(declared, ListParameter):
            return declared.parse_value(parse, name, value)
        return value if parse is None else parse(name, value)

    @classmethod
    def check_values(cls, values):
        """Checks that concern several parameters together (raises InvalidValue naming one)."""

    @classmethod
    def parse(cls, raw):
        """The typed values of the parameters in `raw` (a public feed's query string), each read by
        its filter's parser; a value holding NUL is refused, as the API refuses it."""
        values = {}
        for name, declared in cls.base_filters.items():
            if name not in raw or isinstance(declared, StatusParameter):
                continue
            if params.contains_nul(raw[name]):
                raise InvalidValue(name)
            values[name] = cls.parse_value(name, raw[name])
        cls.check_values(values)
        return values


# --- events ----------------------------------------------------------------------------------------

ID_ITEMS = {"type": "integer"}


class EventFilterSet(ListFilterSet):
    """`GET /events` (docs/contract/events.md §2.1), the public lists and the calendar feeds.

    Beside its parameters, `data` may hold `window` (a DateWindow, or None for none): the window of
    a calendar view, which then replaces the one the date parameters give.
    """

    kind = PostKind.EVENT
    listed_reads = Reads.of(Event)
    # The dates make one window; the point is applied by geoloc_lat; ticketed filters nothing (no
    # event has tickets, and only false is accepted).
    folded = (*WINDOW_PARAMS, *RELATIVE_PARAMS, "strict_dates", "geoloc_lng", "ticketed")

    start_date = DateParameter(
        default=default_start_date,
        help_text=_(
            "Events that start on or after this date (any date strtotime() reads; a whole day unless strict_dates)."
        ),
    )
    end_date = DateParameter(
        default=default_end_date,
        help_text=_("Events that end on or before this date (a whole day unless strict_dates)."),
    )
    starts_before = DateParameter(help_text=_("Events that start before this date; drops the default date window."))
    starts_after = DateParameter(help_text=_("Events that start after this date; drops the default date window."))
    ends_before = DateParameter(help_text=_("Events that end before this date; drops the default date window."))
    ends_after = DateParameter(help_text=_("Events that end after this date; drops the default date window."))
    strict_dates = TextParameter(
        default="false",
        help_text=_("Whether dates are used as given (true) instead of being widened to whole days (false)."),
    )
    search = TextParameter(
        parse=event_queries.search_text,
        max_length=event_queries.MAX_SEARCH_LENGTH,
        method="filter_search",
        reads=Reads.of(Event, display=True),
        help_text=_("Words the event title, excerpt or description must contain."),
    )
    categories = ListParameter(
        parse=event_queries.category_selection,
        wire_items=ID_ITEMS,
        method="filter_terms",
        reads=Reads.of(Event.terms.through),
        help_text=_("Events in any of these event categories (slugs or IDs)."),
    )
    tags = ListParameter(
        parse=event_queries.tag_selection,
        wire_items=ID_ITEMS,
        method="filter_terms",
        reads=Reads.of(Event.terms.through),
        help_text=_("Events with any of these tags (slugs or IDs)."),
    )
    venue = ListParameter(
        parse=event_queries.venue_ids,
        wire_items=ID_ITEMS,
        method="filter_venue",
        help_text=_("Events at any of these venues (IDs)."),
    )
    organizer = ListParameter(
        parse=event_queries.organizer_ids,
        wire_items=ID_ITEMS,
        method="filter_organizer",
        reads=Reads.of(EventOrganizer),
        help_text=_("Events with any of these organizers (IDs)."),
    )
    featured = BooleanParameter(
        method="filter_featured",
        help_text=_("Only featured events (true) or only events that are not featured (false)."),
    )
    status = StatusParameter(help_text=_("Event statuses to list; only publish unless the caller may edit events."))
    geoloc = BooleanParameter(
        method="filter_geoloc",
        reads=Reads.of(Venue),
        help_text=_("Only events whose venue has coordinates (true) or has none (false)."),
    )
    geoloc_lat = ValueParameter(
        parse=event_queries.latitude,
        wire_format="double",
        method="filter_near",
        reads=Reads.of(Venue),
        help_text=_("Latitude of the point events must be near (with geoloc_lng)."),
    )
    geoloc_lng = ValueParameter(
        parse=event_queries.longitude,
        wire_format="double",
        help_text=_("Longitude of the point events must be near (with geoloc_lat)."),
    )
    include = ListParameter(
        parse=params.positive_ids,
        wire_items=ID_ITEMS,
        method="filter_include",
        help_text=_("Only these event IDs, whatever their dates, ordered by publication date."),
    )
    post_parent = ValueParameter(
        parse=params.existing_event_id,
        wire_type="integer",
        method="filter_post_parent",
        help_text=_("Events whose parent is this event (ID)."),
    )
    ticketed = BooleanParameter(
        parse=params.no_tickets,
        wire_schema={"type": "boolean", "enum": [False]},
        help_text=_("Filter by tickets; not available on this site (only false is accepted)."),
    )

    class Meta:
        model = Event
        fields = []

    @classmethod
    def check_values(cls, values):
        event_queries.check_point(values)

    @property
    def window(self):
        """The date window the list applies: a calendar view's own, or the date parameters' (the
        defaults unless a relative bound was sent; none with `include`)."""
        if "window" in self.data:
            return self.data["window"]
        if "_window" not in self.__dict__:
            self._window = date_window(self.values, sent=self.sent)
        return self._window

    def applied_values(self):
        applied = super().applied_values()
        window = self.window
        return {"window": window, **applied} if window is not None and window.bounds else applied

    def filter_queryset(self, queryset):
        window = self.window
        if isinstance(window, DateWindow) and window.bounds:
            queryset = queryset.filter(window.condition())
        return super().filter_queryset(queryset)

    # Each method applies one parameter's typed value (django-filter's `method` signature).

    def filter_search(self, queryset, name, text):
        return event_queries.searched(queryset, text)

    def filter_terms(self, queryset, name, selection):
        return event_queries.with_terms(queryset, selection.ids) if selection.ids else queryset

    def filter_venue(self, queryset, name, ids):
        return queryset.filter(venue_id__in=ids)

    def filter_organizer(self, queryset, name, ids):
        return event_queries.with_organizers(queryset, ids)

    def filter_featured(self, queryset, name, featured):
        return queryset.filter(featured=featured)

    def filter_geoloc(self, queryset, name, wanted):
        return event_queries.geolocated(queryset, wanted)

    def filter_near(self, queryset, name, latitude):
        return event_queries.near(queryset, (latitude, self.values["geoloc_lng"]))

    def filter_include(self, queryset, name, ids):
        return event_queries.included(queryset, ids)

    def filter_post_parent(self, queryset, name, parent_id):
        return event_queries.children(queryset, parent_id)


# --- venues and organizers -------------------------------------------------------------------------


class LinkedFilterSet(ListFilterSet):
    """`GET /venues` and `GET /organizers` (docs/contract/venues-organizers.md §2)."""

    search = TextParameter(
        max_length=event_queries.MAX_SEARCH_LENGTH,
        method="filter_search",
        help_text=_("Words the name, description or contact details must all contain."),
    )
    event = ValueParameter(
        parse=params.existing_event_id,
        wire_type="integer",
        method="filter_event",
        help_text=_("Only the records linked to this event (ID)."),
    )
    has_events = FlagParameter(
        method="filter_has_events",
        help_text=_("Only records linked to at least one event that is not a draft (true), or to none (false)."),
    )
    only_with_upcoming = FlagParameter(
        default=False,
        method="filter_upcoming",
        help_text=_("Only records linked to at least one event that has not started yet (true)."),
    )
    status = StatusParameter(
        help_text=_("Statuses to list; only publish unless the caller may edit records of this kind.")
    )

    def statement_key(self):
        # The upcoming filter reads the clock as it is built: such a list is built afresh each time.
        if is_truthy(self.values.get("only_with_upcoming", False)):
            return None
        return super().statement_key()

    def reads(self):
        model = self._meta.model
        reads = super().reads()
        if self.search_applied():
            reads = reads | Reads.of(model, display=True)
        if any(name in self.values for name in ("event", "has_events")) or is_truthy(
            self.values.get("only_with_upcoming", False)
        ):
            reads = reads | linked_queries.LINKED_EVENT_READS[model]
        return reads

    def filter_search(self, queryset, name, text):
        return linked_queries.searched(queryset, text)

    def filter_event(self, queryset, name, event_id):
        return linked_queries.linked_to_event(queryset, event_id)

    def filter_has_events(self, queryset, name, wanted):
        return linked_queries.with_events(queryset, wanted)

    def filter_upcoming(self, queryset, name, wanted):
        # Falsy means "no filter", not "without upcoming events" (§2).
        if not wanted:
            return queryset
        user = getattr(self.request, "user", None)
        statuses = visibility.listed_statuses(user, self.kind, self.values.get("status"))
        return linked_queries.with_upcoming_events(queryset, statuses)


class VenueFilterSet(LinkedFilterSet):
    kind = PostKind.VENUE
    listed_reads = Reads.of(Venue)

    class Meta:
        model = Venue
        fields = []


class OrganizerFilterSet(LinkedFilterSet):
    kind = PostKind.ORGANIZER
    listed_reads = Reads.of(Organizer)

    class Meta:
        model = Organizer
        fields = []


# --- categories and tags ---------------------------------------------------------------------------


class TermFilterSet(ListFilterSet):
    """`GET /categories` and `GET /tags` (docs/contract/terms.md §2): the filters, then WordPress's order.

    `include` and `exclude` name terms of the FilterSet's taxonomy; only categories take `parent`.
    """

    taxonomy = None
    listed_reads = Reads.of(Term)

    search = TextParameter(method="filter_search", help_text=_("Terms whose name or slug contains this text."))
    exclude = ListParameter(
        parse="term_selection",
        wire_items=ID_ITEMS,
        method="filter_exclude",
        help_text=_("Leave out the terms with these IDs."),
    )
    include = ListParameter(
        parse="term_selection",
        wire_items=ID_ITEMS,
        method="filter_include",
        help_text=_("Only the terms with these IDs."),
    )
    # The order is part of what a list means: applied after the filters (filter_queryset).
    order = TextParameter(method="keep", help_text=_("The sort direction: asc or desc."))
    orderby = TextParameter(
        method="keep",
        help_text=_("The sort field: name, id, slug, term_group, count, description, parent, include or none."),
    )
    hide_empty = BooleanParameter(
        default="1",
        method="filter_hide_empty",
        help_text=_("Whether to leave out terms that no published event carries."),
    )
    parent = ValueParameter(
        parse=params.existing_category,
        wire_type="integer",
        method="filter_parent",
        help_text=_("Only the direct children of this category."),
    )
    post = ValueParameter(
        parse=params.existing_event_id,
        wire_type="integer",
        method="filter_post",
        reads=Reads.of(Event.terms.through),
        help_text=_("Only the terms of this event."),
    )
    event = ValueParameter(
        parse=params.existing_event_id,
        wire_type="integer",
        method="filter_event",
        reads=Reads.of(Event.terms.through),
        help_text=_("Only the terms of this event (wins over post)."),
    )
    slug = TextParameter(method="filter_slug", help_text=_("Only the term with exactly this slug."))

    class Meta:
        model = Term
        fields = []

    @classmethod
    def term_selection(cls, name, items):
        return params.TermSelection.parse(cls.taxonomy, name, items, slug_first=False)

    def include_ids(self):
        include = self.values.get("include")
        return tuple(include.ids) if include else ()

    def reads(self):
        reads = super().reads()
        if term_queries.ORDER_FIELDS.get(self.values.get("orderby")) == "ordered_description":
            reads = reads | Reads.of(Term, display=True)
        return reads

    def filter_queryset(self, queryset):
        queryset = super().filter_queryset(queryset)
        return term_queries.order_terms(
            queryset, self.values.get("orderby"), self.values.get("order"), self.include_ids()
        )

    def keep(self, queryset, name, value):
        return queryset

    def filter_search(self, queryset, name, text):
        return term_queries.searched(queryset, text)

    def filter_include(self, queryset, name, selection):
        return queryset.filter(pk__in=selection.ids) if selection.ids else queryset

    def filter_exclude(self, queryset, name, selection):
        return queryset.exclude(pk__in=selection.ids) if selection.ids else queryset

    def filter_hide_empty(self, queryset, name, hide):
        # The declared default is the string "1"; a sent value arrives typed.
        return queryset.filter(count__gt=0) if is_truthy(hide) else queryset

    def filter_parent(self, queryset, name, parent):
        return queryset.filter(parent_id=parent.pk)

    def filter_post(self, queryset, name, event_id):
        # `event` is the alias of `post` and wins when both are sent.
        if "event" in self.values:
            return queryset
        return term_queries.of_event(queryset, event_id)

    def filter_event(self, queryset, name, event_id):
        return term_queries.of_event(queryset, event_id)

    def filter_slug(self, queryset, name, slug):
        return queryset.filter(slug=slug)


class CategoryFilterSet(TermFilterSet):
    taxonomy = Taxonomy.CATEGORY


class TagFilterSet(TermFilterSet):
    taxonomy = Taxonomy.TAG
    # Tags are not hierarchical: no `parent` (a write naming one is refused elsewhere).
    parent = None
