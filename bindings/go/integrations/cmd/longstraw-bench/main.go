// Command longstraw-bench compares longstraw's Go binding with
// github.com/dgryski/go-rendezvous (what go-redis's Ring uses, with
// xxhash), side by side in one run, and prints ratios as a Markdown table.
//
//	go run ./cmd/longstraw-bench
package main

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/cespare/xxhash/v2"
	rendezvous "github.com/dgryski/go-rendezvous"

	longstraw "github.com/longstraw/longstraw/bindings/go"
)

const keyCount = 4096

func main() {
	keys := make([]string, keyCount)
	for i := range keys {
		keys[i] = fmt.Sprintf("user:%d", i)
	}
	fmt.Printf("go %s %s/%s, %d distinct keys cycled, ns per key (lower is better)\n\n",
		runtime.Version(), runtime.GOOS, runtime.GOARCH, keyCount)
	fmt.Println("| nodes | go-rendezvous Lookup | longstraw Owner | longstraw Owners (batch of 4096) | Owner / go-rendezvous | Owners / go-rendezvous |")
	fmt.Println("|---:|---:|---:|---:|---:|---:|")
	for _, n := range []int{3, 10, 100, 1000} {
		nodes := make([]string, n)
		for i := range nodes {
			nodes[i] = fmt.Sprintf("cache-%d", i)
		}
		theirs := rendezvous.New(nodes, xxhash.Sum64String)
		ours, err := longstraw.New(nodes)
		if err != nil {
			panic(err)
		}
		sink := ""
		dg := perKey(testing.Benchmark(func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				sink = theirs.Lookup(keys[i%keyCount])
			}
		}), 1)
		one := perKey(testing.Benchmark(func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				sink, _ = ours.Owner(keys[i%keyCount])
			}
		}), 1)
		batch := perKey(testing.Benchmark(func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				out, _ := ours.Owners(keys)
				sink = out[0]
			}
		}), keyCount)
		_ = sink
		fmt.Printf("| %d | %.1f | %.1f | %.1f | %.2fx | %.2fx |\n", n, dg, one, batch, one/dg, batch/dg)
	}
}

func perKey(r testing.BenchmarkResult, keysPerOp int) float64 {
	return float64(r.T.Nanoseconds()) / float64(r.N) / float64(keysPerOp)
}
