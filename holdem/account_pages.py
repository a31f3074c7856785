"""The player's own account pages (RULES.md 10): the monthly statement, as a page and as a CSV
file, and closing the account. They read the tables' records too, hence here, not in accounts."""

import csv

from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods

from casino.accounts.statement import (
    Month,
    month_of,
    month_parse,
    statement_month_check,
    statement_months,
)
from casino.errors import DomainError
from holdem.selectors.statement import account_statement
from holdem.services.account_close import account_close

# What a refused month is answered with: a month that cannot be written is a bad request; one
# the account did not live through has no statement.
MONTH_ERROR_STATUS = {"bad_month": 400, "future_month": 404, "month_before_account": 404}


def _statement_response(request, month: Month | None, *, error: DomainError | None = None):
    months = statement_months(user=request.user)
    context = {
        "months": months,
        "month": month,
        "error": error,
        "time_zone": timezone.get_current_timezone_name(),
    }
    if month is not None and error is None:
        context["statement"] = account_statement(user=request.user, month=month)
    status = MONTH_ERROR_STATUS.get(error.code, 400) if error else 200
    return render(request, "accounts/statement.html", context, status=status)


def _month_asked(request, text: str) -> Month:
    month = month_parse(text)
    statement_month_check(user=request.user, month=month)
    return month


@login_required
@require_GET
def statement(request):
    """This month's statement, or the month chosen in the picker (`?month=YYYY-MM`)."""
    chosen = request.GET.get("month")
    if chosen is None:
        return _statement_response(request, month_of(timezone.now()))
    try:
        month = _month_asked(request, chosen)
    except DomainError as error:
        return _statement_response(request, None, error=error)
    return redirect("statement_month", month=str(month))


@login_required
@require_GET
def statement_month(request, month: str):
    try:
        asked = _month_asked(request, month)
    except DomainError as error:
        return _statement_response(request, None, error=error)
    return _statement_response(request, asked)


@login_required
@require_GET
def statement_csv(request, month: str):
    """The statement's figures, row for row as the page shows them."""
    try:
        asked = _month_asked(request, month)
    except DomainError as error:
        return HttpResponse(
            error.message,
            status=MONTH_ERROR_STATUS.get(error.code, 400),
            content_type="text/plain; charset=utf-8",
        )
    figures = account_statement(user=request.user, month=asked)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="statement-{asked}.csv"'
    writer = csv.writer(response)
    writer.writerow(["month", "item", "quantity", "chips"])
    for row in figures.rows:
        writer.writerow(
            [
                str(asked),
                row.item,
                "" if row.quantity is None else row.quantity,
                "" if row.chips is None else row.chips,
            ]
        )
    return response


@login_required
@require_http_methods(["GET", "POST"])
def close_account(request):
    """Asks for the password and a confirmation; refuses while the player is still playing."""
    error = None
    if request.method == "POST":
        try:
            account_close(
                user=request.user,
                password=request.POST.get("password", ""),
                confirmed=request.POST.get("confirm") == "yes",
            )
        except DomainError as refused:
            error = refused
        else:
            logout(request)
            messages.success(
                request, "Your account is closed. Its name is free again; thank you for playing."
            )
            return redirect("home")
    return render(request, "accounts/close.html", {"error": error})
