package live

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// Backends is a set of HTTP servers on 127.0.0.1, each answering every
// request with its own port in decimal (the body), so a proxy's choice of
// backend can be read from its response.
type Backends struct {
	servers []*http.Server
	ports   []int
	wg      sync.WaitGroup
	once    sync.Once
}

// StartBackends listens on n ports of 127.0.0.1 chosen by the kernel.
func StartBackends(n int) (*Backends, error) { return StartBackendsAt(autoAddrs(n)) }

// StartBackendsAt listens on the given loopback addresses (127.x.y.z:port,
// in order; the ports must differ, as the answer names the port only).
func StartBackendsAt(addrs []string) (*Backends, error) {
	b := &Backends{}
	for i, a := range addrs {
		if err := checkLoopbackRange(a); err != nil {
			return nil, err
		}
		ln, err := net.Listen("tcp", a)
		if err != nil {
			b.Close()
			return nil, fmt.Errorf("live: backend %d of %d: %w", i, len(addrs), err)
		}
		port := ln.Addr().(*net.TCPAddr).Port
		body := []byte(strconv.Itoa(port))
		srv := &http.Server{
			Handler: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("Content-Length", strconv.Itoa(len(body)))
				w.Write(body)
			}),
			ReadHeaderTimeout: 10 * time.Second,
			IdleTimeout:       60 * time.Second,
		}
		b.servers = append(b.servers, srv)
		b.ports = append(b.ports, port)
		b.wg.Add(1)
		go func() {
			defer b.wg.Done()
			srv.Serve(ln) // returns when Close shuts the server down
		}()
	}
	return b, nil
}

// Ports returns the backends' ports, in order.
func (b *Backends) Ports() []int { return b.ports }

// Close stops every backend and waits for them. It is safe to call more
// than once.
func (b *Backends) Close() {
	b.once.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		for _, s := range b.servers {
			s.Shutdown(ctx)
		}
		b.wg.Wait()
	})
}
