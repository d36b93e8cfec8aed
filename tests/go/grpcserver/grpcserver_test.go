// Package grpcserver_test runs the generated grpcstatus module through a
// real grpc-go server and client (issue 29), in process over bufconn: the
// server's handler returns grpcstatus.Error of an envelope, the status
// crosses the wire (code and message in the trailers, the details in
// grpc-status-details-bin) and the client's grpcstatus.FromError reads the
// envelope back. Every envelope of the conformance vectors' aip193_encode
// section (every kind, an unknown kind, every field, members the contract
// does not name, retry hints at a Duration's edges) round-trips; and an
// envelope an upstream sent with secrets in it, decoded raw, arrives
// redacted, as every reader returns it.
package grpcserver_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/errgen/errgen/gen/go/agenterror"
	"github.com/errgen/errgen/gen/go/agenterror/grpcstatus"
	"github.com/errgen/errgen/tests/go/protoaip"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
	"google.golang.org/grpc/test/bufconn"
	"google.golang.org/protobuf/types/known/emptypb"
)

type vectorFile struct {
	Encode []struct {
		Name     string          `json:"name"`
		Envelope json.RawMessage `json:"envelope"`
	} `json:"aip193_encode"`
	Received []struct {
		Name     string          `json:"name"`
		Document json.RawMessage `json:"document"`
		Envelope json.RawMessage `json:"envelope"`
		Secrets  []string        `json:"secrets"`
	} `json:"received"`
}

// serve starts a gRPC server on a bufconn listener whose every method
// fails with the status of the envelope fail returns for the method's
// name, and returns a client connection to it.
func serve(t *testing.T, fail func(method string) *agenterror.Envelope) *grpc.ClientConn {
	t.Helper()
	lis := bufconn.Listen(1 << 20)
	srv := grpc.NewServer(grpc.UnknownServiceHandler(func(_ any, stream grpc.ServerStream) error {
		if err := stream.RecvMsg(&emptypb.Empty{}); err != nil {
			return err
		}
		method, _ := grpc.MethodFromServerStream(stream)
		return grpcstatus.Error(fail(method))
	}))
	go func() { _ = srv.Serve(lis) }()
	t.Cleanup(srv.Stop)
	conn, err := grpc.NewClient("passthrough:///bufconn",
		grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) { return lis.DialContext(ctx) }),
		grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return conn
}

func load(t *testing.T) vectorFile {
	t.Helper()
	data, err := os.ReadFile("../../../conformance/agent-error.vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var f vectorFile
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	return f
}

// call invokes method and reads the failure's envelope from the error the
// client got.
func call(t *testing.T, conn *grpc.ClientConn, method string) (*agenterror.Envelope, codes.Code) {
	t.Helper()
	err := conn.Invoke(context.Background(), method, &emptypb.Empty{}, &emptypb.Empty{})
	if err == nil {
		t.Fatalf("%s: the call succeeded", method)
	}
	e, ok := grpcstatus.FromError(err)
	if !ok {
		t.Fatalf("%s: no status in %v", method, err)
	}
	return e, status.Code(err)
}

func TestEveryKindRoundTripsThroughAServer(t *testing.T) {
	f := load(t)
	envs := make([]*agenterror.Envelope, len(f.Encode))
	for i, v := range f.Encode {
		envs[i] = new(agenterror.Envelope)
		if err := json.Unmarshal(v.Envelope, envs[i]); err != nil {
			t.Fatalf("%s: %v", v.Name, err)
		}
	}
	conn := serve(t, func(method string) *agenterror.Envelope {
		i, _ := strconv.Atoi(method[strings.LastIndexByte(method, '/')+1:])
		return envs[i]
	})
	seen := map[agenterror.Kind]bool{}
	for i, v := range f.Encode {
		got, code := call(t, conn, "/errgen.test.Fail/"+strconv.Itoa(i))
		if want := codes.Code(envs[i].Classification().GRPCCode); code != want {
			t.Errorf("%s: code %v, want %v", v.Name, code, want)
		}
		data, err := json.Marshal(got)
		if err != nil {
			t.Fatalf("%s: %v", v.Name, err)
		}
		if !protoaip.SameJSON(data, v.Envelope) {
			t.Errorf("%s: the client read\n%s\nwant\n%s", v.Name, data, v.Envelope)
		}
		seen[got.Kind] = true
	}
	for _, k := range agenterror.Kinds() {
		if !seen[k] {
			t.Errorf("no envelope of kind %s came back", k)
		}
	}
}

func TestReceivedSecretsArriveRedacted(t *testing.T) {
	f := load(t)
	if len(f.Received) == 0 {
		t.Fatal("no received vectors")
	}
	raws := make([]*agenterror.Envelope, len(f.Received))
	for i, v := range f.Received {
		raws[i] = new(agenterror.Envelope)
		if err := raws[i].UnmarshalJSONRaw(v.Document); err != nil {
			t.Fatalf("%s: %v", v.Name, err)
		}
	}
	conn := serve(t, func(method string) *agenterror.Envelope {
		i, _ := strconv.Atoi(method[strings.LastIndexByte(method, '/')+1:])
		return raws[i]
	})
	for i, v := range f.Received {
		got, _ := call(t, conn, "/errgen.test.Fail/"+strconv.Itoa(i))
		data, _ := json.Marshal(got)
		if !protoaip.SameJSON(data, v.Envelope) {
			t.Errorf("%s: the client read\n%s\nwant\n%s", v.Name, data, v.Envelope)
		}
		for _, s := range v.Secrets {
			if bytes.Contains(data, []byte(s)) {
				t.Errorf("%s: the client read %q", v.Name, s)
			}
		}
	}
}
