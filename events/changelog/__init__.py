"""The change log (a transactional outbox): what every committed write did to which event, venue,
organizer, category or tag, appended in the writer's transaction, in commit order.

effects.py learns from the writes' signals which records each write changes (and in which
languages), for the rendering store and for the log; recording.py appends; the changes feed
(events.api) and the webhook deliveries read it.
"""

from .effects import connect_receivers

__all__ = ["connect_receivers"]
