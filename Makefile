# The two commands of the README: `make serve` and `make test`.
GO ?= go
ADDR ?= :8080
DATA_DIR ?= ./.data

.PHONY: serve test test-short build generate check-generate fmt-check lint openapi-lint bench loadbench postgres pgbouncer wrk browser failover-drill

## serve: start the API server on the embedded PostgreSQL (or DATABASE_URL)
serve: postgres build
	./server serve --addr $(ADDR) --data-dir $(DATA_DIR)

## test: run every test (with the race detector) against real PostgreSQL.
## The rest package alone runs for minutes with the race detector on two
## cores: its time limit is set above go test's 10-minute default, so a
## loaded machine does not fail it. The dashboard's browser test needs
## Chromium and its driver: `browser` installs them when missing; the
## pooler test needs Debian's pgbouncer: `pgbouncer` installs it.
## -vet=all runs every vet analyzer (what `go vet` runs) on each package
## inside the test build, on the packages it compiles anyway, instead of a
## second compilation of the whole tree for a separate `go vet`.
## testpg runs the packages' test processes on one PostgreSQL server, whose
## migrated template they share (docs/testing.md), instead of a server and
## a migration each; tests that need a cluster of their own still start it.
## -trimpath keeps the checkout's directory out of what is compiled, so
## the build cache's entries do not depend on where the tree is checked
## out: a fresh clone at another path (as CI makes) reuses what an earlier
## run of the same sources compiled, instead of compiling every package of
## the project again (docs/testing.md). go test links its binaries without
## DWARF already (-s -w) when it runs them.
## GORACE=atexit_sleep_ms=0: a race-built process otherwise sleeps a second
## as it exits (the race runtime's default), once per test binary and per
## process the root package's tests start; a race in a test still fails
## that test, as testing checks the detector after each one. Options the
## caller's GORACE sets still win (later options override earlier ones).
test: postgres pgbouncer browser
	GORACE="atexit_sleep_ms=0 $$GORACE" $(GO) run ./internal/testenv/testpg -- \
		$(GO) test -race -vet=all -trimpath -count=1 -timeout 30m $(TEST_PACKAGES)

## TEST_PACKAGES: every package, the longest to run first. go test starts
## its actions in the order of the packages it is given (./... alone is
## alphabetical, which put rest, a third of the run, last: its compile,
## link and run were the run's tail on one core). Listed first, they build
## and run while the other core works through the short packages.
TEST_PACKAGES = ./rest . ./graph ./bench/failover ./models/generate ./internal/app ./...

## test-short: the inner loop (docs/testing.md): go test -short without the
## race detector. Tests marked long (testdb.Long: a PostgreSQL cluster,
## pgbouncer, server processes or a browser of their own) skip themselves;
## every other test runs on real PostgreSQL as in make test, which CI runs
## and which runs every test with the race detector.
test-short: postgres
	$(GO) run ./internal/testenv/testpg -- $(GO) test -short -count=1 $(TEST_PACKAGES)

## build: build the server binary ./server
build:
	$(GO) build -o server .

## generate: regenerate the GraphQL executor and resolver stubs: gqlgen with
## gqlgen.yml, then the executor made sequential below the query root
## (graph/generate; `go tool gqlgen generate` alone writes a different executor);
## then the account's JSON rendering from the models' struct tags
## (models/generate writes models/json_generated.go)
generate:
	$(GO) run ./models/generate/enums
	$(GO) run ./graph/generate
	$(GO) run ./models/generate

## check-generate: fail when regeneration changes the committed tree
check-generate: generate
	@git diff --exit-code -- . || (echo "make generate changed the tree; run 'make generate' and commit" >&2; exit 1)
	@test -z "$$(git status --porcelain --untracked-files=all -- graph resolvers models)" || (git status --porcelain -- graph resolvers models; echo "make generate left new files" >&2; exit 1)

.PHONY: vendor-playground

## vendor-playground: bring GraphiQL's browser builds for /playground in from the
## npm registry at the versions pinned in scripts/playground-packages.json, into
## graph/playground/vendored/ with their licences and MANIFEST.json (docs/graphql.md)
vendor-playground:
	node scripts/vendor-playground.mjs

## fmt-check: fail when a Go file is not gofmt-formatted
fmt-check:
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || (gofmt -l $$(git ls-files '*.go'); echo "gofmt needed" >&2; exit 1)

## lint: gofmt and go vet (make test vets too, with every analyzer)
lint: fmt-check
	$(GO) vet ./...

## openapi-lint: validate the OpenAPI document (server openapi) against the
## OpenAPI 3.1 schema (tools/openapi-validate), then lint it with Redocly's
## recommended rules and Spectral's spectral:oas: no error allowed. The
## linters come from the npm registry at tools/openapi-lint's lock (npm ci
## when missing), as the browser test's driver does (scripts/openapi-lint.sh)
openapi-lint:
	@./scripts/openapi-lint.sh

## bench: run the benchmark harness
bench: postgres
	$(GO) test -timeout 60m -run '^$$' -bench . -benchmem ./bench/...

## loadbench: the load tables of docs/performance.md: the built server on a fresh
## embedded PostgreSQL under wrk at 1, 8 and 32 connections, its statements bare
## under pgbench, the net/http floor, then one against two server processes on
## the database (LOADBENCH_FLAGS='-duration 2s -conns 1,8')
loadbench: wrk
	@env -u DATABASE_URL ./scripts/ensure-postgres.sh
	$(GO) run ./bench/loadbench $(LOADBENCH_FLAGS)

## failover-drill: kill -9 of the primary under a load of charges, pg_ctl
## promote of its synchronous standby; prints the writes acknowledged, found
## and duplicated and the seconds of unavailability (docs/scaling.md). Its
## short form runs in make test.
failover-drill: postgres
	$(GO) test -count=1 -v -run TestFailoverLosesNoAcknowledgedWrite ./bench/failover \
		-args -drill-writers 8 -drill-kill-after 400 -drill-writes-after 400

postgres:
	@./scripts/ensure-postgres.sh

pgbouncer:
	@./scripts/ensure-pgbouncer.sh

wrk:
	@./scripts/ensure-wrk.sh

browser:
	@./scripts/ensure-browser.sh
