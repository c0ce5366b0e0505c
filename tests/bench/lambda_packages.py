"""Package sizes from `sam build` (.aws-sam/build): per function its code zipped (what is uploaded)
and its code plus the layer unzipped (what Lambda unpacks before a cold start; 250 MB at most).

    BENCH lambda_package_kb.<Function> <zipped code, KB>
    BENCH lambda_unzipped_kb.<Function> <code + CoreLayer unzipped, KB>
"""

from __future__ import annotations

import io
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _files(directory: Path) -> list[Path]:
    return [p for p in sorted(directory.rglob("*")) if p.is_file()]


def zipped_kb(directory: Path) -> int:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in _files(directory):
            archive.write(path, path.relative_to(directory))
    return round(len(buffer.getvalue()) / 1024)


def unzipped_kb(directory: Path) -> int:
    return round(sum(p.stat().st_size for p in _files(directory)) / 1024)


def main(build_dir: Path) -> int:
    if not (build_dir / "template.yaml").is_file():
        print(f"{build_dir}: run sam build first", file=sys.stderr)
        return 1
    layer = build_dir / "CoreLayer"
    layer_kb = unzipped_kb(layer)
    print(f"BENCH lambda_package_kb.CoreLayer {zipped_kb(layer)}")
    print(f"BENCH lambda_unzipped_kb.CoreLayer {layer_kb}")
    for function in sorted(p for p in build_dir.iterdir() if p.is_dir() and p.name != "CoreLayer"):
        print(f"BENCH lambda_package_kb.{function.name} {zipped_kb(function)}")
        print(f"BENCH lambda_unzipped_kb.{function.name} {unzipped_kb(function) + layer_kb}")
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / ".aws-sam/build"))
