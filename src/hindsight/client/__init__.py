"""Client side: `ResilientClient` (sync) and `AsyncResilientClient` queue writes locally when the server is
unreachable, retry them with the same idempotency key, and degrade searches to a local cache."""
from hindsight.client.resilient import (
    AsyncResilientClient,
    ClientStatus,
    ResilientClient,
)

__all__ = ["AsyncResilientClient", "ClientStatus", "ResilientClient"]
