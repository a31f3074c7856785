"""Home page and lobby."""

from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render

from holdem.selectors import rooms_for_lobby


def home(request):
    if request.user.is_authenticated:
        return redirect("lobby")
    return render(request, "home.html")


@login_required
def lobby(request):
    # The page marks the room where the viewer has a seat: lobby frames name players by username.
    return render(
        request,
        "lobby/lobby.html",
        {"rooms": rooms_for_lobby(), "viewer": {"username": request.user.get_username()}},
    )
