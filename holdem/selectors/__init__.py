"""Reads about tables, one module per what they serve (style.md 2): the table and a player's view
of it, hand history, the lobby, buy-ins, stats, the chip audit, waiting lists and liveness.

Import from the module that holds a function; this package re-exports nothing.
"""
