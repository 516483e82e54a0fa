"""A reusable events calendar for Django, serving The Events Calendar REST API v1."""
