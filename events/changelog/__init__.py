"""The change log (a transactional outbox): what every committed write did to which event, venue,
organizer, category or tag, appended in the writer's transaction, in commit order.

events.pipeline records what each write changes (and in which languages, languages.py) and hands
it here when the write's unit of work finishes; recording.py appends; feed.py pages it for the
changes feed (events.api) and the webhook deliveries read it.
"""
