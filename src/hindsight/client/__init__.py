"""Client side: `ResilientClient` queues writes locally when the server is unreachable."""
from hindsight.client.resilient import ResilientClient

__all__ = ["ResilientClient"]
