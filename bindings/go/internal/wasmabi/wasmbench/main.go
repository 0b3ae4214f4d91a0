//go:build cgo

// Command wasmbench times the WebAssembly runner (wazero, no cgo) against the
// cgo binding in one run: Owner at n = 1 (mostly call cost), 10 and 100 nodes, and a batch of 4096
// keys at n = 100 and n = 4096, printed as Markdown tables for bench/record.py.
//
//	go run ./internal/wasmabi/wasmbench | python3 ../../bench/record.py --run go-wasm --command ...
package main

import (
	"fmt"
	"os"
	"runtime"
	"testing"

	longstraw "github.com/longstraw/longstraw/bindings/go"
	"github.com/longstraw/longstraw/bindings/go/internal/wasmabi"
)

func nodes(n int) []string {
	ids := make([]string, n)
	for i := range ids {
		ids[i] = fmt.Sprintf("cache-%d", i)
	}
	return ids
}

func keys(n int) []string {
	k := make([]string, n)
	for i := range k {
		k[i] = fmt.Sprintf("user:%d", i)
	}
	return k
}

func must(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func sets(n int) (*longstraw.Rendezvous, *wasmabi.Set) {
	ids := nodes(n)
	c, err := longstraw.New(ids, longstraw.WithSeed(7), longstraw.WithPlacement(1))
	must(err)
	w, err := wasmabi.New(7, nil, 1, wasmabi.Options{})
	must(err)
	for _, id := range ids {
		must(w.Add(id, 1))
	}
	// Both faces run the same core: check they agree before timing.
	for _, k := range keys(1000) {
		a, err := c.Owner(k)
		must(err)
		_, b, err := w.Owner([]byte(k))
		must(err)
		if a != b {
			must(fmt.Errorf("n=%d %s: cgo %q, wasm %q", n, k, a, b))
		}
	}
	return c, w
}

func perOp(r testing.BenchmarkResult, per int) float64 {
	return float64(r.T.Nanoseconds()) / float64(r.N) / float64(per)
}

func main() {
	ks := keys(4096)
	kb := make([][]byte, len(ks))
	for i, k := range ks {
		kb[i] = []byte(k)
	}
	fmt.Printf("GOMAXPROCS %d, %s/%s\n\n", runtime.GOMAXPROCS(0), runtime.GOOS, runtime.GOARCH)
	fmt.Println("Owner, one key per call (ns per call, one goroutine)")
	fmt.Println()
	fmt.Println("| n | cgo | wasm | wasm / cgo |")
	fmt.Println("|---|---|---|---|")
	for _, n := range []int{1, 10, 100} {
		c, w := sets(n)
		rc := testing.Benchmark(func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				_, _ = c.Owner(ks[i&4095])
			}
		})
		rw := testing.Benchmark(func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				_, _, _ = w.Owner(kb[i&4095])
			}
		})
		fmt.Printf("| %d | %.1f ns | %.1f ns | %.2f |\n", n, perOp(rc, 1), perOp(rw, 1), perOp(rw, 1)/perOp(rc, 1))
		w.Close()
	}
	fmt.Println()
	fmt.Println("Owner from GOMAXPROCS goroutines at n = 100 (ns per call; b.RunParallel)")
	fmt.Println()
	fmt.Println("| face | ns per call | instances | linear memory |")
	fmt.Println("|---|---|---|---|")
	{
		c, _ := sets(100)
		rc := testing.Benchmark(func(b *testing.B) {
			b.RunParallel(func(pb *testing.PB) {
				for i := 0; pb.Next(); i++ {
					_, _ = c.Owner(ks[i&4095])
				}
			})
		})
		fmt.Printf("| cgo | %.1f ns | - | - |\n", perOp(rc, 1))
		for _, cap := range []int{1, runtime.GOMAXPROCS(0)} {
			w, err := wasmabi.New(7, nil, 1, wasmabi.Options{MaxInstances: cap})
			must(err)
			for _, id := range nodes(100) {
				must(w.Add(id, 1))
			}
			rw := testing.Benchmark(func(b *testing.B) {
				b.RunParallel(func(pb *testing.PB) {
					for i := 0; pb.Next(); i++ {
						_, _, _ = w.Owner(kb[i&4095])
					}
				})
			})
			live, _ := w.Instances()
			fmt.Printf("| wasm, pool cap %d | %.1f ns | %d | %d KiB |\n", cap, perOp(rw, 1), live, w.MemoryBytes()/1024)
			w.Close()
		}
	}
	fmt.Println()
	fmt.Println("Batch of 4096 keys, one call (ns per key)")
	fmt.Println()
	fmt.Println("| n | cgo | wasm | wasm / cgo |")
	fmt.Println("|---|---|---|---|")
	for _, n := range []int{100, 4096} {
		c, w := sets(n)
		out := make([]uint32, len(kb))
		rc := testing.Benchmark(func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				_, _ = c.OwnersBytes(kb)
			}
		})
		rw := testing.Benchmark(func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				_ = w.Owners(kb, out)
			}
		})
		fmt.Printf("| %d | %.1f ns | %.1f ns | %.2f |\n", n, perOp(rc, 4096), perOp(rw, 4096), perOp(rw, 4096)/perOp(rc, 4096))
		w.Close()
	}
}
