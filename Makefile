# chbench. `make bench` runs the main job (lookup benchmarks, Go peers,
# movement and spread analyses, the field's reference values, plots) into
# results/; `make test` runs the tests. Every knob below can be overridden on
# the command line, e.g. `make bench COUNT=10 KEYS=1000000 KEYFILE=keys.txt`.
#
# Each knob's meaning is the "#>" line(s) just above it: the README's knob
# table is generated from them (cmd/chbench/command/readme_test.go fails when the
# two differ and prints the table to paste).

#> the Go command
GO        ?= go
#> output directory of `make bench` (with PROFILE, unless RESULTS is given: results-NAME, NAME the profile file's name without its extension)
RESULTS   ?= results
#> your fleet: a fleet profile ([docs/fleet-profile.md](docs/fleet-profile.md)); `make bench` then also measures each planned change and each node's share on its members, keys and traffic (`make fleet`) and writes REPORT-NAME.md, which answers for that fleet
PROFILE   ?=
# Lookup benchmarks: benchstat wants >= 6 samples per cell for a 95% interval.
#> lookup benchmark samples per cell (benchstat needs >= 6 for an interval)
COUNT     ?= 6
#> time per lookup benchmark sample
BENCHTIME ?= 50ms
#> extra `go test` flags of the lookup benchmarks (`-short` skips 10,000 nodes in the build/parallel benchmarks)
BENCHARGS ?=
#> samples per cell of the peers comparison
PEER_COUNT     ?= $(COUNT)
#> time per sample of the peers comparison
PEER_BENCHTIME ?= $(BENCHTIME)
# Analyses: keys per key set, key sets, seed, and an optional key file (one
# key per line) used instead of generated keys.
#> keys per key set of movement (a minimum, see MIN_MOVES) and of the storm's moved fraction
KEYS      ?= 100000
# Spread needs many keys per node before the sampling-noise floor stops
# hiding the algorithm (1000 nodes x 100 keys is mostly noise).
#> keys per key set of spread
SPREAD_KEYS ?= 1000000
#> independent key sets (request streams for load); means and 95% intervals are over them
SETS      ?= 5
#> seed of the keys and of random scenario choices
SEED      ?= 1
#> your own keys instead of generated ones: one key per line ([docs/commands.md](docs/commands.md#your-own-keys)); load then draws its Zipf requests over them
KEYFILE   ?=
# Ring and bounded layouts: per-set (each key set on its own layout, so
# intervals cover layouts) or fixed (one exact fleet). DRAWS layouts give
# the exact spread's mean and 5-95% band. Movement raises its keys per set
# so every point expects MIN_MOVES moved keys, up to MAX_KEYS per set;
# points that would need more are left out (listed on stderr).
#> placement mode of ring, bounded and the other random layouts: per-set or fixed (see [Placement is a random draw](docs/commands.md#placement-is-a-random-draw))
PLACEMENT ?= per-set
#> independent layouts behind the exact spread's mean and 5-95% band
DRAWS     ?= 200
#> movement keys per set are raised to ceil(MIN_MOVES / ideal fraction), so every point expects at least this many moved keys per key set
MIN_MOVES ?= 1000
#> most movement keys per set; points that would need more are left out (listed on stderr)
MAX_KEYS  ?= 1000000
#> movement node counts (`grid` = 3..10,000, 4 points per decade)
MOVE_NODES     ?= grid
#> movement scenarios on MOVE_NODES
MOVE_OPS       ?= add,remove-last,remove-random,restore
# n -> 2n: slots cannot hold more than 16,384 nodes, so this grid stops below 8,192.
#> node counts of `add-many` (n -> 2n; slots hold at most 16,384 nodes)
MANY_NODES     ?= 3,5,9,17,30,53,95,169,300,533,949,1687,3000,5335
#> node counts of the multi-step scenarios
SCENARIO_NODES ?= 10,30,100
#> multi-step scenarios
SCENARIO_OPS   ?= shrink-random,shrink-lifo,churn
#> spread node counts
SPREAD_NODES   ?= 10,100,1000
#> ring virtual nodes of the vnodes sweep (10 nodes)
VNODES_GRID    ?= 1,10,50,100,200,500,1000
#> key hashes of the hash sweeps
HASHES         ?= fnv1a32,fnv1a64,murmur3,murmur3-64,xxhash
#> `chbench reference` size (`-full`, or empty for the quick set)
REFFLAGS       ?= -full
# Cache miss storm: STORM_FROM -> STORM_TO nodes, STORM_READS reads/s at
# STORM_HIT hit ratio over STORM_WS distinct keys, read uniformly and (the
# storm-zipf files) with Zipf popularity STORM_ZIPF, whose long tail
# refills slowly, so its timeline covers STORM_ZIPF_SPAN time constants (in
# 480 steps, to resolve the fast refill of the hot keys).
#> cache nodes before the storm's resize
STORM_FROM  ?= 4
#> cache nodes after it
STORM_TO    ?= 5
#> reads per second reaching the cache fleet
STORM_READS ?= 50000
#> steady hit ratio before the resize
STORM_HIT   ?= 0.95
#> distinct keys the cache serves (the refill time constant is STORM_WS / STORM_READS)
STORM_WS    ?= 1000000
#> Zipf exponent of the storm-zipf files
STORM_ZIPF  ?= 0.99
#> time constants the storm-zipf timeline covers
STORM_ZIPF_SPAN ?= 24
# Real fleets (reweight.csv): keys per set for the 500-node reweights
# (rendezvous scores all 500 nodes per key).
#> keys per key set of the named and weighted fleets (reweight.csv) and of replication
FLEET_KEYS  ?= 20000
# Key sets of replication.csv: every set is its own draw of the failing
# node and, for algorithms with a random layout, of the layout, so the
# intervals cover both; 20 keep them within a few % of the ideal 1/n.
#> key sets of replication (each its own failing node and layout)
REPL_SETS   ?= 20
#> node counts of replication
REPL_NODES  ?= 10,100
#> replication factors R of replication
REPL_R      ?= 1,2,3,5
# Request load (chbench load) and bounded loads (chbench bounded): nodes,
# keys each Zipf law spans, requests per stream, exponents; streams = SETS.
#> nodes of the request load (load.csv)
LOAD_NODES       ?= 100
#> keys each request stream's Zipf law spans (ignored with KEYFILE: the file's keys)
LOAD_KEYS        ?= 1000000
#> requests per stream
LOAD_REQUESTS    ?= 1000000
#> Zipf exponents of the request load
ZIPF             ?= 0,0.8,0.99,1.2
#> nodes of the bounded-loads sweep
BOUNDED_NODES    ?= 100
#> keys of the bounded-loads sweep
BOUNDED_KEYS     ?= 100000
#> requests per stream of the bounded-loads sweep
BOUNDED_REQUESTS ?= 200000
#> Zipf exponents of the bounded-loads sweep
BOUNDED_ZIPF     ?= 0,0.99
#> load factors eps (c = 1 + eps) of the bounded-loads sweep
BOUNDED_EPS      ?= 0.05,0.1,0.25,0.5,1
# CRUSH: straw2 on a flat map draws every node for every replica, so a
# lookup is O(n) (about 60 us at 1,000 nodes): it sweeps its own smaller
# grids (CRUSH_NODES, CRUSH_MANY, CRUSH_SPREAD), and the sweeps of hundreds
# of nodes and millions of lookups (scenarios, load, replication) leave it
# out; its replicas are measured in domains*.csv.
#> node counts of crush's movement sweep
CRUSH_NODES  ?= 3,10,30
#> node counts of crush's add-many sweep
CRUSH_MANY   ?= 3,5,9,17,30,53
#> node count of crush's spread
CRUSH_SPREAD ?= 10
# Failure domains (chbench domains): DOMAIN_NODES nodes in DOMAIN_RACKS
# racks in DOMAIN_ZONES zones, with the uneven layouts DOMAIN_UNEVEN_RACKS
# (a rack with half the nodes) and DOMAIN_UNEVEN_ZONES (zones of 2/2/2/3
# nodes); keys per set DOMAIN_KEYS.
#> nodes of the failure-domain runs (domains*.csv)
DOMAIN_NODES ?= 30
#> racks of the failure-domain runs
DOMAIN_RACKS ?= 6
#> zones of the failure-domain runs
DOMAIN_ZONES ?= 3
#> nodes per rack of the uneven rack layout
DOMAIN_UNEVEN_RACKS ?= 6,2,2,2
#> nodes per zone of the uneven zone layout
DOMAIN_UNEVEN_ZONES ?= 2,2,2,3
#> keys per set of the failure-domain runs
DOMAIN_KEYS  ?= 20000
#> `make compare`: the old results directory
OLD ?=
#> `make compare`: the new results directory
NEW ?=

