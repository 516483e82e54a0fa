"""Import and sync from iCalendar feeds, other tribe/events/v1 sites and CSV files (docs/import.md)."""
