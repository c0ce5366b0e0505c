"""The admin audit log's facts for a suspension read as one sentence (tandem.services.audit)."""

import pytest

from tandem.services.audit import _facts


@pytest.mark.parametrize(
    ("details", "sentence"),
    [
        ({}, "Brand suspended"),
        ({"reports": 1}, "Brand suspended (1 report)"),
        ({"reports": 2, "cancelledRequests": 1}, "Brand suspended (2 reports), 1 pending request cancelled"),
        ({"cancelledRequests": 3, "endedCollaborations": 0}, "Brand suspended, 3 pending requests cancelled"),
        ({"endedCollaborations": 1}, "Brand suspended, 1 collaboration not yet live ended"),
        (
            {"reports": 2, "cancelledRequests": 3, "endedCollaborations": 2},
            "Brand suspended (2 reports), 3 pending requests cancelled"
            " and 2 collaborations not yet live ended",
        ),
    ],
)
def test_a_suspension_says_what_it_ended(details, sentence):
    assert _facts("brand.suspend", details) == [sentence]