# A profile's results go to a directory of their own, so that they never
# replace the committed reference run in results/.
ifneq ($(PROFILE),)
ifeq ($(origin RESULTS),file)
RESULTS := results-$(basename $(notdir $(PROFILE)))
endif
endif
# The fleet simulation (chbench simulate, sim-*.csv): a generated
# Twitter-format trace of SIM_REQUESTS requests over SIM_KEYS keys (Zipf
# 0.99, log-normal values, 8% sets, 2% deletes, a 30 s TTL on 30% of the
# writes, 20 clients) at SIM_RATE requests/s, replayed through every
# algorithm to SIM_NODES LRU caches of SIM_MEMORY, every fifth of them
# (node-0, node-5, ...) with SIM_BIG, while SIM_JOIN nodes join halfway;
# SIM_WINDOW windows, the baseline of a storm the 3 windows before it.
#> requests of the fleet simulation's generated trace (chbench simulate, sim-*.csv)
SIM_REQUESTS ?= 2000000
#> distinct keys of that trace
SIM_KEYS     ?= 200000
#> requests per second of that trace
SIM_RATE     ?= 20000
#> LRU caches of the simulation
SIM_NODES    ?= 40
#> nodes that join halfway through the simulation
SIM_JOIN     ?= 20
#> memory of each simulated cache
SIM_MEMORY   ?= 1MiB
#> memory of every fifth simulated cache (node-0, node-5, ...)
SIM_BIG      ?= 2MiB
#> the simulation's counting window
SIM_WINDOW   ?= 5s

# Membership in motion (chbench propagate): the headline (one join at 100
# nodes rolled out linearly over 30 s to 100 clients sending
# PROPAGATE_RATE requests/s on 100,000 uniform keys, PROPAGATE_REPLAYS
# replays) and the same join spread by gossip (memberlist's LAN fan-out 3
# every 200 ms) to a cache-aside fleet with 10% writes on 10,000 Zipf
# keys, PROPAGATE_CACHE_REPLAYS replays (gossip spreads vary a lot from
# one to the next); the live Redis resharding runs when redis-server and
# redis-cli are installed.
#> requests per second of chbench propagate's clients (propagate.csv, propagate-cache.csv)
PROPAGATE_RATE          ?= 10000
#> replays of propagate.csv's rollout (its 95% intervals are over them)
PROPAGATE_REPLAYS       ?= 5
#> replays of propagate-cache.csv's gossip spread
PROPAGATE_CACHE_REPLAYS ?= 20
# Every recipe line runs in bash with -e (a failing command ends the
# recipe), -u (an unset variable is an error, not an empty word) and
# pipefail (a pipeline fails when any of its commands fails, not only the
# last: `chbench ... | tail` must not hide a failed chbench).
# The plot index chbench plot writes (schema.PlotIndex).
PLOT_INDEX := index.txt
SHELL      := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c

# Placements in other processes (make external, make examples): keys per
# conformance check and churn steps, the example programs (Python's
# standard library only; the C one built with gcc into bin/jump), and the
# examples run's node counts and keys per set.
#> keys per conformance check of placements in other processes (`make external`)
EXT_KEYS       ?= 20000
#> churn steps of that conformance check
EXT_CHURN      ?= 300
#> the Python that runs the example program examples/python/ring.py (standard library only)
PYTHON         ?= python3
EXAMPLE_PY      = exec:$(PYTHON) examples/python/ring.py
EXAMPLE_C       = exec:bin/jump
#> output directory of `make examples`
EXAMPLES_DIR   ?= $(RESULTS)/examples
#> node counts of the `make examples` run
EXAMPLES_NODES ?= 10,30,100
#> keys per set of the `make examples` run
EXAMPLES_KEYS  ?= 20000

