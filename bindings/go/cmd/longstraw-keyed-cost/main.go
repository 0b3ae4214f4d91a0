// Command longstraw-keyed-cost measures Owner for 16-byte keys, v1 against
// keyed-v1 (docs/SPEC.md §15), in ns per lookup. Each figure is the fastest of
// many short alternating batches, so that other jobs on a shared machine do
// not inflate it (see bench/runs/2026-12-01-keyed/README.md).
package main

import (
	"crypto/rand"
	"fmt"
	"math"
	"time"

	longstraw "github.com/longstraw/longstraw/bindings/go"
)

const (
	batch  = 64
	rounds = 10000
)

func main() {
	keys := make([][]byte, 4096)
	for i := range keys {
		keys[i] = []byte(fmt.Sprintf("key:%012d", i))
	}
	secret := make([]byte, longstraw.SecretLen)
	if _, err := rand.Read(secret); err != nil {
		panic(err)
	}
	fmt.Println("| n | v1 ns | keyed-v1 ns | extra |")
	fmt.Println("|---|---|---|---|")
	for _, n := range []int{10, 100, 1000} {
		nodes := make([]string, n)
		for i := range nodes {
			nodes[i] = fmt.Sprintf("node-%d", i)
		}
		v1, err := longstraw.New(nodes)
		if err != nil {
			panic(err)
		}
		keyed, err := longstraw.New(nodes, longstraw.WithSecret(secret))
		if err != nil {
			panic(err)
		}
		best := [2]float64{math.Inf(1), math.Inf(1)}
		for r := 0; r < rounds; r++ {
			for which, set := range []*longstraw.Rendezvous{v1, keyed} {
				start := time.Now()
				for i := 0; i < batch; i++ {
					if _, err := set.OwnerBytes(keys[(r*batch+i)&4095]); err != nil {
						panic(err)
					}
				}
				best[which] = math.Min(best[which], float64(time.Since(start).Nanoseconds())/batch)
			}
		}
		fmt.Printf("| %d | %.0f | %.0f | %+.0f |\n", n, best[0], best[1], best[1]-best[0])
	}
}
