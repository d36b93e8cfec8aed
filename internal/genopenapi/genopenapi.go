// Package genopenapi emits the OpenAPI 3.1 document of a contract's error
// responses (openapi/<contract>.errors.yaml): a components library, without
// operations of its own, that an API document references with $ref.
//
//   - components.schemas: the envelope in its consumer form (Envelope, what
//     every response carries) and its producer form (ProducerEnvelope, for
//     a service to validate its own output), and the RFC 9457 problem
//     document (Problem). They are internal/genschema's schemas, the very
//     ones of schemas/, built by the same code, so the two cannot drift.
//   - components.responses: one per HTTP status the contract's kinds use
//     (and the fallback's), named after the status's reason phrase
//     (NotFound, TooManyRequests), each with the envelope as
//     application/json and its problem document as application/problem+json,
//     the example envelopes of internal/exampleenv (those the docs show and
//     the tests reproduce), and the headers the HTTP surfaces write.
//   - components.headers: Retry-After (when the layout carries a retry
//     hint) and Vary.
//
// The responses reference the consumer form: an OpenAPI document is read
// mostly by clients and client generators, and a client built on closed
// enums would reject a kind or value that a newer contract adds, which the
// contract promises is an additive change.
package genopenapi

import (
	"fmt"
	"net/http"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/exampleenv"
	"github.com/errgen/errgen/internal/genschema"
	"github.com/errgen/errgen/internal/marker"
	"github.com/errgen/errgen/internal/orderedjson"
	"github.com/errgen/errgen/internal/targets"
	"github.com/invopop/jsonschema"
	"gopkg.in/yaml.v3"
)

// Header is the first line of the document.
const Header = "# " + marker.Text

// Version is the OpenAPI version the document follows.
const Version = "3.1.0"

// The media types of the HTTP surface's two bodies.
const (
	MediaJSON    = "application/json"
	MediaProblem = "application/problem+json"
)

// The names of the schemas under components.schemas.
const (
	SchemaEnvelope         = "Envelope"
	SchemaProducerEnvelope = "ProducerEnvelope"
	SchemaProblem          = "Problem"
)

// The names of the headers under components.headers.
const (
	HeaderRetryAfter = "Retry-After"
	HeaderVary       = "Vary"
)

// Dir is where the document goes, relative to the output root.
func Dir(o targets.Options) string { return o.Dir(targets.OpenAPI) }

// FileName is the document's name under Dir.
func FileName(c *contract.Contract) string { return c.Name + ".errors.yaml" }

// Generate returns the document.
func Generate(c *contract.Contract, o targets.Options) (map[string][]byte, error) {
	responses := responses(c, o.Shared)
	doc, vals, err := document(c, responses, o.Shared)
	if err != nil {
		return nil, err
	}
	data, err := writeDocument(header(c, responses), doc, vals)
	if err != nil {
		return nil, err
	}
	return map[string][]byte{path.Join(Dir(o), FileName(c)): data}, nil
}

// Response is one response of the document: an HTTP status and what it
// answers.
type Response struct {
	Name   string // under components.responses: NotFound
	Status int
	// Kinds have the status, in contract order.
	Kinds []*contract.Kind
	// Fallback is set on the status of kinds the contract does not define.
	Fallback bool
	// RetryAfter is set when the response may carry a Retry-After header:
	// the layout carries a retry hint and one of the response's kinds (or
	// the fallback) asks for a retry, the only advice a hint belongs to.
	RetryAfter bool
	// Examples are the example envelopes the response shows, in the order
	// of exampleenv.All.
	Examples []exampleenv.Example
}

// Responses lists the document's responses by status, ascending.
func Responses(c *contract.Contract) []*Response { return responses(c, nil) }

