"""The site's websocket close codes (docs/protocol.md), defined once for Python.

`static/js/close-codes.js` mirrors the two after which the browser stops reconnecting;
tests/realtime/test_close_codes.py holds the mirror to these values.
"""

from enum import IntEnum


class CloseCode(IntEnum):
    TOO_MANY_SOCKETS = 4008  # this user opened too many sockets and this was the oldest
    TOO_BIG = 4009  # a frame over the socket's size limit
    FLOOD = 4029  # more frames in one second than allowed
    SIGNED_OUT = 4401  # the session ended: signed out, password changed, account deactivated


# After these, reconnecting cannot help: the browser stops and says why.
FINAL = (CloseCode.SIGNED_OUT, CloseCode.TOO_MANY_SOCKETS)
