"""A stdio client that goes away (ux33's finding 16, round 34).

A desktop client that quits closes its end of the server's stdout; the server's next answer then fails with
`BrokenPipeError`, which the MCP SDK's stdio task group raises out of `FastMCP.run` as an ExceptionGroup once stdin
ends: the CLI printed its traceback and exited with status 1. Nobody is left to answer, so this is the end of the
session, not a failure: `client_gone` tells such an exit from a real one, and `silence_stdout` points the closed
pipe at /dev/null so the interpreter's last flush of `sys.stdout` does not raise into it again.
"""

from __future__ import annotations

import os
import sys

#: what a write into a pipe whose reader has gone raises
GONE = (BrokenPipeError, ConnectionResetError)


def client_gone(exc: BaseException) -> bool:
    """Whether `exc` - or every exception an exception group holds, nested groups included - says that the client
    closed its end of the pipe."""
    if isinstance(exc, BaseExceptionGroup):
        return all(client_gone(inner) for inner in exc.exceptions)
    return isinstance(exc, GONE)


def silence_stdout() -> None:
    """Point file descriptor 1 at /dev/null (the client no longer reads it)."""
    try:
        sys.stdout.flush()
    except (OSError, ValueError):
        pass  # what is left in the buffer had nowhere to go
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass  # stdout is not a file descriptor (a test's capture): nothing will flush into the pipe
