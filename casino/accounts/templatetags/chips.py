"""`{{ amount|chips }}` -> 1,750 and `{{ amount|signed_chips }}` -> +500 (casino/accounts/formatting.py)."""

from django import template

from casino.accounts import formatting

register = template.Library()


@register.filter
def chips(amount) -> str:
    return "" if amount is None or amount == "" else formatting.chips(int(amount))


@register.filter
def signed_chips(amount) -> str:
    return "" if amount is None or amount == "" else formatting.signed_chips(int(amount))
