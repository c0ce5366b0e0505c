"""Cold start on what we deploy: a member's first GET /api/dashboard from the built artifact.

`sam build ApiFunction` builds the API function and the core layer exactly as `make deploy`
does (the layer through layers/core/python/Makefile). They are laid out as Lambda lays them
out, in a temp dir, read-only: the function in `var/task`, the layer in `opt/python`, and the
runtime's own boto3/botocore (copied from the venv, as compiled as the runtime's) in
`var/runtime`; the interpreter is the runtime's Python 3.11 with no site-packages (`-S`),
PYTHONPATH in Lambda's order and PYTHONDONTWRITEBYTECODE=1, so nothing compiled at run time
is kept. Against a ThreadedMotoServer provisioned from template.yaml with one member (as
tests/bench/cold_start.py), each sample in a fresh interpreter, alternating:

(a) the member's first GET /api/dashboard (import app, answer the event);
(b) `import boto3; boto3.client("dynamodb").get_item(...)` for the member's user item.

Prints `BENCH cold_start_ratio_artifact` (median of the a/b ratios of 7 pairs of wall times),
`BENCH cold_start_artifact_ms` and `BENCH cold_start_artifact_boto3_ms` (medians), and
`BENCH cold_start_ratio_artifact_cpu`, the same ratio of the interpreters' CPU time (start-up
included). The 1.4 target is read on the CPU ratio: on this shared 2-core machine the wall ratio
swings more between runs (1.1-1.75) than any change moves it, CPU time far less.

The invocation is one X-Ray did not sample (as most are under load: the default rule samples
one request a second and 5% of the rest), so the X-Ray SDK is not loaded (tandem.observability
`active_tracer`). BENCH_TRACE_SAMPLED=1 measures a sampled one instead (Lambda's trace header
with Sampled=1): it loads the SDK and patches botocore and http.client, 20-25 ms more CPU.
It fails loudly when its setup is wrong: a module of the app or the layer imported from
anywhere but the laid-out artifact, a layer without bytecode, a byte written into the layout.

BENCH_BUILD_DIR: use an existing `sam build` output instead of building (iterating on the bench);
BENCH_SAMPLES (default 7).
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import socket
import stat
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import _setup  # sets sys.path first; see tests/bench/_setup.py

ROOT = _setup.ROOT
from tests.bench.cold_start import API_TEMPLATE, BASELINE, _seed  # noqa: E402

SAMPLES = int(os.environ.get("BENCH_SAMPLES", "7"))
SAM = ROOT / ".venv-sam/bin/sam"
# What the Lambda Python runtime has besides the standard library (its boto3 and what it needs).
RUNTIME_PACKAGES = ("boto3", "botocore", "s3transfer", "jmespath", "dateutil", "urllib3", "six.py")
# BENCH_PYTHON: another runtime's interpreter (python3.12, python3.13) with BENCH_BUILD_DIR a layer
# built by it (make -C layers/core/python build-CoreLayer PYTHON=... ARTIFACTS_DIR=.../CoreLayer).
RUNTIME_PYTHON = Path(
    os.environ.get("BENCH_PYTHON")
    or Path(sys.base_prefix) / "bin" / f"python{sys.version_info.major}.{sys.version_info.minor}"
)

# After the sample: every module that is neither the standard library nor the runtime's must
# have come from the laid-out function or layer (not the venv, not the source tree).
WHERE_FROM = """
import os as _os, sys as _sys
_roots = tuple(_os.environ["PYTHONPATH"].split(_os.pathsep)) + (_sys.base_prefix + "/lib/",)
_stray = sorted(
    name for name, module in list(_sys.modules.items())
    if getattr(module, "__file__", None) and not module.__file__.startswith(_roots)
)
assert not _stray, "imported from outside the artifact: " + ", ".join(_stray[:10])
assert _sys.modules["tandem"].__file__.startswith(_roots[1]), "tandem did not come from the layer"
"""


def build(*functions: str) -> Path:
    """`sam build` of these functions (none named: every function) into a temp dir, or the
    build BENCH_BUILD_DIR names."""
    given = os.environ.get("BENCH_BUILD_DIR")
    if given:
        return Path(given)
    out = Path(tempfile.mkdtemp(prefix="tandem-build-"))
    env = {**os.environ, "SAM_CLI_TELEMETRY": "0", "PATH": f"{RUNTIME_PYTHON.parent}:{os.environ['PATH']}"}
    subprocess.run(
        [str(SAM), "build", *functions, "--build-dir", str(out), "-t", str(ROOT / "template.yaml")],
        cwd=ROOT,
        env=env,
        check=True,
        stdout=subprocess.DEVNULL,
    )
    return out


def lay_out(built: Path, into: Path) -> dict[str, Path]:
    """Function, layer and runtime packages where Lambda puts them, then made read-only."""
    paths = {"task": into / "var/task", "layer": into / "opt/python", "runtime": into / "var/runtime"}
    shutil.copytree(built / "ApiFunction", paths["task"])
    shutil.copytree(built / "CoreLayer" / "python", paths["layer"])
    site = next(Path(p) for p in sys.path if p.endswith("site-packages") and (Path(p) / "boto3").exists())
    paths["runtime"].mkdir(parents=True)
    for name in RUNTIME_PACKAGES:
        source = site / name
        if source.is_dir():
            shutil.copytree(source, paths["runtime"] / name)
        else:
            shutil.copy2(source, paths["runtime"] / name)
    # The runtime's boto3 is compiled for the runtime's Python, as in the Lambda image.
    subprocess.run(
        [
            str(RUNTIME_PYTHON),
            "-m",
            "compileall",
            "-q",
            "--invalidation-mode",
            "unchecked-hash",
            paths["runtime"],
        ],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    compiled = list(paths["layer"].rglob("*.pyc"))
    sources = list(paths["layer"].rglob("*.py"))
    functions = len(list(paths["task"].rglob("*.py")))
    functions_compiled = len(list(paths["task"].rglob("*.pyc")))
    print(
        f"# layer: {len(sources)} .py, {len(compiled)} .pyc; "
        f"function: {functions} .py, {functions_compiled} .pyc"
    )
    if not compiled:
        print("# WARNING: the layer carries no bytecode: every cold start compiles it (the old build)")
    if not functions_compiled:
        print("# WARNING: the function carries no bytecode: every cold start compiles app.py and chalicelib")
    for path in [into, *into.rglob("*")]:
        if not path.is_symlink():
            path.chmod(path.stat().st_mode & ~(stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))
    return paths


def snapshot(root: Path) -> set[str]:
    return {str(p.relative_to(root)) for p in root.rglob("*")}


CPU: list[tuple[str, float]] = []  # (kind, CPU seconds of the whole interpreter) per sample


def _children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def sample(code: str, env: dict[str, str], kind: str = "") -> float:
    """Wall seconds from the interpreter's first line to the answer; the interpreter's CPU time
    (start-up included) is kept in CPU, steadier than wall time on a loaded machine."""
    cpu = _children_cpu()
    out = subprocess.run([str(RUNTIME_PYTHON), "-S", "-c", code], env=env, capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit(f"benchmark sample failed:\n{out.stderr[-3000:]}")
    CPU.append((kind, _children_cpu() - cpu))
    return float(out.stdout.strip().splitlines()[-1])


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def main() -> None:
    import logging

    from moto.server import ThreadedMotoServer

    built = build("ApiFunction")
    scratch = Path(tempfile.mkdtemp(prefix="tandem-lambda-"))
    try:
        paths = lay_out(built, scratch)
        before = snapshot(scratch)
        logging.getLogger("werkzeug").setLevel(logging.ERROR)
        port = _free_port()
        server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
        server.start()
        try:
            env = {
                **{k: v for k, v in _seed(f"http://127.0.0.1:{port}").items() if not k.startswith("PYTHON")},
                "PYTHONPATH": os.pathsep.join(str(paths[k]) for k in ("task", "layer", "runtime")),
                "PYTHONDONTWRITEBYTECODE": "1",
                "LAMBDA_TASK_ROOT": str(paths["task"]),
            }
            if os.environ.get("BENCH_TRACE_SAMPLED") == "1":  # its segments go to a port nobody reads
                env["_X_AMZN_TRACE_ID"] = (
                    "Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1"
                )
                env["AWS_XRAY_DAEMON_ADDRESS"] = f"127.0.0.1:{_free_port()}"
            timed = "elapsed = time.perf_counter() - t0\n" + WHERE_FROM + "print(elapsed)"
            api_code = API_TEMPLATE.format(paths="[]").replace("print(time.perf_counter() - t0)", timed)
            sample(api_code, env), sample(BASELINE, env)  # the OS file cache warm, as a Lambda host's
            api, base = [], []
            CPU.clear()
            for _ in range(SAMPLES):
                api.append(sample(api_code, env, "api"))
                base.append(sample(BASELINE, env, "boto3"))
        finally:
            server.stop()
        written = snapshot(scratch) - before
        if written:
            raise SystemExit(f"the read-only layout was written to: {sorted(written)[:5]}")
    finally:
        for path in [scratch, *scratch.rglob("*")]:
            if not path.is_symlink():
                path.chmod(path.stat().st_mode | stat.S_IWUSR)
        shutil.rmtree(scratch, ignore_errors=True)
    ratio = statistics.median(a / b for a, b in zip(api, base, strict=True))
    print(json.dumps({"api_ms": [round(a * 1000) for a in api], "boto3_ms": [round(b * 1000) for b in base]}))
    version = subprocess.run([str(RUNTIME_PYTHON), "-V"], capture_output=True, text=True).stdout.strip()
    sampled = "sampled by X-Ray" if os.environ.get("BENCH_TRACE_SAMPLED") == "1" else "not sampled by X-Ray"
    print(f"# {version}, load average {os.getloadavg()[0]:.2f}, the invocation {sampled}")
    print(f"BENCH cold_start_artifact_ms {statistics.median(api) * 1000:.0f}")
    print(f"BENCH cold_start_artifact_boto3_ms {statistics.median(base) * 1000:.0f}")
    cpu_api = [c for kind, c in CPU if kind == "api"]
    cpu_base = [c for kind, c in CPU if kind == "boto3"]
    cpu_ratio = statistics.median(a / b for a, b in zip(cpu_api, cpu_base, strict=True))
    print(
        f"# CPU ms (median): dashboard {statistics.median(cpu_api) * 1000:.0f}, "
        f"boto3 {statistics.median(cpu_base) * 1000:.0f}"
    )
    print(f"BENCH cold_start_ratio_artifact {ratio:.2f}")
    print("# the same ratio of the whole interpreters' CPU time (start-up included; the target's):")
    print(f"BENCH cold_start_ratio_artifact_cpu {cpu_ratio:.2f}")


if __name__ == "__main__":
    main()
