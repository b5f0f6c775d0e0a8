package live

import (
	"bufio"
	"strings"
	"testing"
)

// These run without any server installed.

// readReply parses every RESP type: simple strings, errors, integers, bulk
// and nil strings, nested and nil arrays.
func TestReadReply(t *testing.T) {
	in := "+OK\r\n-MOVED 3999 127.0.0.1:6381\r\n:12739\r\n$3\r\nfoo\r\n$-1\r\n*2\r\n:1\r\n*1\r\n$0\r\n\r\n*-1\r\n"
	r := bufio.NewReader(strings.NewReader(in))
	var got []Reply
	for i := 0; i < 7; i++ {
		rep, err := readReply(r)
		if err != nil {
			t.Fatalf("reply %d: %v", i, err)
		}
		got = append(got, rep)
	}
	if got[0].Kind != '+' || got[0].Str != "OK" ||
		got[1].Kind != '-' || got[1].Str != "MOVED 3999 127.0.0.1:6381" ||
		got[2].Int != 12739 || got[3].Str != "foo" || !got[4].Nil ||
		len(got[5].Array) != 2 || got[5].Array[0].Int != 1 || got[5].Array[1].Array[0].Str != "" || got[5].Array[1].Array[0].Nil ||
		!got[6].Nil {
		t.Errorf("replies = %+v", got)
	}
	for _, bad := range []string{"?x\r\n", "$abc\r\n", ":1\n", "*-2\r\n", ""} {
		if _, err := readReply(bufio.NewReader(strings.NewReader(bad))); err == nil {
			t.Errorf("reply %q accepted", bad)
		}
	}
}

// Dialing and starting servers is refused for any address but the literal
// 127.0.0.1, so the checks never touch another machine.
func TestOnlyLoopback(t *testing.T) {
	if _, err := DialRedis("10.0.0.1:6379", deadline); err == nil || !strings.Contains(err.Error(), "10.0.0.1") {
		t.Errorf("DialRedis to 10.0.0.1: %v", err)
	}
	if _, err := DialMemcache("localhost:11211", deadline); err == nil {
		t.Error("DialMemcache to localhost (not the literal 127.0.0.1) accepted")
	}
	if _, err := Start("memcached", nil, "0.0.0.0:11211", StartTimeout); err == nil {
		t.Error("Start on 0.0.0.0 accepted")
	}
}

// A server binary that is not installed is a MissingBinary error, and a
// missing redis-cli names the Debian package to install.
func TestMissingBinary(t *testing.T) {
	_, err := Start("no-such-server-binary", nil, Addr(1), StartTimeout)
	if !IsMissing(err) {
		t.Errorf("Start of a missing binary: %v, want a MissingBinary error", err)
	}
	if _, err := LookBinary("redis-cli"); err != nil && !strings.Contains(err.Error(), "redis-tools") {
		t.Errorf("missing redis-cli names %q, want the Debian package redis-tools", err)
	}
}

// ValidKey accepts memcached keys (1-250 bytes, no whitespace or control
// characters) and refuses the rest.
func TestValidKey(t *testing.T) {
	for k, want := range map[string]bool{"foo": true, "Aaron's": true, "\u00e9clair": true, "": false, "a b": false, "a\r\n": false, strings.Repeat("k", 250): true, strings.Repeat("k", 251): false} {
		if ValidKey(k) != want {
			t.Errorf("ValidKey(%q) = %v", k, !want)
		}
	}
}

// twemproxy's ketama labels: the name if given, else host:port, or host
// alone for port 11211 (nc_conf.c, conf_add_server).
func TestTwemServerConfig(t *testing.T) {
	for _, c := range []struct {
		s    TwemServer
		want string
	}{
		{TwemServer{Port: 22122, Weight: 1}, "127.0.0.1:22122"},
		{TwemServer{Port: 11211, Weight: 1}, "127.0.0.1"},
		{TwemServer{Port: 11211, Weight: 1, Name: "cache-a"}, "cache-a"},
	} {
		if got := c.s.KetamaID(); got != c.want {
			t.Errorf("%+v: KetamaID %q, want %q", c.s, got, c.want)
		}
	}
	got := NutcrackerConfig(22121, "md5", "ketama", []TwemServer{{Port: 22122, Weight: 2}, {Port: 22123, Weight: 1, Name: "b"}})
	want := "chbench:\n  listen: 127.0.0.1:22121\n  hash: md5\n  distribution: ketama\n  timeout: 30000\n  auto_eject_hosts: false\n  servers:\n   - 127.0.0.1:22122:2\n   - 127.0.0.1:22123:1 b\n"
	if got != want {
		t.Errorf("config:\n%s\nwant:\n%s", got, want)
	}
}
