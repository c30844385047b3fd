"""The CLI's own argument errors in the engine's refusal shape (attack round 18).

Typer and click answer a bad option or argument before any hindsight code runs (`--importance 2`, a missing
MEMORY_ID, an unknown option or command) with a usage line and a boxed message, in a shape unlike the engine's
refusals (`error (invalid_input): FIELD: RULE`, cli_common.open_engine). `TypedErrorsGroup` is the top command's
class: it runs the command line without click's own error printing and writes each such error as one line,
`error (invalid_input): --importance: Input should be less than or equal to 1 (see `hindsight add --help`)`, with
exit code 2 like every other invalid input; never a traceback. A bare command group still prints its help.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

import typer
from typer import _click as click  # typer vendors click: its errors are these classes, not the click package's
from typer._click import exceptions as clicked
from typer.core import TyperGroup

from hindsight.errors import InvalidInputError


def field_of(param: click.Parameter | None) -> str:
    """How an option or argument is named to the person who typed it: the long option, or the argument's name."""
    if param is None:
        return "arguments"
    if param.param_type_name == "option" and param.opts:
        return max(param.opts, key=len)
    return param.name or "arguments"


def describe(exc: click.ClickException) -> tuple[str, str]:
    """(field, rule) of a click error, without click's 'Invalid value for ...' preamble."""
    if isinstance(exc, clicked.NoSuchOption):
        maybe = f" (did you mean {', '.join(sorted(exc.possibilities))}?)" if exc.possibilities else ""
        return exc.option_name, f"no such option{maybe}"
    if isinstance(exc, clicked.BadOptionUsage):
        return exc.option_name, exc.message
    if isinstance(exc, clicked.MissingParameter):
        return field_of(exc.param), "is required"
    if isinstance(exc, clicked.BadParameter):
        return field_of(exc.param), exc.message
    if isinstance(exc, clicked.FileError):
        return exc.ui_filename, exc.message
    message = exc.message
    return ("command" if message.startswith("No such command") else "arguments"), message


def typed_message(exc: click.ClickException) -> str:
    """`FIELD: RULE (see `PROG --help`)` for a click error."""
    field, rule = describe(exc)
    rule = rule.removeprefix("Value error, ")  # pydantic's preamble in typer's own checks
    ctx = getattr(exc, "ctx", None)
    hint = f" (see `{ctx.command_path} --help`)" if isinstance(ctx, click.Context) else ""
    return f"{field}: {rule.rstrip('.')}{hint}"


class TypedErrorsGroup(TyperGroup):
    """The top-level command: click's usage errors become `error (invalid_input): FIELD: RULE`, exit code 2."""

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True, windows_expand_args: bool = True,
             **extra: Any) -> Any:
        extra["windows_expand_args"] = windows_expand_args
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        from hindsight.cli_common import err, show

        try:
            result = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except clicked.NoArgsIsHelpError as exc:  # the group's help is already printed
            sys.exit(exc.exit_code)
        except click.ClickException as exc:
            err.print(f"[red]error ({InvalidInputError.code}):[/red] {show(typed_message(exc))}")
            sys.exit(2)
        except typer.Abort:
            err.print("aborted")
            sys.exit(1)
        sys.exit(result if isinstance(result, int) else 0)
