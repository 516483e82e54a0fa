"""A reusable events calendar for Django, serving The Events Calendar REST API v1."""

__version__ = "0.1.0"
