"""Three costs moto 5.2.1 pays on every call that DynamoDB and Step Functions do not.

The 1,000-event billing proof (tests/bench/billing_events.py) makes about 15 AWS calls per
Stripe event, each through botocore into moto in-process; measured per call (thread CPU), an
UpdateItem of an account took 3.4 ms against 1.2 ms for a GetItem of the same item, and every
call paid moto's dispatch besides. Two parts of that are pure repetition, removed here without
changing what moto answers:

- `moto.core.responses.BaseResponse.call_action` lists the handler class's methods with
  `inspect.getmembers` (a `dir()` and a walk of the class) on every call, to check that the
  action is one of them. A class's methods do not change while it serves (the patches in
  infra/local replace methods, never add or remove names), so the list is kept per class.
- moto's update-expression validator walks the expression's tree ten times (one traverser per
  rule), and at every node each traverser builds its class-to-processor dict twice (once to ask
  whether the node is one it processes, once to process it). The dict depends only on the
  traverser, so each traverser builds it once; the walk, the order and the processors are moto's.
- moto tokenizes and parses an UpdateExpression's text twice per UpdateItem (the handler, then
  the backend), though Tandem's store writes a handful of distinct expressions. The tree of each
  text is kept (at most 256): the handler only reads it (`find_clauses`) and the backend's
  validator works on a deep copy of it, as before. A text that does not parse raises every time.
  Together with the processor maps this took an account's UpdateItem from 3.8 to 2.9 ms of CPU.

tests/local/test_moto_dispatch.py checks the answers are moto's own (same errors, same items).
"""

from __future__ import annotations

import functools
from typing import Any

_MARK = "_tandem_dispatch_kept"


def _method_names_once() -> None:
    import moto.core.responses as responses

    original = responses.method_names_from_class
    if getattr(original, _MARK, False):
        return
    kept: dict[type, list[str]] = {}

    @functools.wraps(original)
    def method_names_from_class(clazz: Any) -> list[str]:
        names = kept.get(clazz)
        if names is None:
            names = kept[clazz] = original(clazz)
        return names

    setattr(method_names_from_class, _MARK, True)
    responses.method_names_from_class = method_names_from_class  # the name call_action uses


def _processing_map_once() -> None:
    from moto.dynamodb.parsing.ast_nodes import DepthFirstTraverser

    if getattr(DepthFirstTraverser, _MARK, False):
        return

    def kept_map(self: Any) -> dict[Any, Any]:
        held = self.__dict__.get("_tandem_processing_map")
        if held is None:
            held = self.__dict__["_tandem_processing_map"] = type(self)._processing_map(self)
        return held

    def nodes_to_be_processed(self: Any) -> tuple[Any, ...]:
        held = self.__dict__.get("_tandem_nodes")
        if held is None:
            held = self.__dict__["_tandem_nodes"] = tuple(kept_map(self).keys())
        return held

    def process(self: Any, node: Any) -> Any:
        for class_key, processor in kept_map(self).items():
            if isinstance(node, class_key):
                return processor(node)
        return None

    for name, replacement in (("nodes_to_be_processed", nodes_to_be_processed), ("process", process)):
        original = getattr(DepthFirstTraverser, name)
        functools.update_wrapper(replacement, original)
        setattr(DepthFirstTraverser, name, replacement)
    setattr(DepthFirstTraverser, _MARK, True)


_PARSED_KEPT = 256


def _update_expressions_parsed_once() -> None:
    from moto.dynamodb.parsing.expressions import UpdateExpressionParser

    original = UpdateExpressionParser.make.__func__  # type: ignore[attr-defined]
    if getattr(original, _MARK, False):
        return
    trees: dict[str, Any] = {}

    def make(cls: Any, expression_str: str) -> Any:
        tree = trees.get(expression_str)
        if tree is None:
            tree = original(cls, expression_str)  # a text that does not parse raises, every time
            if len(trees) >= _PARSED_KEPT:
                trees.clear()
            trees[expression_str] = tree
        return tree

    functools.update_wrapper(make, original)
    setattr(make, _MARK, True)
    UpdateExpressionParser.make = classmethod(make)  # type: ignore[method-assign,assignment]


def install() -> None:
    _method_names_once()
    _processing_map_once()
    _update_expressions_parsed_once()


def is_installed() -> bool:
    import moto.core.responses as responses
    from moto.dynamodb.parsing.ast_nodes import DepthFirstTraverser
    from moto.dynamodb.parsing.expressions import UpdateExpressionParser

    return (
        bool(getattr(responses.method_names_from_class, _MARK, False))
        and bool(getattr(DepthFirstTraverser, _MARK, False))
        and bool(getattr(UpdateExpressionParser.make.__func__, _MARK, False))  # type: ignore[attr-defined]
    )
