"""Each route's parameters: what a request may name, how each value is read and refused, and what the
namespace index and the OpenAPI document publish (one declaration for all three)."""
