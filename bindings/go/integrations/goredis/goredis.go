// Package goredis plugs longstraw into go-redis's Ring:
//
//	ring := redis.NewRing(&redis.RingOptions{
//		Addrs:             map[string]string{"shard-a": ":7000", "shard-b": ":7001"},
//		NewConsistentHash: goredis.NewConsistentHash(),
//	})
//
// The ring then places each key on the shard whose name longstraw picks, the
// same shard a C, Rust, Python or Node client of longstraw picks for that key
// with the same shard names (go-redis applies Redis hash tags, {...}, first).
package goredis

import (
	"github.com/redis/go-redis/v9"

	longstraw "github.com/longstraw/longstraw/bindings/go"
)

// NewConsistentHash returns a function for redis.RingOptions.NewConsistentHash.
// The ring calls it with the names of its live shards whenever they change.
// If longstraw rejects the shard names (it cannot for the distinct names a
// Ring has, short of a 64-bit hash collision), Get returns "" for every key,
// which the ring reports as no shard available.
func NewConsistentHash(opts ...longstraw.Option) func(shards []string) redis.ConsistentHash {
	return func(shards []string) redis.ConsistentHash {
		r, err := longstraw.New(shards, opts...)
		if err != nil {
			return noShard{}
		}
		return hash{r}
	}
}

type hash struct{ r *longstraw.Rendezvous }

// Get returns the shard that owns key, or "" when there are no shards.
func (h hash) Get(key string) string {
	owner, err := h.r.Owner(key)
	if err != nil {
		return ""
	}
	return owner
}

type noShard struct{}

func (noShard) Get(string) string { return "" }
