# zklock: every check the project has is reachable from `make verify`.
# Targets that need a ZooKeeper ensemble start their own on loopback unless
# ZKLOCK_SERVERS=host:port,... points at one (see `make ensemble-up`).

GO        ?= go
ZK_JAR    := /usr/share/java/zookeeper.jar
PKGS      := ./...
RACE_PKGS := ./impl/... ./ensemble/... ./faultinject/... ./cmd/zkensemble/...

.PHONY: setup verify test vet fmt-check unit integration checker tlc tlc-deep mutants \
        chaos chaos-short chaos-tests bench bench-quick interop ensemble-up ensemble-down

## verify: everything CI runs (static checks, unit, race + integration, TLC,
## the checker's full tests, and the mutants every test suite must kill).
verify: setup vet fmt-check unit integration checker chaos-tests tlc mutants chaos-short

## setup: what a fresh Debian machine lacks. Debian's `zookeeper` package
## only, never `zookeeperd`, which would start a server on port 2181.
setup:
	@if [ ! -f $(ZK_JAR) ]; then \
	  echo "installing Debian's zookeeper package"; \
	  if [ "$$(id -u)" = 0 ]; then sudo=; else sudo=sudo; fi; \
	  $$sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq zookeeper; \
	fi
	@if ! command -v javac >/dev/null || ! command -v mvn >/dev/null; then \
	  echo "installing a JDK and Maven (TLC, the Curator interop test)"; \
	  if [ "$$(id -u)" = 0 ]; then sudo=; else sudo=sudo; fi; \
	  $$sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq default-jdk-headless maven; \
	fi
	$(GO) mod download

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

# The checker's tests without -short: the 100k-operation history and the
# timeout control.
checker:
	$(GO) test -count=1 -race ./checker/...

tlc:
	$(GO) run ./cmd/tlc -results spec/tla/RESULTS.md

tlc-deep:
	$(GO) run ./cmd/tlc -deep

# Deliberately broken copies of impl/zklock (go test -overlay): each must be
# killed by the test named for it.
mutants:
	$(GO) run ./cmd/mutants

## chaos: the default campaign (3 minutes, every fault) on an embedded local
## 3-node ensemble; history, report and verdict in out/chaos-<timestamp>.
chaos: setup
	$(GO) run ./cmd/chaos

CHAOS := .cache/bin/chaos

# make verify's campaigns: zklock must pass; the controls (go-zookeeper's
# zk.Lock, and critical sections without fencing) must be flagged, exit 1.
chaos-short:
	@mkdir -p $(dir $(CHAOS)) && rm -rf out/verify
	$(GO) build -o $(CHAOS) ./cmd/chaos
	$(CHAOS) --duration 30s --fault-interval 4s --quiet --out out/verify/zklock
	@for control in "--lock=zk --faults blackhole-holder" "--no-fence --faults freeze-client --rw-ratio 0"; do \
	  name=$$(echo $$control | cut -d' ' -f1 | tr -d '-' | cut -d= -f1); \
	  echo "control $$control: must be flagged"; \
	  $(CHAOS) --duration 20s $$control --clients 4 --locks 2 --quiet --out out/verify/control-$$name; rc=$$?; \
	  if [ $$rc -ne 1 ]; then echo "control $$control was not flagged (exit $$rc)"; exit 1; fi; \
	done

# cmd/chaos's own tests: bad input, schedules, and short campaigns with controls.
chaos-tests:
	$(GO) test -count=1 ./cmd/chaos/...

## bench: zklock vs go-zookeeper's zk.Lock vs Apache Curator vs the physical
## floor, on one local ensemble, as ratios measured in one run (bench/RESULTS.md).
bench: setup
	$(GO) run ./cmd/bench

bench-quick: setup
	$(GO) run ./cmd/bench --quick --out ''

# Go and Java (Curator) processes contending on one lock path; part of
# `integration` too.
interop: setup
	$(GO) test -count=1 -race -run '^TestInterop' ./impl/zklock

ensemble-up:
	$(GO) run ./cmd/zkensemble up

ensemble-down:
	$(GO) run ./cmd/zkensemble down
