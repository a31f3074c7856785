"""The realtime edge: table and lobby sockets, the heartbeat, and what is sent to them (broadcast, delta)."""
