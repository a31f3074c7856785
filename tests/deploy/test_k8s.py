"""deploy/k8s: every overlay renders with kustomize, every object it renders is valid Kubernetes,
and the objects keep the promises docs/deploy.md ("Kubernetes") makes.

Rendering needs `kubectl` (its built-in kustomize, v5 or newer); validation is offline, against
the schemas that the kubernetes-validate package ships, strict (an unknown field fails) and for
pinned Kubernetes versions (1.33 and 1.37). Without kubectl the tests skip, except on CI
(CI=true), where bin/services installs it and a missing one is a failure.
"""

import json
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import kubernetes_validate
import pytest
import yaml

from casino.settings import PUBLISHED_SECRET_KEYS
from tests.conftest import service_missing

ROOT = Path(__file__).resolve().parents[2]
K8S = ROOT / "deploy" / "k8s"
OVERLAYS = sorted(
    p.name for p in (K8S / "overlays").iterdir() if (p / "kustomization.yaml").is_file()
)
# The oldest Kubernetes the manifests are written for (the HPA's ContainerResource metric and the
# spread's matchLabelKeys are on by default there), and the newest the package knows, which
# would catch an API that was removed since.
KUBERNETES_VERSION = "1.33.0"
KUBERNETES_VERSIONS = (KUBERNETES_VERSION, "1.37.0")
# Kinds from CRDs (Prometheus Operator, Gateway API): no schema in kubernetes-validate, so only
# the checks of our own below look at them.
CUSTOM_KINDS = {
    ("monitoring.coreos.com/v1", "ServiceMonitor"),
    ("gateway.networking.k8s.io/v1", "HTTPRoute"),
}
# A render of the base with the components no overlay takes, so they are validated too.
ALTERNATIVES = {"gateway-api": ["gateway-api", "pgbouncer", "servicemonitor"]}
PLACEHOLDER = "CHANGE_ME"
WEB_LABELS = {"app.kubernetes.io/name": "casino", "app.kubernetes.io/component": "web"}

Obj = dict[str, Any]


def kubectl() -> str:
    path = shutil.which("kubectl")
    if path is None:
        service_missing(
            "needs kubectl (with kustomize v5) to render deploy/k8s: bin/services installs it "
            "(docs/deploy.md, Kubernetes)"
        )
        raise AssertionError("unreachable")
    version = subprocess.run(
        [path, "version", "--client", "--output=json"], capture_output=True, text=True, timeout=30
    )
    kustomize = json.loads(version.stdout or "{}").get("kustomizeVersion", "")
    major = re.match(r"v(\d+)\.", kustomize)
    if major is None or int(major.group(1)) < 5:
        service_missing(
            f"kubectl at {path} has kustomize {kustomize or 'unknown'}; deploy/k8s needs v5 "
            "(components, labels): bin/services installs a newer kubectl"
        )
    return path


