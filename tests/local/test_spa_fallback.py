"""One SPA fallback rule: which paths are files and which are the app's routes (index.html).

The rule lives in template.yaml's SpaFallbackFunction (CloudFront); the local server reads the
same pattern. This runs the template's JavaScript with Node on a table of paths, and asks the
local server for each, so CloudFront and `make dev` cannot drift apart again (a dot in the last
segment used to mean "file": /stop-welcome-emails/a@b.com answered a plain "Not found")."""

from __future__ import annotations

import json
import shutil
import subprocess
import threading
from pathlib import Path

import pytest
import requests

from infra.local.template import load_template

APP, FILE = "app", "file"
PATHS = {
    "/": APP,
    "/matches": APP,
    "/matches/saved": APP,
    "/requests/sent/12": APP,
    "/stop-welcome-emails/mia@example.com": APP,
    "/stop-welcome-emails/mia%40example.com": APP,
    "/confirm-email/abc.def.ghi": APP,
    "/confirm-email/x.png": APP,
    "/reset-password/tok.en": APP,
    "/brand/oat.and.co": APP,
    "/version.1": APP,
    "/example.com": APP,
    "/index.html": FILE,
    "/favicon.svg": FILE,
    "/collab/joint-giveaway.svg": FILE,  # Collab Ideas' illustrations (web/public/collab)
    "/collab/examples/oat-and-fern.svg": FILE,
    "/videos/first-request.svg": FILE,  # Video Guides' posters
    "/inspiration/ideas": APP,
    "/config.json": FILE,
    "/robots.txt": FILE,
    "/assets/index-abc123.js": FILE,
    "/assets/index-abc123.css": FILE,
    "/assets/fonts/inter.woff2": FILE,
    "/missing.js": FILE,
}


def _cloudfront(paths: list[str]) -> dict[str, str]:
    """Run the template's CloudFront function code on each path with Node."""
    code = load_template()["Resources"]["SpaFallbackFunction"]["Properties"]["FunctionCode"]
    script = (
        f"{code}\nconst paths = JSON.parse(process.argv[1]);\n"
        "const out = {};\n"
        "for (const uri of paths) { out[uri] = handler({ request: { uri } }).uri; }\n"
        "console.log(JSON.stringify(out));\n"
    )
    node = shutil.which("node")
    assert node, "Node is needed (the project builds its web app with it)"
    result = subprocess.run(
        [node, "-e", script, json.dumps(paths)], capture_output=True, text=True, timeout=60, check=True
    )
    rewritten = json.loads(result.stdout)
    return {
        path: APP if uri == "/index.html" and path != "/index.html" else FILE
        for path, uri in rewritten.items()
    }


def test_the_cloudfront_function_and_the_local_server_apply_the_same_rule():
    from infra.local.server import is_file_path

    cloudfront = _cloudfront(list(PATHS))
    local = {path: FILE if is_file_path(path) else APP for path in PATHS}
    assert cloudfront == PATHS
    assert local == PATHS


@pytest.fixture
def site(aws, tmp_path: Path):
    from infra.local.gateway import LocalApiGateway
    from infra.local.server import LocalSite

    root = tmp_path / "web"
    (root / "assets").mkdir(parents=True)
    (root / "index.html").write_text("<!doctype html><title>Tandem app</title>")
    (root / "favicon.svg").write_text("<svg/>")
    (root / "assets" / "index-abc123.js").write_text("console.log(1)")
    server = LocalSite(("127.0.0.1", 0), LocalApiGateway(aws), root)
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


@pytest.mark.parametrize("path", [p for p, kind in PATHS.items() if kind == APP])
def test_every_app_route_gets_the_app_from_the_local_server(site, path):
    page = requests.get(site + path, timeout=30)
    assert page.status_code == 200 and "<title>Tandem app</title>" in page.text
    assert page.headers["Cache-Control"] == "no-cache"


def test_files_are_served_as_files_and_a_missing_one_is_a_404(site):
    script = requests.get(f"{site}/assets/index-abc123.js", timeout=30)
    assert script.status_code == 200 and script.text == "console.log(1)"
    assert script.headers["Cache-Control"] == "public, max-age=31536000, immutable"
    assert requests.get(f"{site}/favicon.svg", timeout=30).text == "<svg/>"
    missing = requests.get(f"{site}/missing.js", timeout=30)
    assert (missing.status_code, missing.text) == (404, "Not found")


def test_head_answers_the_headers_of_get_without_a_body(site):
    get = requests.get(f"{site}/favicon.svg", timeout=30)
    head = requests.head(f"{site}/favicon.svg", timeout=30)
    assert head.status_code == 200 and head.content == b""
    assert head.headers["Content-Length"] == get.headers["Content-Length"] == "6"
    assert head.headers["X-Content-Type-Options"] == "nosniff"


def test_config_json_is_answered_as_deploy_writes_it_for_a_stack_without_analytics(site):
    from infra.deploy_web import runtime_config

    answer = requests.get(f"{site}/config.json", timeout=30)
    assert answer.status_code == 200
    assert answer.headers["Content-Type"] == "application/json"
    assert answer.headers["Cache-Control"] == "no-cache"
    assert answer.json() == runtime_config({}, region=None) == {"analytics": None}


def test_deploy_writes_the_analytics_block_when_the_stack_has_one():
    from infra.deploy_web import runtime_config

    outputs = {
        "AnalyticsIdentityPoolId": "eu-west-2:1234-abcd",
        "AnalyticsStreamName": "tandem-dev-analytics",
    }
    assert runtime_config(outputs, region="eu-west-2") == {
        "analytics": {
            "region": "eu-west-2",
            "identityPoolId": "eu-west-2:1234-abcd",
            "streamName": "tandem-dev-analytics",
        }
    }
