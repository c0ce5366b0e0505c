"""Brand logos on the local stack: what S3 and CloudFront do for them in AWS.

- `POST /__local/assets-upload` takes the browser's presigned POST (the API hands out this
  address locally, through ASSETS_UPLOAD_URL, so the upload is same-origin). moto accepts POST
  uploads but checks neither the signature nor the policy, so this checks them as S3 does
  (signature, expiry, every condition, content-length-range) and then stores the file in moto.
- `GET /assets/logos/...` serves the stored file, like the Distribution's /assets/logos/*
  behaviour (bucket key = the path without /assets/); `/assets/guides/...` the same for the
  recorded video guides, which the stack uploads from media/ at each start with the deploy's own
  `infra.deploy_web.upload_media`. A `Range` request gets its part (206), as from S3, so a
  `<video>` can seek.
- Accepted uploads are also written to DATA_DIR/assets/ and put back into moto at the next
  start (`restore`), so logos survive a restart like the rest of the local data.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import io
import json
import os
import re
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

UPLOAD_PATH = "/__local/assets-upload"
_RANGE = re.compile(r"^bytes=(\d*)-(\d*)$")
MAX_UPLOAD = 10 * 1024 * 1024  # refuse to read anything bigger (the policies allow 2 MB)
# Form fields S3 does not require a policy condition for.
UNCONDITIONED = {"file", "policy", "x-amz-signature", "x-amz-security-token"}
_kept_in: Path | None = None  # where accepted uploads are kept across restarts (local stack only)


@dataclass
class Answer:
    status: int
    headers: list[tuple[str, str]]
    body: bytes


def _s3_error(status: int, code: str, message: str) -> Answer:
    xml = (
        "<?xml version='1.0' encoding='UTF-8'?>"
        f"<Error><Code>{code}</Code><Message>{escape(message)}</Message></Error>"
    )
    return Answer(status, [("Content-Type", "application/xml")], xml.encode())


def _client() -> Any:
    from tandem.integrations.aws import client

    return client("s3")


def _bucket() -> str:
    from tandem.config import settings

    return settings().assets_bucket


# ---------------------------------------------------------------- serving


def serve(path: str, range_header: str = "") -> Answer:
    key = path[len("/assets/") :]
    if ".." in key.split("/") or not key.startswith(("logos/", "guides/")):
        return Answer(404, [("Content-Type", "text/plain")], b"Not found")
    try:
        obj = _client().get_object(Bucket=_bucket(), Key=key)
    except Exception as exc:
        code = str(getattr(exc, "response", {}).get("Error", {}).get("Code", ""))
        if code in ("NoSuchKey", "404", "NoSuchBucket"):
            return Answer(404, [("Content-Type", "text/plain")], b"Not found")
        raise
    body = obj["Body"].read()
    headers = [
        ("Content-Type", obj.get("ContentType") or "application/octet-stream"),
        ("Cache-Control", "public, max-age=31536000, immutable"),
        ("Accept-Ranges", "bytes"),
    ]
    wanted = _RANGE.match(range_header.strip())
    if not wanted or not (wanted[1] or wanted[2]):
        return Answer(200, headers, body)
    size = len(body)
    if wanted[1]:
        start, end = int(wanted[1]), min(int(wanted[2]) if wanted[2] else size - 1, size - 1)
    else:  # the last N bytes
        start, end = max(size - int(wanted[2]), 0), size - 1
    if start >= size or start > end:
        return Answer(416, [("Content-Range", f"bytes */{size}")], b"")
    headers.append(("Content-Range", f"bytes {start}-{end}/{size}"))
    return Answer(206, headers, body[start : end + 1])


def upload_guides() -> int:
    """Put media/ (the recorded video guides) into the assets bucket, as `make deploy` does."""
    from infra.deploy_web import upload_media

    return len(upload_media(_client(), _bucket()))


# ---------------------------------------------------------------- presigned POST


def _signing_key(secret: str, date: str, region: str, service: str) -> bytes:
    key = f"AWS4{secret}".encode()
    for part in (date, region, service, "aws4_request"):
        key = hmac.new(key, part.encode(), hashlib.sha256).digest()
    return key


def _parse_form(content_type: str, body: bytes) -> tuple[dict[str, str], bytes | None, str]:
    from werkzeug.formparser import parse_form_data

    environ = {
        "REQUEST_METHOD": "POST",
        "CONTENT_TYPE": content_type,
        "CONTENT_LENGTH": str(len(body)),
        "wsgi.input": io.BytesIO(body),
    }
    _, form, files = parse_form_data(environ, max_content_length=MAX_UPLOAD)
    fields = {k: v for k, v in form.items()}
    upload = files.get("file")
    return fields, (upload.read() if upload is not None else None), (upload.mimetype if upload else "")


def _condition_failure(conditions: list[Any], fields: dict[str, str], bucket: str, size: int) -> str | None:
    """The first policy condition the upload does not meet (S3's POST policy rules)."""
    values = {k.lower(): v for k, v in fields.items()}
    values["bucket"] = bucket
    covered = set()
    for condition in conditions:
        if isinstance(condition, dict):
            ((name, expected),) = condition.items()
            covered.add(name.lower())
            if values.get(name.lower()) != expected:
                return f'Policy Condition failed: ["eq", "${name}", "{expected}"]'
        elif isinstance(condition, list) and condition and condition[0] == "content-length-range":
            low, high = int(condition[1]), int(condition[2])
            if not low <= size <= high:
                return "size"
        elif isinstance(condition, list) and len(condition) == 3:
            op, name, expected = condition
            name = str(name).lstrip("$").lower()
            covered.add(name)
            actual = values.get(name, "")
            if (op == "eq" and actual != expected) or (
                op == "starts-with" and not actual.startswith(expected)
            ):
                return f"Policy Condition failed: {json.dumps(condition)}"
        else:
            return "Invalid Policy: Invalid Condition"
    extra = [
        k for k in values if k not in covered and k not in UNCONDITIONED and not k.startswith("x-ignore-")
    ]
    extra = [k for k in extra if k != "bucket"]
    if extra:
        return f"Invalid according to Policy: Extra input fields: {extra[0]}"
    return None


def accept_upload(headers: dict[str, str], body: bytes, now: datetime | None = None) -> Answer:
    """Check a presigned POST the way S3 does, then store the file in the assets bucket."""
    content_type = headers.get("content-type", "")
    if not content_type.startswith("multipart/form-data"):
        return _s3_error(400, "InvalidRequest", "Uploads must be multipart/form-data")
    if len(body) > MAX_UPLOAD:
        return _s3_error(400, "EntityTooLarge", "Your proposed upload exceeds the maximum allowed size")
    try:
        fields, content, _ = _parse_form(content_type, body)
    except Exception:
        return _s3_error(400, "MalformedPOSTRequest", "The body of your POST request is not well-formed")
    if content is None:
        return _s3_error(400, "InvalidArgument", "POST requires exactly one file upload per request.")
    policy_b64 = fields.get("policy", "")
    credential = fields.get("x-amz-credential", "")
    signature = fields.get("x-amz-signature", "")
    parts = credential.split("/")
    if not policy_b64 or not signature or len(parts) != 5:
        return _s3_error(403, "AccessDenied", "Bucket POST must contain a signed policy")
    _, date, region, service, _ = parts
    secret = os.environ.get("AWS_SECRET_ACCESS_KEY", "")
    expected = hmac.new(_signing_key(secret, date, region, service), policy_b64.encode(), hashlib.sha256)
    if not hmac.compare_digest(expected.hexdigest(), signature):
        return _s3_error(403, "SignatureDoesNotMatch", "The request signature we calculated does not match")
    try:
        policy = json.loads(base64.b64decode(policy_b64))
        expires = datetime.fromisoformat(policy["expiration"].replace("Z", "+00:00"))
    except (ValueError, KeyError, TypeError):
        return _s3_error(400, "InvalidPolicyDocument", "Invalid Policy: Invalid JSON.")
    if (now or datetime.now(UTC)) >= expires:
        return _s3_error(403, "AccessDenied", "Invalid according to Policy: Policy expired.")
    bucket = _bucket()
    failure = _condition_failure(policy.get("conditions", []), fields, bucket, len(content))
    if failure == "size":
        return _s3_error(400, "EntityTooLarge", "Your proposed upload exceeds the maximum allowed size")
    if failure:
        return _s3_error(403, "AccessDenied", failure)
    key = fields.get("key", "")
    if not key or "${filename}" in key:
        return _s3_error(400, "InvalidArgument", "Bucket POST must contain a field named 'key'.")
    _client().put_object(
        Bucket=bucket,
        Key=key,
        Body=content,
        ContentType=fields.get("Content-Type") or fields.get("content-type") or "binary/octet-stream",
    )
    if _kept_in is not None:
        _keep(key, content, fields.get("Content-Type") or "binary/octet-stream")
    return Answer(204, [], b"")


# ---------------------------------------------------------------- kept across restarts


def _keep(key: str, content: bytes, content_type: str) -> None:
    assert _kept_in is not None
    target = (_kept_in / key).resolve()
    if _kept_in not in target.parents:
        return
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(content)
    target.with_name(target.name + ".type").write_text(content_type)


def restore(data_dir: Path) -> int:
    """Keep uploads under data_dir/assets from now on and put the kept ones back into moto."""
    global _kept_in
    _kept_in = (data_dir / "assets").resolve()
    restored = 0
    if not _kept_in.is_dir():
        return restored
    for path in sorted(_kept_in.rglob("*")):
        if not path.is_file() or path.name.endswith(".type"):
            continue
        type_file = path.with_name(path.name + ".type")
        content_type = type_file.read_text() if type_file.exists() else "binary/octet-stream"
        key = path.relative_to(_kept_in).as_posix()
        _client().put_object(Bucket=_bucket(), Key=key, Body=path.read_bytes(), ContentType=content_type)
        restored += 1
    return restored
