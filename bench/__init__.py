"""The benchmark: seeds a calendar through the ORM, serves it with gunicorn and measures it."""
