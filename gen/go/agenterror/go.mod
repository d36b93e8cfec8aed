module github.com/errgen/errgen/gen/go/agenterror

go 1.21
