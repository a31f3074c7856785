"""The read replica (casino/db_routing.py): the history, statistics, leaderboard and lobby pages
and the audits read it by name, play never does, and the pages keep working while it lags.

The alias "replica" is a second connection, added for this module only (the rest of the suite
runs without one): to the same test database, as Django's TEST MIRROR does, or to a database
that does not exist, for play. A test's own transaction is a replica that lags: the second
connection cannot see what the test has not committed.
"""

import copy
import re

import pytest
from django.conf import settings
from django.core.management import call_command
from django.db import connections
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from casino import db_routing
from casino.db_routing import REPLICA, read_db, replica_or_primary
from holdem.models import HandRecord
from holdem.selectors.audit import audit_chips
from holdem.selectors.chains import chains_audit
from holdem.services import table_leave
from tests.holdem.conftest import play_out

BOTH = ["default", REPLICA]
HISTORY_TABLES = ("holdem_handrecord", "holdem_handparticipant", "holdem_handaction")

call_or_check = lambda legal: "check" if "check" in legal.actions else "call"  # noqa: E731


@pytest.fixture(scope="module", autouse=True)
def replica_alias(django_db_setup):
    """Before any test of the module asks for its databases: "replica", a mirror of the test
    database on a connection of its own."""
    replica = copy.deepcopy(connections["default"].settings_dict)
    replica["TEST"]["MIRROR"] = "default"
    settings.DATABASES[REPLICA] = replica  # the dict `connections` reads its aliases from
    yield replica
    connections[REPLICA].close()
    del connections[REPLICA]
    del settings.DATABASES[REPLICA]


@pytest.fixture
def broken_replica(replica_alias):
    """The replica pointed at a database that does not exist: a read there would fail. (The
    test also leaves it out of its databases, so Django refuses any query to it outright.)"""
    name = replica_alias["NAME"]
    connections[REPLICA].close()  # an earlier test's, to the test database
    replica_alias["NAME"] = "casino_no_such_replica"
    yield
    connections[REPLICA].close()
    replica_alias["NAME"] = name


def tables_read(captured: CaptureQueriesContext) -> set[str]:
    found: set[str] = set()
    for query in captured.captured_queries:
        found.update(re.findall(r"\b(holdem_\w+|accounts_\w+)\b", query["sql"]))
    return found


def get(client, name, *args):
    """The page, with the history tables each connection read for it."""
    with (
        CaptureQueriesContext(connections["default"]) as primary,
        CaptureQueriesContext(connections[REPLICA]) as replica,
    ):
        response = client.get(reverse(name, args=args))
    assert response.status_code == 200, response.content.decode()[:500]
    return response, tables_read(primary), tables_read(replica)


def played_hand(seated, clock):
    table, users = seated("nl50", seats=(0, 1, 2))
    clock.advance(31)
    play_out(table, users, choose=call_or_check)
    return table, users, HandRecord.objects.get(table=table)


@pytest.mark.django_db(transaction=True, databases=BOTH)
def test_history_pages_read_the_replica(postgres, seated, clock, client):
    assert read_db() == REPLICA
    _table, users, record = played_hand(seated, clock)
    client.force_login(users[0])
    history = set(HISTORY_TABLES)
    for page in ("hand_detail", "hand_json", "hand_download"):
        _response, primary, replica = get(client, page, record.pk)
        assert "holdem_handrecord" in replica and "holdem_handaction" in replica, page
        assert not primary & history, page
    response, primary, replica = get(client, "hand_list")
    assert f"#{record.pk}" in response.content.decode()
    assert "may take a moment to appear" in response.content.decode()
    assert "holdem_handrecord" in replica and not primary & history


@pytest.mark.django_db(transaction=True, databases=BOTH)
def test_statistics_leaderboard_and_lobby_figures_read_the_replica(postgres, seated, clock, client):
    _table, users, _record = played_hand(seated, clock)
    client.force_login(users[0])
    response, primary, replica = get(client, "player_stats")
    assert {"holdem_handparticipant", "holdem_handaction", "accounts_ledgerentry"} <= replica
    # (the page's header reads the wallet and its last ledger line on the primary, as every page)
    assert not primary & {*HISTORY_TABLES, "holdem_tournamententry"}
    response, primary, replica = get(client, "leaderboard")
    assert users[0].username in response.content.decode()
    assert "holdem_handrecord" in replica and "holdem_handrecord" not in primary
    # The last hour's figures from the replica; the rooms, seats and waiting lines from the
    # primary (the free seats are counted from them together).
    rooms, primary, replica = get(client, "rooms_now")
    assert {"holdem_handrecord", "holdem_handparticipant"} <= replica
    assert "holdem_waitingentry" in primary and "holdem_waitingentry" not in replica
    assert not primary & {"holdem_handrecord", "holdem_handparticipant"}
    assert any(room["hands_per_hour"] == 1 for room in rooms.json()["rooms"])


