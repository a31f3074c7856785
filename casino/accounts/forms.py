"""Sign-up, sign-in, the admin's second-factor code, and the admin's forms that change an account: a chip
adjustment, a freeze, a movement of chips between two wallets."""

from django import forms
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm

from casino.accounts.closing import CLOSED_PREFIX
from casino.accounts.exclusions import exclusion_active, exclusion_message
from casino.accounts.models import User


class SignUpForm(UserCreationForm):
    class Meta:
        model = User
        fields = ("username", "email")

    def clean_username(self):
        username = super().clean_username()
        # RULES.md 10: closed accounts go by "closed-<id>"; nobody else may take such a name.
        if (username or "").lower().startswith(CLOSED_PREFIX):
            raise forms.ValidationError(f"Names starting with “{CLOSED_PREFIX}” are reserved.")
        return username


class SignInForm(AuthenticationForm):
    """The site's sign-in: also refused, saying until when, to an account on a break or
    self-excluded (docs/rules.md 11). Said only once the password is right, as Django does for
    an inactive account, so the username alone tells a stranger nothing."""

    def confirm_login_allowed(self, user):
        super().confirm_login_allowed(user)
        exclusion = exclusion_active(user_id=user.pk)
        if exclusion is not None:
            raise forms.ValidationError(f"{exclusion_message(exclusion)}.", code="excluded")


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


class FreezeForm(forms.Form):
    reason = forms.CharField(
        max_length=255,
        help_text="Required, for the staff: the player reads only that the account is frozen.",
        error_messages={"required": "A reason is required."},
    )

    def clean_reason(self):
        reason = self.cleaned_data["reason"].strip()
        if not reason:
            raise forms.ValidationError("A reason is required.")
        return reason


class ChipMoveForm(forms.Form):
    from_username = forms.CharField(label="From", max_length=150)
    to_username = forms.CharField(label="To", max_length=150)
    amount = forms.IntegerField(
        min_value=1,
        max_value=10**12,
        help_text="Whole chips, taken from the first wallet and given to the second.",
        error_messages={"invalid": "Enter a whole number of chips."},
    )
    reason = forms.CharField(
        max_length=255,
        help_text="Required: why the chips move back.",
        error_messages={"required": "A reason is required."},
    )
    # Made when the form is shown: posting the same form twice moves the chips once.
    key = forms.CharField(max_length=40, widget=forms.HiddenInput)

    def _user(self, name: str):
        username = self.cleaned_data[name].strip()
        user = User.objects.filter(username=username).first()
        if user is None:
            raise forms.ValidationError(f"There is no account {username!r}.")
        return user

    def clean_from_username(self):
        return self._user("from_username")

    def clean_to_username(self):
        return self._user("to_username")

    def clean_reason(self):
        reason = self.cleaned_data["reason"].strip()
        if not reason:
            raise forms.ValidationError("A reason is required.")
        return reason
