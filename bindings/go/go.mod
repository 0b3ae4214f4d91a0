module github.com/longstraw/longstraw/bindings/go

go 1.22
