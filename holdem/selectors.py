"""Reads about tables."""


def table_chip_totals() -> tuple[int, int]:
    """(chips at tables in seats and hands in progress, rake collected); no table models yet."""
    return 0, 0
