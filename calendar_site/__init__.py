"""The demo and deployment project that mounts the reusable `events` app."""
