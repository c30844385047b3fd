"""What `hindsight serve --transport http` says about auth when it starts (ux round 33): with tokens already in the
store it said "tokens required now; the first token created closes it at once", the second half true only of a
store without tokens."""

from __future__ import annotations

from pathlib import Path

from hindsight.security.http_guard import AuthPolicy
from hindsight.security.tokens import TokenStore


def test_the_banner_speaks_of_the_first_token_only_while_there_is_none(tmp_path: Path) -> None:
    tokens = TokenStore.open(tmp_path / "memory.db")
    try:
        policy = AuthPolicy(tokens, "auto")
        assert "open now" in policy.describe() and "first token created closes it" in policy.describe()
        tokens.create("agent", ["read"], ["default"])
        described = policy.describe()
        assert "tokens required" in described and "first token" not in described
    finally:
        tokens.close()
