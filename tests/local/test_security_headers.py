"""One definition of the response headers: CloudFront's SecurityHeadersPolicy in template.yaml.
The local site serves exactly those headers on every answer (the app, its files, the API, its
errors), so `make dev` and the e2e journeys run under the real CSP, HSTS and Permissions-Policy;
API Gateway's own answers (no route) are no-store as template.yaml says; and no source map is
ever public: `make deploy` never uploads one, and the local site never serves one."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
import requests

from infra.local.template import load_template, security_headers

EXPECTED = {
    "Strict-Transport-Security": "max-age=63072000; includeSubDomains; preload",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=()",
}


def test_the_policy_is_read_from_the_template_as_cloudfront_writes_it():
    served = {h.name: h.value for h in security_headers()}
    assert {k: v for k, v in served.items() if k != "Content-Security-Policy"} == EXPECTED
    csp = served["Content-Security-Policy"]
    directives = dict(d.strip().split(" ", 1) for d in csp.split(";"))
    assert directives["base-uri"] == "'none'"  # nothing in the app uses <base>
    assert directives["object-src"] == "'none'"
    assert directives["script-src"] == "'self'" and directives["frame-ancestors"] == "'none'"
    policy = load_template()["Resources"]["SecurityHeadersPolicy"]["Properties"][
        "ResponseHeadersPolicyConfig"
    ]
    written = policy["SecurityHeadersConfig"]["ContentSecurityPolicy"]["ContentSecurityPolicy"]
    assert csp == " ".join(written.split())


def test_every_gateway_response_is_no_store():
    responses = load_template()["Resources"]["RestApi"]["Properties"]["GatewayResponses"]
    assert set(responses) == {"MISSING_AUTHENTICATION_TOKEN", "DEFAULT_4XX", "DEFAULT_5XX"}
    for name, spec in responses.items():
        assert spec["ResponseParameters"]["Headers"]["Cache-Control"] == "'no-store'", name


@pytest.fixture
def site(aws, tmp_path: Path):
    from infra.local.gateway import LocalApiGateway
    from infra.local.server import LocalSite

    root = tmp_path / "web"
    (root / "assets").mkdir(parents=True)
    (root / "index.html").write_text("<!doctype html><title>Tandem app</title>")
    (root / "assets" / "index-abc123.js").write_text("console.log(1)")
    (root / "assets" / "index-abc123.js.map").write_text('{"sourcesContent": ["secret source"]}')
    server = LocalSite(("127.0.0.1", 0), LocalApiGateway(aws), root)
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_every_local_answer_carries_the_policy_headers_once(site):
    answers = {
        "the app": requests.get(f"{site}/matches", timeout=30),
        "a file": requests.get(f"{site}/assets/index-abc123.js", timeout=30),
        "the API": requests.get(f"{site}/api/health", timeout=30),
        "an API error": requests.get(f"{site}/api/dashboard", timeout=30),
        "no API route": requests.get(f"{site}/api/no/such/route", timeout=30),
        "a missing file": requests.get(f"{site}/missing.js", timeout=30),
        "a bad request": requests.post(
            f"{site}/api/users/login", data=b"x" * 10, headers={"Content-Length": "nope"}, timeout=30
        ),
    }
    for what, answer in answers.items():
        for header in security_headers():
            assert answer.headers.get(header.name) == header.value, (what, header.name)
        assert answer.raw.headers.getlist("Content-Security-Policy") == [
            answer.headers["Content-Security-Policy"]
        ]
    assert answers["the API"].status_code == 200
    assert answers["no API route"].status_code == 404
    assert answers["no API route"].headers["Cache-Control"] == "no-store"  # API Gateway's own 404
    assert answers["an API error"].headers["Cache-Control"] == "no-store"


def test_the_local_site_never_serves_a_source_map(site):
    answer = requests.get(f"{site}/assets/index-abc123.js.map", timeout=30)
    assert answer.status_code == 404 and "secret source" not in answer.text


def test_deploy_never_uploads_a_source_map(aws, tmp_path: Path):
    """`make deploy`'s upload (infra/deploy_web.py) to a bucket (moto S3): every public file of
    dist goes up, with its cache rule; a *.map, wherever it is, does not."""
    import boto3

    from infra.deploy_web import upload_site

    dist = tmp_path / "dist"
    (dist / "assets" / "nested").mkdir(parents=True)
    files = {
        "index.html": "<!doctype html>",
        "favicon.svg": "<svg/>",
        "assets/index-abc.js": "console.log(1)",
        "assets/index-abc.js.map": '{"sourcesContent": ["the whole source"]}',
        "assets/index-abc.css.map": "{}",
        "assets/nested/chunk.JS.MAP": "{}",
    }
    for name, text in files.items():
        (dist / name).write_text(text)
    s3 = boto3.client("s3", region_name="eu-west-2")  # as deploy_web makes it
    s3.create_bucket(Bucket="web-test", CreateBucketConfiguration={"LocationConstraint": "eu-west-2"})

    uploaded = upload_site(s3, "web-test", dist)

    stored = sorted(o["Key"] for o in s3.list_objects_v2(Bucket="web-test").get("Contents", []))
    assert stored == uploaded == ["assets/index-abc.js", "favicon.svg", "index.html"]
    head = s3.head_object(Bucket="web-test", Key="assets/index-abc.js")
    assert head["CacheControl"] == "public, max-age=31536000, immutable"


def test_the_build_writes_no_source_maps():
    config = (Path(__file__).resolve().parents[2] / "web" / "vite.config.ts").read_text()
    assert "sourcemap: false," in config
