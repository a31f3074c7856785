"""No god mode: while a hand is played no admin page, list, filter or search shows or betrays a
hole card or an undealt card, to view-only staff or to a superuser. style.md 5, the admin's side."""

import contextlib
import html
import re
import urllib.parse

import pytest
from django.contrib import admin
from django.contrib.auth.models import Permission
from django.core.exceptions import FieldDoesNotExist
from django.db.models.constants import LOOKUP_SEP
from django.urls import NoReverseMatch, reverse
from django.utils.html import escape, escapejs

from holdem import engine
from holdem.models import HandAction, HandRecord, Table
from holdem.services import table_act
from tests.holdem.conftest import current, play_out

pytestmark = pytest.mark.django_db

# The columns that hold cards nobody may see while the hand is played. Written out here, not
# imported from the admin: the test is the specification the admin is held to.
CARD_COLUMNS = {Table: {"hand_state"}, HandRecord: {"deck", "final_state"}}

# A whole alphanumeric run made only of card codes: "As" or "AsKd", never the "As" in "Ask".
CARD_RUN = re.compile(r"(?<![A-Za-z0-9])((?:[2-9TJQKA][cdhs])+)(?![A-Za-z0-9])")
JS_ESCAPE = re.compile(r"\\u([0-9a-fA-F]{4})")
# The geometry of an SVG path ("... 12 2h.1 ...", in the admin's own icons) is never text.
SVG_PATH_DATA = re.compile(r'\sd="[^"]*"')
# A card written as the history and the hand page write it: "A♠", "10♦" (also as &spades;).
CARD_FACE = re.compile(r"(?<![0-9A-Za-z])(10|[2-9JQKA])([\u2660\u2665\u2666\u2663])")
SUIT_OF_SYMBOL = {"\u2660": "s", "\u2665": "h", "\u2666": "d", "\u2663": "c"}
# The user page shows the password hash masked ("salt: Ad********"): a random salt may begin
# with two characters that spell a card.
MASKED = re.compile(r"[A-Za-z0-9+/=]*\*{2,}")


def cards_in(body: str) -> set[str]:
    """Every card code in a page however it was written: as HTML entities (&quot;As&quot;), as
    JavaScript escapes (\\u0022As\\u0022), percent-encoded in a link (%22As%22), run together,
    or as a face with its suit's symbol (A&spades;, 10♦)."""
    text = MASKED.sub(" ", html.unescape(SVG_PATH_DATA.sub(" ", body)))
    text = JS_ESCAPE.sub(lambda match: chr(int(match.group(1), 16)), text)
    text = urllib.parse.unquote(text)
    text = CARD_FACE.sub(
        lambda match: f" {'T' if match[1] == '10' else match[1]}{SUIT_OF_SYMBOL[match[2]]} ", text
    )
    return {run[i : i + 2] for run in CARD_RUN.findall(text) for i in range(0, len(run), 2)}


@pytest.fixture(params=["superuser", "view_only_staff"])
def staff_client(request, admin_sign_in, make_player):
    """Logged in as a superuser, or as staff who may view every model and change nothing."""
    member = make_player(request.param)
    member.is_staff = True
    member.is_superuser = request.param == "superuser"
    member.save()
    if not member.is_superuser:
        member.user_permissions.set(Permission.objects.filter(codename__startswith="view_"))
    client = admin_sign_in(member)  # past the second factor too: a superuser is asked for a code
    client.role = request.param
    return client


@pytest.fixture
def hand_on_the_flop(seated, clock):
    """A heads-up hand that has reached the flop, with its actions logged: (table, users, record,
    secret cards). The secret cards are the whole deck but the board: holes, burns, undealt cards."""
    table, users = seated("nl50", seats=(0, 1))
    clock.advance(31)
    while (state := current(table)).street == "preflop":
        legal = engine.legal_actions(state)
        action = "check" if "check" in legal.actions else "call"
        table_act(
            table_id=table.pk,
            user=users[legal.seat],
            action=action,
            action_id=f"{legal.seat}-{action}",
        )
    record = HandRecord.objects.get(table=table, ended_at__isnull=True)
    assert len(state.board) == 3 and HandAction.objects.filter(hand=record).count() == 2
    secret = set(record.deck) - set(state.board)
    assert {card for player in state.players for card in player.hole} <= secret
    return table, users, record, secret


def every_admin_url(table, record):
    """The admin index, each app's index, every registered model's list, and the change, history
    and delete pages of every row in the database, plus the admin's own extra pages."""
    urls = [reverse("admin:index"), reverse("admin:holdem_table_from_preset")]
    for model in admin.site._registry:
        opts = model._meta
        urls.append(reverse("admin:app_list", args=[opts.app_label]))
        urls.append(reverse(f"admin:{opts.app_label}_{opts.model_name}_changelist"))
        urls.append(reverse(f"admin:{opts.app_label}_{opts.model_name}_changelist") + "?_facets=1")
        for pk in model._default_manager.values_list("pk", flat=True):
            for view in ("change", "history", "delete"):
                urls.append(reverse(f"admin:{opts.app_label}_{opts.model_name}_{view}", args=[pk]))
            with contextlib.suppress(NoReverseMatch):
                urls.append(reverse(f"admin:{opts.app_label}_{opts.model_name}_adjust", args=[pk]))
    # A change page reached from a filtered list carries the filters along.
    filters = urllib.parse.urlencode({"_changelist_filters": f"table__id__exact={table.pk}"})
    urls.append(reverse("admin:holdem_handrecord_change", args=[record.pk]) + "?" + filters)
    urls.append(reverse("admin:holdem_handrecord_changelist") + f"?table__id__exact={table.pk}")
    return list(dict.fromkeys(urls))


