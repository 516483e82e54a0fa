"""Thin viewsets, one module per resource."""
