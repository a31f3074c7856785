"""The page a locked-out sign-in gets (django-axes's AXES_LOCKOUT_CALLABLE): what happened and
for how long, in the admin's look on the admin and the site's look elsewhere, with status 429."""

import math

from django.conf import settings
from django.contrib import admin
from django.shortcuts import render
from django.urls import reverse


def lockout_page(request, original_response=None, credentials=None):
    # axes passes (request, response, credentials) on sync requests and (request, credentials)
    # on async ones; neither extra argument is needed here.
    seconds = int(settings.AXES_COOLOFF_TIME.total_seconds())
    context = {
        "minutes": math.ceil(seconds / 60),
        "username": request.POST.get("username", "")[:150],
    }
    if request.path.startswith(reverse("admin:index")):
        template = "admin/locked_out.html"
        context.update(admin.site.each_context(request), title="Sign-in paused")
    else:
        template = "registration/locked_out.html"
    response = render(request, template, context, status=429)
    # Every try while locked out restarts the cool-off (axes' default), so it ends this far from now.
    response["Retry-After"] = str(seconds)
    return response
