module github.com/longstraw/longstraw/bindings/go/integrations

go 1.25.0

require (
	github.com/alicebob/miniredis/v2 v2.40.0
	github.com/cespare/xxhash/v2 v2.3.0
	github.com/dgryski/go-rendezvous v0.0.0-20200823014737-9f7001d12a5f
	github.com/longstraw/longstraw/bindings/go v0.0.0
	github.com/redis/go-redis/v9 v9.7.3
)

require (
	github.com/tetratelabs/wazero v1.12.0 // indirect
	github.com/yuin/gopher-lua v1.1.1 // indirect
	golang.org/x/sys v0.44.0 // indirect
)

replace github.com/longstraw/longstraw/bindings/go => ../
