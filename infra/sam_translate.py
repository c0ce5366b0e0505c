"""Run by .venv-sam's Python (the SAM CLI's own translator): a packaged SAM template as the plain
CloudFormation template the AWS::Serverless transform makes of it, for moto, which has no
transforms (infra/deploy_rehearsal.py). Managed policy names are looked up in IAM (moto's, through
AWS_ENDPOINT_URL), as the transform does in AWS.

    .venv-sam/bin/python infra/sam_translate.py packaged.yaml translated.json Stage=dev ...
"""

from __future__ import annotations

import json
import sys

import boto3
from samcli.yamlhelper import yaml_parse
from samtranslator.model.exceptions import InvalidDocumentException
from samtranslator.public.translator import ManagedPolicyLoader
from samtranslator.translator.transform import transform


def main(source: str, target: str, overrides: list[str]) -> int:
    with open(source) as handle:
        template = yaml_parse(handle.read())
    parameters = dict(item.split("=", 1) for item in overrides)
    try:
        translated = transform(template, parameters, ManagedPolicyLoader(boto3.client("iam")))
    except InvalidDocumentException as exc:
        for cause in exc.causes:
            print(f"SAM transform: {cause.message}", file=sys.stderr)
        return 1
    with open(target, "w") as handle:
        json.dump(translated, handle, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2], sys.argv[3:]))
