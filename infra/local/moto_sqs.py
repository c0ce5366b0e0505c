"""moto's SQS queue, safe across threads: no message lost between a send and a delete.

Issue 42's manual run lost 3 emails (2 payment receipts, 1 request email, queued in the same
second) that were in no queue at all, neither the notifications queue nor its DLQ. The cause is
moto 5.2.1, not the product: `Queue.delete_message` rebuilds the queue's message list from a
copy (`self._messages = new_messages`) without the queue's lock, while `add_message` appends
to the list under that lock. A message sent by one thread while another thread deleted (the
local stack's inline notifier deletes every message it delivered) was appended to the old list
and dropped with it: either between the rebuild and its assignment, or, a much wider window in a
burst, while one delete walked the list another delete had already replaced (the send went into
the newer list, the slower delete's assignment put the older one back without it). The DLQ
move in `receive_message` edits the same list unlocked too, and two receives at once could hand
out one message twice.

Here every change of a queue's message list holds the queue's own lock (moto's Condition over
an RLock, which add_message already takes): delete_message, receive_message (its scan, the
marks and the DLQ move), change_message_visibility and purge_queue. The Lambda a send triggers
inline (the event source mapping) runs outside the lock, as before. SQS itself never loses an
acknowledged message; tests/local/test_faults.py sends in the middle of a delete and finds it kept.
"""

from __future__ import annotations

import functools
from typing import Any

_MARK = "_tandem_locked"


def _locked_queue_method(original: Any) -> Any:
    @functools.wraps(original)
    def locked(self: Any, *args: Any, **kwargs: Any) -> Any:
        with self._messages_lock:
            return original(self, *args, **kwargs)

    setattr(locked, _MARK, True)
    return locked


def _locked_backend_method(original: Any) -> Any:
    @functools.wraps(original)
    def locked(self: Any, queue_name: str, *args: Any, **kwargs: Any) -> Any:
        queue = self.get_queue(queue_name)
        with queue._messages_lock:
            return original(self, queue_name, *args, **kwargs)

    setattr(locked, _MARK, True)
    return locked


def install() -> None:
    from moto.sqs.models import Queue, SQSBackend

    if getattr(Queue.delete_message, _MARK, False):
        return
    Queue.delete_message = _locked_queue_method(Queue.delete_message)  # type: ignore[method-assign]
    for name in ("receive_message", "change_message_visibility", "purge_queue"):
        setattr(SQSBackend, name, _locked_backend_method(getattr(SQSBackend, name)))


def is_installed() -> bool:
    from moto.sqs.models import Queue

    return bool(getattr(Queue.delete_message, _MARK, False))
