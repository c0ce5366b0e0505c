# Tandem: `make dev` runs everything locally; `make test` runs every check CI runs.
SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
SAM := .venv-sam/bin/sam
PORT ?= 8080
ENV ?= dev
export SAM_CLI_TELEMETRY := 0
# Under libfaketime (the calendar pass, or a whole run started at a date: issue 36) every process
# keeps the real monotonic clock and the library's "monotonic fix" stays off. With the library's
# defaults each timed wait's deadline moved by the faked date's offset: a clean clone started under
# faketime 5 days in the past waited 5 days on the first Condition.wait(timeout=5) (pytest hung on
# 2026-12-06), and one in the future spun. Without libfaketime loaded these mean nothing.
export FAKETIME_DONT_FAKE_MONOTONIC := 1
export FAKETIME_FORCE_MONOTONIC_FIX := 0
# ... and then CPython's time.sleep (clock_nanosleep with an absolute monotonic deadline, which
# the library shifts by the offset) fails with EINVAL: under libfaketime every Python process
# loads tests/faketime_site, whose sitecustomize sleeps on a timed Event instead (the calendar pass
# does the same for its own processes). Node's and Chromium's timers are relative: unaffected.
ifneq ($(findstring faketime,$(LD_PRELOAD)),)
export PYTHONPATH := $(CURDIR)/tests/faketime_site$(if $(PYTHONPATH),:$(PYTHONPATH))
endif
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD := 1

.PHONY: sam-build deploy-rehearsal checkov cost runtime-dates
.PHONY: calendar dev job test deps test-deps lint lint-py lint-web pytest web-test e2e e2e-journeys bench deploy build-web clean stripe-sync redrive replay-stripe-event guides

## ---- the README's two commands
dev: deps build-web            ## install, build the SPA, run the local stack on $(PORT)
	PORT=$(PORT) $(PY) -m infra.local.stack

job:                           ## run a scheduled job now on the running local stack: make job JOB=expire-features
	@curl -sS -X POST http://127.0.0.1:$(PORT)/__local/jobs/$(JOB); echo

# After the installs, every part runs in ONE make, three at a time (docs/decisions.md, 2026-11-29
# "make test in one queue"; 2026-12-04 "Playwright first, really"). Playwright (two workers, each
# its own stack) uses about 0.7 of a core while it waits on its pages, and the SAM build and
# rehearsal wait on pip and moto more than they compute, so three parts keep the two cores busy:
# Playwright first (it builds the SPA in its own recipe), ESLint and the SAM steps beside it, then
# the calendar pass (one pytest at a time) as ESLint ends, pytest (-n 2: the longest part left) as
# the SAM steps end, then the two short checks and the web type check in the slot Playwright
# leaves (the short checks before pytest made it the run's tail: 50 s later, s56c-s56f), and
# Vitest once Playwright is done (its order-only prerequisite: never beside Playwright, where h24c
# saw it starve). Two at a time, a fresh run took 758 s and left ~300 core-seconds idle while
# Playwright ran; three at a time, 715 s. The SPA build is inside ci-e2e, not a part before it:
# GNU make (4.3) passes over a goal whose prerequisite is still running and comes back to it only
# after the rest of the list, so with ci-build-web before it Playwright started last. Each part
# prints BENCH ci_<part>_s (wall) and ci_<part>_cpu_s, and when it started and ended (seconds
# after make test began: CI_T0). The SPA build here is Vite's alone: the type check `npm run
# build` starts with (tsc -b, noEmit) is exactly ci-web-typecheck's, so it runs once.
# timed.py needs only the standard library: the system Python until the venv exists
PY_BOOT = $$(test -x $(PY) && echo $(PY) || echo $(PYTHON))
CI_PARTS := ci-e2e ci-web-lint ci-sam ci-calendar ci-pytest ci-lint-py ci-e2e-typecheck ci-web-typecheck ci-web-test
# The installs run six at a time: on an empty cache they wait on the network, not the CPU (web's
# `npm ci` alone took 166 s wall for 22 CPU s), so the three npm installs, uv and apt-get overlap.
test:                          ## everything CI runs (installs first, six at a time; then the checks three at a time)
	@start=$$(date +%s); export CI_T0=$$start; \
	  $(PY_BOOT) tests/bench/timed.py ci_deps_s -- $(MAKE) --no-print-directory -j6 deps test-deps; \
	  $(MAKE) --no-print-directory -j3 --output-sync=target $(CI_PARTS); \
	  echo "BENCH ci_test_s $$(( $$(date +%s) - start ))"
	@echo "All checks passed."

.PHONY: $(CI_PARTS)
ci-web-test: deps | ci-e2e
	$(PY) tests/bench/timed.py ci_web_test_s -- $(MAKE) --no-print-directory web-test
