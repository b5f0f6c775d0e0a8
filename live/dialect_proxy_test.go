package live

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chbench/chbench/algorithms"
	"github.com/chbench/chbench/algorithms/dialect/haproxy"
	"github.com/chbench/chbench/algorithms/dialect/nginx"
)

// needBinary skips (or fails under CI) unless bin is installed, naming
// its Debian package.
func needBinary(t *testing.T, bin, pkg string) {
	t.Helper()
	if _, err := exec.LookPath(bin); err != nil {
		unavailable(t, fmt.Sprintf("%s not found in PATH (Debian package %s)", bin, pkg))
	}
}

// proxyKeys returns every tenth dialect key (about 2,300): an HTTP
// request per key and configuration through a proxy costs more than a
// key in a multi-get.
func proxyKeys(t *testing.T) []string {
	t.Helper()
	return every(dialectKeys(t), 10)
}

// proxyWorkers is the number of concurrent requests a route sends.
const proxyWorkers = 8

// viaProxy sends one GET per key to http://addr/ with the key in the
// X-Key header, and returns the port each response names (the backend
// that answered). Every request is bounded by the client's timeout.
func viaProxy(t *testing.T, addr string, keys []string) []int {
	t.Helper()
	client := &http.Client{Timeout: 10 * time.Second,
		Transport: &http.Transport{MaxIdleConnsPerHost: proxyWorkers, DisableCompression: true}}
	defer client.CloseIdleConnections()
	ports := make([]int, len(keys))
	errs := make([]error, proxyWorkers)
	var wg sync.WaitGroup
	for w := range proxyWorkers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < len(keys); i += proxyWorkers {
				req, err := http.NewRequest("GET", "http://"+addr+"/", nil)
				if err != nil {
					errs[w] = err
					return
				}
				req.Header.Set("X-Key", keys[i])
				resp, err := client.Do(req)
				if err != nil {
					errs[w] = fmt.Errorf("key %q: %w", keys[i], err)
					return
				}
				body, err := io.ReadAll(io.LimitReader(resp.Body, 64))
				resp.Body.Close()
				if err == nil && resp.StatusCode != 200 {
					err = fmt.Errorf("status %s: %s", resp.Status, body)
				}
				if err == nil {
					ports[i], err = strconv.Atoi(string(body))
				}
				if err != nil {
					errs[w] = fmt.Errorf("key %q: %w", keys[i], err)
					return
				}
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	return ports
}

// backends starts n HTTP backends, closed when the test ends, and returns
// their "127.0.0.1:port" IDs.
func backends(t *testing.T, n int) []string {
	t.Helper()
	b, err := StartBackends(n)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Close)
	ids := make([]string, n)
	for i, p := range b.Ports() {
		ids[i] = Addr(p)
	}
	return ids
}

// nginxConfig returns an nginx configuration (one process, files in dir)
// with one upstream and server per entry of upstreams: directive (e.g.
// "hash $http_x_key consistent") and the port it listens on, over the
// same servers; servers whose ID is in down are marked down.
func nginxConfig(dir string, upstreams map[int]string, nodes []algorithms.Node, down ...string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "daemon off;\nmaster_process off;\nworker_processes 1;\npid %s/nginx.pid;\nerror_log %s/error.log warn;\n", dir, dir)
	b.WriteString("events { worker_connections 4096; }\nhttp {\n  access_log off;\n")
	for _, p := range []string{"client_body", "proxy", "fastcgi", "uwsgi", "scgi"} {
		fmt.Fprintf(&b, "  %s_temp_path %s/%s;\n", p, dir, p)
	}
	for listen, directive := range upstreams {
		fmt.Fprintf(&b, "  upstream u%d {\n    %s;\n", listen, directive)
		for _, n := range nodes {
			mark := ""
			if slices.Contains(down, n.ID) {
				mark = " down"
			}
			fmt.Fprintf(&b, "    server %s weight=%d max_fails=0%s;\n", n.ID, int(n.Weight), mark)
		}
		b.WriteString("    keepalive 64;\n  }\n")
		fmt.Fprintf(&b, "  server {\n    listen %s;\n    location / {\n      proxy_pass http://u%d;\n      proxy_http_version 1.1;\n      proxy_set_header Connection \"\";\n    }\n  }\n", Addr(listen), listen)
	}
	b.WriteString("}\n")
	return b.String()
}

