"""Structured logs: one JSON object per line, for log shippers (enabled by DJANGO_LOG_FORMAT=json,
and by default whenever DEBUG is off)."""

import json
import logging
from datetime import UTC, datetime

# Attributes every LogRecord has; anything else on a record came from `extra=` and is logged too.
STANDARD_ATTRIBUTES = frozenset(
    vars(logging.LogRecord("", 0, "", 0, "", None, None)).keys()
    | {"message", "asctime", "taskName"}
)


class JsonFormatter(logging.Formatter):
    """Format a record as `{"time", "level", "logger", "message", ...extra, "exception"}`."""

    def format(self, record: logging.LogRecord) -> str:
        entry = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        for key, value in vars(record).items():
            if key not in STANDARD_ATTRIBUTES and key not in entry:
                entry[key] = _plain(key, value)
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        if record.stack_info:
            entry["stack"] = self.formatStack(record.stack_info)
        return json.dumps(entry, default=str, ensure_ascii=False)


def _plain(key: str, value):
    """Django's request logger passes the request object: log what identifies it, not its repr."""
    if key == "request" and hasattr(value, "method") and hasattr(value, "get_full_path"):
        return {"method": value.method, "path": value.get_full_path()}
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    try:
        json.dumps(value)
    except (TypeError, ValueError):
        return str(value)
    return value