COMMIT  := $(shell git describe --always --dirty 2>/dev/null || echo unknown)
CHBENCH := bin/chbench
BENCHSTAT := $(GO) tool benchstat
# Targets write into OUT. `make bench` sets OUT to a staging directory and
# publishes it only when every step succeeded; run alone, a target writes
# into RESULTS, each file through a temporary name and a rename, so a failed
# or interrupted run never destroys earlier results.
STAGE   := $(RESULTS)/.tmp-run
#> the directory each target writes into (`make bench` sets it to a staging directory inside RESULTS)
OUT     ?= $(RESULTS)
# -keys N, left out with KEYFILE (the file gives the keys; chbench refuses
# a -keys it would not use).
keys     = $(if $(KEYFILE),,-keys $(1))
KEYARGS  = -sets $(SETS) -seed $(SEED) -commit $(COMMIT) -placement $(PLACEMENT) $(if $(KEYFILE),-keyfile $(KEYFILE))
# KEYARGS without -placement, for a spread of algorithms without a random
# layout (crush): every command refuses a flag none of its algorithms reads.
LAYOUTLESSARGS = $(filter-out -placement $(PLACEMENT),$(KEYARGS))
MOVEARGS = -min-moves $(MIN_MOVES) -max-keys $(MAX_KEYS)
# save FILE: write stdout to $(OUT)/FILE atomically (temporary file + rename).
save = > $(OUT)/$(1).tmp && mv -f $(OUT)/$(1).tmp $(OUT)/$(1)
# spaolacci/murmur3's Sum32 does pointer arithmetic through uintptr, which
# -race's checkptr rejects (upstream issue spaolacci/murmur3#34); the hash is
# correct (tested against reference vectors), so checkptr is switched off
# for that one package only.
TESTFLAGS := -race -gcflags=github.com/spaolacci/murmur3=-d=checkptr=0

.PHONY: all help build bench quick test lookup analyses storm fleets traffic domains external examples reference peers plots fleet report compare publish summary clean
.PHONY: propagate
.PHONY: traces traces-full
.PHONY: switching

## all: the default target: build.
all: build

## help: list the targets, one line each.
help:
	@awk '/^## [a-z-]+: / { t = $$2; sub(/:$$/, "", t); d = $$0; sub(/^## [a-z-]+: /, "", d); printf "  %-10s %s\n", t, d }' $(firstword $(MAKEFILE_LIST))

## build: build bin/chbench.
build:
	$(GO) build -o $(CHBENCH) ./cmd/chbench

## bench: the main job, about 10-11 minutes on 2 cores (PROFILE=file: also REPORT-name.md beside REPORT.md).
# The staged run always writes the default REPORT.md, so that a PROFILE
# never leaves the previous run's REPORT.md beside the new results.
# Interrupts: the staged run is a sub-make, and publishing is a later line
# of the recipe of the make you started, never of a sub-make. GNU make
# passes SIGINT to no child (only SIGTERM): interrupted alone (kill -INT),
# it waits for the running sub-make and then stops without running the
# next line, so an interrupted run never publishes. A sub-make told
# NOPUBLISH=1 (quick's) leaves publishing to its caller for the same reason.
bench: build
	rm -rf $(STAGE) && mkdir -p $(STAGE)/plots
	$(MAKE) --no-print-directory lookup peers analyses storm fleets traffic domains external \
		switching \
		traces \
		propagate \
		reference plots report OUT=$(STAGE) PROFILE=
	$(if $(PROFILE),$(MAKE) --no-print-directory fleet report OUT=$(STAGE))
	touch $(STAGE)/.complete
	$(if $(NOPUBLISH),@true,$(MAKE) --no-print-directory publish summary)

## quick: the same pipeline at a small size, about 3-4 minutes.
quick:
	$(MAKE) --no-print-directory bench NOPUBLISH=1 COUNT=6 BENCHTIME=20ms BENCHARGS=-short KEYS=10000 SPREAD_KEYS=10000 SETS=3 \
		MOVE_NODES=3,10,100,1000 MANY_NODES=3,10,100 SPREAD_NODES=10,100 SCENARIO_NODES=10 VNODES_GRID=1,10,100,1000 DRAWS=200 MAX_KEYS=200000 REFFLAGS= \
		FLEET_KEYS=2000 REPL_SETS=5 \
		LOAD_KEYS=10000 LOAD_REQUESTS=100000 BOUNDED_KEYS=10000 BOUNDED_REQUESTS=20000 \
		CRUSH_NODES=3,10 CRUSH_MANY=3,10 DOMAIN_NODES=12 DOMAIN_KEYS=2000 \
		SIM_REQUESTS=200000 SIM_KEYS=20000 SIM_RATE=2000 SIM_MEMORY=128KiB SIM_BIG=256KiB \
		EXT_KEYS=5000 EXT_CHURN=100 \
		PROPAGATE_RATE=1000 PROPAGATE_REPLAYS=3 PROPAGATE_CACHE_REPLAYS=5
	$(MAKE) --no-print-directory publish summary

## summary: print the lookup table and the speed targets of RESULTS.
summary:
	@echo; $(BENCHSTAT) -filter '.name:Lookup /from:key .unit:sec/op' -col /algo -row /nodes $(RESULTS)/lookup.txt
	@echo; cat $(RESULTS)/targets.txt

## lookup: lookup, hash and build benchmarks of every algorithm, and their benchstat tables.
lookup:
	mkdir -p $(OUT)
	$(GO) test -run '^$$' -bench . $(BENCHARGS) -count $(COUNT) -benchtime $(BENCHTIME) -timeout 30m ./bench/ $(call save,lookup.txt)
	$(BENCHSTAT) -filter '.name:Lookup .unit:sec/op' -table /from -col /algo -row /nodes $(OUT)/lookup.txt $(call save,lookup-benchstat.txt)
	$(BENCHSTAT) -filter '(.name:LookupParallel OR .name:LookupSwap) .unit:sec/op' -table .name -col /algo -row /nodes $(OUT)/lookup.txt $(call save,parallel-benchstat.txt)
	$(BENCHSTAT) -filter '.name:Build' -col /algo -row /nodes $(OUT)/lookup.txt $(call save,build-benchstat.txt)
	$(BENCHSTAT) -filter '.name:Hash .unit:sec/op' -col /hash $(OUT)/lookup.txt $(call save,hash-benchstat.txt)

