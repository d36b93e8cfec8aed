package gengo

import (
	"fmt"
	"path"

	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/genschema"
	"github.com/errgen/errgen/internal/targets"
)

// schemaFiles returns the envelope schemas as files of the Go package, so
// //go:embed can reach them: a consumer's `go get` brings only this
// directory, and a server can publish the schema it was built with.
func schemaFiles(c *contract.Contract, o targets.Options) (map[string][]byte, error) {
	out := map[string][]byte{}
	for _, role := range []genschema.Role{genschema.Producer, genschema.Consumer} {
		data, err := genschema.SharedEnvelope(c, role, o.Shared)
		if err != nil {
			return nil, fmt.Errorf("gengo: %s schema: %w", role, err)
		}
		out[path.Join(Dir(o), genschema.FileName(c, role))] = data
	}
	return out, nil
}

// schemasView is what templates/go/schemas.go.tmpl reads: each schema
// file of the package with its $id, and the compact schema MCPErrorSchema
// returns.
type schemasView struct {
	goView
	Schemas        []struct{ Role, File, ID string }
	MCPErrorSchema string
}

func (g *gen) schemas() any {
	v := schemasView{goView: g.view(), MCPErrorSchema: string(g.mcpErrorSchema)}
	for _, role := range []genschema.Role{genschema.Producer, genschema.Consumer} {
		name := map[genschema.Role]string{genschema.Producer: "Producer", genschema.Consumer: "Consumer"}[role]
		v.Schemas = append(v.Schemas, struct{ Role, File, ID string }{name, genschema.FileName(g.c, role), genschema.ID(g.c, role)})
	}
	return v
}
