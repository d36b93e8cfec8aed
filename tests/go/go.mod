module github.com/errgen/errgen/tests/go

go 1.26.0

require (
	github.com/errgen/errgen v0.0.0
	github.com/errgen/errgen/gen/go/agenterror v1.0.0
	github.com/getkin/kin-openapi v0.153.0
	google.golang.org/genproto/googleapis/rpc v0.0.0-20261110000943-09e21b237f2c
	google.golang.org/grpc v1.85.0
	google.golang.org/protobuf v1.36.12
	gopkg.in/yaml.v3 v3.0.1
)

require (
	github.com/go-openapi/jsonpointer v0.22.5 // indirect
	github.com/go-openapi/swag/jsonname v0.25.5 // indirect
	github.com/kr/pretty v0.3.1 // indirect
	golang.org/x/net v0.60.0 // indirect
	golang.org/x/sys v0.48.0 // indirect
)

require (
	github.com/bahlo/generic-list-go v0.2.0 // indirect
	github.com/buger/jsonparser v1.1.2 // indirect
	github.com/dave/jennifer v1.7.1 // indirect
	github.com/errgen/errgen/gen/go/agenterror/grpcstatus v0.0.0
	github.com/iancoleman/strcase v0.3.0 // indirect
	github.com/invopop/jsonschema v0.14.0 // indirect
	github.com/pb33f/ordered-map/v2 v2.3.1 // indirect
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3 // indirect
	go.yaml.in/yaml/v4 v4.0.0 // indirect
	golang.org/x/mod v0.41.0
	golang.org/x/text v0.42.0 // indirect
)

// Both from this checkout: the tests run errgen's internals (the contract
// loader, gentest) against the generated package as committed.
replace (
	github.com/errgen/errgen => ../..
	github.com/errgen/errgen/gen/go/agenterror => ../../gen/go/agenterror
)

replace github.com/errgen/errgen/gen/go/agenterror/grpcstatus => ../../gen/go/agenterror/grpcstatus
