# syncgate — `make help` lists the targets.
GO ?= go
PKGS := ./...

STATIC_OUT ?= syncgate
ENGINE ?= $(shell command -v docker 2>/dev/null || command -v podman 2>/dev/null)

.PHONY: help demo test test-short build bench bench-limit bench-pgcost static image

help: ## list targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-10s %s\n", $$1, $$2}'

demo: ## start PostgreSQL/Redis if needed, seed a demo chain, print keys and curl commands, serve on :8080
	@bash .ci/services
	$(GO) run . demo

test: ## the whole test suite: gofmt, go vet, go test -race (real PostgreSQL and Redis, headless Chromium)
	@bash .ci/services --browser
	@test -z "$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))" || { echo "gofmt needed:"; gofmt -l .; exit 1; }
	$(GO) vet $(PKGS)
	@$(MAKE) --no-print-directory static STATIC_OUT=/dev/null
	$(GO) test -race -count=1 -timeout 15m $(PKGS)

test-short: ## the pure tests only (go test -short): seconds, no PostgreSQL, Redis or Chromium needed
	$(GO) test -short $(PKGS)

bench: ## seed sg_bench_4m if missing (~10 min, ~13 GB), serve it, run every scenario, the wide workload last (bench/run.sh; docs/PERFORMANCE.md)
	@bash .ci/services
	@bash bench/run.sh

bench-limit: ## 4 instances on one Redis: how far past its rate limit one key gets (bench/limitcheck.sh)
	@bash .ci/services
	@bash bench/limitcheck.sh

bench-pgcost: ## PostgreSQL instructions per cold-path statement, by callgrind (stops the cluster while it counts; bench/pgcost.sh)
	@bash bench/pgcost.sh

build: ## build ./syncgate
	$(GO) build -o syncgate .

static: ## the static binary the Dockerfile ships (CGO off; STATIC_OUT=path)
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags='-s -w' -o $(STATIC_OUT) .

image: ## build the syncgate container image (Dockerfile) with docker or podman
	@test -n "$(ENGINE)" || { echo "image: no container engine (docker or podman) found"; exit 1; }
	$(ENGINE) build -t syncgate:latest .