## peers: chbench next to Go libraries in one run, and the speed targets.
peers:
	mkdir -p $(OUT)
	cd peers && $(GO) test -run '^$$' -bench PeerLookup -count $(PEER_COUNT) -benchtime $(PEER_BENCHTIME) -timeout 30m . > $(abspath $(OUT))/peers.txt.tmp
	mv -f $(OUT)/peers.txt.tmp $(OUT)/peers.txt
	$(BENCHSTAT) -filter '.unit:sec/op' -col '/impl@(chbench hash groupcache stathat serialx go-rendezvous go-jump)' -row /algo,/nodes,/removed $(OUT)/peers.txt $(call save,peers-benchstat.txt)
	cd peers && $(GO) build -o ../bin/targets ./cmd/targets
	bin/targets -out $(OUT)/targets.txt $(OUT)/peers.txt > /dev/null || [ $$? -eq 1 ]  # 1 = a target failed: recorded, not fatal
	cat $(OUT)/targets.txt

## analyses: movement and spread over the same keys for every algorithm.
# Each sweep runs once and writes CSV and benchmark format together
# (chbench -format csv,bench -o PREFIX writes PREFIX.csv and PREFIX.txt,
# each through a temporary name and a rename); the two movement sweeps are
# then joined under one header.
analyses: build
	mkdir -p $(OUT)
	$(CHBENCH) move -algo all,-crush -from $(MOVE_NODES) -op $(MOVE_OPS) $(call keys,$(KEYS)) $(KEYARGS) $(MOVEARGS) -format csv,bench -o $(OUT)/.movement-grid
	$(CHBENCH) move -algo crush -from $(CRUSH_NODES) -op $(MOVE_OPS) $(call keys,$(KEYS)) $(LAYOUTLESSARGS) $(MOVEARGS) -format csv,bench -o $(OUT)/.movement-crush
	$(CHBENCH) move -algo all,-crush -from $(MANY_NODES) -op add-many $(call keys,$(KEYS)) $(KEYARGS) $(MOVEARGS) -format csv,bench -o $(OUT)/.movement-many
	$(CHBENCH) move -algo crush -from $(CRUSH_MANY) -op add-many $(call keys,$(KEYS)) $(LAYOUTLESSARGS) $(MOVEARGS) -format csv,bench -o $(OUT)/.movement-crush-many
	{ cat $(OUT)/.movement-grid.csv && for f in crush many crush-many; do tail -n +2 $(OUT)/.movement-$$f.csv; done; } $(call save,movement.csv)
	cat $(OUT)/.movement-grid.txt $(OUT)/.movement-crush.txt $(OUT)/.movement-many.txt $(OUT)/.movement-crush-many.txt $(call save,movement.txt)
	rm -f $(OUT)/.movement-grid.* $(OUT)/.movement-crush.* $(OUT)/.movement-many.* $(OUT)/.movement-crush-many.*
	$(CHBENCH) move -algo all,-crush -from $(SCENARIO_NODES) -op $(SCENARIO_OPS) $(call keys,$(KEYS)) $(KEYARGS) $(MOVEARGS) -format csv $(call save,scenarios.csv)
	$(CHBENCH) spread -algo all,-crush -nodes $(SPREAD_NODES) $(call keys,$(SPREAD_KEYS)) $(KEYARGS) -draws $(DRAWS) -format csv,bench -o $(OUT)/.spread-all
	$(CHBENCH) spread -algo crush -nodes $(CRUSH_SPREAD) $(call keys,$(SPREAD_KEYS)) $(LAYOUTLESSARGS) -format csv,bench -o $(OUT)/.spread-crush
	{ cat $(OUT)/.spread-all.csv && tail -n +2 $(OUT)/.spread-crush.csv; } $(call save,spread.csv)
	cat $(OUT)/.spread-all.txt $(OUT)/.spread-crush.txt $(call save,spread.txt)
	rm -f $(OUT)/.spread-all.* $(OUT)/.spread-crush.*
	$(CHBENCH) spread -algo ring -nodes 10 -vnodes $(VNODES_GRID) $(call keys,$(SPREAD_KEYS)) $(KEYARGS) -draws $(DRAWS) -format csv $(call save,vnodes.csv)
	$(CHBENCH) spread -algo ring,rendezvous,jump,bounded -nodes 10 -hash $(HASHES) $(call keys,$(SPREAD_KEYS)) $(KEYARGS) -draws $(DRAWS) -format csv $(call save,hashes.csv)
	$(CHBENCH) spread -algo ring,rendezvous,slots,bounded,ketama,maglev -nodes 4 -weights 1,1,2,4 $(call keys,$(SPREAD_KEYS)) $(KEYARGS) -draws 0 -format csv -shares $(call save,weights.csv)
	$(CHBENCH) move -algo all -from 4 -to 5 $(call keys,$(KEYS)) $(KEYARGS) $(MOVEARGS)
	$(CHBENCH) spread -algo all -nodes 10 $(call keys,$(SPREAD_KEYS)) $(KEYARGS) -draws $(DRAWS)

## storm: the cache miss storm of a resize for every algorithm, from the moved fraction measured on the same keys (uniform and Zipf reads).
STORMARGS = -from $(STORM_FROM) -to $(STORM_TO) -reads $(STORM_READS) -hit $(STORM_HIT) -working-set $(STORM_WS) $(call keys,$(KEYS)) $(KEYARGS)
storm: build
	mkdir -p $(OUT)
	$(CHBENCH) storm -algo all $(STORMARGS) -format csv $(call save,storm.csv)
	$(CHBENCH) storm -algo all $(STORMARGS) -format csv -timeline $(call save,storm-timeline.csv)
	$(CHBENCH) storm -algo all $(STORMARGS) $(call save,storm.txt)
	$(CHBENCH) storm -algo all $(STORMARGS) -zipf $(STORM_ZIPF) -format csv $(call save,storm-zipf.csv)
	$(CHBENCH) storm -algo all $(STORMARGS) -zipf $(STORM_ZIPF) -format csv -timeline -span $(STORM_ZIPF_SPAN) -points 480 $(call save,storm-zipf-timeline.csv)
	$(CHBENCH) storm -algo all $(STORMARGS) -zipf $(STORM_ZIPF) $(call save,storm-zipf.txt)
	cat $(OUT)/storm.txt $(OUT)/storm-zipf.txt

