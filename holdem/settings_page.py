"""The player's settings page (/accounts/settings/): their table settings (bet-size buttons, fold
confirmation, deck colours) and whom they muted in the chat, to unmute. The table's gear dialog
(static/js/settings-dialog.js) changes the same settings; both go through the one service.

Each section of the page is a form of its own, posted to its own view: a section added later
needs no change to the others.
"""

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from casino.accounts.models import Deck
from casino.accounts.table_settings import (
    POSTFLOP_MAX,
    POSTFLOP_MIN,
    PREFLOP_MAX,
    PREFLOP_MIN,
    preferences_set,
    table_settings_for,
)
from casino.errors import DomainError
from holdem.selectors.chat import chat_muted_players
from holdem.services.chat import chat_mute


def _sizes_text(sizes: list[float]) -> str:
    return ", ".join(f"{size:g}" for size in sizes)


def _parse_sizes(text: str) -> list[float]:
    """ "33, 50, 75" (commas, semicolons or spaces between): the numbers; what they may be is the
    service's to say."""
    sizes: list[float] = []
    for word in text.replace(";", " ").replace(",", " ").split():
        try:
            value = float(word.rstrip("%xX"))
        except ValueError:
            raise forms.ValidationError(f"{word[:12]!r} is not a number.") from None
        sizes.append(int(value) if value.is_integer() else value)
    return sizes


class TableSettingsForm(forms.Form):
    bet_sizes_postflop = forms.CharField(
        label="After the flop: percent of the pot",
        required=False,
        max_length=100,
        help_text=(
            f"Up to 6 sizes from {POSTFLOP_MIN} to {POSTFLOP_MAX}, with commas between them "
            "(33 and 67 are a third and two thirds of the pot). Empty: the defaults."
        ),
    )
    bet_sizes_preflop = forms.CharField(
        label="Before the flop: times the big blind, or the bet after a raise",
        required=False,
        max_length=100,
        help_text=f"Up to 6 sizes from {PREFLOP_MIN:g} to {PREFLOP_MAX}. Empty: the defaults.",
    )
    fold_confirm = forms.BooleanField(
        label="Ask before I fold",
        required=False,
        help_text="When you could check for free, Fold always asks first.",
    )
    deck = forms.ChoiceField(label="Card faces", choices=Deck.choices, widget=forms.RadioSelect)

    def clean_bet_sizes_postflop(self) -> list[float]:
        return _parse_sizes(self.cleaned_data["bet_sizes_postflop"])

    def clean_bet_sizes_preflop(self) -> list[float]:
        return _parse_sizes(self.cleaned_data["bet_sizes_preflop"])


@login_required
def settings_page(request):
    if request.method == "POST":
        form = TableSettingsForm(request.POST)
        if form.is_valid():
            try:
                preferences_set(user=request.user, **form.cleaned_data)
            except DomainError as refused:
                for name, problem in refused.fields.items():
                    form.add_error(name if name in form.fields else None, problem)
            else:
                messages.success(request, "Your table settings are saved.")
                return redirect("settings")
    else:
        current = table_settings_for(request.user)
        form = TableSettingsForm(
            initial={
                "bet_sizes_postflop": _sizes_text(current["bet_sizes_postflop"]),
                "bet_sizes_preflop": _sizes_text(current["bet_sizes_preflop"]),
                "fold_confirm": current["fold_confirm"],
                "deck": current["deck"],
            }
        )
    return render(
        request,
        "accounts/settings.html",
        {"form": form, "muted": chat_muted_players(request.user)},
    )


@require_POST
@login_required
def settings_unmute(request):
    """Unmute one player of the list (the page's Chat section)."""
    try:
        muted_id = int(request.POST.get("user_id", ""))
    except ValueError:
        messages.error(request, "Choose a player to unmute.")
        return redirect(reverse("settings") + "#muted")
    players = {p["user_id"]: p["username"] for p in chat_muted_players(request.user)}
    try:
        chat_mute(user=request.user, muted_id=muted_id, mute=False)
    except DomainError as refused:
        messages.error(request, refused.message.capitalize() + ".")
    else:
        if muted_id in players:
            messages.success(request, f"You read {players[muted_id]}'s lines again.")
    return redirect(reverse("settings") + "#muted")
