"""What the test clients do with the table frames they receive, like the site's own client."""

from holdem.realtime.delta import client_view


def follow(table, you, frame):
    """The (table, you) a client holds after `frame`. An `event` frame is also given `table`,
    the whole public table after its changes, so a test can read it the way the client does."""
    table, you = client_view(table, you, frame)
    if frame.get("type") == "event" and table is not None:
        frame["table"] = table
    return table, you


def lobby_rooms(frames):
    """Room id -> the room as a lobby client holds it after `frames`: a `lobby` frame's page,
    with each `rooms` frame's changes added (docs/protocol.md, Lobby)."""
    rooms = {}
    for frame in frames:
        if frame.get("type") == "lobby":
            rooms = {room["id"]: room for room in frame["rooms"]}
        elif frame.get("type") == "rooms":
            for change in frame["rooms"]:
                rooms[change["id"]] = {**rooms.get(change["id"], {}), **change}
    return rooms
