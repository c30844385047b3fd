"""Access control around the engine: principals, scoped tokens, audit, encryption at rest."""
from hindsight.security.principal import LOCAL_OWNER, Principal, Scope

__all__ = ["Principal", "Scope", "LOCAL_OWNER"]