// responses is Responses with the examples shared with the run's other
// emitters.
func responses(c *contract.Contract, shared *targets.Shared) []*Response {
	byStatus := map[int]*Response{}
	var out []*Response
	at := func(status int) *Response {
		r := byStatus[status]
		if r == nil {
			r = &Response{Name: StatusName(status), Status: status}
			byStatus[status] = r
			out = append(out, r)
		}
		return r
	}
	for _, s := range c.Statuses {
		r := at(s.Status)
		r.Kinds = s.Kinds
		for _, k := range s.Kinds {
			r.RetryAfter = r.RetryAfter || retryAfter(c, &k.Classification)
		}
	}
	fb := at(c.Fallback.HTTP)
	fb.Fallback = true
	fb.RetryAfter = fb.RetryAfter || retryAfter(c, &c.Fallback.Classification)
	for _, ex := range exampleenv.Shared(c, shared) {
		status := c.Fallback.HTTP
		if ex.Kind != nil {
			status = ex.Kind.HTTP
		}
		byStatus[status].Examples = append(byStatus[status].Examples, ex)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Status < out[j].Status })
	return out
}

// retryAfter reports whether an envelope of the classification may come
// with a Retry-After header: the layout carries a retry hint, and the advice
// is a retry, the only advice a hint belongs to.
func retryAfter(c *contract.Contract, cl *contract.Classification) bool {
	return cl.Recovery.Action.Step == contract.StepRetry && c.Layout.Has(contract.SourceRetryAfterMs)
}

// HasRetryAfter reports whether some response of c's document declares the
// Retry-After header (and components.headers holds it).
func HasRetryAfter(c *contract.Contract) bool {
	if retryAfter(c, &c.Fallback.Classification) {
		return true
	}
	return slices.ContainsFunc(c.Kinds, func(k *contract.Kind) bool { return retryAfter(c, &k.Classification) })
}

// StatusName is a response's name under components.responses: the
// status's reason phrase in PascalCase (404: NotFound), or Status<code> for
// a status without one. Users write these names in their $refs, so they are
// errgen's own table rather than net/http's StatusText, whose phrases a Go
// release may update (RFC 9110 calls 413 Content Too Large); they are the
// phrases the docs show for the statuses (http.md).
func StatusName(status int) string {
	if name, ok := statusNames[status]; ok {
		return name
	}
	return fmt.Sprintf("Status%d", status)
}

var statusNames = map[int]string{
	400: "BadRequest", 401: "Unauthorized", 402: "PaymentRequired", 403: "Forbidden", 404: "NotFound",
	405: "MethodNotAllowed", 406: "NotAcceptable", 407: "ProxyAuthenticationRequired", 408: "RequestTimeout",
	409: "Conflict", 410: "Gone", 411: "LengthRequired", 412: "PreconditionFailed", 413: "RequestEntityTooLarge",
	414: "RequestURITooLong", 415: "UnsupportedMediaType", 416: "RequestedRangeNotSatisfiable",
	417: "ExpectationFailed", 418: "ImATeapot", 421: "MisdirectedRequest", 422: "UnprocessableEntity",
	423: "Locked", 424: "FailedDependency", 425: "TooEarly", 426: "UpgradeRequired", 428: "PreconditionRequired",
	429: "TooManyRequests", 431: "RequestHeaderFieldsTooLarge", 451: "UnavailableForLegalReasons",
	500: "InternalServerError", 501: "NotImplemented", 502: "BadGateway", 503: "ServiceUnavailable",
	504: "GatewayTimeout", 505: "HTTPVersionNotSupported", 506: "VariantAlsoNegotiates",
	507: "InsufficientStorage", 508: "LoopDetected", 510: "NotExtended", 511: "NetworkAuthenticationRequired",
}

func header(c *contract.Contract, responses []*Response) string {
	first := responses[0]
	return Header + "\n" +
		"# Source: the " + c.Name + " contract, version " + c.VersionLabel() + ".\n" +
		"#\n" +
		"# The contract's error responses as OpenAPI 3.1 components. Reference them\n" +
		"# from an API document beside this file, e.g.\n" +
		"#\n" +
		"#   responses:\n" +
		fmt.Sprintf("#     '%d':\n", first.Status) +
		"#       $ref: '" + FileName(c) + "#/components/responses/" + first.Name + "'\n"
}

