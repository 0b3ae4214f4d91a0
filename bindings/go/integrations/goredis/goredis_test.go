package goredis

import (
	"context"
	"fmt"
	"testing"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"

	longstraw "github.com/longstraw/longstraw/bindings/go"
)

// Keys written through a go-redis Ring land on the shard longstraw names.
func TestRingPlacesKeysWhereLongstrawSays(t *testing.T) {
	names := []string{"shard-a", "shard-b", "shard-c"}
	servers := map[string]*miniredis.Miniredis{}
	addrs := map[string]string{}
	for _, n := range names {
		s := miniredis.RunT(t)
		servers[n] = s
		addrs[n] = s.Addr()
	}
	ring := redis.NewRing(&redis.RingOptions{Addrs: addrs, NewConsistentHash: NewConsistentHash()})
	defer ring.Close()

	ctx := context.Background()
	r, err := longstraw.New(names)
	if err != nil {
		t.Fatal(err)
	}
	perShard := map[string]int{}
	for i := 0; i < 300; i++ {
		key := fmt.Sprintf("user:%d", i)
		if err := ring.Set(ctx, key, i, 0).Err(); err != nil {
			t.Fatal(err)
		}
		want, err := r.Owner(key)
		if err != nil {
			t.Fatal(err)
		}
		for n, s := range servers {
			if s.Exists(key) != (n == want) {
				t.Fatalf("%s: on %s = %v, longstraw says %s", key, n, s.Exists(key), want)
			}
		}
		perShard[want]++
	}
	for _, n := range names {
		if perShard[n] == 0 {
			t.Errorf("shard %s got no keys: %v", n, perShard)
		}
	}
}

func TestGetMatchesOwner(t *testing.T) {
	names := []string{"a", "b", "c", "d"}
	h := NewConsistentHash(longstraw.WithSeed(7))(names)
	r, _ := longstraw.New(names, longstraw.WithSeed(7))
	for i := 0; i < 1000; i++ {
		key := fmt.Sprint(i)
		if want, _ := r.Owner(key); h.Get(key) != want {
			t.Fatalf("Get(%q) = %q, want %q", key, h.Get(key), want)
		}
	}
	if got := NewConsistentHash()(nil).Get("k"); got != "" {
		t.Errorf("no shards: Get = %q", got)
	}
}
