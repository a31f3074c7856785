"""What every page's header shows a signed-in user: their wallet (static/js/user-socket.js keeps
it live over ws/me/)."""

from django.utils.functional import SimpleLazyObject

from casino.accounts.selectors import wallet_now


def header_wallet(request):
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    # Lazy: a page that does not draw the header (a JSON answer, a redirect) reads nothing.
    return {"header_wallet": SimpleLazyObject(lambda: wallet_now(user=user))}
