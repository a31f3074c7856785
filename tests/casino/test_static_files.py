"""Static files for nginx's year-long cache: collectstatic names every file after its content and
the ES modules import each other by those names; where Daphne serves /static/ itself (DEBUG,
embedded mode, CASINO_SERVE_STATIC) files keep their source names and need no collectstatic."""

import json
import logging
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from casino.storage import HashedStaticFilesStorage

ROOT = Path(__file__).resolve().parents[2]
SOURCE = ROOT / "static"
HASHED_NAME = re.compile(r"^(?P<stem>[\w.-]+)\.[0-9a-f]{12}(?P<suffix>\.\w+)$")
# `import ... from "./x.js";` and `export ... from "./x.js";`, the forms static/js uses.
MODULE_IMPORT = re.compile(r"""^(?:import|export)\b[^;]*?\sfrom\s*"(\./[^"]+)";""", re.M | re.S)

# Runs collectstatic for each [STATICFILES_DIRS entry, STATIC_ROOT, finders] given as JSON in
# argv[1] and prints what `{% static %}` links for two files, with the storage in use.
COLLECT = """
import json, sys
import django
django.setup()
from django.conf import settings
from django.core.management import call_command
from django.templatetags.static import static
from django.test.utils import override_settings
runs = []
for source, root, finders in json.loads(sys.argv[1]):
    with override_settings(STATICFILES_DIRS=[source], STATIC_ROOT=root, STATICFILES_FINDERS=finders):
        call_command("collectstatic", interactive=False, verbosity=0)
        runs.append({"table": static("js/table.js"), "css": static("css/site.css")})
print(json.dumps({"backend": settings.STORAGES["staticfiles"]["BACKEND"], "runs": runs}))
"""

PRINT_STORAGE = (
    "import json, django; django.setup(); from django.conf import settings; "
    "from django.templatetags.static import static; "
    "print(json.dumps([settings.STORAGES['staticfiles']['BACKEND'], static('js/table.js')]))"
)


def site_env(**settings_env) -> dict:
    env = {
        k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "CASINO_", "REDIS_"))
    }
    env.update(
        DJANGO_SETTINGS_MODULE="casino.settings",
        DJANGO_SECRET_KEY="s" * 20 + "-a-long-random-secret-for-the-static-files-test-4b1d",
        DJANGO_ALLOWED_HOSTS="poker.example.com",
        DJANGO_LOG_LEVEL="WARNING",
        **settings_env,
    )
    return env


