"""The recorded video guides (`make guides`): each guide's length and size, from the files the
local stack serves and `make deploy` uploads (media/guides/) and the list GET videos reads
(tandem/content/data/guide_recordings.json).

    guide <slug>: <seconds> s, <KB> KB video, <steps> captions, poster <KB> KB
    BENCH guide_video_kb.<slug>   the video file, KB
    BENCH guide_video_kb_max      the largest (target: at most 3,000 KB a guide)
    BENCH guide_video_s_max       the longest, seconds
    BENCH guide_video_kb_total    every guide's video together, KB (what a fresh clone carries)

Nothing here asserts a number; tests/unit/test_content.py checks the files are there.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MEDIA = ROOT / "media"
RECORDINGS = ROOT / "layers/core/python/tandem/content/data/guide_recordings.json"


def kb(path: Path) -> int:
    return math.ceil(path.stat().st_size / 1024)


def main() -> None:
    if not RECORDINGS.is_file():
        print("No recorded guides yet: run make guides")
        return
    guides = json.loads(RECORDINGS.read_text(encoding="utf-8"))["guides"]
    sizes, lengths = [], []
    for slug, entry in sorted(guides.items()):
        video, poster = MEDIA / entry["video"], MEDIA / entry["poster"]
        size = kb(video)
        sizes.append(size)
        lengths.append(entry["seconds"])
        seconds, steps = entry["seconds"], entry["steps"]
        print(f"guide {slug}: {seconds:.1f} s, {size} KB video, {steps} captions, poster {kb(poster)} KB")
        print(f"BENCH guide_video_kb.{slug} {size}")
    print(f"BENCH guide_video_kb_max {max(sizes)}")
    print(f"BENCH guide_video_s_max {max(lengths):.1f}")
    print(f"BENCH guide_video_kb_total {sum(sizes)}")


if __name__ == "__main__":
    main()
