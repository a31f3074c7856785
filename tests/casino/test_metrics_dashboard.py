"""deploy/grafana/casino.json queries only what casino/metrics.py exports, and shows all of it: the
dashboard and the endpoint cannot drift apart."""

import json
import re
from pathlib import Path

from casino import metrics

ROOT = Path(__file__).resolve().parent.parent.parent
DASHBOARD = ROOT / "deploy" / "grafana" / "casino.json"
# A series name in PromQL: what a query reads from the site (label names and functions aside).
SERIES = re.compile(r"\b(?:casino|process)_[a-z0-9_]+\b")


def load() -> dict:
    return json.loads(DASHBOARD.read_text())


def queries(dashboard: dict) -> list[str]:
    """Every PromQL expression of the dashboard: the panels' and the variables'."""
    found = []
    for panel in dashboard["panels"]:
        found += [target["expr"] for target in panel.get("targets", [])]
    for variable in dashboard["templating"]["list"]:
        query = variable.get("query")
        if isinstance(query, dict):
            found.append(query["query"])
    return found


def test_every_series_the_dashboard_reads_is_exported():
    exported = metrics.sample_names()
    read = {name for query in queries(load()) for name in SERIES.findall(query)}
    assert read, "the dashboard reads nothing"
    assert read <= exported, f"not exported by casino/metrics.py: {sorted(read - exported)}"


def test_every_figure_of_the_site_has_a_panel():
    read = " ".join(queries(load()))
    shown = {family for family in metrics.METRICS if re.search(rf"\b{family}(_\w+)?\b", read)}
    missing = {family for family in metrics.METRICS if family.startswith("casino_")} - shown
    assert not missing, f"no panel shows {sorted(missing)}"


def test_histograms_are_shown_as_quantiles_and_counters_as_rates():
    read = queries(load())
    for family, kind in metrics.METRICS.items():
        uses = [query for query in read if family in query]
        if kind == "histogram" and family.startswith("casino_"):
            for quantile in ("0.5", "0.95", "0.99"):
                assert any(f"histogram_quantile({quantile}," in q for q in uses), (family, quantile)
        if kind == "counter":
            assert all("rate(" in query for query in uses), f"{family} read without a rate"


def test_the_prometheus_source_is_a_variable():
    dashboard = load()
    (variable,) = [v for v in dashboard["templating"]["list"] if v["type"] == "datasource"]
    assert variable["query"] == "prometheus"
    source = {"type": "prometheus", "uid": "${" + variable["name"] + "}"}
    panels = [panel for panel in dashboard["panels"] if panel["type"] != "row"]
    ids = [panel["id"] for panel in dashboard["panels"]]
    assert len(ids) == len(set(ids))
    for panel in panels:
        assert panel["datasource"] == source, panel["title"]
        assert panel["targets"] and all(t["datasource"] == source for t in panel["targets"])
        assert len({t["refId"] for t in panel["targets"]}) == len(panel["targets"])
