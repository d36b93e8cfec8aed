module github.com/errgen/errgen/bench

go 1.26.0

require (
	github.com/errgen/errgen/gen/go/agenterror v0.0.0
	google.golang.org/genproto/googleapis/rpc v0.0.0-20261110000943-09e21b237f2c
	google.golang.org/protobuf v1.36.12
)

replace github.com/errgen/errgen/gen/go/agenterror => ../gen/go/agenterror