// document is the document's tree, with the values its placeholders stand
// for.
func document(c *contract.Contract, responses []*Response, shared *targets.Shared) (*yaml.Node, *values, error) {
	schemas, err := schemas(c, shared)
	if err != nil {
		return nil, nil, err
	}
	vals := &values{}
	comps := newObject().
		set("schemas", schemas).
		set("responses", responsesNode(c, responses, vals)).
		set("headers", headers(c))
	return newObject().
		set("openapi", str(Version)).
		set("info", info(c, responses)).
		set("jsonSchemaDialect", str(genschema.Draft)).
		// A components library needs no paths in OpenAPI 3.1; the empty
		// object keeps tools that still insist on the member content.
		set("paths", newObject().node()).
		set("components", comps.node()).
		node(), vals, nil
}

func info(c *contract.Contract, responses []*Response) *yaml.Node {
	statuses := make([]string, len(responses))
	for i, r := range responses {
		statuses[i] = fmt.Sprint(r.Status)
	}
	desc := fmt.Sprintf("Generated by errgen from the %s contract: the error envelope and its RFC 9457 problem document as schemas, "+
		"one response for each HTTP status the contract answers with (%s), with both media types, examples and headers. "+
		"An API document references them with $ref, e.g. `$ref: '%s#/components/responses/%s'`.",
		c.Name, strings.Join(statuses, ", "), FileName(c), responses[0].Name)
	if c.Description != "" {
		desc = strings.TrimSpace(c.Description) + "\n\n" + desc
	}
	return newObject().
		set("title", str(c.Name+" errors")).
		set("summary", str(fmt.Sprintf("The error responses of the %s contract, version %s.", c.Name, c.VersionLabel()))).
		set("description", str(desc)).
		set("version", str(c.VersionLabel())).
		node()
}

// schemas are genschema's, less the members that make a schema a file of
// its own ($schema, $id, $comment): the document's jsonSchemaDialect is the
// same dialect, and a second resource under the files' $id would clash with
// them where both are loaded.
func schemas(c *contract.Contract, shared *targets.Shared) (*yaml.Node, error) {
	out := newObject()
	for _, s := range []struct {
		name   string
		schema *jsonschema.Schema
		role   genschema.Role
		file   bool // the schema is a file of the schemas output, role's
	}{
		{SchemaEnvelope, genschema.SharedEnvelopeSchema(c, genschema.Consumer, shared), genschema.Consumer, true},
		{SchemaProblem, genschema.ProblemSchema(c), "", false},
		{SchemaProducerEnvelope, genschema.SharedEnvelopeSchema(c, genschema.Producer, shared), genschema.Producer, true},
	} {
		var n *yaml.Node
		if s.file && shared != nil {
			// The schema file's JSON, which the run's schemas emitter has
			// written (or writes now for both), read without the members
			// that make it a file: its JSON differs from the embedded
			// schema's only in those and in escapes, which reading undoes.
			data, err := genschema.SharedEnvelope(c, s.role, shared)
			if err != nil {
				return nil, fmt.Errorf("genopenapi: schema %s: %w", s.name, err)
			}
			if n, err = fromJSON(data); err != nil {
				return nil, err
			}
			dropFileMembers(n, s.schema)
		} else {
			embedded := *s.schema
			embedded.Version, embedded.ID, embedded.Comments = "", "", ""
			data, err := orderedjson.Marshal(&embedded)
			if err != nil {
				return nil, fmt.Errorf("genopenapi: schema %s: %w", s.name, err)
			}
			if n, err = fromJSON(data); err != nil {
				return nil, err
			}
		}
		tidySchema(n)
		out.set(s.name, n)
	}
	return out.node(), nil
}

// dropFileMembers takes out of the mapping n of schema s the members that
// make it a file of its own ($schema, $id, $comment), each where s sets it:
// the first of its name, as encoding/json writes the struct's fields
// before its extras.
func dropFileMembers(n *yaml.Node, s *jsonschema.Schema) {
	for _, m := range []struct {
		key string
		set bool
	}{{"$schema", s.Version != ""}, {"$id", s.ID != ""}, {"$comment", s.Comments != ""}} {
		if !m.set {
			continue
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == m.key {
				n.Content = append(n.Content[:i:i], n.Content[i+2:]...)
				break
			}
		}
	}
}

