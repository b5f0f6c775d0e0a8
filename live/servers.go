package live

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// StartTimeout bounds how long a server may take to start listening.
const StartTimeout = 10 * time.Second

// StartMemcached starts memcached on 127.0.0.1:port with memMB megabytes
// of item memory, one worker thread and UDP off. When run as root it stays
// root (memcached refuses root without -u).
func StartMemcached(port, memMB int) (*Process, error) {
	args := []string{"-l", Loopback, "-p", strconv.Itoa(port), "-U", "0", "-m", strconv.Itoa(memMB), "-t", "1", "-c", "256"}
	if os.Geteuid() == 0 {
		args = append(args, "-u", "root")
	}
	return Start("memcached", args, Addr(port), StartTimeout)
}

// StartRedisClusterNode starts redis-server on 127.0.0.1:port as an empty
// cluster node whose cluster bus listens on busPort, keeping its cluster
// state file in dir and nothing on disk otherwise.
func StartRedisClusterNode(dir string, port, busPort int) (*Process, error) {
	p := strconv.Itoa(port)
	args := []string{
		"--bind", Loopback, "--port", p, "--cluster-enabled", "yes", "--cluster-port", strconv.Itoa(busPort),
		"--cluster-config-file", filepath.Join(dir, "nodes-"+p+".conf"), "--cluster-node-timeout", "5000",
		"--dir", dir, "--save", "", "--appendonly", "no", "--daemonize", "no", "--logfile", "",
	}
	return Start("redis-server", args, Addr(port), StartTimeout)
}

// TwemServer is one backend line of a twemproxy pool: 127.0.0.1:Port with
// an integer weight and an optional name (twemproxy's ketama labels use
// the name when given, else "127.0.0.1:port").
type TwemServer struct {
	Port   int
	Weight int
	Name   string
}

// KetamaID returns the server's name as twemproxy's ketama continuum uses
// it: Name if set, else "127.0.0.1:port", or "127.0.0.1" alone for port
// 11211 (twemproxy keeps libmemcached's labels there).
func (s TwemServer) KetamaID() string {
	switch {
	case s.Name != "":
		return s.Name
	case s.Port == 11211:
		return Loopback
	default:
		return Addr(s.Port)
	}
}

// NutcrackerConfig returns a twemproxy configuration of one pool named
// "chbench" listening on 127.0.0.1:listen, with the given key hash and
// distribution (e.g. "md5", "ketama"), no host ejection, and servers.
func NutcrackerConfig(listen int, hash, distribution string, servers []TwemServer) string {
	var b strings.Builder
	fmt.Fprintf(&b, "chbench:\n  listen: %s\n  hash: %s\n  distribution: %s\n", Addr(listen), hash, distribution)
	b.WriteString("  timeout: 30000\n  auto_eject_hosts: false\n  servers:\n")
	for _, s := range servers {
		fmt.Fprintf(&b, "   - %s:%d", Addr(s.Port), s.Weight)
		if s.Name != "" {
			b.WriteString(" " + s.Name)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// StartNutcracker writes config to dir and starts nutcracker (twemproxy)
// with it, its stats server on 127.0.0.1:statsPort and its log in dir,
// waiting until the pool listens on 127.0.0.1:listen.
func StartNutcracker(dir, config string, listen, statsPort int) (*Process, error) {
	name := "nutcracker-" + strconv.Itoa(listen)
	conf := filepath.Join(dir, name+".yml")
	if err := os.WriteFile(conf, []byte(config), 0o644); err != nil {
		return nil, fmt.Errorf("live: %w", err)
	}
	args := []string{"-c", conf, "-s", strconv.Itoa(statsPort), "-a", Loopback, "-o", filepath.Join(dir, name+".log"), "-p", filepath.Join(dir, name+".pid")}
	return Start("nutcracker", args, Addr(listen), StartTimeout)
}
