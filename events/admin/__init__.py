"""The editors' admin: translations side by side, saved through the same services and role rules as the API.

One module per record kind; filters.py, actions.py and widgets.py hold what the kinds share.
"""
from . import application_passwords, events, images, organizers, terms, venues  # noqa: F401  (registers the pages)
