# chbench: `make bench` runs the main job (benchmarks, analyses, plots into
# results/), `make test` runs the tests. Every knob below can be overridden
# on the command line, e.g. `make bench COUNT=10 KEYS=1000000`.

GO        ?= go
RESULTS   ?= results
# Lookup benchmarks: benchstat wants >= 6 samples per cell for a 95% interval.
COUNT     ?= 6
BENCHTIME ?= 100ms
# Analyses: keys per key set, key sets, seed, and an optional key file
# (one key per line) used instead of generated keys.
KEYS      ?= 100000
SETS      ?= 5
SEED      ?= 1
KEYFILE   ?=
MOVE_NODES   ?= grid
MOVE_OPS     ?= add,add-many,remove-last,remove-random,restore
SCENARIO_NODES ?= 10,30,100
SCENARIO_OPS ?= shrink-random,shrink-lifo,churn
SPREAD_NODES ?= 10,100,1000
VNODES_GRID  ?= 1,10,50,100,200,500,1000
HASHES       ?= fnv1a32,fnv1a64,murmur3,murmur3-64,xxhash
PEER_COUNT     ?= $(COUNT)
PEER_BENCHTIME ?= $(BENCHTIME)

COMMIT  := $(shell git describe --always --dirty 2>/dev/null || echo unknown)
CHBENCH := bin/chbench
STAGE   := $(RESULTS)/.tmp-run
KEYARGS := -keys $(KEYS) -sets $(SETS) -seed $(SEED) -commit $(COMMIT) $(if $(KEYFILE),-keyfile $(KEYFILE))
# spaolacci/murmur3's Sum32 does pointer arithmetic through uintptr, which
# -race's checkptr rejects (upstream issue spaolacci/murmur3#34); the hash is
# correct (tested against reference vectors), so checkptr is switched off
# for that one package only.
TESTFLAGS := -race -gcflags=github.com/spaolacci/murmur3=-d=checkptr=0

.PHONY: all build bench quick test peers lookup analyses plots reference publish clean

all: build

build:
	$(GO) build -o $(CHBENCH) ./cmd/chbench

## bench: the main job. Everything is written to $(STAGE) first and moved
## into $(RESULTS) only when every step succeeded, so a failed or
## interrupted run never destroys earlier results.
bench: build
	rm -rf $(STAGE) && mkdir -p $(STAGE)/plots
	$(MAKE) --no-print-directory lookup analyses peers plots OUT=$(STAGE)
	$(MAKE) --no-print-directory publish

## quick: the same pipeline at a small size (under 2 minutes).
quick:
	$(MAKE) --no-print-directory bench COUNT=1 BENCHTIME=20ms KEYS=10000 SETS=3 \
		MOVE_NODES=3,10,100,1000 SPREAD_NODES=10,100 SCENARIO_NODES=10 VNODES_GRID=1,10,100,1000 \
		PEER_COUNT=6 PEER_BENCHTIME=20ms

OUT ?= $(STAGE)

lookup:
	$(GO) test -run '^$$' -bench '^Benchmark(Lookup|Build|Hash)$$' -count $(COUNT) -benchtime $(BENCHTIME) ./bench/ > $(OUT)/lookup.txt
	$(GO) tool benchstat -filter '.name:Lookup /from:key' -col /algo -row /nodes $(OUT)/lookup.txt > $(OUT)/lookup-benchstat.txt
	$(GO) tool benchstat -filter '.name:Lookup /from:hash' -col /algo -row /nodes $(OUT)/lookup.txt > $(OUT)/lookup-hash-benchstat.txt
	$(GO) tool benchstat -filter '.name:Build' -col /algo -row /nodes $(OUT)/lookup.txt > $(OUT)/build-benchstat.txt
	cat $(OUT)/lookup-benchstat.txt

analyses: build
	$(CHBENCH) move -algo all -from $(MOVE_NODES) -op $(MOVE_OPS) $(KEYARGS) -format csv > $(OUT)/movement.csv
	$(CHBENCH) move -algo all -from $(SCENARIO_NODES) -op $(SCENARIO_OPS) $(KEYARGS) -format csv > $(OUT)/scenarios.csv
	$(CHBENCH) spread -algo all -nodes $(SPREAD_NODES) $(KEYARGS) -format csv > $(OUT)/spread.csv
	$(CHBENCH) spread -algo all -nodes $(SPREAD_NODES) $(KEYARGS) -format bench > $(OUT)/spread.txt
	$(CHBENCH) spread -algo ring -nodes 10 -vnodes $(VNODES_GRID) $(KEYARGS) -format csv > $(OUT)/vnodes.csv
	$(CHBENCH) spread -algo ring,rendezvous,bounded -nodes 10 -hash $(HASHES) $(KEYARGS) -format csv > $(OUT)/hashes.csv
	$(CHBENCH) spread -algo ring,rendezvous,slots,bounded -nodes 4 -weights 1,1,2,4 $(KEYARGS) -format csv -shares > $(OUT)/weights.csv
	$(CHBENCH) move -algo all -from 10 -op add $(KEYARGS) -format table

peers:
	@echo "peers: not wired yet"

plots: build
	$(CHBENCH) plot -dir $(OUT)

publish:
	mkdir -p $(RESULTS)/plots
	for f in $(STAGE)/plots/*; do [ -e "$$f" ] && mv -f "$$f" $(RESULTS)/plots/; done; true
	for f in $(STAGE)/*; do [ -f "$$f" ] && mv -f "$$f" $(RESULTS)/; done; true
	rm -rf $(STAGE)
	@echo "results in $(RESULTS)/ and $(RESULTS)/plots/"

## test: vet and race-enabled tests of both modules.
test:
	$(GO) vet ./...
	$(GO) test $(TESTFLAGS) ./...
	cd peers && $(GO) vet ./... && $(GO) test $(TESTFLAGS) ./...

clean:
	rm -rf bin $(STAGE)
