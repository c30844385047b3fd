"""deploy/compose.yaml against reality, without docker (none on the machines that run these tests).

What can be checked here is checked with the real parts: every hindsight command line parses with the real CLI,
every HINDSIGHT_* variable is a real setting and its value validates, the database URL names the compose
PostgreSQL service with its user, password and database and opens as a PostgreSQL store URL, the balancer's
servers are the compose services on the ports they listen on, and haproxy itself accepts haproxy.cfg (where the
haproxy binary is installed). Whether the images build and the stack starts is not checked here.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import typer
import yaml

from hindsight.cli import app
from hindsight.config import DecaySettings, HindsightSettings, RetrievalSettings
from hindsight.storage.factory import POSTGRES_SCHEMES

DEPLOY = Path(__file__).resolve().parents[1] / "deploy"
SRC = Path(__file__).resolve().parents[1] / "src" / "hindsight"
#: values for the variables compose interpolates from the operator's environment
OPERATOR_ENV = {"POSTGRES_PASSWORD": "s3cret", "HINDSIGHT_PUBLIC_HOST": "memory.example.com"}


def _interpolate(value: Any) -> Any:
    """Compose's ${VAR}, ${VAR:-default} and ${VAR:?error} with OPERATOR_ENV (an unknown VAR fails the test)."""
    if isinstance(value, dict):
        return {k: _interpolate(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_interpolate(v) for v in value]
    if not isinstance(value, str):
        return value

    def sub(match: re.Match[str]) -> str:
        name, op, rest = match.group(1), match.group(2), match.group(3)
        if name in OPERATOR_ENV:
            return OPERATOR_ENV[name]
        assert op == ":-", f"${{{name}}} is neither set by the operator nor given a default"
        return rest or ""

    return re.sub(r"\$\{([A-Z_]+)(?:(:[-?])([^}]*))?\}", sub, value)


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    return _interpolate(yaml.safe_load((DEPLOY / "compose.yaml").read_text()))  # type: ignore[no-any-return]


def _hindsight_services(compose: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {name: svc for name, svc in compose["services"].items() if svc.get("command", [""])[0] == "hindsight"}


def _parse(argv: list[str]) -> tuple[str, dict[str, Any]]:
    """(subcommand, its parameters) exactly as the real CLI parses and converts argv; a bad line raises."""
    group = typer.main.get_command(app)
    ctx = group.make_context("hindsight", [], resilient_parsing=True)
    command = group.get_command(ctx, argv[0])  # type: ignore[attr-defined]
    assert command is not None, f"no such command: {argv[0]}"
    return argv[0], dict(command.make_context(argv[0], list(argv[1:]), parent=ctx).params)


def _known_variables() -> set[str]:
    names = {f"HINDSIGHT_{f.upper()}" for f in HindsightSettings.model_fields}
    names |= {f"HINDSIGHT_SEARCH_{f.upper()}" for f in RetrievalSettings.model_fields}
    names |= {f"HINDSIGHT_HALF_LIFE_{f.upper()}" for f in DecaySettings.model_fields}
    return names


def test_the_stack_is_postgres_two_servers_and_a_balancer(compose: dict[str, Any]) -> None:
    services = compose["services"]
    assert "pgvector" in services["postgres"]["image"]
    assert sorted(_hindsight_services(compose)) == ["hindsight-a", "hindsight-b"]
    assert services["lb"]["image"].startswith("haproxy:")
    for svc in _hindsight_services(compose).values():
        assert svc["depends_on"]["postgres"]["condition"] == "service_healthy"


def test_every_hindsight_command_parses_with_the_real_cli(compose: dict[str, Any]) -> None:
    for name, svc in _hindsight_services(compose).items():
        sub, params = _parse(svc["command"][1:])
        assert sub == "serve", name
        assert params["transport"] == "http" and params["host"] == "0.0.0.0" and params["auth"] == "required"
    dockerfile_cmd = re.search(r"^CMD (\[.*\])$", (DEPLOY / "Dockerfile").read_text(), re.M)
    assert dockerfile_cmd is not None
    assert _parse(yaml.safe_load(dockerfile_cmd.group(1))[1:])[0] == "serve"
    # the parse is real: a wrong option is refused
    with pytest.raises(Exception, match="No such option"):  # noqa: B017  (typer's vendored click.UsageError)
        _parse(["serve", "--transport", "http", "--prot", "8765"])
    with pytest.raises(Exception, match="valid integer"):  # noqa: B017
        _parse(["serve", "--port", "eighty"])


def test_every_variable_is_a_real_setting_and_validates(compose: dict[str, Any],
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    known = _known_variables()
    sources = "\n".join(p.read_text() for p in SRC.rglob("*.py"))
    for svc in _hindsight_services(compose).values():
        env = svc["environment"]
        for var, value in env.items():
            assert var.startswith("HINDSIGHT_"), var
            # a settings field, or a variable the code reads by name (e.g. the --allowed-hosts option's envvar)
            assert var in known or f'"{var}"' in sources, f"{var} is not a hindsight setting"
            monkeypatch.setenv(var, str(value))
        settings = HindsightSettings()  # every value validates
        assert settings.embedder == env["HINDSIGHT_EMBEDDER"]
        assert settings.log_json is True
        assert str(settings.db).startswith(POSTGRES_SCHEMES)
    assert "HINDSIGHT_NO_SUCH_SETTING" not in known and '"HINDSIGHT_NO_SUCH_SETTING"' not in sources


def test_the_database_url_names_the_compose_postgres(compose: dict[str, Any]) -> None:
    pg = compose["services"]["postgres"]
    for svc in _hindsight_services(compose).values():
        url = urlsplit(svc["environment"]["HINDSIGHT_DB"])
        assert url.scheme == "postgresql" and url.hostname == "postgres" and url.port == 5432
        assert url.username == pg["environment"]["POSTGRES_USER"]
        assert url.password == pg["environment"]["POSTGRES_PASSWORD"] == OPERATOR_ENV["POSTGRES_PASSWORD"]
        assert url.path.lstrip("/") == pg["environment"]["POSTGRES_DB"]
        assert svc["environment"]["HINDSIGHT_ALLOWED_HOSTS"] == OPERATOR_ENV["HINDSIGHT_PUBLIC_HOST"]


def test_ports_and_names_line_up_with_the_balancer(compose: dict[str, Any]) -> None:
    cfg = (DEPLOY / "haproxy.cfg").read_text()
    servers = dict(re.findall(r"^\s*server \S+ ([\w-]+):(\d+)", cfg, re.M))
    listening = {name: str(_parse(svc["command"][1:])[1]["port"])
                 for name, svc in _hindsight_services(compose).items()}
    assert servers == listening  # every server is balanced, on the port it listens on
    for name, svc in _hindsight_services(compose).items():
        assert f"127.0.0.1:{listening[name]}/healthz" in " ".join(svc["healthcheck"]["test"])
    bind = re.search(r"^\s*bind :(\d+)", cfg, re.M)
    assert bind is not None
    published = [p.split(":") for p in compose["services"]["lb"]["ports"]]
    assert [container for _, container in published] == [bind.group(1)]
    mount = compose["services"]["lb"]["volumes"][0].split(":")
    assert (DEPLOY / mount[0]).resolve() == (DEPLOY / "haproxy.cfg").resolve()
    assert mount[1] == "/usr/local/etc/haproxy/haproxy.cfg"  # where the official image reads it
    # MCP sessions stick to the server that created them
    assert "stick store-response res.hdr(mcp-session-id)" in cfg and "stick match req.hdr(mcp-session-id)" in cfg


def test_haproxy_accepts_the_config() -> None:
    binary = shutil.which("haproxy")
    if binary is None:
        pytest.skip("haproxy is not installed (Debian: apt-get install haproxy); the static checks above still ran")
    proc = subprocess.run([binary, "-c", "-f", str(DEPLOY / "haproxy.cfg")], capture_output=True, text=True,
                          check=False, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert "Configuration file is valid" in proc.stdout + proc.stderr