ci-web-lint: deps
	cd web && ../$(PY) ../tests/bench/timed.py ci_web_lint_s -- npm run lint
ci-web-typecheck: deps
	cd web && ../$(PY) ../tests/bench/timed.py ci_web_typecheck_s -- npm run typecheck
ci-e2e: deps test-deps
	cd web && ../$(PY) ../tests/bench/timed.py ci_build_web_s -- npx --no-install vite build
	$(MAKE) --no-print-directory e2e-journeys
ci-pytest: deps                # the money-and-time tests run in ci-calendar, at its dates (docs/decisions.md 2026-12-03)
	$(MAKE) --no-print-directory pytest PYTEST_ARGS=--dated-in-calendar-pass
ci-calendar: deps test-deps    ## the money-and-time tests, at the dates that break calendars (libfaketime)
	$(PY) tests/bench/timed.py ci_calendar_s -- $(MAKE) --no-print-directory calendar
ci-sam: deps test-deps
	$(PY) tests/bench/timed.py ci_sam_build_s -- $(MAKE) --no-print-directory sam-build
	$(PY) tests/bench/timed.py ci_deploy_rehearsal_s -- $(PY) -m infra.deploy_rehearsal --build-dir .aws-sam/build
	$(PY) tests/bench/timed.py ci_sam_local_s -- $(MAKE) --no-print-directory sam-local-check
ci-lint-py: deps test-deps
	$(PY) tests/bench/timed.py ci_lint_py_s -- $(MAKE) --no-print-directory lint-py
ci-e2e-typecheck: test-deps
	cd tests/e2e && ../../$(PY) ../bench/timed.py ci_e2e_typecheck_s -- npm run typecheck

## ---- installs (stamped, so repeat runs are quick)
deps: $(VENV)/.installed web/node_modules/.installed

# Python packages go in with uv (docs/decisions.md 2026-12-02 "installs with uv"): pip took 78 s
# for checkov alone on an empty cache, uv 3 s. pip installs uv itself, pinned, into the app venv.
# --compile-bytecode: pip wrote every package's .pyc at install, uv does not, and where
# PYTHONDONTWRITEBYTECODE is set (this machine's shells) no import ever wrote one, so every Python
# process compiled moto, botocore, boto3 ... from source: 5 of a local stack start's 11.5 CPU s
# (docs/decisions.md 2026-12-03 "make test's time bar").
UV := $(VENV)/bin/uv
UV_PIP = UV_NATIVE_TLS=1 $(UV) pip install -q --compile-bytecode
# checkov runs once a make test: compiling its whole venv at install cost 8 CPU s, compiling what
# its one run imports 2 s (install 8.0 + run 4.9 against 0.7 + 6.6). SAM runs a dozen times: kept.
UV_PIP_ONCE = UV_NATIVE_TLS=1 $(UV) pip install -q

$(UV):
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --disable-pip-version-check uv==0.13.9

$(VENV)/.installed: requirements-dev.txt layers/core/python/requirements.txt layers/core/pyproject.toml | $(UV)
	$(UV_PIP) --python $(PY) -r requirements-dev.txt -e layers/core
	touch $@

web/node_modules/.installed: web/package.json web/package-lock.json
	cd web && npm ci --no-audit --no-fund
	touch $@

test-deps: .venv-sam/.installed .venv-checkov/.installed tests/e2e/node_modules/.installed infra/node_modules/.installed /usr/bin/chromium /usr/lib/chromium/chromium-headless-shell /usr/bin/faketime

.venv-sam/.installed: | $(UV)  # SAM CLI in its own venv: its pins must not move the app's
	test -x .venv-sam/bin/python || $(PYTHON) -m venv .venv-sam
	$(UV_PIP) --python .venv-sam/bin/python aws-sam-cli==1.170.0
	touch $@

.venv-checkov/.installed: | $(UV)  # checkov in its own venv too: its pins (boto3, pydantic, ...) are its own
	test -x .venv-checkov/bin/python || $(PYTHON) -m venv .venv-checkov
	$(UV_PIP_ONCE) --python .venv-checkov/bin/python checkov==3.3.30
	touch $@

tests/e2e/node_modules/.installed: tests/e2e/package.json tests/e2e/package-lock.json
	cd tests/e2e && npm ci --no-audit --no-fund
	touch $@

infra/node_modules/.installed: infra/package.json infra/package-lock.json
	cd infra && npm ci --no-audit --no-fund
	touch $@

# Debian's Chromium, its driver and its headless shell (never a tool's own download) and Debian's
# libfaketime (the calendar pass, tests/calendar_pass.py): one apt-get for all (a grouped target).
# The Playwright journeys run in the headless shell, the same Chromium build without the full
# browser's UI layers (docs/decisions.md 2026-12-07: 482 -> 312 core-seconds for the 73
# journeys); the screen bench (tests/bench/page_settle.mjs) measures in the full browser.
/usr/bin/chromium /usr/lib/chromium/chromium-headless-shell /usr/bin/faketime &:
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver chromium-headless-shell faketime

