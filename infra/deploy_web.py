"""Upload web/dist to the stack's web bucket and invalidate CloudFront (`make deploy`); upload
`media/` (the recorded video guides, `make guides`) to the assets bucket, which CloudFront serves
at /assets/guides/*.

Hashed assets are cached for a year; index.html and other entry files are never cached, so a
deploy takes effect at the next page load. Source maps never go to the public bucket (they hold
the whole TypeScript source): the build writes none (web/vite.config.ts), and a map left in
dist by another build is skipped here (`is_public`). `/config.json` carries the stack's runtime settings
for the browser (analytics identity pool and stream), so one build serves every environment.
"""

from __future__ import annotations

import argparse
import json
import mimetypes
import time
from pathlib import Path
from typing import Any

import boto3


def runtime_config(outputs: dict[str, str], region: str | None) -> dict[str, Any]:
    """What the browser reads from /config.json (web/src/lib/runtime-config.ts): the analytics
    identity pool and stream of the stack, or `"analytics": null` for a stack without them
    (the local stack serves this too, infra/local/server.py)."""
    pool, stream = outputs.get("AnalyticsIdentityPoolId"), outputs.get("AnalyticsStreamName")
    if not (pool and stream and region):
        return {"analytics": None}
    return {"analytics": {"region": region, "identityPoolId": pool, "streamName": stream}}


PRIVATE_SUFFIXES = (".map",)  # source maps: the app's whole source, never public


def is_public(key: str) -> bool:
    """Whether a file of web/dist may be served to anyone (uploaded here, served locally)."""
    return not key.lower().endswith(PRIVATE_SUFFIXES)


def upload_site(s3: Any, bucket: str, dist: Path) -> list[str]:
    """Upload every public file of `dist` to `bucket`; the keys uploaded, in order."""
    uploaded = []
    for path in sorted(p for p in dist.rglob("*") if p.is_file()):
        key = path.relative_to(dist).as_posix()
        if not is_public(key):
            print(f"Not uploaded (never public): {key}")
            continue
        cache = "public, max-age=31536000, immutable" if key.startswith("assets/") else "no-cache"
        s3.upload_file(
            str(path),
            bucket,
            key,
            ExtraArgs={
                "ContentType": mimetypes.guess_type(key)[0] or "application/octet-stream",
                "CacheControl": cache,
            },
        )
        uploaded.append(key)
    return uploaded


MEDIA_DIR = Path(__file__).resolve().parents[1] / "media"
# Types mimetypes may not know on a build host; S3 and the local stack answer with these.
MEDIA_TYPES = {".webm": "video/webm", ".vtt": "text/vtt; charset=utf-8", ".jpg": "image/jpeg"}


def upload_media(s3: Any, bucket: str, media: Path = MEDIA_DIR) -> list[str]:
    """Upload every file of `media/` to the assets bucket under the same path (media/guides/x.webm
    is the key guides/x.webm, served at /assets/guides/x.webm). Their names carry their content
    hash (make guides), so they are cached for a year; a file already there is not sent again."""
    uploaded = []
    for path in sorted(p for p in media.rglob("*") if p.is_file() and p.suffix in MEDIA_TYPES):
        key = path.relative_to(media).as_posix()
        try:
            if s3.head_object(Bucket=bucket, Key=key)["ContentLength"] == path.stat().st_size:
                continue
        except Exception as exc:  # botocore's ClientError for a missing key
            if str(getattr(exc, "response", {}).get("Error", {}).get("Code", "")) not in ("404", "NoSuchKey"):
                raise
        s3.put_object(  # at most a few MB each (tests/bench/guides.py): one request
            Bucket=bucket,
            Key=key,
            Body=path.read_bytes(),
            ContentType=MEDIA_TYPES[path.suffix],
            CacheControl="public, max-age=31536000, immutable",
        )
        uploaded.append(key)
    return uploaded


# web/src/config/env.ts: the address the footer's terms, privacy and FAQs links use when a build
# names none. Fine on a developer's machine; a deployed app must link to the real public site.
DEFAULT_SITE_URL = "https://tandem.example"


def refuse_default_site_url(dist: Path) -> None:
    """Stops a deploy whose build still points the footer links at the placeholder site: build it
    with VITE_SITE_URL set to the public site's address (make deploy VITE_SITE_URL=https://...)."""
    for path in sorted(dist.rglob("*.js")):
        if DEFAULT_SITE_URL in path.read_text(encoding="utf-8", errors="replace"):
            raise SystemExit(
                f"{path.relative_to(dist)} links to {DEFAULT_SITE_URL}, the placeholder for the public site. "
                "Build the web app with VITE_SITE_URL set to the site's address, then deploy again."
            )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--stack", required=True)
    parser.add_argument("--dist", default="web/dist")
    parser.add_argument("--media", default=str(MEDIA_DIR))
    args = parser.parse_args()
    refuse_default_site_url(Path(args.dist))

    outputs = {
        o["OutputKey"]: o["OutputValue"]
        for o in boto3.client("cloudformation").describe_stacks(StackName=args.stack)["Stacks"][0]["Outputs"]
    }
    bucket, distribution = outputs["WebBucketName"], outputs["DistributionId"]
    s3 = boto3.client("s3")
    dist = Path(args.dist)
    upload_site(s3, bucket, dist)
    guides = upload_media(s3, outputs["AssetsBucketName"], Path(args.media))
    print(f"Uploaded {len(guides)} new guide files to the assets bucket")
    s3.put_object(
        Bucket=bucket,
        Key="config.json",
        Body=json.dumps(runtime_config(outputs, s3.meta.region_name)).encode(),
        ContentType="application/json",
        CacheControl="no-cache",
    )
    boto3.client("cloudfront").create_invalidation(
        DistributionId=distribution,
        InvalidationBatch={"Paths": {"Quantity": 1, "Items": ["/*"]}, "CallerReference": str(time.time())},
    )
    print(f"Uploaded {dist} to s3://{bucket} and invalidated {distribution}: {outputs['SiteUrl']}")


if __name__ == "__main__":
    main()
