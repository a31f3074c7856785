"""Pages of the site itself rather than of a feature: the icon browsers ask for at /favicon.ico,
and the page that says how anyone can check a deal (docs/fairness.md).

The error pages are templates/403.html, 404.html and 500.html, which Django renders when DEBUG
is off; they extend base.html, so they look like the rest of the site and pass its CSP.
"""

from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.views.decorators.http import require_safe


@require_safe
def favicon(request):
    """Browsers ask for /favicon.ico on any page that names no icon (the admin's, a file
    download, a JSON answer): send them to the static file, wherever and under whatever name
    the static storage keeps it."""
    response = redirect(static("favicon.ico"))
    response["Cache-Control"] = "public, max-age=86400"
    return response


@require_safe
def fairness(request):
    """How a hand's deal can be checked: open to everyone, signed in or not."""
    return render(request, "fairness.html")
