"""What the calendar lists and how a request names it: scopes, filters, orderings, pages and parameters.

The API and the public pages both read lists through this package; it speaks the domain and
imports nothing from either of them.
"""
