"""Chip amounts written one way everywhere: 1,750 and -1,000 (and +500 where a sign is news).

Python code calls `chips` and `signed_chips`, templates the filters of the same names
(`{% load chips %}`), admin lists and pages `chip_column`.
"""

from django.contrib import admin

# What an admin column shows for no value (the admin's own mark, which a read-only page does not
# put in for a value its column computed).
NO_VALUE = "-"
# Right-aligns the chip columns of an admin list (`class Media: css = CHIP_COLUMNS_CSS`).
CHIP_COLUMNS_CSS = {"all": ("admin/casino/chips.css",)}


def chips(amount: int) -> str:
    """1750 -> "1,750", -1000 -> "-1,000"."""
    return f"{amount:,}"


def signed_chips(amount: int) -> str:
    """A movement of chips: +500, -1,000, and 0 without a sign."""
    return f"{amount:+,}" if amount else "0"


def chip_column(field: str, description: str | None = None, *, signed: bool = False):
    """An admin column (list_display, readonly_fields) showing a chip field with separators,
    sorted by the stored field. Named after the field, so its cells keep the class `field-<name>`."""
    write = signed_chips if signed else chips

    def column(obj):
        amount = getattr(obj, field)
        return NO_VALUE if amount is None else write(amount)

    column.__name__ = field
    return admin.display(description=description or field.replace("_", " "), ordering=field)(column)
