"""Bearer-token verification for FastMCP's HTTP transport, backed by TokenStore.

FastMCP answers a missing or unknown token with HTTP 401 before any tool runs;
scope and namespace checks happen per call (see `Gate` in server/mcp_common.py).
"""

from __future__ import annotations

from fastmcp.server.auth import AccessToken, TokenVerifier

from hindsight.security.principal import Principal, Scope
from hindsight.security.tokens import TokenStore


class HindsightTokenVerifier(TokenVerifier):
    """Looks the bearer token up (by hash) and carries the principal in the access token's claims."""

    def __init__(self, tokens: TokenStore) -> None:
        super().__init__()
        self.tokens = tokens

    async def verify_token(self, token: str) -> AccessToken | None:
        principal = self.tokens.verify(token)
        if principal is None:
            return None
        return AccessToken(
            token=token,
            client_id=principal.name,
            scopes=sorted(s.value for s in principal.scopes),
            claims={"namespaces": sorted(principal.namespaces)},
        )


def principal_from_access_token(access: AccessToken) -> Principal:
    return Principal(access.client_id, frozenset(Scope(s) for s in access.scopes),
                     frozenset(access.claims.get("namespaces", [])))
