"""The race for a Sit & Go's last seat on real PostgreSQL (RULES.md 8): two players on two
connections (as from two servers) register for it at once; one gets it and starts the
tournament, the other is refused with nothing taken from the wallet."""

import threading

import pytest
from django.db import close_old_connections, connection

from casino.accounts.selectors import wallet_balance
from casino.errors import DomainError
from holdem.models import SitGoTemplate, Tournament, TournamentStatus
from holdem.selectors.audit import audit_chips
from holdem.services.tournaments import sit_and_go_open, tournament_register

pytestmark = pytest.mark.django_db(transaction=True)


def test_two_players_racing_for_the_last_seat(postgres, make_player):
    """RULES.md 8: the last seat goes to one of two racing registrations; the tournament
    starts once, and the loser's wallet is untouched."""
    template = SitGoTemplate.objects.create(
        name="Race", seats=3, buy_in=500, fee=50, starting_stack=1_000
    )
    for _ in range(5):  # several rounds, so the race really happens
        tournament = sit_and_go_open(template)
        tournament_register(tournament_id=tournament.pk, user=make_player())
        tournament_register(tournament_id=tournament.pk, user=make_player())
        racers = [make_player(), make_player()]
        before = {p.pk: wallet_balance(user=p) for p in racers}
        barrier = threading.Barrier(2)
        won, refused = [], []

        def register(player, barrier=barrier, won=won, refused=refused, tournament=tournament):
            try:
                barrier.wait()
                tournament_register(tournament_id=tournament.pk, user=player)
                won.append(player)
            except DomainError as error:
                refused.append((player, error.code))
            finally:
                connection.close()

        threads = [threading.Thread(target=register, args=(p,)) for p in racers]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(30)
        close_old_connections()
        assert len(won) == 1 and len(refused) == 1, (won, refused)
        loser, code = refused[0]
        assert code == "tournament_started"
        assert wallet_balance(user=loser) == before[loser.pk]
        assert wallet_balance(user=won[0]) == before[won[0].pk] - 550
        tournament.refresh_from_db()
        assert tournament.status == TournamentStatus.RUNNING and tournament.entrants == 3
        assert tournament.table.seat_set.count() == 3
        Tournament.objects.filter(template=template, status="registering").update(
            status=TournamentStatus.CANCELLED  # (each round opens its own below)
        )
    audit = audit_chips()
    assert audit.ok, audit.summary()
