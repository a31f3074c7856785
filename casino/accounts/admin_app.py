"""django.contrib.admin with the casino's own admin site as `admin.site`, so every `@admin.register`
(ours and django-otp's, axes') lands on the site that asks chip adjusters for a second factor."""

from django.contrib.admin.apps import AdminConfig


class CasinoAdminConfig(AdminConfig):
    default_site = "casino.accounts.admin_site.CasinoAdminSite"
