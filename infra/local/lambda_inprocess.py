"""Run Lambda functions in-process instead of in Docker.

moto invokes a function through `LambdaFunction._invoke_lambda(self, event)`, which returns
`(payload_json, errored, logs)` and normally starts a Docker container. The local stack and
the tests replace it with `invoke_in_process`, which imports the handler that template.yaml
names (CodeUri + Handler) and calls it here. This is a private moto API: moto is pinned and
tests/functional/test_lambda_patch.py fails if the patch stops taking effect.
"""

from __future__ import annotations

import importlib.util
import io
import json
import sys
import threading
import traceback
import uuid
from collections.abc import Callable
from contextlib import redirect_stderr
from pathlib import Path
from types import ModuleType
from typing import Any

from infra.local.template import ACCOUNT, REGION, FunctionSpec

_REGISTRY: dict[str, FunctionSpec] = {}
_MODULES: dict[tuple[Path, str], ModuleType] = {}
_IMPORT_LOCK = threading.RLock()
INVOCATIONS: list[str] = []  # function names, in order; tests read it to prove the patch ran


class LambdaContext:
    """The parts of the Lambda context object that handlers and Powertools read."""

    def __init__(self, spec: FunctionSpec) -> None:
        self.function_name = spec.name
        self.function_version = "$LATEST"
        self.invoked_function_arn = f"arn:aws:lambda:{REGION}:{ACCOUNT}:function:{spec.name}"
        self.memory_limit_in_mb = 512
        self.aws_request_id = str(uuid.uuid4())
        self.log_group_name = f"/aws/lambda/{spec.name}"
        self.log_stream_name = "local"
        self._timeout_ms = spec.timeout * 1000

    def get_remaining_time_in_millis(self) -> int:
        return self._timeout_ms


def register(functions: dict[str, FunctionSpec]) -> None:
    for spec in functions.values():
        _REGISTRY[spec.name] = spec


def _load_module(code_dir: Path, module_name: str) -> ModuleType:
    """Import `module_name` from `code_dir` under a private name, so that two functions'
    `app.py` never collide, while the function's own folder is importable (chalicelib)."""
    key = (code_dir, module_name)
    with _IMPORT_LOCK:
        if key in _MODULES:
            return _MODULES[key]
        path = code_dir.joinpath(*module_name.split(".")).with_suffix(".py")
        private = f"_fn_{code_dir.name}_{module_name.replace('.', '_')}"
        if str(code_dir) not in sys.path:
            sys.path.insert(0, str(code_dir))
        spec = importlib.util.spec_from_file_location(private, path)
        if spec is None or spec.loader is None:
            raise ImportError(f"No handler module {module_name} in {code_dir}")
        module = importlib.util.module_from_spec(spec)
        sys.modules[private] = module
        spec.loader.exec_module(module)
        _per_thread_requests(module)
        _MODULES[key] = module
        return module


def _per_thread_requests(module: ModuleType) -> None:
    """A Chalice app keeps the request being handled in `app.current_request`: right in Lambda,
    where a container runs one invocation at a time, but here the local server calls the same
    module from several threads at once, and one request would read another's headers (another
    brand, another user). Keep the request and context per thread instead."""
    from chalice import Chalice

    app = getattr(module, "app", None)
    if not isinstance(app, Chalice):
        return
    state = threading.local()

    def slot(name: str) -> property:
        return property(
            lambda _self: getattr(state, name, None), lambda _self, value: setattr(state, name, value)
        )

    app.__class__ = type(
        type(app).__name__,
        (type(app),),
        {"current_request": slot("current_request"), "lambda_context": slot("lambda_context")},
    )


def load_handler_module(spec: FunctionSpec) -> ModuleType:
    """The function's handler module, imported once per process (tests use it too, so that
    Chalice blueprints are never registered on two copies of the app)."""
    return _load_module(spec.code_dir, spec.handler.rpartition(".")[0])


def handler_for(spec: FunctionSpec) -> Callable[[Any, Any], Any]:
    module_name, _, attribute = spec.handler.rpartition(".")
    return getattr(_load_module(spec.code_dir, module_name), attribute)


def invoke(spec: FunctionSpec, event: Any) -> tuple[Any, bool, str]:
    """Call the handler; errors come back as Lambda reports them (errorType/errorMessage)."""
    INVOCATIONS.append(spec.name)
    logs = io.StringIO()
    try:
        with redirect_stderr(logs):
            result = handler_for(spec)(event, LambdaContext(spec))
        return result, False, logs.getvalue()
    except Exception as exc:  # the Lambda runtime turns any exception into an error payload
        error = {
            "errorType": type(exc).__name__,
            "errorMessage": str(exc),
            "stackTrace": traceback.format_exception(exc)[-5:],
        }
        return error, True, logs.getvalue()


def invoke_in_process(self: Any, event: Any = None) -> tuple[str, bool, str]:
    spec = _REGISTRY.get(self.function_name)
    if spec is None:
        raise RuntimeError(f"Function {self.function_name} is not in template.yaml")
    if isinstance(event, (str, bytes)):
        event = json.loads(event or "{}")
    result, errored, logs = invoke(spec, event if event is not None else {})
    return json.dumps(result, default=str), errored, logs


def install() -> None:
    from moto.awslambda import models

    models.LambdaFunction._invoke_lambda = invoke_in_process


def is_installed() -> bool:
    from moto.awslambda import models

    return models.LambdaFunction._invoke_lambda is invoke_in_process
