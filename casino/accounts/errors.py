"""Domain errors of the wallet, each with a sentence a person can read."""


class ChipError(Exception):
    """A chip movement was refused; nothing changed."""

    code = "chips"

    def __init__(self, message: str, code: str | None = None):
        super().__init__(message)
        self.message = message
        if code:
            self.code = code
