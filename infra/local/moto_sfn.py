"""Let moto start a state machine more than once.

moto 5.2.1's executing Step Functions backend deep-copies the state machine on every
StartExecution, including the executions it already ran; each holds its worker's thread locks,
which cannot be copied, so the second start of any state machine failed (TypeError: cannot
pickle '_thread.RLock'). The copy only snapshots the definition for the new execution, so
earlier executions are shared by reference instead of copied.
tests/statemachines/test_match_run.py runs a state machine twice in one test.

moto parses the definition again for every execution (ANTLR in pure Python: about 20 ms for
the billing state machine, once per Stripe event). The parse tree of each definition is kept
(it is only read afterwards); moto's preprocessor still builds fresh evaluation components
from it for every execution, so no execution's state is shared.

moto also builds a new boto3 client for every Lambda task it runs (about 5 ms of CPU each, one
or two per Stripe event); its `boto_client_for` ignores the state's credentials and depends only
on the region, the service and whether calls are intercepted in-process (or the moto server's
port), so one client per such key is kept for the Lambda tasks (botocore clients are
thread-safe, and the executions run on their own threads).

Importing the executing backend (the ASL parser) cost 2 s of CPU at every start of the local
stack, half of it in moto's EC2 models: the parser's AWS Batch task imports one enum from
`moto.batch.utils`, and the `moto.batch` package imports its models, which import EC2's. No
Tandem state machine calls Batch, so `moto.batch` is made a lazy package first: its
submodules import as usual, and its models load the first time anything asks the package for
a name (moto's backend registry, a Batch task), as they would have.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import types
from typing import Any

_MARK = "_tandem_shared_on_copy"
_PARSED_MARK = "_tandem_parse_kept"
_TREES: dict[str, Any] = {}  # definition text -> its ANTLR parse tree
_TREES_KEPT = 64
_CLIENTS_MARK = "_tandem_client_kept"


def _lazy_batch_package() -> None:
    if "moto.batch" in sys.modules:
        return
    spec = importlib.util.find_spec("moto.batch")
    if spec is None or spec.submodule_search_locations is None:  # pragma: no cover (moto is pinned)
        return
    package = types.ModuleType("moto.batch")
    package.__spec__ = spec
    package.__file__ = spec.origin
    package.__path__ = list(spec.submodule_search_locations)
    package.__package__ = "moto.batch"

    def lazy_attribute(name: str) -> Any:  # PEP 562: what `moto/batch/__init__.py` exports
        if name.startswith("__"):
            raise AttributeError(name)
        models = importlib.import_module("moto.batch.models")
        if name == "models":
            return models
        try:
            return getattr(models, name)
        except AttributeError:
            raise AttributeError(f"module 'moto.batch' has no attribute {name!r}") from None

    package.__getattr__ = lazy_attribute  # type: ignore[method-assign]
    sys.modules["moto.batch"] = package
    import moto

    moto.batch = package  # type: ignore[attr-defined]  # as the import system binds a loaded submodule


def _parse_once() -> None:
    from moto.stepfunctions.parser.asl.parse import asl_parser

    parser_class = asl_parser.AmazonStateLanguageParser
    if getattr(parser_class.parse, _PARSED_MARK, False):
        return

    def parse(definition: str) -> tuple[Any, Any]:
        """moto's AmazonStateLanguageParser.parse, with the tree of a definition seen before."""
        tree = _TREES.get(definition)
        if tree is None:
            errors = asl_parser.SyntaxErrorListener()
            parser = asl_parser.ASLParser(
                asl_parser.CommonTokenStream(asl_parser.ASLLexer(asl_parser.InputStream(definition)))
            )
            parser.removeErrorListeners()
            parser.addErrorListener(errors)
            tree = parser.state_machine()
            if errors.errors:
                raise asl_parser.ASLParserException(errors=errors.errors)
            if len(_TREES) >= _TREES_KEPT:
                _TREES.clear()
            _TREES[definition] = tree
        return asl_parser.Preprocessor().visit(tree), tree

    setattr(parse, _PARSED_MARK, True)
    parser_class.parse = staticmethod(parse)  # type: ignore[method-assign]


def _lambda_clients_once() -> None:
    import threading

    from moto.core.models import botocore_stubber
    from moto.settings import moto_server_port
    from moto.stepfunctions.parser.asl.component.state.exec.state_task import lambda_eval_utils

    original = lambda_eval_utils.boto_client_for
    if getattr(original, _CLIENTS_MARK, False):
        return
    clients: dict[tuple[str, str, bool, str], Any] = {}
    lock = threading.Lock()

    def boto_client_for(region: str, service: str, state_credentials: Any = None) -> Any:
        """moto's boto_client_for, one client per region, service and way of reaching moto."""
        intercepted = bool(botocore_stubber.enabled)
        key = (region, service, intercepted, "" if intercepted else str(moto_server_port()))
        with lock:
            client = clients.get(key)
            if client is None:
                client = clients[key] = original(region, service, state_credentials)
        return client

    setattr(boto_client_for, _CLIENTS_MARK, True)
    lambda_eval_utils.boto_client_for = boto_client_for  # type: ignore[assignment]


def install() -> None:
    _lazy_batch_package()
    _parse_once()
    _lambda_clients_once()
    from moto.stepfunctions.parser.backend.execution import Execution

    if getattr(Execution, _MARK, False):
        return

    def share(self: Any, memo: dict[int, Any]) -> Any:
        return self

    Execution.__deepcopy__ = share  # type: ignore[attr-defined]
    setattr(Execution, _MARK, True)
