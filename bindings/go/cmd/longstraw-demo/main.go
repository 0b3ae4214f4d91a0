// Command longstraw-demo prints the demo corpus placed through the Go
// binding; `make demo-go` compares it line by line with the Rust reference
// (ffi/examples/corpus.rs).
package main

import (
	"fmt"
	"os"
	"strings"

	longstraw "github.com/longstraw/longstraw/bindings/go"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "demo:", err)
		os.Exit(1)
	}
}

func run() error {
	const nodes, keyCount = 10, 100000
	ids := make([]string, nodes)
	for i := range ids {
		ids[i] = fmt.Sprintf("cache-%d", i)
	}
	keys := make([]string, keyCount)
	for i := range keys {
		keys[i] = fmt.Sprintf("user:%d", i)
	}
	r, err := longstraw.New(ids)
	if err != nil {
		return err
	}
	fmt.Printf("corpus: %d nodes cache-0..cache-9, %d keys user:0..user:99999, seed 0, placement v1\n", nodes, keyCount)
	for _, key := range append(keys[:8:8], "user:42") {
		owner, err := r.Owner(key)
		if err != nil {
			return err
		}
		top, err := r.TopK(key, 3)
		if err != nil {
			return err
		}
		fmt.Printf("%s -> %s (top 3: %s)\n", key, owner, strings.Join(top, " "))
	}
	before, err := r.Owners(keys)
	if err != nil {
		return err
	}
	counts := map[string]int{}
	for _, o := range before {
		counts[o]++
	}
	for _, id := range ids {
		fmt.Printf("%s owns %d\n", id, counts[id])
	}
	if err := r.Remove("cache-3"); err != nil {
		return err
	}
	after, err := r.Owners(keys)
	if err != nil {
		return err
	}
	moved, allFrom3 := 0, true
	for i := range keys {
		if before[i] != after[i] {
			moved++
			allFrom3 = allFrom3 && before[i] == "cache-3"
		}
	}
	fmt.Printf("remove cache-3: %d keys moved, all from cache-3: %v\n", moved, allFrom3)
	return nil
}
