"""Record shapes (frozen by golden tests) and parameter declarations, one module per resource."""
