"""Sign up and the player's own profile with balance and ledger."""

from axes.helpers import get_client_ip_address
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.shortcuts import redirect, render

from casino.accounts import selectors, services
from casino.accounts.forms import SignUpForm


def signup(request):
    if request.user.is_authenticated:
        return redirect("lobby")
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = services.account_create(
            username=form.cleaned_data["username"],
            password=form.cleaned_data["password1"],
            email=form.cleaned_data.get("email") or "",
            # The address as the sign-in throttle reads it (django-axes), so both agree.
            signup_address=get_client_ip_address(request) or "",
        )
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        return redirect("lobby")
    return render(request, "registration/signup.html", {"form": form})


@login_required
def profile(request):
    page = Paginator(selectors.ledger_for(user=request.user), 20).get_page(request.GET.get("page"))
    return render(
        request,
        "accounts/profile.html",
        {
            "balance": selectors.wallet_balance(user=request.user),
            "page": page,
        },
    )
