"""The HTTP access log keeps paths, never query strings.

uvicorn logs every request line as `"GET /console?q=... HTTP/1.1" 200`: a console search's words (`q`), a
namespace or a memory id in a link would sit in the operator's log in clear, where a private memory's words must
not go. `QueryStringFilter` on the `uvicorn.access` logger writes the path with `?[query not logged]` instead.
"""

from __future__ import annotations

import logging

ACCESS_LOGGER = "uvicorn.access"
WITHHELD = "?[query not logged]"


class QueryStringFilter(logging.Filter):
    """Drops the query string of the request path in uvicorn's access records (args[2] is `full_path`)."""

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        if isinstance(args, tuple) and len(args) >= 3 and isinstance(args[2], str) and "?" in args[2]:
            record.args = (*args[:2], args[2].split("?", 1)[0] + WITHHELD, *args[3:])
        return True


def keep_queries_out_of_the_access_log() -> None:
    """Install the filter once on uvicorn's access logger (before the server starts; dictConfig keeps it)."""
    logger = logging.getLogger(ACCESS_LOGGER)
    if not any(isinstance(f, QueryStringFilter) for f in logger.filters):
        logger.addFilter(QueryStringFilter())
