"""Sit & Gos in the admin (RULES.md 8): the shipped templates, a tournament's entrants, places
and prizes with no card anywhere, cancelling before the start (refunds) and not after, and a
tournament table that the rooms admin shows but never changes or closes."""

import pytest
from django.urls import reverse

from casino.accounts.selectors import wallet_balance
from casino.errors import DomainError
from holdem.models import SitGoTemplate, TableStatus, Tournament, TournamentStatus
from holdem.presets import SIT_AND_GO_PRESETS
from holdem.services import room_close
from holdem.services.tournaments import (
    sit_and_go_presets_seed,
    tournament_register,
)

pytestmark = pytest.mark.django_db


def test_the_three_presets_are_shipped_each_with_one_open(admin_client):
    """RULES.md 8: the presets of the table at the end of the section, one Sit & Go open each."""
    assert sit_and_go_presets_seed() == 3
    assert sit_and_go_presets_seed() == 3  # idempotent
    for key, preset in SIT_AND_GO_PRESETS.items():
        template = SitGoTemplate.objects.get(preset=key)
        assert (template.seats, template.buy_in, template.fee, template.starting_stack) == (
            preset["seats"],
            preset["buy_in"],
            preset["fee"],
            preset["starting_stack"],
        )
        assert Tournament.objects.filter(template=template, status="registering").count() == 1
    page = admin_client.get(reverse("admin:holdem_sitgotemplate_changelist")).content.decode()
    assert "Sit &amp; Go 9 Turbo" in page and "Heads-up Hyper" in page


def test_staff_cancel_before_the_start_but_not_after(admin_client, make_player):
    """RULES.md 8: cancelling refunds the registrations; a started Sit & Go cannot be cancelled,
    and its table is neither changed nor closed from the rooms admin (its chips are in play)."""
    sit_and_go_presets_seed()
    hyper = Tournament.objects.get(template__preset="hu_hyper", status="registering")
    turbo = Tournament.objects.get(template__preset="sng9_turbo", status="registering")
    early = make_player()
    balance = wallet_balance(user=early)
    tournament_register(tournament_id=turbo.pk, user=early)
    for player in (make_player(), make_player()):
        tournament_register(tournament_id=hyper.pk, user=player)
    changelist = reverse("admin:holdem_tournament_changelist")
    response = admin_client.post(
        changelist,
        {"action": "cancel_tournaments", "_selected_action": [turbo.pk, hyper.pk]},
        follow=True,
    )
    page = response.content.decode()
    assert "cancelled, entries refunded" in page
    assert "only a Sit &amp; Go that has not started can be cancelled" in page
    turbo.refresh_from_db()
    hyper.refresh_from_db()
    assert turbo.status == TournamentStatus.CANCELLED and wallet_balance(user=early) == balance
    assert hyper.status == TournamentStatus.RUNNING
    detail = admin_client.get(reverse("admin:holdem_tournament_change", args=[hyper.pk]))
    text = detail.content.decode()
    assert detail.status_code == 200 and "Heads-up Hyper" in text
    # No card of the hand in play on the tournament's pages, nor on its table's.
    table = hyper.table
    room = admin_client.get(reverse("admin:holdem_table_change", args=[table.pk]))
    assert room.status_code == 200
    assert 'name="small_blind"' not in room.content.decode()  # shown, not editable
    with pytest.raises(DomainError) as refused:
        room_close(table_id=table.pk)
    assert refused.value.code == "tournament_table"
    table.refresh_from_db()
    assert table.status == TableStatus.OPEN