## fleets: replication (R = 1, 2, 3, 5) and named, weighted fleets (weighted joins, a named leave, reweights).
# replication.csv: R = 1, 2, 3, 5 on 10 and 100 nodes, a join and a random
# leave; reweight.csv: a weighted join (A=1, B=2, C=1 joins), two weight-2
# machines joining ten of weight 1, a node of a named fleet leaving, and
# 5/50/95% of 500 nodes reweighted 1 -> 127 (ring at 10 vnodes per unit of
# weight: 127 x 160 would be 20,000 points a node) and 25 -> 75 (4 vnodes
# per unit: 100 -> 300 points); slots only for 25 -> 75 (a weight-1 node of
# 32,000 would round to 0 of its 16,384 slots).
FLEETARGS = $(call keys,$(FLEET_KEYS)) $(KEYARGS) -format csv
# The parts of reweight.csv are written each by its own chbench with -o
# and joined under one header only once every part has succeeded.
FLEETPARTS = $(foreach i,1 2 3 4 5,$(OUT)/.reweight-$(i).csv)
fleets: build
	mkdir -p $(OUT)
	$(CHBENCH) move -algo all -node-ids A,B -weights 1,2 -join C,1 $(FLEETARGS) -o $(OUT)/.reweight-1
	$(CHBENCH) move -algo all -from 10 -join-n 2 -join-weight 2 $(FLEETARGS) -o $(OUT)/.reweight-2
	$(CHBENCH) move -algo all -node-ids 10.0.1.1:11211,10.0.1.2:11211,10.0.1.3:11211,10.0.1.4:11211,10.0.1.5:11211 -leave 10.0.1.3:11211 $(FLEETARGS) -o $(OUT)/.reweight-3
	$(CHBENCH) move -algo ring,rendezvous,bounded -from 500 -reweight-frac 0.05,0.5,0.95 -reweight-to 127 -vnodes 10 $(FLEETARGS) -o $(OUT)/.reweight-4
	$(CHBENCH) move -algo ring,rendezvous,slots,bounded -from 500 -weight 25 -reweight-frac 0.05,0.5,0.95 -reweight-to 75 -vnodes 4 $(FLEETARGS) -o $(OUT)/.reweight-5
	{ cat $(firstword $(FLEETPARTS)) && for f in $(wordlist 2,5,$(FLEETPARTS)); do tail -n +2 "$$f"; done; } $(call save,reweight.csv)
	rm -f $(FLEETPARTS)
	$(CHBENCH) replication -algo all,-crush -from $(REPL_NODES) -op add,remove-random -replicas $(REPL_R) $(FLEETARGS) -sets $(REPL_SETS) $(call save,replication.csv)
	$(CHBENCH) replication -algo all,-crush -from 10 -op remove-random -replicas 3 $(call keys,$(FLEET_KEYS)) $(KEYARGS)

## traffic: request load under Zipf popularity, the three forms of bounded loads against eps, the hash sweep on sequential keys.
# Each sweep runs once: load writes load.csv and load.txt (benchfmt)
# together with -format csv,bench -o PREFIX, as the analyses do.
TRAFFICARGS = -sets $(SETS) -seed $(SEED) -commit $(COMMIT)
traffic: build
	mkdir -p $(OUT)
	$(CHBENCH) load -algo all,-crush -nodes $(LOAD_NODES) $(if $(KEYFILE),-keyfile $(KEYFILE),-keys $(LOAD_KEYS)) -requests $(LOAD_REQUESTS) -zipf $(ZIPF) $(TRAFFICARGS) -format csv,bench -o $(OUT)/load
	$(CHBENCH) bounded -nodes $(BOUNDED_NODES) -keys $(BOUNDED_KEYS) -requests $(BOUNDED_REQUESTS) -zipf $(BOUNDED_ZIPF) -eps $(BOUNDED_EPS) $(TRAFFICARGS) -format csv -o $(OUT)/boundedloads
	$(CHBENCH) spread -algo ring,rendezvous,jump,bounded -nodes 10 -hash $(HASHES) -keys-kind sequential -keys $(SPREAD_KEYS) $(TRAFFICARGS) -format csv -o $(OUT)/hashes-sequential

## domains: replicas against racks and zones (sharing a domain, load per replica rank, what a node, rack or zone loss or a rack added copies).
# domains.csv: every algorithm with its own replicas beside one replica per
# domain, R = 2 and 3, on even racks in zones, on racks where one holds
# half the nodes, and on zones of 2/2/2/3 nodes; domains-ranks.csv: the
# weights 3,3,3,1 (the weighted algorithms), and ten nodes in racks of
# 4/4/2; domains-changes.csv: a node, a rack and a zone failing and a rack
# added, R = 3.
DOMAINARGS = $(call keys,$(DOMAIN_KEYS)) $(KEYARGS) -format csv
domains: build
	mkdir -p $(OUT)
	$(CHBENCH) domains -algo all -nodes $(DOMAIN_NODES) -racks $(DOMAIN_RACKS) -zones $(DOMAIN_ZONES) -replicas 2,3 $(DOMAINARGS) > $(OUT)/domains.csv.tmp
	$(CHBENCH) domains -algo all -nodes 12 -racks $(DOMAIN_UNEVEN_RACKS) -replicas 3 $(DOMAINARGS) > $(OUT)/.part-301.csv
	tail -n +2 $(OUT)/.part-301.csv >> $(OUT)/domains.csv.tmp && rm -f $(OUT)/.part-301.csv
	$(CHBENCH) domains -algo all -nodes 9 -zones $(DOMAIN_UNEVEN_ZONES) -replicas 2 $(DOMAINARGS) > $(OUT)/.part-302.csv
	tail -n +2 $(OUT)/.part-302.csv >> $(OUT)/domains.csv.tmp && rm -f $(OUT)/.part-302.csv
	mv -f $(OUT)/domains.csv.tmp $(OUT)/domains.csv
	$(CHBENCH) domains -ranks -algo all -weights 3,3,3,1 $(DOMAINARGS) > $(OUT)/domains-ranks.csv.tmp
	$(CHBENCH) domains -ranks -algo all -nodes 10 -racks 4,4,2 $(DOMAINARGS) > $(OUT)/.part-305.csv
	tail -n +2 $(OUT)/.part-305.csv >> $(OUT)/domains-ranks.csv.tmp && rm -f $(OUT)/.part-305.csv
	mv -f $(OUT)/domains-ranks.csv.tmp $(OUT)/domains-ranks.csv
	$(CHBENCH) domains -changes -algo all -nodes $(DOMAIN_NODES) -racks $(DOMAIN_RACKS) -zones $(DOMAIN_ZONES) $(DOMAINARGS) $(call save,domains-changes.csv)

