"""Database helpers below the services: prepared raw SQL for the hot path (rows) and the lock order (locks)."""
