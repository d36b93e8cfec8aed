module github.com/errgen/errgen

go 1.26

require (
	github.com/iancoleman/strcase v0.3.0
	gopkg.in/yaml.v3 v3.0.1
)

require github.com/dave/jennifer v1.7.1 // indirect
