"""The forms that make a room: by hand (stakes follow the betting structure, every option checked
by room_problems) or from a preset (a name and the preset)."""

import copy

from django import forms

from holdem.admin.room_fields import BLIND_FIELDS, LIMIT_FIELDS, OPTION_FIELDS
from holdem.models import Blinds, Structure, Table
from holdem.presets import PRESETS
from holdem.table_options import room_problems


class TableForm(forms.ModelForm):
    """A room by hand. A Fixed-Limit room needs no blinds (they follow from its lower stake) and a
    No-Limit or Pot-Limit room no limit stakes (ignored), whether or not the page's script took
    the other structure's fields off the form."""

    class Meta:
        model = Table
        exclude = ("hand_state",)  # noqa: DJ006 (every field but the engine's; fieldsets choose the rest)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name in (*BLIND_FIELDS, *LIMIT_FIELDS):
            if name in self.fields:
                self.fields[name].required = False  # clean() asks for the structure's own

    def clean(self):
        cleaned = super().clean()
        structure = cleaned.get("structure") or self.instance.structure
        stakes = self._stakes(cleaned, structure)
        for name, value in stakes.items():
            if name in self.errors:
                continue
            if name in self.fields:
                cleaned[name] = value
            else:
                setattr(self.instance, name, value)  # a field this page does not show
        candidate = copy.copy(self.instance)
        for name, value in cleaned.items():
            if name in OPTION_FIELDS:
                setattr(candidate, name, value)
        for name, problem in room_problems(candidate).items():
            if name in self.fields:
                if name not in self.errors:
                    self.add_error(name, problem)
            else:
                label = Table._meta.get_field(name).verbose_name
                self.add_error(None, f"{label[:1].upper()}{label[1:]}: {problem}")
        return cleaned

    def _stakes(self, cleaned, structure) -> dict:
        """The blinds and limit stakes to store for this structure (RULES.md 1 and 7). Stakes the
        page did not send (hidden by the script, or not on a saved room's page) or left empty
        take the structure's own values; those it sent are checked by room_problems."""
        names = (*BLIND_FIELDS, *LIMIT_FIELDS)
        given = {
            name: cleaned[name]
            for name in names
            if name in self.fields and cleaned.get(name) not in (None, "")
        }
        stakes = {name: given.get(name, getattr(self.instance, name)) for name in names}
        if structure != Structure.FIXED_LIMIT:
            needed = {"blinds"} | (
                {"small_blind", "big_blind"}
                if stakes["blinds"] == Blinds.FIXED
                else {"dynamic_blind_percent"}
            )
            for name in sorted(needed & self.fields.keys() - given.keys() - self.errors.keys()):
                self.add_error(name, "This field is required.")
            return {**stakes, "small_bet": 0, "big_bet": 0}  # not this structure's
        if "small_bet" not in given:
            if "small_bet" in self.fields:
                if "small_bet" not in self.errors:
                    self.add_error("small_bet", "This field is required.")
                return stakes
            if not stakes["small_bet"]:
                stakes["small_bet"] = stakes["big_blind"]  # the room was No-Limit or Pot-Limit
        lower = stakes["small_bet"]
        derived = {"big_bet": 2 * lower, "blinds": Blinds.FIXED}
        if lower // 2 >= 1:
            derived.update(small_blind=lower // 2, big_blind=lower)
        return {**stakes, **{k: v for k, v in derived.items() if k not in given}}


class PresetRoomForm(forms.Form):
    name = forms.CharField(max_length=80)
    preset = forms.ChoiceField(choices=[(k, v["name"]) for k, v in PRESETS.items()])

    def clean_name(self):
        name = self.cleaned_data["name"].strip()
        if Table.objects.filter(name=name).exists():
            raise forms.ValidationError("A room with this name exists already.")
        return name
