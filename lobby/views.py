"""Home page and lobby."""

from django.contrib.auth.decorators import login_required
from django.http import JsonResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET

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


@login_required
@require_GET
def rooms_now(request):
    """The open rooms as the lobby shows them, for a table page's room switcher to stay current
    without a lobby socket of its own."""
    response = JsonResponse({"rooms": rooms_for_lobby()})
    response["Cache-Control"] = "no-store"
    return response
