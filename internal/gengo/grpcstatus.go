package gengo

import (
	"bytes"
	"fmt"
	"path"
	"strings"

	"github.com/dave/jennifer/jen"
	"github.com/errgen/errgen/internal/contract"
	"github.com/errgen/errgen/internal/marker"
	"github.com/errgen/errgen/internal/targets"
)

// GRPCDir is the grpcstatus module's directory inside the Go package's.
const GRPCDir = "grpcstatus"

// The grpcstatus module's go line and requirements: what `go mod tidy`
// writes for its imports (google.golang.org/grpc/status and codes, the
// genproto google.rpc code and errdetails packages, protobuf's proto and
// durationpb), pinned by errgen. Go 1.26 is the go line grpc 1.85 declares.
// The package's own module is required at the contract's release (v0.0.0
// without one) and replaced by the directory above: a replace directive
// applies only where grpcstatus is the main module (its own tests, the
// repository that generates it); a consumer gets at least the release of
// the package that grpcstatus was generated with, tagged with it.
const grpcGoVersion = "1.26.0"

var grpcRequires = [][2]string{
	{"google.golang.org/genproto/googleapis/rpc", "v0.0.0-20261110000943-09e21b237f2c"},
	{"google.golang.org/grpc", "v1.85.0"},
	{"google.golang.org/protobuf", "v1.36.12"},
}

var grpcIndirect = [][2]string{
	{"golang.org/x/sys", "v0.48.0"},
}

// grpcFiles returns the grpcstatus module: its go.mod and its one file.
func grpcFiles(c *contract.Contract, o targets.Options) (map[string][]byte, error) {
	if !o.Packages.GoModule || o.Packages.GoImportPath == "" {
		return nil, fmt.Errorf("gengo: the grpcstatus module needs the Go package to be a module with an import path")
	}
	dir := path.Join(Dir(o), GRPCDir)
	core := o.Packages.GoImportPath
	var mod bytes.Buffer
	fmt.Fprintf(&mod, "// %s\n\nmodule %s\n\ngo %s\n\nrequire (\n\t%s v%s\n", marker.Text, GRPCModulePath(c, o), grpcGoVersion, core, orZero(c.Release))
	for _, r := range grpcRequires {
		fmt.Fprintf(&mod, "\t%s %s\n", r[0], r[1])
	}
	mod.WriteString(")\n\nrequire ")
	for _, r := range grpcIndirect {
		fmt.Fprintf(&mod, "%s %s // indirect\n", r[0], r[1])
	}
	fmt.Fprintf(&mod, "\nreplace %s => ../\n", core)

	f := jen.NewFilePathName(GRPCModulePath(c, o), GRPCDir)
	f.HeaderComment("// " + marker.Text)
	// The package's name, not a guess from its path's last element (v2
	// from major 2 on, or a directory named otherwise).
	f.ImportName(core, o.Packages.Go)
	g := grpcGen{pkg: core, name: o.Packages.Go}
	g.file(f)
	var src bytes.Buffer
	if err := f.Render(&src); err != nil {
		return nil, fmt.Errorf("gengo: grpcstatus: %w", err)
	}
	return map[string][]byte{
		path.Join(dir, "go.mod"):        mod.Bytes(),
		path.Join(dir, "grpcstatus.go"): src.Bytes(),
	}, nil
}

// GRPCModulePath is the grpcstatus module's path: the package's, with
// grpcstatus before the major suffix from release 2.0.0 on (the package
// example.com/p/v2 has example.com/p/grpcstatus/v2 beside it, in the
// directory grpcstatus of the package's, tagged <dir>/grpcstatus/v2.y.z).
func GRPCModulePath(c *contract.Contract, o targets.Options) string {
	suffix := contract.GoMajorSuffix(c.Release)
	core := o.Packages.GoImportPath
	if suffix == "" || !strings.HasSuffix(core, suffix) {
		return core + "/" + GRPCDir
	}
	return strings.TrimSuffix(core, suffix) + "/" + GRPCDir + suffix
}

func orZero(release string) string {
	if release == "" {
		return "0.0.0"
	}
	return release
}

type grpcGen struct {
	pkg, name string
}

