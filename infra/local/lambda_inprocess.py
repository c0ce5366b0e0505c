"""Run Lambda functions in-process instead of in Docker.

moto invokes a function through `LambdaFunction._invoke_lambda(self, event)`, which returns
`(payload_json, errored, logs)` and normally starts a Docker container. The local stack and
the tests replace it with `invoke_in_process`, which imports the handler that template.yaml
names (CodeUri + Handler) and calls it here. This is a private moto API: moto is pinned and
tests/local/test_lambda_patch.py fails if the patch stops taking effect.

In Lambda each function runs in its own process, one invocation at a time; here every function
shares this process and invocations run in parallel threads. Two process-wide things are
therefore kept per thread: what a handler writes to stderr (captured for the invoke result and
still passed through to the real stderr, never by swapping sys.stderr per call), and the
Powertools Logger's keys (reset at the start of every invocation, so a workflow's
`function_name`/`run_id` never shows up on an API log line).
"""

from __future__ import annotations

import importlib.util
import io
import json
import logging
import sys
import threading
import traceback
import uuid
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

from infra.local import faults, meter
from infra.local.template import ACCOUNT, REGION, FunctionSpec

_REGISTRY: dict[str, FunctionSpec] = {}
_MODULES: dict[tuple[Path, str], ModuleType] = {}
_IMPORT_LOCK = threading.RLock()
INVOCATIONS: list[str] = []  # function names, in order; tests read it to prove the patch ran
_capture = threading.local()  # .buffer: the StringIO of the invocation running on this thread
_STDERR_LOCK = threading.Lock()
_LOG_FORMATTERS: list[Any] = []  # Powertools formatters whose keys are kept per thread
_PER_THREAD_MARK = "_tandem_per_thread_keys"


class _ThreadAwareStderr:
    """sys.stderr for the whole process, installed once: everything still goes to the stream it
    wraps, and a copy goes to the capture buffer of the invocation running on the writing
    thread, if any. Replacing sys.stderr around each call instead (contextlib.redirect_stderr)
    is process-wide: parallel calls restore each other's buffers, and after one burst the
    process's stderr was left pointing at a dead StringIO."""

    def __init__(self, target: Any) -> None:
        self._target = target

    def write(self, text: str) -> int:
        buffer = getattr(_capture, "buffer", None)
        if buffer is not None:
            buffer.write(text)
        return self._target.write(text)

    def flush(self) -> None:
        self._target.flush()

    def __getattr__(self, name: str) -> Any:  # fileno, encoding, isatty, ... of the real stream
        return getattr(self._target, name)


def _install_stderr_capture() -> None:
    with _STDERR_LOCK:
        if not isinstance(sys.stderr, _ThreadAwareStderr):
            sys.stderr = _ThreadAwareStderr(sys.stderr)


def _per_thread_log_keys() -> None:
    """Keep the keys of every Powertools formatter per thread (their `log_format` dict is one
    per process): `inject_lambda_context`, `append_keys` and `clear_state` then act on the
    invocation running on the calling thread only."""
    from aws_lambda_powertools.logging.formatter import BasePowertoolsFormatter

    loggers = [logging.getLogger(name) for name in list(logging.Logger.manager.loggerDict)]
    for handler in (h for log in loggers for h in log.handlers):
        formatter = handler.formatter
        if not isinstance(formatter, BasePowertoolsFormatter) or getattr(formatter, _PER_THREAD_MARK, False):
            continue
        if not hasattr(formatter, "log_format"):
            continue
        state = threading.local()

        def fresh(self: Any) -> dict[str, Any]:
            keys = dict.fromkeys(self.log_record_order)
            keys.update(self.keys_combined)
            return keys

        def get(self: Any, __state: threading.local = state) -> dict[str, Any]:
            if not hasattr(__state, "log_format"):
                __state.log_format = fresh(self)
            return __state.log_format

        def put(self: Any, value: dict[str, Any], __state: threading.local = state) -> None:
            __state.log_format = value

        formatter.__dict__.pop("log_format", None)
        formatter.__class__ = type(
            type(formatter).__name__,
            (type(formatter),),
            {"log_format": property(get, put), _PER_THREAD_MARK: True},
        )
        _LOG_FORMATTERS.append(formatter)


def _fresh_log_keys() -> None:
    """What a new Lambda process would have: no keys left from an earlier invocation."""
    for formatter in _LOG_FORMATTERS:
        formatter.clear_state()
        formatter.thread_safe_clear_keys()


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
        _per_thread_log_keys()
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
    """Call the handler; errors come back as Lambda reports them (errorType/errorMessage), and
    their traceback is written to stderr as the Lambda runtime logs it. Returns (result,
    errored, what the invocation wrote to stderr)."""
    INVOCATIONS.append(spec.name)
    _install_stderr_capture()
    handler = handler_for(spec)
    logs = io.StringIO()
    outer = getattr(_capture, "buffer", None)  # an invocation may invoke another (nested)
    _capture.buffer = logs
    try:
        _fresh_log_keys()
        fault = faults.hit("lambda", spec.name)  # infra/local/faults.py: a task that raises or times out
        if fault is not None and fault.kind == "timeout":
            message = f"Task timed out after {spec.timeout:.2f} seconds"
            print(f"[ERROR] {spec.name}: {message} (a fault switched on locally)", file=sys.stderr)
            return {"errorType": "Sandbox.Timedout", "errorMessage": message}, True, logs.getvalue()
        if fault is not None:
            raise RuntimeError(f"{spec.name} failed (a fault switched on locally)")
        with meter.invocation(spec.name):  # LOCAL_METER=1 only: its CPU and DynamoDB units
            result = handler(event, LambdaContext(spec))
        return result, False, logs.getvalue()
    except Exception as exc:  # the Lambda runtime turns any exception into an error payload
        print(f"[ERROR] {spec.name}: {type(exc).__name__}: {exc}", file=sys.stderr)
        traceback.print_exception(exc, file=sys.stderr)
        error = {
            "errorType": type(exc).__name__,
            "errorMessage": str(exc),
            "stackTrace": traceback.format_exception(exc)[-5:],
        }
        return error, True, logs.getvalue()
    finally:
        _capture.buffer = outer


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
