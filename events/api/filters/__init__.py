"""One django-filter FilterSet per resource."""
