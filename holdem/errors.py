"""The one error type of the table services: a code for machines and a sentence for people."""


class TableError(Exception):
    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message
