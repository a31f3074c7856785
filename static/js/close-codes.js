// Websocket close codes after which reconnecting would not help (docs/protocol.md).

export const CLOSE_SIGNED_OUT = 4401;
export const CLOSE_TOO_MANY_SOCKETS = 4008;
