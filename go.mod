module github.com/errgen/errgen

go 1.24

require (
	github.com/dave/jennifer v1.7.1
	github.com/evanw/esbuild v0.28.2
	github.com/iancoleman/strcase v0.3.0
	github.com/invopop/jsonschema v0.14.0
	github.com/pb33f/ordered-map/v2 v2.3.1
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3
	github.com/yuin/goldmark v1.8.7
	golang.org/x/mod v0.8.0
	gopkg.in/yaml.v3 v3.0.1
)

require (
	github.com/bahlo/generic-list-go v0.2.0 // indirect
	github.com/buger/jsonparser v1.1.2 // indirect
	go.yaml.in/yaml/v4 v4.0.0-rc.2 // indirect
	golang.org/x/sys v0.5.0 // indirect
	golang.org/x/text v0.14.0 // indirect
)