def test_the_card_detector_finds_cards_however_a_page_writes_them(hand_on_the_flop):
    table, _users, record, _secret = hand_on_the_flop
    holes = {card for player in current(table).players for card in player.hole}
    for written in (
        escape(table.hand_state),
        escapejs(table.hand_state),
        urllib.parse.quote(table.hand_state),
        str(record.deck),
        "".join(sorted(holes)),
    ):
        assert holes <= cards_in(written)
    assert cards_in("A&spades; 10\u2666, Q\u2663") == {"As", "Td", "Qc"}
    assert cards_in('Ask for Asks; 4chan, Kdx, xAs, 10s <path d="M2 12 2h.1z"/>, 1\u2660') == set()


def test_no_admin_page_shows_a_card_of_the_hand_in_play(staff_client, hand_on_the_flop):
    table, _users, record, secret = hand_on_the_flop
    seen = {}
    for url in every_admin_url(table, record):
        response = staff_client.get(url)
        assert response.status_code in (200, 302, 403), (url, response.status_code)
        seen[url] = response.status_code
        leaked = cards_in(response.content.decode()) & secret
        assert not leaked, f"{staff_client.role} sees {sorted(leaked)} on {url}"
    # The sweep really looked at the pages of the table, the hand and its actions.
    must_show = [
        reverse("admin:index"),
        reverse("admin:holdem_table_changelist"),
        reverse("admin:holdem_table_change", args=[table.pk]),
        reverse("admin:holdem_table_history", args=[table.pk]),
        reverse("admin:holdem_handrecord_changelist"),
        reverse("admin:holdem_handrecord_change", args=[record.pk]),
        reverse("admin:holdem_handrecord_history", args=[record.pk]),
        reverse("admin:holdem_handaction_changelist"),
        *(
            reverse("admin:holdem_handaction_change", args=[pk])
            for pk in record.actions.values_list("pk", flat=True)
        ),
    ]
    if staff_client.role == "superuser":
        must_show.append(reverse("admin:holdem_table_from_preset"))
    assert {url: seen.get(url) for url in must_show} == dict.fromkeys(must_show, 200)


@pytest.mark.parametrize(
    "model, lookup",
    [
        (Table, "hand_state__contains"),
        (Table, "hand_state__regex"),
        (Table, "hands__deck__contains"),
        (HandRecord, "deck__contains"),
        (HandRecord, "deck__0"),
        (HandRecord, "final_state__contains"),
        (HandRecord, "table__hand_state__contains"),
        (HandAction, "hand__deck__contains"),
        (HandAction, "hand__table__hand_state__contains"),
    ],
)
def test_no_admin_list_can_be_filtered_by_a_column_holding_cards(
    staff_client, hand_on_the_flop, model, lookup
):
    # A filter that answers "one row" or "no rows" tells the cards one guess at a time.
    table, _users, _record, _secret = hand_on_the_flop
    hole_card = current(table).players[0].hole[0]
    url = reverse(f"admin:holdem_{model._meta.model_name}_changelist")
    assert staff_client.get(url, {lookup: hole_card}).status_code == 400


def names_a_card_column(model, path: str) -> bool:
    for part in path.lstrip("-").split(LOOKUP_SEP):
        try:
            field = model._meta.get_field(part)
        except FieldDoesNotExist:
            return False
        if part in CARD_COLUMNS.get(model, ()):
            return True
        if not field.is_relation:
            return False
        model = field.related_model
    return False


def test_no_admin_lists_searches_sorts_or_filters_by_a_column_holding_cards():
    for model, model_admin in admin.site._registry.items():
        declared = [
            *model_admin.list_display,
            *model_admin.search_fields,
            *(model_admin.ordering or ()),
            *(f for f in model_admin.list_filter if isinstance(f, str)),
            model_admin.date_hierarchy or "",
        ]
        named = [
            path
            for path in declared
            if isinstance(path, str) and names_a_card_column(model, path.lstrip("=^@"))
        ]
        assert not named, f"{type(model_admin).__name__} uses {named}"


def test_a_finished_hand_shows_only_the_cards_its_table_saw(staff_client, hand_on_the_flop):
    # Once the hand is over its page shows the board and the hands shown at the table; the deck
    # (burnt and undealt cards) and the folded or mucked hands stay hidden, as they were at the table.
    table, users, record, _secret = hand_on_the_flop
    play_out(table, users)
    record.refresh_from_db()
    assert record.ended_at is not None
    page = staff_client.get(
        reverse("admin:holdem_handrecord_change", args=[record.pk])
    ).content.decode()
    seen = set(record.board) | {card for hole in record.shown.values() for card in hole}
    assert cards_in(page) == seen and len(seen) < len(record.deck)
