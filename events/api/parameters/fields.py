"""Parameter declarations: DRF serializer fields with WordPress's type rules and index metadata.

Each route's parameters are one `Params` serializer. The same declaration validates requests and
produces the namespace index and the OpenAPI document, so the published description cannot drift.
"""

from django.core.exceptions import ValidationError as DjangoValidationError
from django.utils.functional import cached_property
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers
from rest_framework.fields import SkipField, empty, get_error_detail
from rest_framework.serializers import as_serializer_error
from rest_framework.utils.serializer_helpers import BindingDict

from ...conf import events_settings
from ...exceptions import InvalidValue
from ...numbers import is_ascii_digits, parse_int
from ...queries import visibility
from ...queries.params import LANGUAGE_CODES, NotOneOf, WrongType, boolean, contains_nul, date, items, text
from .. import errors

INVALID = _("Invalid parameter.")
# How an integer ID list publishes its items.
ID_ITEMS = {"type": "integer"}

# Caps on what one write may name, far above real use (decisions.md "Hardening"): each named term
# or organizer may create a record.
MAX_TERMS_PER_WRITE = 100
MAX_ORGANIZERS_PER_WRITE = 100


class WPParamMixin:
    """Metadata for the index: the JSON `type`, `format`, `items` WordPress publishes for a parameter."""

    wp_type = None
    wp_format = None
    wp_items = None
    # Whether a value that fits the parameter's published schema may still be refused because of what
    # it names: a stored record (ID, slug), a date PHP's strtotime must read, a value the caller's
    # role may not use. The OpenAPI document marks such parameters `x-server-checked`.
    server_checked = False

    def __init__(self, *args, wp_type=None, wp_format=None, wp_items=None, server_checked=None, **kwargs):
        kwargs.setdefault("required", False)
        super().__init__(*args, **kwargs)
        metadata = {"wp_type": wp_type, "wp_format": wp_format, "wp_items": wp_items, "server_checked": server_checked}
        self.__dict__.update({name: value for name, value in metadata.items() if value is not None})

    def to_representation(self, value):
        return value

    def type_error(self):
        """The typed-parameter failure: "per_page is not of type integer." with a rest_invalid_type detail."""
        message = _("%(param)s is not of type %(type)s.") % {"param": self.field_name, "type": self.wp_type}
        raise serializers.ValidationError(message, code="rest_invalid_type")

    def refuse(self, message=None):
        raise serializers.ValidationError(message or INVALID, code="invalid")

    def not_in_enum(self):
        message = _("%(param)s is not one of %(values)s.") % {
            "param": self.field_name,
            "values": ", ".join(self.enum_in_message()),
        }
        raise serializers.ValidationError(message, code="rest_not_in_enum")

    def parsed(self, parse, value):
        """`parse(name, value)`, a parser of events.queries.params, its refusal worded as WordPress words it."""
        try:
            return parse(self.field_name, value)
        except WrongType:
            self.type_error()
        except NotOneOf:
            self.not_in_enum()
        except InvalidValue as invalid:
            self.refuse(invalid.reason)


def status_filter(field, items):
    """docs/contract/auth.md §2.2, a list's `status`: only `publish` unless the caller may edit records of the
    list's kind (its Params' `kind`), then registered statuses."""
    user = getattr(field.context.get("request"), "user", None)
    if not visibility.check_status_filter(user, field.parent.kind, items):
        field.refuse()
    return items


class IntegerParam(WPParamMixin, serializers.Field):
    wp_type = "integer"
    # The least value accepted, published in the OpenAPI document.
    minimum = None

    def to_internal_value(self, data):
        if isinstance(data, int) and not isinstance(data, bool):
            return data
        if (number := parse_int(data, signed=True)) is not None:
            return number
        if isinstance(data, float) and data.is_integer():
            return int(data)
        self.type_error()


class PositiveIntegerParam(IntegerParam):
    """`page`, `per_page` and IDs: WordPress validates them as positive before the type check."""

    minimum = 1

    def to_internal_value(self, data):
        # The validator runs first and says "Invalid parameter." for 0, -1 and "foo" alike.
        digits = data.strip() if isinstance(data, str) else None
        if isinstance(data, bool) or not (isinstance(data, int) or is_ascii_digits(digits)):
            self.refuse()
        value = super().to_internal_value(data)
        if value < self.minimum:
            self.refuse()
        return value


class BooleanParam(WPParamMixin, serializers.Field):
    wp_type = "boolean"

    def to_internal_value(self, data):
        return self.parsed(boolean, data)


class StringParam(WPParamMixin, serializers.Field):
    """A typed string: JSON numbers, booleans and lists are refused; optionally non-empty."""

    wp_type = "string"

    def __init__(self, *args, non_empty=False, max_length=None, choices=None, **kwargs):
        self.non_empty = non_empty
        self.max_length = max_length
        self.enum = list(choices) if choices else None
        super().__init__(*args, **kwargs)

    def to_internal_value(self, data):
        return self.parsed(self.parse_text, data)

    def parse_text(self, name, value):
        return text(name, value, non_empty=self.non_empty, max_length=self.max_length, choices=self.enum)

    def enum_in_message(self):
        return self.enum


