"""The one error the site's services raise when they refuse a request (nothing has changed).

`code` is for machines (the websocket protocol's error codes, docs/protocol.md), `message` is a
sentence for people, and `fields` names the form fields at fault when there are some. Consumers,
views and the admin each turn it into their own answer in one place.
"""


class DomainError(Exception):
    def __init__(self, code: str, message: str, *, fields: dict[str, str] | None = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.fields = fields or {}

    def __repr__(self) -> str:
        return f"DomainError({self.code!r}, {self.message!r})"
