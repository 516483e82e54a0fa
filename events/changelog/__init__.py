"""The change log (a transactional outbox): what every committed write did to which event, venue,
organizer, category or tag, appended in the writer's transaction, in commit order.

recording.py appends, receivers.py learns from the writes' signals what to append, and the changes
feed (events.api) and the webhook deliveries read it.
"""

from .receivers import connect_receivers

__all__ = ["connect_receivers"]
