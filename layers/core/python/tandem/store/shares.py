"""Member collabs: a connection both brands agreed to show to other members.

- the share of one connection          pk=REQUEST#<request id>  sk=SHARE
- every shared collab, newest first    gsi1pk=COLLABS           gsi1sk=<shared ms>#<request id>

One item per connection (beside the request it belongs to). A brand proposes with a short
summary of what they did together; the other brand agrees to that summary; only then does the
item enter the COLLABS index (sparse: written with both agreements, removed on withdraw).

A share may name one finished collaboration of the two brands (tandem.store.collaborations):
then each brand says which of its own result figures it allows (`from_figures`, `to_figures`),
and member collabs shows, read with the brands, the figures both allowed.
"""

from __future__ import annotations

from collections.abc import Iterator

from pynamodb.attributes import BooleanAttribute, ListAttribute, NumberAttribute, UnicodeAttribute

from tandem.store import keys
from tandem.store.keys import ALL_SHARED, SHARE_SK
from tandem.store.models import Key, TandemModel, _Gsi1, _register


def shared_gsi_sk(shared_ms: int, request_id: str) -> str:
    return f"{shared_ms:013d}#{request_id}"


@_register
class CollabShare(TandemModel):
    request_id = UnicodeAttribute()
    from_brand_id = NumberAttribute()  # the brands of the connection, as the request names them
    to_brand_id = NumberAttribute()
    summary = UnicodeAttribute()
    idea = UnicodeAttribute(null=True)  # a Collab Idea slug, when the collab was one of them
    proposed_by = NumberAttribute()
    proposed_at = NumberAttribute()  # epoch ms: a new proposal asks the other brand again
    from_agreed = BooleanAttribute(default=False)
    to_agreed = BooleanAttribute(default=False)
    shared_at = NumberAttribute(null=True)  # epoch ms both had agreed
    collab_id = UnicodeAttribute(null=True)  # the finished collaboration it shows, if any
    collab_title = UnicodeAttribute(null=True)  # its title when proposed (the panel names it)
    from_figures = ListAttribute(of=UnicodeAttribute, null=True)  # figures each brand allows
    to_figures = ListAttribute(of=UnicodeAttribute, null=True)
    gsi1pk = UnicodeAttribute(null=True)  # ALL_SHARED while shared
    gsi1sk = UnicodeAttribute(null=True)
    shared = _Gsi1()

    @classmethod
    def key(cls, request_id: str) -> Key:
        return keys.request_pk(request_id), SHARE_SK

    def agreed(self, brand_id: int) -> bool:
        return bool(self.from_agreed if brand_id == int(self.from_brand_id) else self.to_agreed)

    def figures_of(self, brand_id: int) -> list[str]:
        """The result figures `brand_id` allows this share to show (none unless it chose)."""
        found = self.from_figures if brand_id == int(self.from_brand_id) else self.to_figures
        return list(found or [])

    @property
    def is_shared(self) -> bool:
        return bool(self.from_agreed and self.to_agreed)

    @classmethod
    def newest(cls, limit: int) -> Iterator[CollabShare]:
        """Shared collabs, newest first (one Query on the sparse index)."""
        return cls.shared.query(ALL_SHARED, scan_index_forward=False, limit=limit)