// portIDs maps ports back to the IDs of the backends.
func portIDs(ids []string, ports []int) []string {
	byPort := map[int]string{}
	for _, id := range ids {
		_, p, _ := strings.Cut(id, ":")
		n, _ := strconv.Atoi(p)
		byPort[n] = id
	}
	out := make([]string, len(ports))
	for i, p := range ports {
		out[i] = byPort[p]
	}
	return out
}

// nginx 1.22 with `hash $http_x_key consistent` and with plain `hash
// $http_x_key`, proxying to HTTP backends that answer with their own
// port, sends every key to the backend the nginx dialects name, at 10
// servers of weights 1..5, 25 and 300, and after one leaves the upstream;
// and with that server marked `down` instead, consistent hashing sends its
// keys to their second replica of the dialect (the next distinct server
// clockwise) and the others where they were.
func TestDialectNginx(t *testing.T) {
	t.Parallel()
	needBinary(t, "nginx", "nginx")
	keys := proxyKeys(t)
	ids := backends(t, fleetSizes[len(fleetSizes)-1])
	dir := t.TempDir()
	modes := []struct {
		directive string
		build     func([]algorithms.Node) (algorithms.Placer, error)
	}{
		{"hash $http_x_key consistent", nginx.Consistent},
		{"hash $http_x_key", nginx.Hash},
	}
	route := func(nodes []algorithms.Node, down ...string) [][]string {
		ups := map[int]string{}
		listens := distinctPorts(t, len(modes))
		for i, m := range modes {
			ups[listens[i]] = m.directive
		}
		conf := filepath.Join(dir, "nginx.conf")
		if err := os.WriteFile(conf, []byte(nginxConfig(dir, ups, nodes, down...)), 0o644); err != nil {
			t.Fatal(err)
		}
		p := started(t, func() (*Process, error) {
			return Start("nginx", []string{"-e", filepath.Join(dir, "error.log"), "-p", dir, "-c", conf}, Addr(listens[0]), StartTimeout)
		})
		defer p.Stop()
		out := make([][]string, len(modes))
		for i := range modes {
			out[i] = portIDs(ids, viaProxy(t, Addr(listens[i]), keys))
		}
		return out
	}
	weights10 := []float64{1, 2, 1, 3, 1, 1, 2, 1, 1, 5}
	for _, n := range fleetSizes {
		var w []float64
		if n == 10 {
			w = weights10
		}
		nodes := nodesOf(ids[:n], w)
		before, after := route(nodes), route(without(nodes, leaving))
		for i, m := range modes {
			calls := 0
			checkFleet(t, "nginx "+m.directive, dialectCase{nodes, m.build}, keys, func([]algorithms.Node) []string {
				if calls++; calls == 1 {
					return before[i]
				}
				return after[i]
			})
		}
		down := route(nodes, nodes[leaving].ID)[0]
		p, err := nginx.Consistent(nodes)
		if err != nil {
			t.Fatal(err)
		}
		fell := 0
		for i, k := range keys {
			want := p.Locate(k)
			if want == nodes[leaving].ID {
				fell++
				want = p.Nodes()[p.(algorithms.Replicator).Replicas(p.HashKey(k), make([]int, 2))[1]].ID
			}
			if down[i] != want {
				t.Errorf("%d servers, %s down: key %q goes to %s, the dialect's fallback %s", n, nodes[leaving].ID, k, down[i], want)
			}
		}
		t.Logf("nginx consistent, %d servers, %s down: %d keys fall back to their second replica, all %d keys where the dialect says", n, nodes[leaving].ID, fell, len(keys))
	}
}

// haproxyBackend is one frontend/backend pair of a HAProxy configuration.
type haproxyBackend struct {
	method, function string
	avalanche        bool
	listen           int
}

