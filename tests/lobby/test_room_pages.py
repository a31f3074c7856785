"""The lobby's room list a page at a time (GET /lobby/rooms/ and the lobby page): a filter, a page
of at most 50 rooms in the site's order, the totals, and a cache of a moment per filter and page."""

import time

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from holdem.models import SitGoTemplate, Table
from holdem.presets import PRESETS
from holdem.selectors.lobby_page import PAGE_SIZE, LobbyView, rooms_page, sit_and_gos_page
from holdem.services import table_leave, table_sit
from holdem.services.tournaments import sit_and_go_open
from holdem.services.waiting import waiting_join

pytestmark = pytest.mark.django_db


def bulk_rooms(count, preset="nl50", prefix="bulk", **options):
    """`count` open rooms at once, straight into the table (as the bench makes 30,000)."""
    values = {k: v for k, v in PRESETS[preset].items() if k != "name"} | options
    made = Table.objects.bulk_create(
        Table(name=f"{prefix} {preset} {n}", **values) for n in range(count)
    )
    return sorted(t.pk for t in made)


def rooms_of(client, **query):
    answer = client.get(reverse("rooms_now"), query)
    assert answer.status_code == 200, answer.content
    return answer.json()


@pytest.fixture
def viewer(client, make_player):
    client.force_login(make_player("viewer"))
    return client


def test_the_list_comes_a_page_at_a_time_in_the_sites_order(viewer):
    ids = bulk_rooms(PAGE_SIZE * 2 + 7)
    first = rooms_of(viewer)
    assert [room["id"] for room in first["rooms"]] == ids[:PAGE_SIZE]
    assert (first["page"], first["pages"], first["page_size"]) == (1, 3, PAGE_SIZE)
    assert first["totals"] == {"matching": len(ids), "rooms": len(ids), "players": 0}
    assert first["stakes"] == ["50/100"]
    assert first["rooms"][0]["hands_per_hour"] == 0  # each room with its figures
    third = rooms_of(viewer, page=3)
    assert [room["id"] for room in third["rooms"]] == ids[2 * PAGE_SIZE :]
    # Past the last page: the last page, saying so.
    beyond = rooms_of(viewer, page=99)
    assert beyond["page"] == 3 and beyond["view"]["page"] == 3
    assert beyond["rooms"] == third["rooms"]


def test_the_filter_is_applied_by_the_server(viewer, make_player):
    nl = bulk_rooms(3, "nl50", seats=2)
    pl = bulk_rooms(2, "pl50")
    fl = bulk_rooms(2, "fl20")
    classic = bulk_rooms(1, "classic")

    def ids(**query):
        return [room["id"] for room in rooms_of(viewer, **query)["rooms"]]

    assert ids(structure="pot_limit") == pl
    assert ids(structure=["pot_limit", "fixed_limit"]) == pl + fl
    assert ids(structure="") == []  # no structure ticked: nothing
    assert ids(stakes="20/40") == fl  # fixed limit: its bets
    assert ids(stakes="dynamic 10%") == classic
    assert ids(stakes="50/100") == nl + pl
    assert ids(stakes="5/10") == []

    # nl[0]: two seats, both taken; nl[1]: one taken, the other held for the waiting list.
    users = [make_player() for _ in range(4)]
    table_sit(table_id=nl[0], user=users[0], seat=0, buy_in=2_000)
    table_sit(table_id=nl[0], user=users[1], seat=1, buy_in=2_000)
    table_sit(table_id=nl[1], user=users[2], seat=0, buy_in=2_000)
    table_sit(table_id=nl[1], user=users[3], seat=1, buy_in=2_000)
    waiting_join(table_id=nl[1], user=make_player())
    table_leave(table_id=nl[1], user=users[3])  # seat 1 now held for the one in line
    everything = nl + pl + fl + classic
    assert ids(hide_full=1) == [pk for pk in everything if pk not in nl[:2]]
    assert ids(hide_empty=1) == nl[:2]
    assert ids(free=3) == pl + fl + classic
    assert ids(kind="sit_and_go") == []
    assert ids(kind="cash") == everything
    answer = rooms_of(viewer, hide_empty=1)
    assert answer["totals"] == {"matching": 2, "rooms": len(everything), "players": 3}


