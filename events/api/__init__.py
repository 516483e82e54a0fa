"""The REST layer: adapts the models to The Events Calendar REST API v1 wire format."""
