"""Daphne as the site runs it (bin/daphne-serve): Daphne's own command line, with one change.

Autobahn, under Daphne, answers a protocol error by dropping the TCP connection ("fail by
drop"), so a client that sent invalid UTF-8 or an oversized frame sees 1006 and cannot tell why.
Here it first sends the close frame RFC 6455 names for the error (1007 invalid UTF-8, 1009 too
big), then drops the connection if the client does not answer (docs/protocol.md).
"""

import sys

from daphne.cli import CommandLineInterface
from daphne.ws_protocol import WebSocketFactory

_reset_options = WebSocketFactory.resetProtocolOptions


def _reset_options_closing_cleanly(self):
    _reset_options(self)
    self.failByDrop = False


WebSocketFactory.resetProtocolOptions = _reset_options_closing_cleanly


def main() -> None:
    CommandLineInterface.entrypoint()


if __name__ == "__main__":
    sys.exit(main())