build-web: web/node_modules/.installed
	cd web && npm run build

## ---- checks
lint: lint-py lint-web

CFN_LINT = $(VENV)/bin/cfn-lint --regions us-east-1 eu-west-2

lint-py: deps test-deps
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check functions layers infra tests
	# one cfn-lint for both regions: `sam validate --lint` is this same cfn-lint (1.58.0) at
	# samconfig's eu-west-2 and nothing else, so it ran the linter twice (docs/decisions.md 2026-12-03)
	$(CFN_LINT) -- template.yaml
	$(PY) -m infra.observability --check
	$(MAKE) --no-print-directory checkov
	rm -rf .local/asl && $(PY) -m infra.local.export_asl .local/asl
	cd infra && npx --no-install asl-validator $$(for f in statemachines/*.asl.json ../.local/asl/*.json; do printf -- '--json-path %s ' $$f; done)

lint-web: deps test-deps
	cd web && npm run typecheck && npm run lint
	cd tests/e2e && npm run typecheck

pytest: deps
	rc=0; $(PY) tests/bench/timed.py ci_pytest_s -- $(PY) -m pytest -n 2 -q --durations=25 $(PYTEST_ARGS) || rc=$$?; if [ $$rc -eq 5 ]; then echo "pytest collected no tests: that is a failure here"; exit 1; fi; exit $$rc

web-test: deps
	cd web && npm test

calendar: deps /usr/bin/faketime  ## make calendar [DATE='2028-02-29 12:00:00']: tests/calendar_pass.py
	$(PY) tests/calendar_pass.py --parallel 1 $(if $(DATE),--date '$(DATE)')

e2e: deps test-deps build-web
	$(MAKE) --no-print-directory e2e-journeys

e2e-journeys:                  # the journeys on the web app as last built (make test builds it among its checks)
	cd tests/e2e && ../../$(PY) ../bench/timed.py ci_e2e_s -- npx --no-install playwright test

bench: deps test-deps build-web  ## BENCH lines: cold start, DynamoDB calls per screen and per request, matching, a day replayed, the 1,000-event billing proof, web size
	$(PY) tests/bench/cold_start.py
	$(PY) tests/bench/cold_start_artifact.py
	$(PY) tests/bench/screens.py
	$(PY) tests/bench/connection_requests.py
	$(PY) tests/bench/matching.py
	$(PY) tests/bench/matching_heldout.py
	$(PY) tests/bench/platform_sim.py --world tests.bench.worlds.interests:factory --world tests.bench.worlds.geo_size:factory --noise 0 --noise 0.2 --noise 0.4
	$(PY) tests/bench/local_stack.py
	$(PY) tests/bench/day_replay.py  # a day of members on the local stack (Locust), then the nightly jobs: about 40 min here
	$(PY) tests/bench/auth_timing.py
	$(PY) tests/bench/stripe_webhook.py
	$(PY) tests/bench/timed.py billing_proof_s -- $(PY) tests/bench/billing_events.py
	$(PY) tests/bench/notify_fanout.py
	$(PY) tests/bench/cost_figures.py
	$(PY) tests/bench/guides.py
	cd web && npm run --silent size

## ---- the recorded video guides (tests/e2e/guides/): a fresh local stack on a free port, each
## guide's script recorded (Playwright's video, through Debian's ffmpeg) into media/guides/ and
## layers/core/python/tandem/content/data/guide_recordings.json; commit them (docs/decisions.md)
PW_TOOLS := $(CURDIR)/.local/playwright-tools
guides: deps test-deps build-web /usr/bin/ffmpeg
	rev=$$(node -p "require('./tests/e2e/node_modules/playwright-core/browsers.json').browsers.find((b) => b.name === 'ffmpeg').revision"); \
	  mkdir -p $(PW_TOOLS)/ffmpeg-$$rev && ln -sf /usr/bin/ffmpeg $(PW_TOOLS)/ffmpeg-$$rev/ffmpeg-linux
	port=$$($(PY) -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'); \
	  cd tests/e2e && GUIDES_RECORD=1 E2E_PORT=$$port PLAYWRIGHT_BROWSERS_PATH=$(PW_TOOLS) npx --no-install playwright test guides.spec.ts
	$(PY) tests/bench/guides.py

/usr/bin/ffmpeg:               # Debian's ffmpeg: Playwright's video recording and the guides' encoding
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends ffmpeg

checkov: .venv-checkov/.installed   ## every skipped rule is justified next to its resource in template.yaml
	.venv-checkov/bin/checkov -f template.yaml --framework cloudformation --quiet --compact --skip-download

## ---- the deploy, rehearsed on every CI run (no AWS account): docs/decisions.md
sam-build: deps test-deps     ## sam build with the real code and layer; BENCH package sizes per function
	@start=$$(date +%s); $(SAM) build --build-dir .aws-sam/build; \
	  echo "sam build: $$(( $$(date +%s) - start )) s"
	$(PY) tests/bench/lambda_packages.py .aws-sam/build

# ---- sam local, for developers with Docker (README "With Docker: sam local"): the API in
# containers on 127.0.0.1:$(SAM_LOCAL_PORT) against the data of a running
# `MOTO_PORT=5005 MOTO_HOST=<address> make dev`; infra/sam_local.py writes the env-vars file.
.PHONY: sam-local sam-local-check
SAM_LOCAL_PORT ?= 3000
SAM_LOCAL_ENDPOINT ?= http://host.docker.internal:$(MOTO_PORT)
SAM_LOCAL_FILES = $(PY) -m infra.sam_local prepare --build-dir .aws-sam/build --endpoint $(SAM_LOCAL_ENDPOINT) --stack-url http://127.0.0.1:$(PORT)
sam-local: deps .venv-sam/.installed  ## sam build + sam local start-api (Docker) on make dev's moto: MOTO_PORT=5005 make sam-local
	@test -n "$(MOTO_PORT)" || { echo "Set MOTO_PORT to the port of the running make dev's moto (README: With Docker: sam local)."; exit 2; }
	$(SAM) build --build-dir .aws-sam/build
	$(SAM_LOCAL_FILES)
	AWS_ACCESS_KEY_ID=local AWS_SECRET_ACCESS_KEY=local $(SAM) local start-api \
	  -t .aws-sam/build/template.sam-local.json --env-vars .aws-sam/sam-local-env.json --region eu-west-2 \
	  --parameter-overrides Stage=dev --host 127.0.0.1 --port $(SAM_LOCAL_PORT) \
	  --add-host host.docker.internal:host-gateway --warm-containers LAZY $(SAM_LOCAL_ARGS)

sam-local-check:               # without Docker, on sam build's output (ci-sam): what sam local would run
	$(MAKE) --no-print-directory SAM_LOCAL_ENDPOINT=http://host.docker.internal:5005 sam-local-files
	$(PY) -m infra.sam_local check-build --build-dir .aws-sam/build
	$(PY) -m infra.sam_local check-sam-local --build-dir .aws-sam/build
	$(SAM) validate --lint -t .aws-sam/build/template.sam-local.json
	$(SAM) local start-api --help > /dev/null
	$(SAM) local invoke --help > /dev/null

.PHONY: sam-local-files
sam-local-files:               # the env-vars file and template.sam-local.json for the last sam build
	$(SAM_LOCAL_FILES)

deploy-rehearsal: sam-build     ## sam package to moto S3, create the stack in moto per samconfig.toml env
	$(PY) -m infra.deploy_rehearsal --build-dir .aws-sam/build

## ---- deploy one environment (AWS credentials required): make deploy ENV=staging
# The runtime's retirement dates, on today's date: template.yaml's Metadata leaves them out of
# every other lint (make test is green on any day, issue 36), so a deploy is where they stop us.
RUNTIME_DATES := W2531 E2531 E2533
runtime-dates: deps            ## fails once template.yaml's Lambda runtime is deprecated (cfn-lint, today's date)
	$(CFN_LINT) --mandatory-checks $(RUNTIME_DATES) -- template.yaml

deploy: deps build-web runtime-dates
	$(SAM) build --config-env $(ENV)
	$(SAM) deploy --config-env $(ENV)
	$(PY) -m infra.run_job --stack tandem-$(ENV) claim-legacy-emails
	$(PY) -m infra.run_job --stack tandem-$(ENV) index-users
	$(PY) -m infra.run_job --stack tandem-$(ENV) index-pending-requests
	$(PY) -m infra.deploy_web --stack tandem-$(ENV) --dist web/dist

## ---- Stripe products, prices, portal, payment links and the webhook endpoint for one environment: make stripe-sync ENV=dev
stripe-sync: deps
	$(PY) -m infra.stripe_sync --env $(ENV)

clean:
	rm -rf .local .aws-sam web/dist

cost: deps                     ## docs/cost.md from the benches' figures (runs screens, connection_requests, cost_figures)
	$(PY) -m infra.cost

## ---- bring back what failed, once fixed (docs/runbook.md); idempotent
redrive: deps                  ## make redrive ENV=prod WHAT=billing|match-runs|notifications|jobs
	$(PY) -m infra.redrive --stack tandem-$(ENV) --what $(WHAT)

replay-stripe-event: deps      ## make replay-stripe-event ENV=prod EVENT=evt_...
	$(PY) -m infra.redrive --stack tandem-$(ENV) --stripe-event $(EVENT)
