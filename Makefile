# zklock: every check the project has is reachable from `make verify`.
# Targets that need a ZooKeeper ensemble start their own on loopback unless
# ZKLOCK_SERVERS=host:port,... points at one (see `make ensemble-up`).

GO        ?= go
PKGS      := ./...
RACE_PKGS := ./impl/...

.PHONY: verify test vet fmt-check unit integration tlc tlc-deep \
        ensemble-up ensemble-down

## verify: everything CI runs (static checks, unit, race + integration, TLC).
verify: vet fmt-check unit integration tlc

## test: the fast subset, no ensemble, no TLC.
test: vet fmt-check unit

vet:
	$(GO) vet $(PKGS)

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null; git ls-files -o --exclude-standard '*.go' 2>/dev/null)); \
	if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

unit:
	$(GO) test -short -count=1 $(PKGS)

# One ensemble per test binary (TestMain); -p 1 keeps two ensembles from
# competing for the two cores of a CI machine.
integration:
	$(GO) test -p 1 -count=1 -race -timeout 15m $(RACE_PKGS)

tlc:
	$(GO) run ./cmd/tlc -results spec/tla/RESULTS.md

tlc-deep:
	$(GO) run ./cmd/tlc -deep

ensemble-up:
	$(GO) run ./cmd/zkensemble up

ensemble-down:
	$(GO) run ./cmd/zkensemble down