def render(directory: Path) -> list[Obj]:
    result = subprocess.run(
        [kubectl(), "kustomize", str(directory)], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, f"kubectl kustomize {directory} failed:\n{result.stderr}"
    return [doc for doc in yaml.safe_load_all(result.stdout) if doc]


@pytest.fixture(scope="module")
def renders(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[Obj]]:
    out = {name: render(K8S / "overlays" / name) for name in OVERLAYS}
    for name, components in ALTERNATIVES.items():
        directory = tmp_path_factory.mktemp(name)
        # kustomize takes relative paths only.
        relative = Path(os.path.relpath(K8S, directory))
        (directory / "kustomization.yaml").write_text(
            yaml.safe_dump(
                {
                    "apiVersion": "kustomize.config.k8s.io/v1beta1",
                    "kind": "Kustomization",
                    "resources": [str(relative / "base")],
                    "components": [str(relative / "components" / c) for c in components],
                }
            )
        )
        out[f"base+{name}"] = render(directory)
    return out


@pytest.fixture(scope="module")
def overlays(renders: dict[str, list[Obj]]) -> dict[str, list[Obj]]:
    return {name: objects for name, objects in renders.items() if name in OVERLAYS}


def generated(name: str, actual: str) -> bool:
    """`actual` is `name` or, for a generated ConfigMap, `name` with kustomize's content hash."""
    return actual == name or re.fullmatch(rf"{re.escape(name)}-[a-z0-9]{{10}}", actual) is not None


def named(objects: list[Obj], kind: str, name: str) -> Obj:
    found = [o for o in objects if o["kind"] == kind and generated(name, o["metadata"]["name"])]
    assert len(found) == 1, f"expected one {kind}/{name}, found {len(found)}"
    return found[0]


def of_kind(objects: list[Obj], kind: str) -> list[Obj]:
    return [o for o in objects if o["kind"] == kind]


def pod_spec(obj: Obj) -> Obj:
    spec: Obj = obj["spec"]["template"]["spec"]
    return spec


def containers(obj: Obj, init: bool = True) -> list[Obj]:
    spec = pod_spec(obj)
    return list(spec["containers"]) + (list(spec.get("initContainers", [])) if init else [])


def container(obj: Obj, name: str) -> Obj:
    found = [c for c in containers(obj) if c["name"] == name]
    assert len(found) == 1, f"{obj['metadata']['name']} has no container {name}"
    return found[0]


def selects(selector: Obj, labels: dict[str, str]) -> bool:
    return all(labels.get(k) == v for k, v in selector["matchLabels"].items())


# --- rendering and schemas --------------------------------------------------------------------


def test_there_are_overlays_for_production_and_a_small_site() -> None:
    assert {"production", "small"} <= set(OVERLAYS)


def test_every_rendered_object_is_valid_kubernetes(renders: dict[str, list[Obj]]) -> None:
    errors = []
    for name, objects in renders.items():
        assert objects, f"{name} renders nothing"
        for obj in objects:
            where = f"{name}: {obj['kind']}/{obj['metadata']['name']}"
            if (obj["apiVersion"], obj["kind"]) in CUSTOM_KINDS:
                continue
            for version in KUBERNETES_VERSIONS:
                try:
                    kubernetes_validate.validate(obj, version, strict=True)
                except kubernetes_validate.ValidationError as error:
                    path = ".".join(str(p) for p in error.path)
                    errors.append(f"{where} ({version}): {path}: {error.message}")
                except kubernetes_validate.SchemaNotFoundError as error:
                    errors.append(f"{where}: {error.message} (a CRD? add it to CUSTOM_KINDS)")
    assert not errors, "\n".join(errors)


def test_the_strict_validation_catches_a_misspelt_field(overlays: dict[str, list[Obj]]) -> None:
    """The check above would pass anything if strictness were lost: prove it is not."""
    web = json.loads(json.dumps(named(overlays["production"], "Deployment", "web")))
    web["spec"]["template"]["spec"]["containers"][0]["livenesProbe"] = {}
    with pytest.raises(kubernetes_validate.ValidationError, match="livenesProbe"):
        kubernetes_validate.validate(web, KUBERNETES_VERSION, strict=True)


def test_the_custom_resources_name_what_they_serve(renders: dict[str, list[Obj]]) -> None:
    production = renders["production"]
    monitor = named(production, "ServiceMonitor", "web")
    assert selects(
        monitor["spec"]["selector"], named(production, "Service", "web")["metadata"]["labels"]
    )
    assert [(e["port"], e["path"]) for e in monitor["spec"]["endpoints"]] == [("http", "/metrics")]
    web = named(production, "Deployment", "web")
    # One scraper, not two: the annotation is off where the ServiceMonitor is on.
    assert web["spec"]["template"]["metadata"]["annotations"]["prometheus.io/scrape"] == "false"
    route = named(renders["base+gateway-api"], "HTTPRoute", "casino")
    services = {o["metadata"]["name"] for o in of_kind(renders["base+gateway-api"], "Service")}
    for rule in route["spec"]["rules"]:
        for backend in rule["backendRefs"]:
            assert backend["name"] in services


# --- the web servers --------------------------------------------------------------------------


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_web_runs_daphne_with_probes_on_the_health_paths(
    overlays: dict[str, list[Obj]], overlay: str
) -> None:
    web = named(overlays[overlay], "Deployment", "web")
    daphne = container(web, "web")
    assert daphne["command"][0] == "/app/bin/daphne-serve"
    assert "--port=8000" in daphne["command"] and "--proxy-headers" in daphne["command"]
    assert daphne["ports"] == [{"name": "http", "containerPort": 8000}]
    probes = {
        kind: (daphne[kind]["httpGet"]["path"], daphne[kind]["httpGet"]["port"])
        for kind in ("startupProbe", "livenessProbe", "readinessProbe")
    }
    assert probes == {
        "startupProbe": ("/livez", "http"),
        "livenessProbe": ("/livez", "http"),
        "readinessProbe": ("/readyz", "http"),
    }
    # The probes' Host must be one Django accepts, and https so no redirect answers instead.
    config = named(overlays[overlay], "ConfigMap", "casino-config")["data"]
    allowed = config["DJANGO_ALLOWED_HOSTS"].split(",")
    for kind in probes:
        headers = {h["name"]: h["value"] for h in daphne[kind]["httpGet"]["httpHeaders"]}
        assert headers["Host"] in allowed and headers["X-Forwarded-Proto"] == "https"
    static = container(web, "static")
    assert static["readinessProbe"]["httpGet"]["path"] == "/nginx-health"


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_web_lets_sockets_move_before_daphne_stops(
    overlays: dict[str, list[Obj]], overlay: str
) -> None:
    web = named(overlays[overlay], "Deployment", "web")
    sleep = container(web, "web")["lifecycle"]["preStop"]["exec"]["command"]
    assert sleep[0] == "sleep" and int(sleep[1]) >= 5
    # Daphne still needs time after the sleep to close its sockets and finish its requests.
    assert pod_spec(web)["terminationGracePeriodSeconds"] >= int(sleep[1]) + 20
    strategy = web["spec"]["strategy"]["rollingUpdate"]
    assert strategy["maxUnavailable"] == 0 and strategy["maxSurge"] >= 1


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_web_has_an_autoscaler_and_a_disruption_budget(
    overlays: dict[str, list[Obj]], overlay: str
) -> None:
    objects = overlays[overlay]
    web = named(objects, "Deployment", "web")
    labels = web["spec"]["template"]["metadata"]["labels"]
    assert "replicas" not in web["spec"], "the HPA owns the count"
    hpa = named(objects, "HorizontalPodAutoscaler", "web")
    assert hpa["spec"]["scaleTargetRef"] == {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "name": "web",
    }
    assert 1 <= hpa["spec"]["minReplicas"] < hpa["spec"]["maxReplicas"]
    [cpu] = hpa["spec"]["metrics"]
    assert (
        cpu["containerResource"]["name"] == "cpu" and cpu["containerResource"]["container"] == "web"
    )
    # Scaling down moves sockets: slowly.
    assert hpa["spec"]["behavior"]["scaleDown"]["stabilizationWindowSeconds"] >= 300
    pdbs = [
        p for p in of_kind(objects, "PodDisruptionBudget") if selects(p["spec"]["selector"], labels)
    ]
    assert len(pdbs) == 1 and pdbs[0]["spec"]["maxUnavailable"] == 1
    service = named(objects, "Service", "web")
    assert all(service["spec"]["selector"].get(k) == v for k, v in WEB_LABELS.items())
    assert {p["name"]: p["port"] for p in service["spec"]["ports"]} == {
        "http": 8000,
        "static": 8080,
    }


def test_production_spreads_web_over_zones_and_nodes(overlays: dict[str, list[Obj]]) -> None:
    web = named(overlays["production"], "Deployment", "web")
    spread = {c["topologyKey"]: c for c in pod_spec(web)["topologySpreadConstraints"]}
    assert set(spread) == {"topology.kubernetes.io/zone", "kubernetes.io/hostname"}
    assert spread["kubernetes.io/hostname"]["whenUnsatisfiable"] == "DoNotSchedule"
    for constraint in spread.values():
        assert selects(constraint["labelSelector"], web["spec"]["template"]["metadata"]["labels"])
        # Untolerated nodes (a tainted control plane) must not count as empty domains.
        assert constraint["nodeTaintsPolicy"] == "Honor"


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_web_pods_share_the_collected_static_files(
    overlays: dict[str, list[Obj]], overlay: str
) -> None:
    web = named(overlays[overlay], "Deployment", "web")
    collect = container(web, "collectstatic")
    assert collect["command"][-2:] == ["collectstatic", "--no-input"]
    mounts = {c["name"]: {m["name"]: m for m in c["volumeMounts"]} for c in containers(web)}
    assert mounts["collectstatic"]["staticfiles"]["mountPath"] == "/app/staticfiles"
    # Daphne reads the manifest (hashed names) from the same directory, nginx serves it.
    assert mounts["web"]["staticfiles"]["mountPath"] == "/app/staticfiles"
    assert mounts["web"]["staticfiles"]["readOnly"] is True
    assert mounts["static"]["staticfiles"]["mountPath"] == "/srv/static"


# --- workers, beat, migrations ----------------------------------------------------------------


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_every_deployment_is_probed(overlays: dict[str, list[Obj]], overlay: str) -> None:
    for deployment in of_kind(overlays[overlay], "Deployment"):
        for c in containers(deployment, init=False):
            assert "livenessProbe" in c, f"{deployment['metadata']['name']}/{c['name']}"
    worker = named(overlays[overlay], "Deployment", "worker")
    ping = " ".join(container(worker, "worker")["livenessProbe"]["exec"]["command"])
    assert "inspect ping" in ping and "celery@$HOSTNAME" in ping
    beat = named(overlays[overlay], "Deployment", "beat")
    check = container(beat, "beat")["livenessProbe"]["exec"]["command"]
    assert check == ["python", "deploy/healthcheck.py", "process", "celery", "beat"]


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_two_beats_share_the_redbeat_lock(overlays: dict[str, list[Obj]], overlay: str) -> None:
    objects = overlays[overlay]
    beat = named(objects, "Deployment", "beat")
    assert beat["spec"]["replicas"] == 2
    assert container(beat, "beat")["command"][:3] == ["celery", "--app=casino", "beat"]
    # No local schedule file: the schedule and the lock are in Redis.
    assert not any("--schedule" in arg for arg in container(beat, "beat")["command"])
    strategy = beat["spec"]["strategy"]["rollingUpdate"]
    assert strategy == {"maxSurge": 0, "maxUnavailable": 1}
    labels = beat["spec"]["template"]["metadata"]["labels"]
    [pdb] = [
        p for p in of_kind(objects, "PodDisruptionBudget") if selects(p["spec"]["selector"], labels)
    ]
    assert pdb["spec"]["minAvailable"] == 1


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_migrations_run_once_against_the_primary(
    overlays: dict[str, list[Obj]], overlay: str
) -> None:
    job = named(overlays[overlay], "Job", "migrate")
    [migrate] = containers(job)
    script = " ".join(migrate["command"])
    assert "manage.py migrate --no-input && python manage.py sit_and_go_presets" in script
    env = {e["name"]: e for e in migrate["env"]}
    assert env["DATABASE_URL"]["valueFrom"]["secretKeyRef"]["key"] == "DATABASE_DIRECT_URL"
    assert env["DATABASE_POOL_MODE"]["value"] == "session"
    # Every long-running pod waits for it.
    for deployment in of_kind(overlays[overlay], "Deployment"):
        if deployment["metadata"]["labels"].get("app.kubernetes.io/name") != "casino":
            continue
        wait = container(deployment, "wait-for-migrations")
        assert "manage.py migrate --check" in " ".join(wait["command"])


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_the_first_apply_step_has_all_the_job_needs(
    overlays: dict[str, list[Obj]], overlay: str
) -> None:
    """docs/deploy.md applies `-l 'app.kubernetes.io/component in (config,migrate)'` first, and
    waits for the Job: what the Job reads must come with it (or be made outside git)."""
    objects = overlays[overlay]
    first = [
        o
        for o in objects
        if o["metadata"].get("labels", {}).get("app.kubernetes.io/component")
        in {"config", "migrate"}
    ]
    kinds = {(o["kind"], o["metadata"]["name"]) for o in first}
    assert ("Job", "migrate") in kinds
    assert named(first, "ConfigMap", "casino-config")
    assert {kind for kind, _ in kinds} <= {"Job", "ConfigMap", "Secret"}
    external = {"casino-secrets"} if overlay == "production" else set()
    job = named(objects, "Job", "migrate")
    for c in containers(job):
        for source in c["envFrom"]:
            ref = source.get("configMapRef") or source.get("secretRef")
            assert ref["name"] in {name for _, name in kinds} | external


def test_the_pgbouncer_component_carries_what_the_site_sends(renders: dict[str, list[Obj]]) -> None:
    """Transaction pooling with the site's lock_timeout (the `options` startup parameter) and
    its prepared statements, which the site then keeps using."""
    production = renders["production"]
    ini = named(production, "ConfigMap", "pgbouncer-config")["data"]["pgbouncer.ini"]
    pooler = {
        key.strip(): value.strip()
        for key, _, value in (line.partition("=") for line in ini.splitlines())
        if value and not key.lstrip().startswith((";", "#", "["))
    }
    assert pooler["pool_mode"] == "transaction"
    assert "lock_timeout" in pooler["track_extra_parameters"]
    # Tracked is not set: each server connection sets the site's lock_timeout itself.
    assert "connect_query='SET lock_timeout = 3000'" in ini.split("[pgbouncer]")[0]
    # Unset, or the list must hold `options`: a list without it lets an unauthenticated client
    # spin PgBouncer 1.20-1.26.0 forever (CVE-2026-107349); the version is at least 1.26.1.
    ignored = pooler.get("ignore_startup_parameters")
    assert ignored is None or "options" in ignored
    image = named(production, "Deployment", "pgbouncer")["spec"]["template"]["spec"]["containers"][
        0
    ]["image"]
    assert tuple(int(n) for n in image.rsplit(":", 1)[1].split(".")) >= (1, 26, 1)
    assert int(pooler["max_prepared_statements"]) > 0
    config = named(production, "ConfigMap", "casino-config")["data"]
    assert config["DATABASE_POOL_MODE"] == "transaction"
    assert config["CASINO_PREPARED_STATEMENTS"] == "true"
    # Without the component (a small site, straight to PostgreSQL): the default session mode.
    small = named(renders["small"], "ConfigMap", "casino-config")["data"]
    assert small["DATABASE_POOL_MODE"] == "session" and "CASINO_PREPARED_STATEMENTS" not in small
    pool = named(production, "Service", "pgbouncer")["spec"]["ports"][0]["port"]
    example = (K8S / "overlays" / "production" / "secret.example.yaml").read_text()
    assert f"@pgbouncer:{pool}/" in example


# --- the way in -------------------------------------------------------------------------------


def route_for(path: str, prefixes: dict[str, Any]) -> Any:
    """What a Prefix-matching router picks for `path`: the longest prefix that matches it."""
    matching = [
        p for p in prefixes if path == p.rstrip("/") or path.startswith(p.rstrip("/") + "/")
    ]
    return prefixes[max(matching, key=len)]


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_the_ingress_keeps_sockets_open_and_metrics_in(
    overlays: dict[str, list[Obj]], overlay: str
) -> None:
    ingresses = of_kind(overlays[overlay], "Ingress")
    backends: dict[str, tuple[str, dict[str, str]]] = {}
    for ingress in ingresses:
        for rule in ingress["spec"]["rules"]:
            for path in rule["http"]["paths"]:
                assert path["pathType"] == "Prefix"
                port = path["backend"]["service"]["port"]["name"]
                backends[path["path"]] = (port, ingress["metadata"].get("annotations", {}))
    ws_port, ws_annotations = route_for("/ws/table/1/", backends)
    assert ws_port == "http"
    assert ws_annotations["nginx.ingress.kubernetes.io/proxy-read-timeout"] == "3600"
    assert ws_annotations["nginx.ingress.kubernetes.io/proxy-send-timeout"] == "3600"
    assert route_for("/lobby/", backends)[0] == "http"
    assert route_for("/static/css/site.css", backends)[0] == "static"
    # /metrics (and anything under it) reaches the static sidecar, which answers 404.
    assert route_for("/metrics", backends)[0] == "static"
    assert route_for("/metrics/x", backends)[0] == "static"
    nginx_conf = (K8S / "base" / "static-nginx.conf").read_text()
    assert re.search(r"location / \{\s*return 404;", nginx_conf)


def test_the_gateway_route_keeps_sockets_open_and_metrics_in(renders: dict[str, list[Obj]]) -> None:
    route = named(renders["base+gateway-api"], "HTTPRoute", "casino")
    rules: dict[str, Obj] = {}
    for rule in route["spec"]["rules"]:
        for match in rule["matches"]:
            assert match["path"]["type"] == "PathPrefix"
            rules[match["path"]["value"]] = rule
    ws = route_for("/ws/table/1/", rules)
    assert ws["backendRefs"][0]["port"] == 8000 and ws["timeouts"]["request"] == "0s"
    assert route_for("/metrics", rules)["backendRefs"][0]["port"] == 8080
    assert route_for("/static/x.css", rules)["backendRefs"][0]["port"] == 8080


# --- images, secrets, hardening ---------------------------------------------------------------


def test_production_images_are_pinned(overlays: dict[str, list[Obj]]) -> None:
    for obj in overlays["production"]:
        if "template" not in obj.get("spec", {}):
            continue
        for c in containers(obj):
            image = c["image"]
            name, _, tag = image.rpartition(":") if "@" not in image else (image, "", "digest")
            assert name and "/" not in tag, f"{image} has no tag"
            assert tag not in {"latest", "local", ""}, (
                f"{obj['metadata']['name']}/{c['name']}: {image}"
            )


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_no_image_is_latest(overlays: dict[str, list[Obj]], overlay: str) -> None:
    for obj in overlays[overlay]:
        if "template" in obj.get("spec", {}):
            for c in containers(obj):
                assert ":" in c["image"].rsplit("/", 1)[-1] and not c["image"].endswith(":latest")


def secret_values() -> list[tuple[str, str, str]]:
    """(where, key, value) of every Secret in the overlays' sources and the examples."""
    out = []
    for path in sorted(K8S.rglob("*.yaml")):
        for doc in yaml.safe_load_all(path.read_text()):
            if doc and doc.get("kind") == "Secret":
                for key, value in {**doc.get("stringData", {}), **doc.get("data", {})}.items():
                    out.append((str(path.relative_to(ROOT)), key, str(value)))
    return out


def test_secrets_in_git_are_placeholders() -> None:
    values = secret_values()
    assert {w for w, _, _ in values} >= {
        "deploy/k8s/overlays/production/secret.example.yaml",
        "deploy/k8s/overlays/small/secret.yaml",
    }
    for where, key, value in values:
        if key == "DJANGO_SECRET_KEY":
            # One Django refuses to start with.
            assert value in PUBLISHED_SECRET_KEYS, f"{where}: {key}"
            continue
        assert PLACEHOLDER in value, f"{where}: {key} has no {PLACEHOLDER}"
        # Every password in a URL is the placeholder, and nothing else looks like a key.
        for password in re.findall(r"://[^:/@;,]*:([^@]*)@", value):
            assert password == PLACEHOLDER, f"{where}: {key}"
        for token in re.findall(r"[A-Za-z0-9+/=_-]{20,}", value.replace(PLACEHOLDER, " ")):
            assert not (
                re.search(r"\d", token)
                and re.search(r"[a-z]", token)
                and re.search(r"[A-Z]", token)
            ), f"{where}: {key} holds {token[:6]}..., which looks like a real secret"


def test_the_production_secret_example_has_every_key_the_pods_read(
    overlays: dict[str, list[Obj]],
) -> None:
    example = yaml.safe_load((K8S / "overlays" / "production" / "secret.example.yaml").read_text())
    kubernetes_validate.validate(example, KUBERNETES_VERSION, strict=True)
    keys = set(example["stringData"])
    assert not of_kind(overlays["production"], "Secret"), "production Secrets are made outside git"
    for obj in overlays["production"]:
        if "template" not in obj.get("spec", {}):
            continue
        for c in containers(obj):
            for env in c.get("env", []):
                ref = env.get("valueFrom", {}).get("secretKeyRef")
                if ref and ref["name"] == "casino-secrets":
                    assert ref["key"] in keys
    for name in (
        "DJANGO_SECRET_KEY",
        "DATABASE_URL",
        "DATABASE_REPLICA_URL",
        "REDIS_URL",
        "CHANNEL_LAYER_URLS",
        "CELERY_BROKER_URL",
        "CELERY_BEAT_REDIS_URL",
        "CASINO_METRICS_TOKEN",
    ):
        assert name in keys
    assert len(example["stringData"]["CHANNEL_LAYER_URLS"].split(",")) > 1
    assert example["stringData"]["CELERY_BROKER_URL"].startswith("sentinel://")
    config = named(overlays["production"], "ConfigMap", "casino-config")["data"]
    assert config["DATABASE_POOL_MODE"] == "transaction"


# Names of the shared environment contract whose readers land with other branches (the beat's
# Redis, the metrics token): empty this once they are all merged.
READ_ELSEWHERE = {
    "CELERY_BEAT_REDIS_URL",
    "CASINO_METRICS_TOKEN",
}


def test_every_variable_given_is_one_the_site_reads() -> None:
    """A misspelt name in config.env or a Secret would be ignored without a word."""
    names = {
        line.partition("=")[0]
        for line in (K8S / "base" / "config.env").read_text().splitlines()
        if line and not line.startswith("#")
    }
    names |= {key for _, key, _ in secret_values()}
    code = "\n".join(
        path.read_text()
        for folder in ("casino", "holdem")
        for path in (ROOT / folder).rglob("*.py")
    )
    unread = {name for name in names if f'"{name}"' not in code} - READ_ELSEWHERE
    assert not unread, f"set in deploy/k8s but read nowhere: {sorted(unread)}"


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_pods_run_hardened(overlays: dict[str, list[Obj]], overlay: str) -> None:
    for obj in overlays[overlay]:
        if "template" not in obj.get("spec", {}):
            continue
        spec = pod_spec(obj)
        where = obj["metadata"]["name"]
        assert spec["securityContext"]["runAsNonRoot"] is True, where
        assert spec["automountServiceAccountToken"] is False, where
        for c in containers(obj):
            context = c["securityContext"]
            assert context["allowPrivilegeEscalation"] is False, f"{where}/{c['name']}"
            assert context["readOnlyRootFilesystem"] is True, f"{where}/{c['name']}"
            assert context["capabilities"]["drop"] == ["ALL"], f"{where}/{c['name']}"
            assert c["resources"]["requests"]["memory"] and c["resources"]["limits"]["memory"]


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_every_reference_resolves(overlays: dict[str, list[Obj]], overlay: str) -> None:
    """ConfigMaps (names with kustomize's hash) and Secrets the pods name exist in the render, or
    are the ones made outside git."""
    objects = overlays[overlay]
    # The settings carry a hash of their content in their name: a change rolls the pods.
    config = named(objects, "ConfigMap", "casino-config")["metadata"]["name"]
    assert config != "casino-config"
    external = {"casino-secrets", "pgbouncer-userlist"} if overlay == "production" else set()
    present = {o["metadata"]["name"] for o in objects if o["kind"] in {"ConfigMap", "Secret"}}
    for obj in objects:
        if "template" not in obj.get("spec", {}):
            continue
        names = [
            v["configMap"]["name"] for v in pod_spec(obj).get("volumes", []) if "configMap" in v
        ]
        names += [
            v["secret"]["secretName"] for v in pod_spec(obj).get("volumes", []) if "secret" in v
        ]
        for c in containers(obj):
            for source in c.get("envFrom", []):
                names.append((source.get("configMapRef") or source.get("secretRef"))["name"])
        for name in names:
            assert name in present or name in external, f"{obj['metadata']['name']} names {name}"
