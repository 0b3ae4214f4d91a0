package longstraw

import (
	"fmt"
	"io"
	"math"
	"math/rand"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// peakServer is a local HTTP server that records its peak concurrency.
type peakServer struct {
	srv      *http.Server
	url      string
	inFlight atomic.Int64
	peak     atomic.Int64
}

func startPeakServer(t *testing.T, service time.Duration) *peakServer {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Skipf("SKIPPED: cannot listen on 127.0.0.1: %v", err)
	}
	s := &peakServer{url: "http://" + ln.Addr().String() + "/"}
	s.srv = &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		now := s.inFlight.Add(1)
		for {
			p := s.peak.Load()
			if now <= p || s.peak.CompareAndSwap(p, now) {
				break
			}
		}
		time.Sleep(service)
		s.inFlight.Add(-1)
		io.WriteString(w, "ok")
	})}
	go s.srv.Serve(ln)
	return s
}

// Sends requests with a hot key to 5 local HTTP servers, routed by plain HRW
// and by Bounded (c = 1.25), and compares each server's peak concurrency.
// Bounded in size (1500 requests per run, 40 clients) and time (a deadline).
func TestBoundedHTTPIntegration(t *testing.T) {
	if testing.Short() {
		t.Skip("SKIPPED: -short (starts 5 HTTP servers)")
	}
	const servers, clients, requests = 5, 40, 1500
	const service = 3 * time.Millisecond
	ids := make([]string, servers)
	urls := map[string]*peakServer{}
	for i := range ids {
		s := startPeakServer(t, service)
		defer s.srv.Close()
		ids[i] = fmt.Sprintf("backend-%d", i)
		urls[ids[i]] = s
	}
	client := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: clients}}
	plain, err := New(ids)
	if err != nil {
		t.Fatal(err)
	}
	run := func(route func(key string) (string, func(), error)) map[string]int64 {
		for _, s := range urls {
			s.peak.Store(0)
		}
		var next atomic.Int64
		var wg sync.WaitGroup
		deadline := time.Now().Add(60 * time.Second)
		for c := 0; c < clients; c++ {
			wg.Add(1)
			go func(c int) {
				defer wg.Done()
				rng := rand.New(rand.NewSource(int64(c)))
				for next.Add(1) <= requests && time.Now().Before(deadline) {
					key := "hot-object"
					if rng.Intn(10) < 2 {
						key = fmt.Sprintf("cold-%d", rng.Intn(10000))
					}
					node, release, err := route(key)
					if err != nil {
						t.Error(err)
						return
					}
					resp, err := client.Get(urls[node].url)
					if err == nil {
						io.Copy(io.Discard, resp.Body)
						resp.Body.Close()
					} else {
						t.Error(err)
					}
					release()
				}
			}(c)
		}
		wg.Wait()
		if time.Now().After(deadline) {
			t.Fatal("the run took longer than its 60 s deadline")
		}
		peaks := map[string]int64{}
		for id, s := range urls {
			peaks[id] = s.peak.Load()
		}
		return peaks
	}
	unbounded := run(func(key string) (string, func(), error) {
		node, err := plain.Owner(key)
		return node, func() {}, err
	})
	b, err := NewBounded(ids, 1.25)
	if err != nil {
		t.Fatal(err)
	}
	bounded := run(b.Acquire)
	var maxPlain, maxBounded int64
	for _, id := range ids {
		t.Logf("%s: peak concurrency plain HRW %3d, bounded (c=1.25) %3d", id, unbounded[id], bounded[id])
		maxPlain = max(maxPlain, unbounded[id])
		maxBounded = max(maxBounded, bounded[id])
	}
	// At most `clients` requests are in flight, so no admission saw a total
	// above that: every server's load stays within ceil(1.25 * clients / 5).
	limit := int64(math.Ceil(1.25 * clients / servers))
	t.Logf("busiest server: plain %d, bounded %d (cap %d)", maxPlain, maxBounded, limit)
	if maxBounded > limit {
		t.Fatalf("a server saw %d concurrent requests under bounding; cap %d", maxBounded, limit)
	}
	if maxPlain <= limit {
		t.Fatalf("the hot key did not overload plain HRW (peak %d <= %d): the test proves nothing", maxPlain, limit)
	}
	if b.InFlight() != 0 {
		t.Fatalf("%d leases left in flight", b.InFlight())
	}
}
