"""The one exception the engine raises for a refused move.

`code` is a short machine word for the web layer; `message` names the rule in plain words.
"""


class IllegalAction(Exception):
    """A move the rules do not allow now; the state it was tried on is unchanged."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message

    def __repr__(self) -> str:
        return f"IllegalAction({self.code!r}, {self.message!r})"
