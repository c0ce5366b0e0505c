"""Logos on the local stack: the browser's presigned POST goes to the local server, which checks
it as S3 would, and /assets/logos/* is served from the assets bucket as CloudFront does."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import requests

from tandem.store import keys
from tandem.store.models import Brand
from tests.factories import auth_headers, member

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 64


@pytest.fixture
def site(aws, tmp_path: Path, monkeypatch):
    from infra.local.gateway import LocalApiGateway
    from infra.local.server import LocalSite
    from tandem.config import reset_settings

    server = LocalSite(("127.0.0.1", 0), LocalApiGateway(aws), tmp_path)
    url = f"http://127.0.0.1:{server.server_address[1]}"
    monkeypatch.setenv("ASSETS_UPLOAD_URL", f"{url}/__local/assets-upload")
    reset_settings()
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    yield url
    server.shutdown()
    server.server_close()


def test_a_browser_uploads_a_logo_through_the_local_server_and_sees_it_served(aws, site):
    _, (brand,), token = member()
    brand_id = int(brand.brand_id)
    response = requests.post(
        f"{site}/api/brands/{brand_id}/logo",
        json={"contentType": "image/png", "size": len(PNG)},
        headers=auth_headers(token),
        timeout=10,
    )
    assert response.status_code == 200, response.text
    grant = response.json()
    assert grant["url"] == f"{site}/__local/assets-upload"

    upload = requests.post(grant["url"], data=grant["fields"], files={"file": ("logo.png", PNG)}, timeout=10)
    assert upload.status_code == 204, upload.text
    saved = requests.put(
        f"{site}/api/brands/{brand_id}",
        json={"logoKey": grant["key"]},
        headers=auth_headers(token),
        timeout=10,
    )
    assert saved.status_code == 200, saved.text
    logo_url = saved.json()["brand"]["logoUrl"]
    assert logo_url == f"/assets/{grant['key']}"

    served = requests.get(f"{site}{logo_url}", timeout=10)
    assert served.status_code == 200
    assert served.content == PNG
    assert served.headers["Content-Type"] == "image/png"
    assert "immutable" in served.headers["Cache-Control"]
    assert requests.get(f"{site}/assets/logos/{brand_id}/{'0' * 32}.png", timeout=10).status_code == 404


def _fresh_grant(
    site: str, token: str, brand_id: int, content_type: str = "image/png", size: int = 100
) -> dict:
    response = requests.post(
        f"{site}/api/brands/{brand_id}/logo",
        json={"contentType": content_type, "size": size},
        headers=auth_headers(token),
        timeout=10,
    )
    assert response.status_code == 200, response.text
    return response.json()


def _stored_keys(brand_id: int) -> list[str]:
    from tandem.config import settings
    from tandem.integrations.aws import client

    listed = client("s3").list_objects_v2(Bucket=settings().assets_bucket, Prefix=f"logos/{brand_id}/")
    return [o["Key"] for o in listed.get("Contents", [])]


def test_the_local_upload_enforces_the_presigned_policy_like_s3(aws, site):
    _, (brand,), token = member()
    brand_id = int(brand.brand_id)
    grant = _fresh_grant(site, token, brand_id)

    too_big = requests.post(
        grant["url"],
        data=grant["fields"],
        files={"file": ("logo.png", b"x" * (2 * 1024 * 1024 + 1))},
        timeout=10,
    )
    assert too_big.status_code == 400 and b"EntityTooLarge" in too_big.content

    other_type = {**grant["fields"], "Content-Type": "text/html"}
    wrong = requests.post(grant["url"], data=other_type, files={"file": ("x.html", b"<script>")}, timeout=10)
    assert wrong.status_code == 403 and b"Policy Condition failed" in wrong.content

    other_key = {**grant["fields"], "key": f"logos/{brand_id}/{'b' * 32}.png"}
    wrong = requests.post(grant["url"], data=other_key, files={"file": ("logo.png", PNG)}, timeout=10)
    assert wrong.status_code == 403

    forged = {**grant["fields"], "x-amz-signature": "0" * 64}
    wrong = requests.post(grant["url"], data=forged, files={"file": ("logo.png", PNG)}, timeout=10)
    assert wrong.status_code == 403 and b"SignatureDoesNotMatch" in wrong.content

    extra = {**grant["fields"], "acl": "public-read"}
    wrong = requests.post(grant["url"], data=extra, files={"file": ("logo.png", PNG)}, timeout=10)
    assert wrong.status_code == 403 and b"Extra input fields" in wrong.content

    no_file = requests.post(grant["url"], data=grant["fields"], files={"other": ("a", b"")}, timeout=10)
    assert no_file.status_code == 400

    assert _stored_keys(brand_id) == []
    ok = requests.post(grant["url"], data=grant["fields"], files={"file": ("logo.png", PNG)}, timeout=10)
    assert ok.status_code == 204
    assert _stored_keys(brand_id) == [grant["key"]]


def test_an_expired_upload_grant_is_refused(aws, site):
    from infra.local import assets

    _, (brand,), token = member()
    grant = _fresh_grant(site, token, int(brand.brand_id))
    prepared = requests.Request(
        "POST", grant["url"], data=grant["fields"], files={"file": ("logo.png", PNG)}
    ).prepare()
    later = datetime.now(UTC) + timedelta(minutes=11)
    answer = assets.accept_upload(
        {"content-type": prepared.headers["Content-Type"]}, prepared.body, now=later
    )
    assert answer.status == 403 and b"Policy expired" in answer.body
    assert _stored_keys(int(brand.brand_id)) == []
    item = Brand.get(keys.brand_pk(int(brand.brand_id)), keys.PROFILE)
    assert item.logo_key is None


def test_only_logos_and_guides_are_served_from_the_assets_bucket(aws, site):
    from tandem.config import settings
    from tandem.integrations.aws import client

    client("s3").put_object(Bucket=settings().assets_bucket, Key="private/report.csv", Body=b"secret")
    for path in (
        "/assets/logos/../private/report.csv",
        "/assets/logos/%2E%2E/private/report.csv",
        "/assets/guides/../private/report.csv",
        "/assets/private/report.csv",
    ):
        response = requests.get(f"{site}{path}", timeout=10)
        assert response.status_code == 404
        assert b"secret" not in response.content


def test_uploaded_logos_are_kept_across_a_restart(aws, site, tmp_path: Path, monkeypatch):
    from infra.local import assets
    from tandem.config import settings
    from tandem.integrations.aws import client

    monkeypatch.setattr(assets, "_kept_in", None)
    assert assets.restore(tmp_path) == 0
    _, (brand,), token = member()
    grant = _fresh_grant(site, token, int(brand.brand_id))
    assert requests.post(grant["url"], data=grant["fields"], files={"file": ("l.png", PNG)}, timeout=10).ok
    assert (tmp_path / "assets" / grant["key"]).read_bytes() == PNG

    client("s3").delete_object(Bucket=settings().assets_bucket, Key=grant["key"])  # moto forgets on exit
    assert assets.restore(tmp_path) == 1
    served = requests.get(f"{site}/assets/{grant['key']}", timeout=10)
    assert served.content == PNG and served.headers["Content-Type"] == "image/png"


def test_the_recorded_guides_are_uploaded_as_deploys_do_and_served_in_ranges_for_seeking(aws, site, tmp_path):
    """The local stack puts media/ into the assets bucket with the deploy's own upload_media and
    serves /assets/guides/* like CloudFront: whole, or the byte range a <video> asks for."""
    from infra.deploy_web import upload_media
    from tandem.config import settings
    from tandem.integrations.aws import client

    media = tmp_path / "media"
    (media / "guides").mkdir(parents=True)
    video = bytes(range(256)) * 40
    (media / "guides" / "intro.0123456789ab.webm").write_bytes(video)
    (media / "guides" / "intro.0123456789ab.vtt").write_text(
        "WEBVTT\n\n1\n00:00:00.000 --> 00:00:02.000\nHello\n"
    )
    (media / "guides" / "notes.txt").write_text("not a guide file")
    s3, bucket = client("s3"), settings().assets_bucket
    assert upload_media(s3, bucket, media) == [
        "guides/intro.0123456789ab.vtt",
        "guides/intro.0123456789ab.webm",
    ]
    assert upload_media(s3, bucket, media) == []  # already there: nothing sent again

    whole = requests.get(f"{site}/assets/guides/intro.0123456789ab.webm", timeout=10)
    assert whole.status_code == 200 and whole.content == video
    assert whole.headers["Content-Type"] == "video/webm"
    assert whole.headers["Accept-Ranges"] == "bytes"
    assert "immutable" in whole.headers["Cache-Control"]
    part = requests.get(
        f"{site}/assets/guides/intro.0123456789ab.webm", headers={"Range": "bytes=100-199"}, timeout=10
    )
    assert part.status_code == 206 and part.content == video[100:200]
    assert part.headers["Content-Range"] == f"bytes 100-199/{len(video)}"
    tail = requests.get(
        f"{site}/assets/guides/intro.0123456789ab.webm", headers={"Range": "bytes=-10"}, timeout=10
    )
    assert tail.status_code == 206 and tail.content == video[-10:]
    beyond = requests.get(
        f"{site}/assets/guides/intro.0123456789ab.webm", headers={"Range": "bytes=99999-"}, timeout=10
    )
    assert beyond.status_code == 416
    captions = requests.get(f"{site}/assets/guides/intro.0123456789ab.vtt", timeout=10)
    assert captions.headers["Content-Type"].startswith("text/vtt") and captions.text.startswith("WEBVTT")
    assert requests.get(f"{site}/assets/guides/notes.txt", timeout=10).status_code == 404