func (g grpcGen) file(f *jen.File) {
	const (
		status     = "google.golang.org/grpc/status"
		codes      = "google.golang.org/grpc/codes"
		errdetails = "google.golang.org/genproto/googleapis/rpc/errdetails"
		rpccode    = "google.golang.org/genproto/googleapis/rpc/code"
		durationpb = "google.golang.org/protobuf/types/known/durationpb"
	)
	f.PackageComment(fmt.Sprintf("Package grpcstatus converts %s envelopes to and from google.golang.org/grpc/status: the google.rpc mapping of %s.RPCStatus, with a google.rpc.ErrorInfo and a google.rpc.RetryInfo detail as real protobuf types. It is a module of its own, so %s itself stays free of gRPC's dependencies.", g.name, g.name, g.name))
	env := jen.Op("*").Qual(g.pkg, "Envelope")

	f.Comment("// Status returns the envelope as a gRPC status: the kind's canonical code, the message, an ErrorInfo (reason, domain and the metadata that carries every other value of the envelope) and, with a retry hint, a RetryInfo. Text that is not UTF-8 (set by hand) has each byte that does not start a valid UTF-8 sequence replaced by U+FFFD, as every writer replaces it, so the status always marshals with all its details. It fails when the envelope does not encode.")
	f.Func().Id("Status").Params(jen.Id("e").Add(env)).Params(jen.Op("*").Qual(status, "Status"), jen.Error()).Block(
		jen.List(jen.Id("s"), jen.Err()).Op(":=").Id("e").Dot("RPCStatus").Call(),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
		jen.Id("s").Dot("Message").Op("=").Id("validText").Call(jen.Id("s").Dot("Message")),
		jen.For(jen.List(jen.Id("k"), jen.Id("v")).Op(":=").Range().Id("s").Dot("Metadata")).Block(
			jen.Id("s").Dot("Metadata").Index(jen.Id("k")).Op("=").Id("validText").Call(jen.Id("v")),
		),
		jen.Id("st").Op(":=").Qual(status, "New").Call(jen.Qual(codes, "Code").Call(jen.Id("s").Dot("Code")), jen.Id("s").Dot("Message")).Dot("Proto").Call(),
		jen.List(jen.Id("info"), jen.Err()).Op(":=").Qual("google.golang.org/protobuf/types/known/anypb", "New").Call(jen.Op("&").Qual(errdetails, "ErrorInfo").Values(jen.Dict{
			jen.Id("Reason"): jen.Id("s").Dot("Reason"), jen.Id("Domain"): jen.Id("s").Dot("Domain"), jen.Id("Metadata"): jen.Id("s").Dot("Metadata"),
		})),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
		jen.Id("st").Dot("Details").Op("=").Append(jen.Id("st").Dot("Details"), jen.Id("info")),
		jen.If(jen.Id("d").Op(":=").Id("s").Dot("RetryDelay"), jen.Id("d").Op("!=").Nil()).Block(
			jen.List(jen.Id("retry"), jen.Err()).Op(":=").Qual("google.golang.org/protobuf/types/known/anypb", "New").Call(jen.Op("&").Qual(errdetails, "RetryInfo").Values(jen.Dict{
				jen.Id("RetryDelay"): jen.Op("&").Qual(durationpb, "Duration").Values(jen.Dict{jen.Id("Seconds"): jen.Id("d").Dot("Seconds"), jen.Id("Nanos"): jen.Id("d").Dot("Nanos")}),
			})),
			jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
			jen.Id("st").Dot("Details").Op("=").Append(jen.Id("st").Dot("Details"), jen.Id("retry")),
		),
		jen.Return(jen.Qual(status, "FromProto").Call(jen.Id("st")), jen.Nil()),
	)
	f.Line()
	f.Comment("// validText is s with each byte that does not start a valid UTF-8 sequence replaced by U+FFFD, one for each, as the JSON writers write it; s itself when it is valid.")
	f.Func().Id("validText").Params(jen.Id("s").String()).String().Block(
		jen.If(jen.Qual("unicode/utf8", "ValidString").Call(jen.Id("s"))).Block(jen.Return(jen.Id("s"))),
		jen.Id("b").Op(":=").Make(jen.Index().Byte(), jen.Lit(0), jen.Len(jen.Id("s")).Op("+").Lit(8)),
		jen.For(jen.Id("i").Op(":=").Lit(0), jen.Id("i").Op("<").Len(jen.Id("s")), jen.Empty()).Block(
			jen.List(jen.Id("r"), jen.Id("size")).Op(":=").Qual("unicode/utf8", "DecodeRuneInString").Call(jen.Id("s").Index(jen.Id("i"), jen.Empty())),
			jen.If(jen.Id("r").Op("==").Qual("unicode/utf8", "RuneError").Op("&&").Id("size").Op("==").Lit(1)).Block(
				jen.Id("b").Op("=").Qual("unicode/utf8", "AppendRune").Call(jen.Id("b"), jen.Qual("unicode/utf8", "RuneError")),
			).Else().Block(
				jen.Id("b").Op("=").Append(jen.Id("b"), jen.Id("s").Index(jen.Id("i"), jen.Id("i").Op("+").Id("size")).Op("...")),
			),
			jen.Id("i").Op("+=").Id("size"),
		),
		jen.Return(jen.String().Call(jen.Id("b"))),
	)
	f.Line()
	f.Comment("// Error is Status(e).Err(), for returning from a gRPC handler; an envelope that does not encode becomes an Internal status saying so.")
	f.Func().Id("Error").Params(jen.Id("e").Add(env)).Error().Block(
		jen.List(jen.Id("s"), jen.Err()).Op(":=").Id("Status").Call(jen.Id("e")),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Qual(status, "Error").Call(jen.Qual(codes, "Internal"), jen.Err().Dot("Error").Call()))),
		jen.Return(jen.Id("s").Dot("Err").Call()),
	)
	f.Line()
	f.Comment(fmt.Sprintf("// FromStatus reads a gRPC status into an envelope, as %s.FromRPCStatus reads one: a status Status wrote comes back as the envelope it was; any other gets the kind its ErrorInfo reason names in this contract's domain, else the kind of the HTTP status google.rpc.Code documents for its code. Only the first ErrorInfo and the first RetryInfo count. A nil status, or one whose code is OK, reports no failure: its envelope is nil.", g.name))
	f.Func().Id("FromStatus").Params(jen.Id("st").Op("*").Qual(status, "Status")).Add(env).Block(
		jen.If(jen.Id("st").Op("==").Nil().Op("||").Id("st").Dot("Code").Call().Op("==").Qual(codes, "OK")).Block(jen.Return(jen.Nil())),
		jen.Return(jen.Id("fromStatus").Call(jen.Id("st"))),
	)
	f.Line()
	f.Comment(fmt.Sprintf("// fromStatus is FromStatus for any status, OK included: code 0 is not an error code, so an OK status reads as %s.FromRPCStatus reads a google.rpc.Status of code 0 (and FromAIP193 an AIP-193 error of code 0, in every language): a failure of HTTP status 500.", g.name))
	f.Func().Id("fromStatus").Params(jen.Id("st").Op("*").Qual(status, "Status")).Add(env).BlockFunc(func(b *jen.Group) {
		b.Id("s").Op(":=").Op("&").Qual(g.pkg, "RPCStatus").Values(jen.Dict{
			jen.Id("Code"):    jen.Int().Call(jen.Id("st").Dot("Code").Call()),
			jen.Id("Status"):  jen.Qual(rpccode, "Code").Call(jen.Id("st").Dot("Code").Call()).Dot("String").Call(),
			jen.Id("Message"): jen.Id("st").Dot("Message").Call(),
		})
		b.Var().List(jen.Id("info"), jen.Id("retry")).Bool()
		b.For(jen.List(jen.Id("_"), jen.Id("d")).Op(":=").Range().Id("st").Dot("Details").Call()).Block(
			jen.Switch(jen.Id("d").Op(":=").Id("d").Assert(jen.Type())).Block(
				jen.Case(jen.Op("*").Qual(errdetails, "ErrorInfo")).Block(
					jen.If(jen.Op("!").Id("info")).Block(
						jen.Id("info").Op("=").True(),
						jen.List(jen.Id("s").Dot("Reason"), jen.Id("s").Dot("Domain"), jen.Id("s").Dot("Metadata")).Op("=").List(jen.Id("d").Dot("GetReason").Call(), jen.Id("d").Dot("GetDomain").Call(), jen.Id("d").Dot("GetMetadata").Call()),
					),
				),
				jen.Case(jen.Op("*").Qual(errdetails, "RetryInfo")).Block(
					jen.If(jen.Op("!").Id("retry")).Block(
						jen.Id("retry").Op("=").True(),
						jen.Comment("// A delay a Duration cannot be (out of range, or seconds and nanos of opposite signs) is none."),
						jen.If(jen.Id("rd").Op(":=").Id("d").Dot("GetRetryDelay").Call(), jen.Id("rd").Op("!=").Nil().Op("&&").Id("rd").Dot("CheckValid").Call().Op("==").Nil()).Block(
							jen.Id("s").Dot("RetryDelay").Op("=").Op("&").Qual(g.pkg, "RPCDuration").Values(jen.Dict{jen.Id("Seconds"): jen.Id("rd").Dot("GetSeconds").Call(), jen.Id("Nanos"): jen.Id("rd").Dot("GetNanos").Call()}),
						),
					),
				),
			),
		)
		b.Return(jen.Qual(g.pkg, "FromRPCStatus").Call(jen.Id("s")))
	})
	f.Line()
	f.Comment("// FromError reads the gRPC status of err (status.FromError) into an envelope; ok is false, and the envelope nil, when err is nil or carries no status. When ok is true the envelope is never nil: an error whose status (its own GRPCStatus, or a wrapped error's) has the code OK is still a failure, and reads as a status of code 0 does everywhere (see fromStatus): HTTP status 500, classified from the status's message.")
	f.Func().Id("FromError").Params(jen.Err().Error()).Params(jen.Add(env), jen.Bool()).Block(
		jen.List(jen.Id("st"), jen.Id("ok")).Op(":=").Qual(status, "FromError").Call(jen.Err()),
		jen.If(jen.Op("!").Id("ok").Op("||").Err().Op("==").Nil()).Block(jen.Return(jen.Nil(), jen.False())),
		jen.Return(jen.Id("fromStatus").Call(jen.Id("st")), jen.True()),
	)
}