@pytest.mark.django_db(transaction=True, databases=BOTH)
def test_the_audit_commands_read_the_replica_by_default(postgres, seated, clock, capsys):
    played_hand(seated, clock)
    for command in ("audit_chips", "verify_chain"):
        with (
            CaptureQueriesContext(connections["default"]) as primary,
            CaptureQueriesContext(connections[REPLICA]) as replica,
        ):
            call_command(command)
        assert not primary.captured_queries, command
        assert "REPEATABLE READ, READ ONLY" in replica.captured_queries[1]["sql"], command
    out = capsys.readouterr().out
    assert "chips OK" in out and "history OK" in out and "1 hand at 1 table" in out
    call_command("verify_chain", "--database", "default")
    assert "history OK" in capsys.readouterr().out


@pytest.mark.django_db(databases=BOTH)
def test_an_unknown_database_alias_is_refused_by_the_audit_commands(postgres):
    for command in ("audit_chips", "verify_chain"):
        with pytest.raises(Exception, match="--database elsewhere: no such database alias"):
            call_command(command, "--database", "elsewhere")


@pytest.mark.django_db(databases=BOTH)
def test_while_the_replica_lags_the_pages_still_work(postgres, seated, clock, client):
    """Nothing the test wrote is on the replica yet: the hand page finds the hand on the
    primary; the list, the statistics and the leaderboard show what the replica has."""
    _table, users, record = played_hand(seated, clock)
    assert not HandRecord.objects.using(REPLICA).filter(pk=record.pk).exists()
    client.force_login(users[0])
    response, _primary, replica = get(client, "hand_detail", record.pk)
    assert "holdem_handrecord" in replica  # asked first
    assert f"#{record.pk}" in response.content.decode()
    hand = client.get(reverse("hand_json", args=[record.pk])).json()
    assert hand["hand_id"] == record.pk and hand["your_seat"] == 0
    assert client.get(reverse("hand_download", args=[record.pk])).status_code == 200
    # A hand on neither is still not found, and another player's hand still not theirs.
    assert client.get(reverse("hand_detail", args=[record.pk + 1000])).status_code == 404
    client.force_login(users[1])
    assert client.get(reverse("hand_detail", args=[record.pk])).status_code == 200

    listed, _, _ = get(client, "hand_list")
    assert f"#{record.pk}" not in listed.content.decode()
    assert "may take a moment to appear" in listed.content.decode()
    stats, _, _ = get(client, "player_stats")
    assert stats.context["stats"].hands == 0  # what the replica has
    board, _, _ = get(client, "leaderboard")
    assert all(not board.rows for board in board.context["boards"])
    assert replica_or_primary(lambda using: None) is None


@pytest.mark.django_db
def test_play_never_reads_the_replica(postgres, broken_replica, seated, clock, sockets):
    """With the replica unreachable, a table's life goes on: sitting down, sockets opened,
    hands dealt and played to their ends, a player leaving, the books audited on the primary."""
    assert REPLICA in settings.DATABASES
    table, users = seated("nl50", seats=(0, 1, 2))
    channel = sockets.open(table, users[0])
    for _ in range(3):
        clock.advance(31)
        play_out(table, users, choose=call_or_check)
    table_leave(table_id=table.pk, user=users[2])
    sockets.close(channel, table, users[0])
    assert HandRecord.objects.filter(table=table).count() == 3
    assert audit_chips().ok and chains_audit().ok
    assert connections[REPLICA].connection is None  # never even connected
    with pytest.raises(Exception, match="replica"):
        HandRecord.objects.using(REPLICA).exists()  # what any read there would have met


@pytest.mark.django_db(transaction=True, databases=BOTH)
def test_while_the_replica_is_down_its_pages_read_the_primary(
    postgres, broken_replica, seated, clock, client, monkeypatch, caplog
):
    """A replica that cannot be reached is tried once, then left alone for a while: its pages
    read the primary meanwhile, and the next read after the wait tries the replica again."""
    monkeypatch.setattr(db_routing, "_replica_down_until", 0.0)
    _table, users, record = played_hand(seated, clock)
    client.force_login(users[0])
    for page, args in [
        ("hand_detail", [record.pk]),
        ("hand_list", []),
        ("player_stats", []),
        ("leaderboard", []),
        ("rooms_now", []),
    ]:
        # (capturing the replica's queries would connect it: its connection is looked at instead)
        with CaptureQueriesContext(connections["default"]) as primary:
            assert client.get(reverse(page, args=args)).status_code == 200, page
        assert {"holdem_handrecord", "holdem_handparticipant"} & tables_read(primary), page
        assert connections[REPLICA].connection is None, page
    assert f"#{record.pk}" in client.get(reverse("hand_list")).content.decode()
    assert "the read replica cannot be reached" in caplog.text
    assert caplog.text.count("the read replica cannot be reached") == 1  # then left alone
    monkeypatch.setattr(db_routing, "_replica_down_until", 0.0)  # the wait is over
    assert read_db() == "default"  # tried again: still down
    assert caplog.text.count("the read replica cannot be reached") == 2
