"""Let moto start a state machine more than once.

moto 5.2.1's executing Step Functions backend deep-copies the state machine on every
StartExecution, including the executions it already ran; each holds its worker's thread locks,
which cannot be copied, so the second start of any state machine failed (TypeError: cannot
pickle '_thread.RLock'). The copy only snapshots the definition for the new execution, so
earlier executions are shared by reference instead of copied.
tests/statemachines/test_match_run.py runs a state machine twice in one test.
"""

from __future__ import annotations

from typing import Any

_MARK = "_tandem_shared_on_copy"


def install() -> None:
    from moto.stepfunctions.parser.backend.execution import Execution

    if getattr(Execution, _MARK, False):
        return

    def share(self: Any, memo: dict[int, Any]) -> Any:
        return self

    Execution.__deepcopy__ = share  # type: ignore[attr-defined]
    setattr(Execution, _MARK, True)