class LanguageParam(StringParam):
    """`wpml_language`: one of LANGUAGE_CODES."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, choices=LANGUAGE_CODES, **kwargs)

    def enum_in_message(self):
        # docs/contract/README.md §9 and docs/contract/errors.md word the refusal "is not one of en, zh-hans, zh-hant.", in
        # alphabetical order rather than the published one.
        return sorted(self.enum)


class RawParam(WPParamMixin, serializers.Field):
    """An untyped parameter: anything passes unless the declaration names `parse`, a parser of
    events.queries.params, or `validator(field, value)`, for checks that need the request or route."""

    def __init__(self, *args, parse=None, validator=None, **kwargs):
        self.parse = parse
        self.validator = validator
        # Either checks what a JSON Schema cannot say (records named, pairs of values).
        kwargs.setdefault("server_checked", parse is not None or validator is not None)
        super().__init__(*args, **kwargs)

    def to_internal_value(self, data):
        if self.parse is not None:
            return self.parsed(self.parse, data)
        if self.validator is not None:
            return self.validator(self, data)
        return data


class DateParam(WPParamMixin, serializers.Field):
    """A date accepted by PHP strtotime; keeps what was written, which whole-day widening needs."""

    server_checked = True

    def __init__(self, *args, typed=False, **kwargs):
        self.typed = typed
        super().__init__(*args, **kwargs)
        if typed:
            self.wp_type = "string"

    def to_internal_value(self, data):
        if self.typed and not isinstance(data, str):
            self.type_error()
        return self.parsed(date, data)


class ListParam(RawParam):
    """A list given as a JSON/bracket list or a CSV string; the validator checks the whole list."""

    def to_internal_value(self, data):
        return super().to_internal_value(self.parsed(items, data))


def _shallow_copy(field):
    # copy.copy() goes through __reduce_ex__, several times slower for these plain objects.
    clone = object.__new__(type(field))
    clone.__dict__.update(field.__dict__)
    return clone


class Params(serializers.Serializer):
    """A route's parameters. `validate_request()` applies WordPress's missing-then-invalid order.

    Every route also takes the language parameter (`wpml_language` by default, decisions.md).
    """

    # The record kind of the route, for the validators that need it (status_filter).
    kind = None

    def get_fields(self):
        fields = super().get_fields()
        fields[events_settings.language_param] = LanguageParam(
            help_text=_("The language of the content and messages of the response.")
        )
        return fields

    @cached_property
    def fields(self):
        """Shallow copies of fields declared once per class, bound to this serializer.

        DRF deep-copies every declared field for every instance, re-running each field's
        constructor: about a third of a millisecond per request here, for declarations that never
        change. Fields keep no state of their own while validating, so a shallow copy per request
        (for `bind()`'s name and parent) is enough.
        """
        fields = BindingDict(self)
        for name, prototype in type(self).declared().items():
            fields[name] = _shallow_copy(prototype)
        return fields

    @classmethod
    def declared(cls):
        """The class's fields as declared (unbound prototypes: never validate with them directly).

        Kept on the class itself, for the language parameter's name (the one setting
        `get_fields()` reads): one entry per class, gone with the class.
        """
        language_param = events_settings.language_param
        kept = cls.__dict__.get("_declared_for")
        if kept is None or kept[0] != language_param:
            kept = (language_param, cls().get_fields())
            cls._declared_for = kept
        return kept[1]

    @classmethod
    def validate_request(cls, raw_params, context):
        """The validated parameters of a request, or the contract's error for it.

        DRF's Serializer.is_valid() would bind and run all of a route's twenty parameters for the
        two or three a request sends; here only the sent ones are bound and validated, the others
        take their default, with DRF's semantics otherwise (field validation, `validate_<name>`,
        then `validate()` once every field passed). tests/test_params_validation.py compares the
        outcome with is_valid() for every route's parameters.
        """
        declared = cls.declared()
        # One check for every declared parameter, before any field's own validator (some query the
        # database): PostgreSQL can neither store nor compare text holding NUL. Undeclared
        # parameters are ignored, as WordPress ignores them, and never reach a query.
        holding_nul = {name: INVALID for name, value in raw_params.items() if name in declared and contains_nul(value)}
        if holding_nul:
            # WordPress's order still holds: missing parameters are reported before invalid ones.
            missing = [name for name, field in declared.items() if field.required and name not in raw_params]
            raise errors.missing_params(missing) if missing else errors.invalid_params(holding_nul)
        params = cls(data=raw_params, context=context)
        values, failures = {}, {}
        for name, prototype in declared.items():
            if name not in raw_params and not prototype.required:
                default = prototype.default
                if default is not empty and not getattr(default, "requires_context", False):
                    values[name] = default() if callable(default) else default
                    continue
                if default is empty:
                    continue
            field = _shallow_copy(prototype)
            field.bind(name, params)
            try:
                value = field.run_validation(raw_params.get(name, empty))
                check = getattr(params, f"validate_{name}", None)
                values[name] = value if check is None else check(value)
            except serializers.ValidationError as refused:
                failures[name] = refused.detail
            except DjangoValidationError as refused:
                failures[name] = get_error_detail(refused)
            except SkipField:
                pass
        if not failures:
            try:
                return params.validate(values)
            except (serializers.ValidationError, DjangoValidationError) as refused:
                failures = as_serializer_error(refused)
        raise refusal(list(declared), failures)


def refusal(names, failures):
    """The contract's error for `failures` ({name: error details}, as DRF's `errors`): missing
    parameters first (400 rest_missing_callback_param), else every invalid one."""
    missing = [name for name in names if any(e.code == "required" for e in failures.get(name, []))]
    if missing:
        return errors.missing_params(missing)
    reasons, details = {}, {}
    for name, messages in failures.items():
        first = first_error(messages)
        reasons[name] = str(first)
        if first.code in ("rest_invalid_type", "rest_not_in_enum", "rest_invalid_param"):
            details[name] = {"code": first.code, "message": str(first), "data": {"param": name}}
    return errors.invalid_params(reasons, details)


def first_error(messages):
    """The first ErrorDetail of a field's errors (nested serializers give dicts)."""
    while isinstance(messages, (list, dict)):
        messages = next(iter(messages.values())) if isinstance(messages, dict) else messages[0]
    return messages
