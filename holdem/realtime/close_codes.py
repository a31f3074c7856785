"""The site's websocket close codes (docs/protocol.md), defined once for Python.

Plain ints: Daphne hands the code to autobahn, which refuses any type but `int` itself (an
IntEnum closes the socket with 1011 instead). `static/js/close-codes.js` mirrors the two after
which the browser stops reconnecting; tests/realtime/test_close_codes.py holds the mirror.
"""

from typing import Final


class CloseCode:
    TOO_MANY_SOCKETS: Final = 4008  # this user opened too many sockets and this was the oldest
    TOO_BIG: Final = 4009  # a frame over the socket's size limit
    FLOOD: Final = 4029  # more frames in one second than allowed
    SIGNED_OUT: Final = 4401  # the session ended: signed out, password changed, account deactivated


ALL: Final = {name: code for name, code in vars(CloseCode).items() if name.isupper()}

# After these, reconnecting cannot help: the browser stops and says why.
FINAL: Final = {"SIGNED_OUT": CloseCode.SIGNED_OUT, "TOO_MANY_SOCKETS": CloseCode.TOO_MANY_SOCKETS}