// haproxyConfig returns a HAProxy configuration with one frontend and
// backend per entry, each balancing on the X-Key header over nodes.
func haproxyConfig(backs []haproxyBackend, nodes []algorithms.Node) string {
	var b strings.Builder
	b.WriteString("global\n  maxconn 4096\ndefaults\n  mode http\n  timeout connect 5s\n  timeout client 30s\n  timeout server 30s\n  retries 0\n")
	for i, bk := range backs {
		mod := ""
		if bk.avalanche {
			mod = " avalanche"
		}
		fmt.Fprintf(&b, "frontend f%d\n  bind %s\n  default_backend b%d\n", i, Addr(bk.listen), i)
		fmt.Fprintf(&b, "backend b%d\n  balance hdr(X-Key)\n  hash-type %s %s%s\n", i, bk.method, bk.function, mod)
		for j, n := range nodes {
			fmt.Fprintf(&b, "  server s%d %s weight %d\n", j, n.ID, int(n.Weight))
		}
	}
	return b.String()
}

// HAProxy 2.6 with `balance hdr(X-Key)` and `hash-type consistent` or
// `map-based`, proxying to HTTP backends that answer with their own port,
// sends every key to the backend the haproxy dialects name: with the
// default sdbm at 10 servers of weights 1..5, 25 and 300, and with djb2,
// wt6, crc32 and sdbm avalanche at 25 servers (every third key); each
// also after one server leaves the backend (which renumbers the servers
// after it).
func TestDialectHAProxy(t *testing.T) {
	t.Parallel()
	needBinary(t, "haproxy", "haproxy")
	keys := proxyKeys(t)
	fewKeys := every(keys, 3)
	ids := backends(t, fleetSizes[len(fleetSizes)-1])
	dir := t.TempDir()
	type variant struct {
		back  haproxyBackend
		build func([]algorithms.Node) (algorithms.Placer, error)
	}
	variants := func(functions []string, avalanche bool) []variant {
		var out []variant
		for _, method := range []string{"consistent", "map-based"} {
			for _, f := range functions {
				b, err := haproxy.Consistent(f, avalanche)
				if method == "map-based" {
					b, err = haproxy.MapBased(f, avalanche)
				}
				if err != nil {
					t.Fatal(err)
				}
				out = append(out, variant{haproxyBackend{method: method, function: f, avalanche: avalanche}, b})
			}
		}
		return out
	}
	route := func(vs []variant, nodes []algorithms.Node, keys []string) [][]string {
		backs := make([]haproxyBackend, len(vs))
		ports := distinctPorts(t, len(vs))
		for i := range vs {
			backs[i] = vs[i].back
			backs[i].listen = ports[i]
		}
		conf := filepath.Join(dir, "haproxy.cfg")
		if err := os.WriteFile(conf, []byte(haproxyConfig(backs, nodes)), 0o644); err != nil {
			t.Fatal(err)
		}
		p := started(t, func() (*Process, error) {
			return Start("haproxy", []string{"-db", "-f", conf}, Addr(backs[len(backs)-1].listen), StartTimeout)
		})
		defer p.Stop()
		out := make([][]string, len(backs))
		for i := range backs {
			out[i] = portIDs(ids, viaProxy(t, Addr(backs[i].listen), keys))
		}
		return out
	}
	check := func(vs []variant, nodes []algorithms.Node, keys []string) {
		before, after := route(vs, nodes, keys), route(vs, without(nodes, leaving), keys)
		for i, v := range vs {
			calls := 0
			what := fmt.Sprintf("haproxy hash-type %s %s", v.back.method, v.back.function)
			if v.back.avalanche {
				what += " avalanche"
			}
			checkFleet(t, what, dialectCase{nodes, v.build}, keys, func([]algorithms.Node) []string {
				if calls++; calls == 1 {
					return before[i]
				}
				return after[i]
			})
		}
	}
	weights10 := []float64{1, 2, 1, 3, 1, 1, 2, 1, 1, 5}
	for _, n := range fleetSizes {
		var w []float64
		if n == 10 {
			w = weights10
		}
		check(variants([]string{"sdbm"}, false), nodesOf(ids[:n], w), keys)
	}
	others := append(variants([]string{"djb2", "wt6", "crc32"}, false), variants([]string{"sdbm"}, true)...)
	check(others, nodesOf(ids[:25], nil), fewKeys)
}
