"""`{% free_chips_offer "lobby" %}`: the wallet and the seat a player holds and, only when a claim
would be granted, the button for free chips (holdem/selectors/buy_in.py decides). The lobby and
the profile both show it."""

from django import template
from django.conf import settings
from django.utils import timezone

from casino.accounts.selectors import wallet_balance
from holdem.selectors.buy_in import refill_offer

register = template.Library()


@register.inclusion_tag("lobby/_free_chips.html", takes_context=True)
def free_chips_offer(context, back_to: str):
    user = context["request"].user
    offer = refill_offer(user=user, balance=wallet_balance(user=user), now=timezone.now())
    refusal = offer.refusal
    return {
        "offer": offer,
        "top": settings.CASINO_STARTING_CHIPS,
        # Broke, but the last claim was less than 24 hours ago: say when the next one is due.
        "wait": refusal.message
        if refusal is not None and refusal.code == "refill_too_soon"
        else None,
        "back_to": back_to,
        "csrf_token": context.get("csrf_token"),
    }
