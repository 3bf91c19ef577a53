"""What deploy/ ships for monitoring names only what the bot exports: every metric in the Grafana
dashboard's queries and in the Prometheus alert rules is one of /metrics' (the bot's own, and
prometheus-client's process, platform and garbage-collector collectors)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from prometheus_client.parser import text_string_to_metric_families

from bot.metrics import Metrics, release

DEPLOY = Path(__file__).resolve().parents[1] / "deploy"
DASHBOARD = DEPLOY / "grafana" / "dashboards" / "nardy.json"
RULES = DEPLOY / "prometheus" / "alerts.yml"

PROMQL_WORDS = frozenset(
    {
        "sum", "max", "min", "avg", "count", "by", "without", "on", "rate", "increase",
        "histogram_quantile", "and", "or", "unless",
        # label names
        "le", "job", "instance", "kind", "outcome", "result", "method", "generation", "version",
    }
)  # fmt: skip
"""Words of a query that are not metrics: functions, keywords, label names."""
SUFFIXES = {"counter": ("_total",), "histogram": ("_bucket", "_sum", "_count"), "info": ("_info",)}


def exported() -> set[str]:
    """Every series name /metrics can show (a labelled metric before its first use too)."""
    names = {"up"}  # Prometheus's own, for each target it scrapes
    for family in Metrics().registry.collect():
        names |= {sample.name for sample in family.samples}
        names |= {family.name + suffix for suffix in SUFFIXES.get(family.type, ("",))}
    return names


def queries() -> list[str]:
    dashboard = json.loads(DASHBOARD.read_text())
    found = [target["expr"] for panel in dashboard["panels"] for target in panel["targets"]]
    rules = re.findall(r"^\s*expr:\s*(.+)$", RULES.read_text(), re.MULTILINE)
    assert len(rules) == RULES.read_text().count("- alert:")  # one expression each, one line
    return found + rules


def metrics_named(query: str) -> set[str]:
    """The identifiers of a PromQL query that are not functions, keywords or label names."""
    bare = re.sub(r"\{[^}]*\}|\[[^\]]*\]|\"[^\"]*\"", " ", query)  # matchers, ranges, strings
    words = set(re.findall(r"(?<![\w.])[A-Za-z_:][\w:]*", bare))
    return words - PROMQL_WORDS


def test_every_metric_the_dashboard_and_the_alerts_query_is_exported() -> None:
    known = exported()
    asked = [(query, name) for query in queries() for name in metrics_named(query)]
    assert len({name for _, name in asked}) >= 15
    missing = [(name, query) for query, name in asked if name not in known]
    assert missing == []


def test_metrics_carry_the_process_platform_and_collector_figures_and_the_release() -> None:
    text = Metrics().render().decode()
    samples = {
        sample.name: sample
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }
    assert samples["process_resident_memory_bytes"].value > 10e6
    assert samples["process_open_fds"].value > 0
    assert "python_gc_collections_total" in samples and "python_info" in samples
    assert samples["nardy_build_info"].labels == {"version": release()}
    assert release() != "unknown"  # installed (pip install -e), so its metadata is there
