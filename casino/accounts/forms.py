"""Sign-up, the admin's second-factor code and the admin's chip adjustment form."""

from django import forms
from django.contrib.auth.forms import UserCreationForm

from casino.accounts.models import User


class SignUpForm(UserCreationForm):
    class Meta:
        model = User
        fields = ("username", "email")


class SecondFactorForm(forms.Form):
    token = forms.CharField(
        label="Code",
        max_length=16,
        help_text="The 6-digit code your authenticator app shows now.",
        widget=forms.TextInput(
            attrs={"autocomplete": "one-time-code", "inputmode": "numeric", "autofocus": True}
        ),
    )


class ChipAdjustmentForm(forms.Form):
    amount = forms.IntegerField(
        help_text="Whole chips: positive adds to the balance, negative removes.",
        error_messages={"invalid": "Enter a whole number of chips."},
    )
    reason = forms.CharField(max_length=255, help_text="Required: why the balance changes.")

    def clean_amount(self):
        amount = self.cleaned_data["amount"]
        if amount == 0:
            raise forms.ValidationError("The amount must not be zero.")
        if abs(amount) > 10**12:
            raise forms.ValidationError("That amount is too large.")
        return amount

    def clean_reason(self):
        reason = self.cleaned_data["reason"].strip()
        if not reason:
            raise forms.ValidationError("A reason is required.")
        return reason