def run_python(env, *args) -> str:
    done = subprocess.run(
        [sys.executable, "-c", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout.strip().splitlines()[-1]


@pytest.fixture(scope="module")
def collected(tmp_path_factory):
    """collectstatic as the compose `migrate` service runs it (DEBUG off, Redis set: nginx serves
    /static/), twice: from static/ as it is, and from a copy in which only cards.js changed."""
    work = tmp_path_factory.mktemp("static")
    changed = work / "changed-source"
    shutil.copytree(SOURCE, changed)
    with (changed / "js/cards.js").open("a") as cards:
        cards.write("// one more line: a new version of cards.js\n")
    all_apps = [
        "django.contrib.staticfiles.finders.FileSystemFinder",
        "django.contrib.staticfiles.finders.AppDirectoriesFinder",  # the admin's files too
    ]
    runs = [
        (str(SOURCE), str(work / "root"), all_apps),
        (str(changed), str(work / "root-changed"), all_apps[:1]),  # static/ alone is enough here
    ]
    # Redis is never contacted: collectstatic opens no connection.
    env = site_env(DJANGO_DEBUG="false", REDIS_URL="redis://127.0.0.1:6379/15")
    printed = json.loads(run_python(env, COLLECT, json.dumps(runs)))
    manifests = [json.loads((Path(root) / "staticfiles.json").read_text()) for _, root, _ in runs]
    return {
        "root": work / "root",
        "backend": printed["backend"],
        "links": printed["runs"],
        "paths": manifests[0]["paths"],
        "changed_paths": manifests[1]["paths"],
    }


def our_files(folder: str = "") -> list[str]:
    return sorted(
        path.relative_to(SOURCE).as_posix()
        for path in (SOURCE / folder).rglob("*")
        if path.is_file()
    )


def test_collectstatic_names_every_file_after_its_content(collected):
    assert collected["backend"] == "casino.storage.HashedStaticFilesStorage"
    paths = collected["paths"]
    for name in our_files():
        hashed = paths[name]
        folder, _, base = name.rpartition("/")
        match = HASHED_NAME.match(hashed.rpartition("/")[2])
        assert hashed.startswith(folder) and match, f"{name} -> {hashed}"
        assert match["stem"] + match["suffix"] == base
        assert (collected["root"] / hashed).is_file()
    # The pages link the hashed names.
    links = collected["links"][0]
    assert links["table"] == "/static/" + paths["js/table.js"]
    assert links["css"] == "/static/" + paths["css/site.css"]
    assert re.fullmatch(r"/static/js/table\.[0-9a-f]{12}\.js", links["table"])


def test_every_module_imports_the_hashed_name_of_the_module_it_needs(collected):
    paths, root = collected["paths"], collected["root"]
    modules = our_files("js")
    assert "js/table.js" in modules and "js/console.js" in modules
    for name in modules:
        wanted = MODULE_IMPORT.findall((SOURCE / name).read_text())
        got = MODULE_IMPORT.findall((root / paths[name]).read_text())
        assert len(got) == len(wanted), f"{paths[name]} imports {got}, its source {wanted}"
        for source_import, hashed_import in zip(wanted, got, strict=True):
            target = "js/" + source_import.removeprefix("./")
            assert hashed_import == "./" + paths[target].rpartition("/")[2], (name, hashed_import)
            assert (root / "js" / hashed_import.removeprefix("./")).is_file()
    table = (root / paths["js/table.js"]).read_text()
    assert f'from "./{paths["js/table-app.js"].rpartition("/")[2]}";' in table
    assert 'from "./table-app.js"' not in table


def test_a_changed_module_renames_every_module_that_imports_it_and_no_other(collected):
    before, after = collected["paths"], collected["changed_paths"]

    def importers_of(target: str) -> set[str]:
        found = {target}
        grew = True
        while grew:
            grew = False
            for name in our_files("js"):
                imported = {
                    "js/" + i.removeprefix("./")
                    for i in MODULE_IMPORT.findall((SOURCE / name).read_text())
                }
                if name not in found and imported & found:
                    found.add(name)
                    grew = True
        return found

    renamed = {name for name in our_files("js") if before[name] != after[name]}
    assert renamed == importers_of("js/cards.js")
    # The cards reach the page through the table: its entry module must get a new name.
    assert {
        "js/cards.js",
        "js/card-view.js",
        "js/felt.js",
        "js/table-app.js",
        "js/table.js",
    } <= renamed
    assert "js/lobby.js" not in renamed and "js/socket.js" not in renamed
    assert before["css/site.css"] == after["css/site.css"]


def test_a_web_server_reads_the_hashed_names_from_the_collected_manifest(collected):
    storage = HashedStaticFilesStorage(location=collected["root"])
    assert storage.url("js/console.js") == "/static/" + collected["paths"]["js/console.js"]


def test_without_a_manifest_pages_link_the_unhashed_copies_and_the_log_says_so_once(
    tmp_path, caplog
):
    storage = HashedStaticFilesStorage(location=tmp_path)  # collectstatic never ran here
    with caplog.at_level(logging.WARNING, logger="casino.storage"):
        assert storage.url("js/table.js") == "/static/js/table.js"
        assert storage.url("css/site.css") == "/static/css/site.css"
    warnings = [record.getMessage() for record in caplog.records]
    assert warnings == [
        f"no staticfiles.json in {tmp_path}: static files are linked by their unhashed names"
    ]


@pytest.mark.parametrize(
    "settings_env",
    [
        {"DJANGO_DEBUG": "true", "REDIS_URL": "redis://127.0.0.1:6379/15"},
        {"DJANGO_DEBUG": "false"},  # embedded mode (no Redis): tests/integration's Daphne
        {
            "DJANGO_DEBUG": "false",
            "REDIS_URL": "redis://127.0.0.1:6379/15",
            "CASINO_SERVE_STATIC": "true",
        },  # bin/cluster
    ],
    ids=["debug", "embedded", "serve-static"],
)
def test_where_daphne_serves_static_files_they_keep_their_names_without_collectstatic(
    settings_env, tmp_path
):
    env = site_env(DJANGO_STATIC_ROOT=str(tmp_path / "never-collected"), **settings_env)
    backend, link = json.loads(run_python(env, PRINT_STORAGE))
    assert backend == "django.contrib.staticfiles.storage.StaticFilesStorage"
    assert link == "/static/js/table.js"
