"""The admin site: password first, then, for staff who may adjust chips, a TOTP code.

Staff without that permission sign in with the password alone and are never asked for a code.
"""

from django.contrib import admin
from django.contrib.auth.views import redirect_to_login
from django.http import HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.http import url_has_allowed_host_and_scheme, urlencode
from django.views.decorators.cache import never_cache
from django_otp import login as otp_login

from casino.accounts.forms import SecondFactorForm
from casino.accounts.second_factor import (
    second_factor_missing,
    totp_devices_for,
    totp_token_verify,
)
from casino.errors import DomainError


class CasinoAdminSite(admin.AdminSite):
    def has_permission(self, request):
        return super().has_permission(request) and not second_factor_missing(request.user)

    def awaits_second_factor(self, request) -> bool:
        """Signed in as active staff with the password, but the code is still missing."""
        return super().has_permission(request) and second_factor_missing(request.user)

    def get_urls(self):
        return [
            path("second-factor/", never_cache(self.second_factor_view), name="second_factor"),
            *super().get_urls(),
        ]

    def login(self, request, extra_context=None):
        response = super().login(request, extra_context)
        # The password is right (now or earlier in this session); send a chip adjuster on to the code.
        if self.awaits_second_factor(request) and (
            request.method == "GET" or response.status_code == 302
        ):
            target = (
                response["Location"] if response.status_code == 302 else request.GET.get("next", "")
            )
            return self._to_second_factor(target)
        return response

    def second_factor_view(self, request):
        next_url = self._safe_next(request, request.POST.get("next") or request.GET.get("next"))
        if self.has_permission(request):
            return HttpResponseRedirect(next_url)
        if not self.awaits_second_factor(request):
            return redirect_to_login(
                request.get_full_path(), reverse("admin:login", current_app=self.name)
            )
        form = SecondFactorForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            try:
                device = totp_token_verify(user=request.user, token=form.cleaned_data["token"])
            except DomainError as error:
                form.add_error("token", error.message)
            else:
                otp_login(request, device)
                return HttpResponseRedirect(next_url)
        context = {
            **self.each_context(request),
            "title": "Enter your authenticator code",
            "form": form,
            "has_device": totp_devices_for(request.user).exists(),
            "next": next_url,
        }
        request.current_app = self.name
        return TemplateResponse(request, "admin/second_factor.html", context)

    def _to_second_factor(self, target: str):
        url = reverse("admin:second_factor", current_app=self.name)
        return HttpResponseRedirect(f"{url}?{urlencode({'next': target})}" if target else url)

    def _safe_next(self, request, target: str | None) -> str:
        if target and url_has_allowed_host_and_scheme(
            target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
        ):
            return target
        return reverse("admin:index", current_app=self.name)
