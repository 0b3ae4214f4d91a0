// Command longstraw-diff is the Go driver of the cross-language differential
// test (tests/diff, make test-diff): it runs the case file through this
// package and prints the canonical answer lines.
package main

import (
	"bufio"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	longstraw "github.com/longstraw/longstraw/bindings/go"
)

func unhex(f string) []byte {
	if f == "." {
		return nil
	}
	b, err := hex.DecodeString(f)
	if err != nil {
		panic(err)
	}
	return b
}

func hx(b []byte) string {
	if len(b) == 0 {
		return "."
	}
	return hex.EncodeToString(b)
}

func class(err error) string {
	for _, c := range []struct {
		err  error
		name string
	}{
		{longstraw.ErrInvalidNodeID, "invalid_node_id"}, {longstraw.ErrInvalidWeight, "invalid_weight"},
		{longstraw.ErrDuplicateNode, "duplicate_node"}, {longstraw.ErrInvalidDomain, "invalid_domain"},
		{longstraw.ErrNoEligibleNode, "no_eligible"}, {longstraw.ErrHashCollision, "hash_collision"},
	} {
		if errors.Is(err, c.err) {
			return c.name
		}
	}
	return "other"
}

func ids(list []string) string {
	if len(list) == 0 {
		return "-"
	}
	out := make([]string, len(list))
	for i, id := range list {
		out[i] = hx([]byte(id))
	}
	return strings.Join(out, ",")
}

func main() {
	f, err := os.Open(os.Args[1])
	if err != nil {
		panic(err)
	}
	defer f.Close()
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	in := bufio.NewScanner(f)
	in.Buffer(make([]byte, 1<<20), 1<<20)
	var r *longstraw.Rendezvous
	var setNo string
	failed, keyNo := false, 0
	for in.Scan() {
		field := strings.Split(in.Text(), " ")
		switch field[0] {
		case "S":
			seed, _ := strconv.ParseUint(field[2], 10, 64)
			setNo, failed, keyNo = field[1], false, 0
			if r, err = longstraw.New(nil, longstraw.WithSeed(seed)); err != nil {
				panic(err)
			}
		case "N":
			if failed {
				continue
			}
			weight, _ := strconv.ParseFloat(field[2], 64)
			domain := ""
			if field[3] != "-" {
				domain = string(unhex(field[3]))
			}
			if err := r.AddInDomain(string(unhex(field[1])), weight, domain); err != nil {
				fmt.Fprintf(w, "b %s BUILD %s\n", setNo, class(err))
				failed = true
			}
		case "K":
			i := keyNo
			keyNo++
			if failed {
				continue
			}
			key := unhex(field[1])
			k, _ := strconv.Atoi(field[2])
			owner, err := r.OwnerBytes(key)
			if err != nil {
				fmt.Fprintf(w, "b %s K%d ERR %s\n", setNo, i, class(err))
				continue
			}
			top, err1 := r.TopKBytes(key, k)
			distinct, err2 := r.TopKDistinctBytes(key, k)
			if err1 != nil || err2 != nil {
				panic(fmt.Sprint(err1, err2))
			}
			fmt.Fprintf(w, "b %s K%d %s %s %s\n", setNo, i, hx([]byte(owner)), ids(top), ids(distinct))
		case "E":
			_ = r.Close()
		}
	}
	if err := in.Err(); err != nil {
		panic(err)
	}
}