## traces: the fleet simulation of a generated Twitter-format trace: 40 LRU caches, 8 with twice the memory, 20 joining halfway, every algorithm (sim-*.csv, sim.table).
# The trace is written zstd-compressed into a temporary directory, read
# by simulate as a user's trace would be, and removed on every exit;
# simulate runs in that directory, so that the results and plots name the
# trace trace.csv.zst, the same bytes on every run, not the random
# directory.
SIM_BIGNODES = $(shell n=0; s=; while [ $$n -lt $(SIM_NODES) ]; do s="$$s$${s:+,}node-$$n=$(SIM_BIG)"; n=$$((n+5)); done; echo $$s)
SIM_JOIN_AT  = $(shell echo $$(( $(SIM_REQUESTS) / $(SIM_RATE) / 2 )))s
traces: build
	mkdir -p $(OUT)
	t=$$(mktemp -d) && trap 'rm -rf "$$t"' EXIT && \
	$(CHBENCH) workload -keys $(SIM_KEYS) -zipf 0.99 -requests $(SIM_REQUESTS) -rate $(SIM_RATE) -clients 20 -ops get=0.9,set=0.08,delete=0.02 -ttl 0=0.7,30s=0.3 -seed $(SEED) -zstd -o $$t/trace.csv.zst && \
	cd "$$t" && $(abspath $(CHBENCH)) simulate -format csv,table -o "$(abspath $(OUT))/sim" -algo all -nodes $(SIM_NODES) -memory $(SIM_MEMORY) -node-memory $(SIM_BIGNODES) \
		-join-n $(SIM_JOIN) -join-at $(SIM_JOIN_AT) -trace trace.csv.zst -window $(SIM_WINDOW) -baseline 3 -seed $(SEED) -commit $(COMMIT)
	cat $(OUT)/sim.table

## traces-full: the issue's acceptance run at full size (20M requests over 2M keys, 8 MiB caches), about a minute on 2 cores; RESULTS=dir keeps results/ as committed.
traces-full:
	$(MAKE) --no-print-directory traces SIM_REQUESTS=20000000 SIM_KEYS=2000000 SIM_RATE=100000 SIM_MEMORY=8MiB SIM_BIG=16MiB

## external: chbench's own cost per key of a placement in another process, and the example programs' conformance verdicts; fails on any FAIL.
# external.txt: BenchmarkLocateKeys against a trivial responder at batch
# sizes 16..16,384 (cpu-ns/key is chbench's side alone) and against the
# two example programs (their ns/key is a lookup in C and in Python);
# conformance.csv: the Python ring's verdicts, then the C jump's against
# chbench's jump under FNV-1a 64 (it reproduces it key for key).
EXTARGS = -keys $(EXT_KEYS) -churn $(EXT_CHURN) -seed $(SEED) -commit $(COMMIT) -format csv
external: build
	mkdir -p $(OUT) bin
	$(CC) -O2 -Wall -o bin/jump examples/c/jump.c
	$(GO) test -run '^$$' -bench LocateKeys -count $(COUNT) -benchtime $(BENCHTIME) ./algorithms/external/ $(call save,external.txt)
	$(BENCHSTAT) -filter '.unit:(cpu-ns/key OR ns/key)' -row /responder,/batch -col .name $(OUT)/external.txt $(call save,external-benchstat.txt)
	$(CHBENCH) conformance -algo '$(EXAMPLE_PY)' $(EXTARGS) > $(OUT)/conformance.csv.tmp
	$(CHBENCH) conformance -algo '$(EXAMPLE_C)' -reference jump -reference-hash fnv1a64 $(EXTARGS) > $(OUT)/.conformance-c.csv
	tail -n +2 $(OUT)/.conformance-c.csv >> $(OUT)/conformance.csv.tmp
	mv -f $(OUT)/conformance.csv.tmp $(OUT)/conformance.csv
	cat $(OUT)/external-benchstat.txt

