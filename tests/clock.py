"""Where a test that moves a clock starts it.

Normally a fixed, named date (`NAMED_START`), so no test depends on the day it runs. The
calendar pass (`make test`'s ci-calendar part, tests/calendar_pass.py) runs the money-and-time
tests under libfaketime at each of the dates that break calendars, and sets `TANDEM_TEST_START`
to that same instant, so those tests start on the date under test instead.
"""

from __future__ import annotations

import os
from datetime import UTC, datetime

NAMED_START = "2027-03-10T12:00:00+00:00"  # a Wednesday, mid-month, no clock change near


def start() -> int:
    """The start instant (Unix seconds) for a test clock."""
    text = os.environ.get("TANDEM_TEST_START") or NAMED_START
    moment = datetime.fromisoformat(text)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return int(moment.timestamp())