func headers(c *contract.Contract) *yaml.Node {
	out := newObject()
	if HasRetryAfter(c) {
		lf := c.Layout.Leaf(contract.SourceRetryAfterMs)
		out.set(HeaderRetryAfter, newObject().
			set("description", str(fmt.Sprintf("The envelope's retry hint (%s) in whole seconds, rounded up so that a client never retries early; "+
				"sent when the envelope carries a hint, which kinds whose advice is a retry do. "+
				"Clients also read an HTTP date (RFC 9110, section 10.2.3), and use the header only when the body carries no hint.", lf.Path))).
			set("schema", newObject().set("type", str("integer")).set("minimum", integer(0)).node()).
			node())
	}
	out.set(HeaderVary, newObject().
		set("description", str("Accept: the body is the envelope or its problem document as the request's Accept header asks, so caches must key on it.")).
		set("schema", newObject().set("type", str("string")).node()).
		node())
	return out.node()
}

func responsesNode(c *contract.Contract, responses []*Response, vals *values) *yaml.Node {
	out := newObject()
	for _, r := range responses {
		hdrs := newObject()
		if r.RetryAfter {
			hdrs.set(HeaderRetryAfter, ref("#/components/headers/"+HeaderRetryAfter))
		}
		hdrs.set(HeaderVary, ref("#/components/headers/"+HeaderVary))
		envelopes, problems := examples(r.Examples, vals, func(ex exampleenv.Example) orderedjson.Object { return ex.Value }),
			examples(r.Examples, vals, func(ex exampleenv.Example) orderedjson.Object { return exampleenv.Problem(c, ex) })
		out.set(r.Name, newObject().
			set("description", str(responseDescription(c, r))).
			set("headers", hdrs.node()).
			set("content", newObject().
				set(MediaJSON, newObject().
					set("schema", ref("#/components/schemas/"+SchemaEnvelope)).
					set("examples", envelopes).
					node()).
				set(MediaProblem, newObject().
					set("schema", ref("#/components/schemas/"+SchemaProblem)).
					set("examples", problems).
					node()).
				node()).
			node())
	}
	return out.node()
}

func responseDescription(c *contract.Contract, r *Response) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d %s: an error of the %s contract", r.Status, http.StatusText(r.Status), c.Name)
	names := make([]string, len(r.Kinds))
	for i, k := range r.Kinds {
		names[i] = k.Name
	}
	switch {
	case len(names) > 0 && r.Fallback:
		fmt.Fprintf(&b, " (%s, or a kind this contract version does not define)", strings.Join(names, ", "))
	case len(names) > 0:
		fmt.Fprintf(&b, " (%s)", strings.Join(names, ", "))
	default:
		b.WriteString(" of a kind this contract version does not define")
	}
	b.WriteString(". The body is the envelope, or its RFC 9457 problem document when the request's Accept header ranks " +
		MediaProblem + " above " + MediaJSON + ".")
	return b.String()
}

// examples is the Examples Object of a response in one of its two
// renderings: one placeholder for the examples' values, as the writer writes
// them without nodes, unless some text in them is not UTF-8.
func examples(exs []exampleenv.Example, vals *values, rendering func(exampleenv.Example) orderedjson.Object) *yaml.Node {
	out := make(orderedjson.Object, len(exs))
	for i, ex := range exs {
		out[i] = orderedjson.Member{Key: ex.Name, Value: orderedjson.Object{
			{Key: "summary", Value: summary(ex)},
			{Key: "value", Value: rendering(ex)},
		}}
	}
	if valueOK(out) {
		return vals.placeholder(out)
	}
	// The nodes of each, as before: a key or summary that is not UTF-8
	// stays as it is for yaml.v3 to refuse.
	obj := newObject()
	for _, m := range out {
		ex := m.Value.(orderedjson.Object)
		obj.set(m.Key, newObject().set("summary", str(ex[0].Value.(string))).set("value", jsonNode(ex[1].Value)).node())
	}
	return obj.node()
}

// summary is an example's summary.
func summary(ex exampleenv.Example) string {
	switch {
	case ex.Kind != nil && ex.Name != ex.Kind.Name: // exampleenv.Maximal
		return ex.Kind.Name + " with every field the envelope can carry"
	case ex.Kind != nil:
		return ex.Kind.Name
	}
	return "A kind this contract version does not define, classified with the fallback"
}
