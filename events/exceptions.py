"""The calendar's own exceptions: what the domain raises, mapped to wire errors at each edge."""


class CalendarError(Exception):
    """The base of every exception the calendar's domain raises."""


class InvalidValue(CalendarError):
    """A value the calendar cannot take: `field` names it, `reason` (a message, or None) says why."""

    def __init__(self, field, reason=None):
        super().__init__(field, reason)
        self.field = field
        self.reason = reason
