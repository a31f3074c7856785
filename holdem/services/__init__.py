"""Every state change at a table (style.md 2): one transaction each, table row locked first."""

from holdem.services.auto_top_up import auto_top_up_set
from holdem.services.clock import deadlines_fire_due
from holdem.services.hand_act import table_act, table_muck, table_pre_action, table_show
from holdem.services.presence import connection_close, connection_open, connections_expire
from holdem.services.refill import wallet_refill
from holdem.services.rooms import room_close, room_create, room_reopen, rooms_seed_presets
from holdem.services.seats import (
    table_leave,
    table_leave_after_hand,
    table_post,
    table_set_auto_muck,
    table_sit,
    table_sit_in,
    table_sit_out,
    table_switch,
    table_top_up,
)
from holdem.services.sit_out_boxes import table_sit_out_next_big_blind, table_sit_out_next_hand

__all__ = [
    "auto_top_up_set",
    "connection_close",
    "connection_open",
    "connections_expire",
    "deadlines_fire_due",
    "room_close",
    "room_create",
    "room_reopen",
    "rooms_seed_presets",
    "table_act",
    "table_leave",
    "table_leave_after_hand",
    "table_muck",
    "table_post",
    "table_pre_action",
    "table_set_auto_muck",
    "table_show",
    "table_sit",
    "table_sit_in",
    "table_sit_out",
    "table_sit_out_next_big_blind",
    "table_sit_out_next_hand",
    "table_switch",
    "table_top_up",
    "wallet_refill",
]