## examples: the example programs beside ring and jump in move, spread, plots and a report of their own, in EXAMPLES_DIR (results/examples).
# A run of its own (not part of bench): staged in EXAMPLES_DIR/.tmp-run and
# moved into EXAMPLES_DIR once every step succeeded.
EXSTAGE = $(EXAMPLES_DIR)/.tmp-run
EXAMPLEARGS = -keys $(EXAMPLES_KEYS) -sets $(SETS) -seed $(SEED) -commit $(COMMIT)
examples: build
	rm -rf $(EXSTAGE) && mkdir -p $(EXSTAGE)/plots bin
	$(CC) -O2 -Wall -o bin/jump examples/c/jump.c
	$(CHBENCH) move -algo 'ring,jump,$(EXAMPLE_PY),$(EXAMPLE_C)' -from $(EXAMPLES_NODES) -op add,remove-last,remove-random $(EXAMPLEARGS) -format csv -o $(EXSTAGE)/movement
	$(CHBENCH) spread -algo 'ring,jump,$(EXAMPLE_PY),$(EXAMPLE_C)' -nodes $(EXAMPLES_NODES) $(EXAMPLEARGS) -format csv -o $(EXSTAGE)/spread
	$(CHBENCH) plot -dir $(EXSTAGE)
	$(CHBENCH) report -dir $(EXSTAGE)
	mkdir -p $(EXAMPLES_DIR)/plots
	rm -f $(EXAMPLES_DIR)/plots/*.png $(EXAMPLES_DIR)/plots/*.svg  # the new run's plots/index.txt lists its figures: no old one stays
	for f in $(EXSTAGE)/plots/*; do if [ -e "$$f" ]; then mv -f "$$f" $(EXAMPLES_DIR)/plots/; fi; done
	for f in $(EXSTAGE)/*; do if [ -f "$$f" ]; then mv -f "$$f" $(EXAMPLES_DIR)/; fi; done
	rm -rf $(EXSTAGE)
	@echo "examples run in $(EXAMPLES_DIR)/ (REPORT.md, plots/)"
## switching: what switching clients costs a cache: keys routed differently and the miss storm of every pair of the common dialects.
# switching.csv: every ordered pair of catalog.CommonDialects (each
# system's default setting and its consistent one) on the default fleet of
# SWITCH_NODES servers 127.0.0.1:11211.., then the weighted dialects among
# them on the same servers weighted SWITCH_WEIGHTS; the miss storm is the
# storm target's cache fleet. The table after it answers the report's
# question: libmemcached's libketama layout to twemproxy, with md5 and with
# twemproxy's default hash.
#> servers of the default fleet the switching costs are measured on (switching.csv)
SWITCH_NODES   ?= 10
#> their weights for the weighted dialects' switching costs
SWITCH_WEIGHTS ?= 1,1,1,1,1,2,2,2,4,4
SWITCHARGS = -nodes $(SWITCH_NODES) -reads $(STORM_READS) -hit $(STORM_HIT) -working-set $(STORM_WS) -keys $(KEYS) -sets $(SETS) -seed $(SEED) -commit $(COMMIT) $(if $(KEYFILE),-keyfile $(KEYFILE))
switching: build
	mkdir -p $(OUT)
	$(CHBENCH) switch -from common-dialects -to common-dialects $(SWITCHARGS) -first 0 -format csv > $(OUT)/switching.csv.tmp
	$(CHBENCH) switch -from common-dialects -to common-dialects $(SWITCHARGS) -weights $(SWITCH_WEIGHTS) -first 0 -format csv > $(OUT)/.switching-weighted.csv.tmp
	tail -n +2 $(OUT)/.switching-weighted.csv.tmp >> $(OUT)/switching.csv.tmp && rm -f $(OUT)/.switching-weighted.csv.tmp
	mv -f $(OUT)/switching.csv.tmp $(OUT)/switching.csv
	$(CHBENCH) switch -from libmemcached-ketama-weighted -to twemproxy-ketama-md5,twemproxy-ketama-fnv1a-64 $(SWITCHARGS) -first 5

## propagate: requests routed by stale views while one join rolls out, the same join gossiped to a cache-aside fleet, and a live Redis Cluster resharding's redirects.
# The headline's flags are spelled out (they are propagate's defaults,
# and -headline's scenario) so that quick can lower the rate. The tables
# of the headline and the live run are printed, then removed.
PROPAGATEARGS = -algo all -from 100 -op add -clients 100 -seed $(SEED) -commit $(COMMIT)
propagate: build
	mkdir -p $(OUT)
	$(CHBENCH) propagate $(PROPAGATEARGS) -model linear:T=30s -rate $(PROPAGATE_RATE) -keys 100000 -replays $(PROPAGATE_REPLAYS) -format csv,table -o $(OUT)/.propagate
	mv -f $(OUT)/.propagate.csv $(OUT)/propagate.csv
	cat $(OUT)/.propagate.table && rm -f $(OUT)/.propagate.table
	$(CHBENCH) propagate $(PROPAGATEARGS) -model gossip:k=3,p=200ms -rate $(PROPAGATE_RATE) -keys 10000 -zipf 0.99 -writes 0.1 -cache -handoff 0.5 -replays $(PROPAGATE_CACHE_REPLAYS) -span 0,1 -windows 10 -format csv -o $(OUT)/propagate-cache
	if command -v redis-server >/dev/null && command -v redis-cli >/dev/null; then \
		$(CHBENCH) propagate -live -seed $(SEED) -commit $(COMMIT) -format csv,table -o $(OUT)/.propagate-redis && \
		mv -f $(OUT)/.propagate-redis.csv $(OUT)/propagate-redis.csv && cat $(OUT)/.propagate-redis.table && rm -f $(OUT)/.propagate-redis.table; \
	else echo "note: redis-server or redis-cli is not installed, so the live resharding (propagate-redis.csv) was not run (.ci/run installs them)"; fi

## reference: the field's published values reproduced with tolerances and PASS/FAIL; fails on any FAIL.
reference: build
	mkdir -p $(OUT)
	$(CHBENCH) reference $(REFFLAGS) -seed $(SEED) > $(OUT)/reference.txt.tmp || { cat $(OUT)/reference.txt.tmp; exit 1; }
	mv -f $(OUT)/reference.txt.tmp $(OUT)/reference.txt
	cat $(OUT)/reference.txt

## plots: draw the plots of the results in OUT (PNG and SVG in OUT/plots).
plots: build
	$(CHBENCH) plot -dir $(OUT)

## fleet: with PROFILE, the miss storm of every planned change of that fleet on its members, weights, keys and traffic (OUT/fleet-storm.csv) each node's share against its weight (OUT/fleet-shares.csv) its requests under the profile's Zipf law (OUT/fleet-load.csv) the lookup time of its placements at today's size and the largest planned (OUT/fleet-lookup.txt) with a client, what leaving it costs (OUT/fleet-switching.csv) and, at replicas = R > 1, each planned change's replica movement (OUT/fleet-replication.csv), for the report's "Your fleet".
fleet: build $(if $(filter %/examples/fleet/cache-40-60.toml,$(abspath $(PROFILE))),examples/fleet/cache-keys.txt)
	@if [ -z "$(PROFILE)" ]; then echo "usage: make fleet PROFILE=file" >&2; exit 2; fi
	mkdir -p $(OUT)
	$(CHBENCH) fleet -profile $(PROFILE) -sets $(SETS) -seed $(SEED) -commit $(COMMIT) $(call save,fleet-storm.csv)
	$(CHBENCH) fleet -profile $(PROFILE) -shares -sets $(SETS) -seed $(SEED) -commit $(COMMIT) $(call save,fleet-shares.csv)
	$(CHBENCH) fleet -profile $(PROFILE) -load -sets $(SETS) -seed $(SEED) -commit $(COMMIT) $(call save,fleet-load.csv)
	args=$$($(CHBENCH) fleet -profile $(PROFILE) -lookup-args) && $(GO) test -run '^$$' -bench '^BenchmarkLookup$$/algo=/nodes=/from=key$$' -count $(COUNT) -benchtime $(BENCHTIME) -timeout 30m ./bench/ -args $$args $(call save,fleet-lookup.txt)
	$(if $(shell grep -qE '^[[:space:]]*client[[:space:]]*=' $(PROFILE) 2>/dev/null && echo y),$(CHBENCH) fleet -profile $(PROFILE) -switching -sets $(SETS) -seed $(SEED) -commit $(COMMIT) $(call save,fleet-switching.csv))
	$(if $(shell grep -qE '^[[:space:]]*replicas[[:space:]]*=[[:space:]]*[2-9]' $(PROFILE) 2>/dev/null && echo y),$(CHBENCH) fleet -profile $(PROFILE) -replication -sets $(SETS) -seed $(SEED) -commit $(COMMIT) $(call save,fleet-replication.csv))

# The example fleet's 300,000-key dump: made by a seeded program, the same
# bytes on every machine, instead of being committed.
examples/fleet/cache-keys.txt:
	$(GO) run ./examples/fleet/dumpkeys -keys 300000 -seed 20 -o $@

## report: write OUT/REPORT.md, the design-review report of the results; PROFILE=dir/name.toml reads your fleet from it and writes OUT/REPORT-name.md instead (see docs/report.md).
# A profile's report gets its own file, so it never overwrites the
# committed REPORT.md of the default case.
report: build
	$(CHBENCH) report -dir $(OUT) $(if $(PROFILE),-profile $(PROFILE) -o $(OUT)/REPORT-$(basename $(notdir $(PROFILE))).md)

## compare: benchstat tables and the report's headline numbers of two result sets (OLD=dir NEW=dir).
# First a warning when the two runs' benchmarks ran on different machines
# (their goos, goarch or cpu lines differ), then the headline numbers of
# the two reports that differ (read with the same PROFILE), then benchstat
# on each benchfmt file both runs have. benchstat ignores COMPARE_IGNORE:
# commit and go (the Go version line of chbench's files) so that two
# commits or toolchains line up, and the machine lines, without which
# benchstat prints two separate tables and no delta.
COMPARE_FILES  = lookup.txt movement.txt spread.txt load.txt peers.txt
COMPARE_IGNORE = commit,go,goos,goarch,cpu
# machine DIR: the sorted goos, goarch and cpu lines of DIR's Go benchmark files.
# (A run without one of the files, or without such lines, gives no lines.)
machine = { cat $(1)/lookup.txt $(1)/peers.txt 2>/dev/null || true; } | { grep -E '^(goos|goarch|cpu):' || true; } | sort -u
compare: build
	@if [ -z "$(OLD)" ] || [ -z "$(NEW)" ]; then echo "usage: make compare OLD=dir NEW=dir [PROFILE=file]" >&2; exit 2; fi
	@old=$$($(call machine,$(OLD))); new=$$($(call machine,$(NEW))); \
	if [ -n "$$old" ] && [ -n "$$new" ] && [ "$$old" != "$$new" ]; then \
		echo "warning: different machines: lookup and build differences include hardware (old $$(echo "$$old" | grep -m1 '^cpu:'); new $$(echo "$$new" | grep -m1 '^cpu:'))"; \
	fi
	@$(CHBENCH) report -dir $(NEW) -compare $(OLD) $(if $(PROFILE),-profile $(PROFILE))
	@for f in $(COMPARE_FILES); do \
		echo; if [ -f "$(OLD)/$$f" ] && [ -f "$(NEW)/$$f" ]; then \
			echo "## benchstat $$f"; $(BENCHSTAT) -ignore $(COMPARE_IGNORE) old=$(OLD)/$$f new=$(NEW)/$$f || exit 1; \
		else echo "## $$f: not in both runs"; fi; \
	done

## publish: move a finished staging run into RESULTS (used by bench).
# It refuses a staging directory without the .complete marker, which only
# a staged run that finished every step writes.
publish:
	@[ -e $(STAGE)/.complete ] || { echo "publish: $(STAGE) holds no complete run (interrupted or failed); $(RESULTS)/ left as it was" >&2; exit 1; }
	rm -f $(STAGE)/.complete
	mkdir -p $(RESULTS)/plots
	if [ -e $(STAGE)/plots/$(PLOT_INDEX) ]; then rm -f $(RESULTS)/plots/*.png $(RESULTS)/plots/*.svg; fi  # figures of an earlier run the new one did not draw go
	for f in $(STAGE)/plots/*; do if [ -e "$$f" ]; then mv -f "$$f" $(RESULTS)/plots/; fi; done
	for f in $(STAGE)/*; do if [ -f "$$f" ]; then mv -f "$$f" $(RESULTS)/; fi; done
	rm -rf $(STAGE)
	@echo "results in $(RESULTS)/ and $(RESULTS)/plots/"

## test: vet and race-enabled tests of the three modules (main, peers, gossip).
test:
	$(GO) vet ./...
	$(GO) test $(TESTFLAGS) ./...
	cd peers && $(GO) vet ./... && $(GO) test $(TESTFLAGS) ./...
	cd gossip && $(GO) vet ./... && $(GO) test $(TESTFLAGS) ./...
	@for s in redis-server redis-cli memcached nutcracker nginx haproxy java javac node npm; do command -v $$s >/dev/null || echo "note: $$s is not installed, so the live/ agreement tests that need it were skipped (.ci/run installs it)"; done
	@/usr/bin/python3 -c 'import pylibmc, memcache, uhashring' 2>/dev/null || echo "note: /usr/bin/python3 lacks pylibmc, memcache or uhashring, so the live/ dialect tests that need them were skipped (.ci/run installs them)"
	@[ -s /usr/share/java/spymemcached.jar ] || echo "note: /usr/share/java/spymemcached.jar is missing, so live.TestDialectSpymemcached was skipped (.ci/run installs libspymemcached-java)"
	@command -v crushtool >/dev/null || echo "note: crushtool (Debian ceph-base) is not installed, so live/'s CRUSH straw2 agreement test was skipped (.ci/run installs it)"

## clean: remove bin/ and an unfinished staging run.
clean:
	rm -rf bin $(STAGE)
