"""The MCP layer's own refusals as the project's typed errors.

FastMCP checks a tool call's arguments against the tool's schema before the tool body runs; a wrong type, a
missing field or an unknown one came back as pydantic's dump (`1 validation error for call[memory_store]` ... with
`input_value=` quoting what the caller sent), and an unknown tool as `Unknown tool: '<the whole name>'`. Neither
started with a code, so a client could not tell them from a transient failure (attack round 16 left it; attack
round 17 fixed it). `TypedArgumentErrors` turns both into `invalid_input: FIELD: RULE` tool errors, the shape the
engine's own validation uses (`hindsight.errors.format_validation_error`), never quoting the value sent. Since
round 19 it also refuses an argument of the wrong JSON type that pydantic's lax mode would convert (`strict_args`).
"""

from __future__ import annotations

from typing import Any

from fastmcp.exceptions import NotFoundError, ToolError
from fastmcp.exceptions import ValidationError as ArgumentsError
from fastmcp.server.middleware import CallNext, Middleware, MiddlewareContext
from pydantic import ValidationError

from hindsight.errors import InvalidInputError, format_validation_error
from hindsight.server.strict_args import arguments_problem

#: how much of an unknown tool's name the refusal repeats (round 16 saw a 1 MB name echoed back whole)
SHOWN_NAME_CHARS = 64


def argument_error(exc: BaseException) -> str:
    """`invalid_input: field: rule; ...` for a schema refusal (the pydantic error it wraps, when there is one)."""
    cause = exc if isinstance(exc, ValidationError) else exc.__cause__
    if isinstance(cause, ValidationError):
        return f"{InvalidInputError.code}: {format_validation_error(cause)}"
    return f"{InvalidInputError.code}: arguments: do not match the tool's input schema"


def unknown_tool(name: str) -> str:
    shown = name if len(name) <= SHOWN_NAME_CHARS else f"{name[:SHOWN_NAME_CHARS]}... ({len(name)} characters)"
    return f"{InvalidInputError.code}: name: no tool is called {shown!r} (tools/list names them)"


class TypedArgumentErrors(Middleware):
    """Schema refusals and unknown tools as `invalid_input` tool errors naming the field and the rule; an argument
    of another JSON type than the schema states (`top_k: true`) is refused before pydantic converts it
    (`strict_args`, attack round 19)."""

    async def on_call_tool(self, context: MiddlewareContext[Any], call_next: CallNext[Any, Any]) -> Any:
        server = getattr(context.fastmcp_context, "fastmcp", None)
        name = getattr(context.message, "name", None)
        tool = await server.get_tool(name) if server is not None and isinstance(name, str) else None
        if tool is not None:
            problem = arguments_problem(getattr(context.message, "arguments", None), tool.parameters)
            if problem:
                raise ToolError(f"{InvalidInputError.code}: {problem}")
        try:
            return await call_next(context)
        except (ArgumentsError, ValidationError) as exc:
            raise ToolError(argument_error(exc)) from None
        except NotFoundError as exc:
            if not str(exc).startswith("Unknown tool"):
                raise
            raise ToolError(unknown_tool(str(getattr(context.message, "name", "")))) from None