@pytest.mark.parametrize(
    "query, field",
    [
        ({"structure": "omaha"}, "structures"),
        ({"stakes": "cheap"}, "stakes"),
        ({"stakes": "50/"}, "stakes"),
        ({"free": "-1"}, "free"),
        ({"free": "11"}, "free"),
        ({"free": "two"}, "free"),
        ({"hide_full": "yes"}, "hide_full"),
        ({"hide_empty": "2"}, "hide_empty"),
        ({"kind": "poker"}, "kind"),
        ({"page": "0"}, "page"),
        ({"page": "100001"}, "page"),
        ({"page": "1.5"}, "page"),
        ({"sort": "name"}, "sort"),
    ],
)
def test_a_bad_query_is_refused_saying_which_field(viewer, query, field):
    answer = viewer.get(reverse("rooms_now"), query)
    assert answer.status_code == 400
    error = answer.json()["error"]
    assert error["code"] == "bad_view" and list(error["fields"]) == [field]
    assert field in error["message"]


def test_a_page_read_is_served_again_for_a_moment(viewer, settings, make_player):
    settings.CASINO_LOBBY_CACHE_SECONDS = 60
    cache.clear()
    ids = bulk_rooms(3)
    assert rooms_of(viewer)["totals"]["players"] == 0
    table_sit(table_id=ids[0], user=make_player(), seat=0, buy_in=2_000)
    with CaptureQueriesContext(connection) as queries:
        again = rooms_of(viewer)
    # The same page from the cache: not one query of the rooms or their figures.
    assert not [q for q in queries if "holdem_" in q["sql"]], [q["sql"] for q in queries]
    assert again["totals"]["players"] == 0 and again["rooms"][0]["taken"] == 0
    # Another filter or page is its own read, current; the totals of the site, shared by every
    # view, are the moment's too.
    other = rooms_of(viewer, hide_empty=1)
    assert [room["id"] for room in other["rooms"]] == ids[:1] and other["rooms"][0]["taken"] == 1
    assert other["totals"] == {"matching": 1, "rooms": 3, "players": 0}
    # A reader that needs a page read after a moment (the lobby relay) does not take an older one.
    page = rooms_page(LobbyView(), not_before=time.time())
    assert page["rooms"][0]["taken"] == 1
    cache.clear()
    assert rooms_of(viewer)["totals"]["players"] == 1


def test_the_lobby_page_shows_the_first_page_and_the_totals(viewer):
    ids = bulk_rooms(PAGE_SIZE + 5)
    html = viewer.get(reverse("lobby")).content.decode()
    assert html.count('class="room-tile') == PAGE_SIZE
    assert f'data-room-id="{ids[PAGE_SIZE - 1]}"' in html
    assert f'data-room-id="{ids[PAGE_SIZE]}"' not in html
    assert f"{len(ids)} rooms" in html


def test_the_table_pages_room_switcher_gets_the_first_page(viewer):
    ids = bulk_rooms(PAGE_SIZE + 5)
    answer = viewer.get(reverse("table", args=[ids[0]]))
    assert answer.status_code == 200
    client = answer.context["client"]
    assert [room["id"] for room in client["rooms"]] == ids[:PAGE_SIZE]


def open_sit_and_gos(count):
    """`count` Sit & Gos taking entries, each from a template of its own."""
    made = []
    for n in range(count):
        template = SitGoTemplate.objects.create(
            name=f"Paged Sit & Go {n}", seats=2, buy_in=1_000, fee=100, starting_stack=500
        )
        made.append(sit_and_go_open(template))
    return made


def test_the_sit_and_go_list_is_bounded_too(viewer):
    made = open_sit_and_gos(PAGE_SIZE + 4)
    listed = sit_and_gos_page()
    assert len(listed["sit_and_gos"]) == PAGE_SIZE and listed["total"] == PAGE_SIZE + 4
    # The lobby's order: taking entries first, then by template, newest first within one.
    assert listed["sit_and_gos"][0]["id"] == made[0].pk
    html = viewer.get(reverse("lobby")).content.decode()
    assert html.count('class="sng-row') == PAGE_SIZE
