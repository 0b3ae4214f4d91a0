package longstraw_test

import (
	"fmt"
	"log"

	longstraw "github.com/longstraw/longstraw/bindings/go"
)

// The README's bounded-loads example.
func ExampleNewBounded() {
	b, err := longstraw.NewBounded([]string{"api-1", "api-2", "api-3"}, longstraw.DefaultBalanceFactor)
	if err != nil {
		log.Fatal(err)
	}
	node, release, err := b.Acquire("user:42")
	if err != nil {
		log.Fatal(err)
	}
	defer release() // ends the request; calling it again does nothing
	fmt.Println("send to", node, "in flight:", b.InFlight())
	// Output: send to api-3 in flight: 1
}
