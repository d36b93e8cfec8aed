package gentest

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/errgen/errgen/internal/genvectors"
)

// mcpErrors checks each envelope's MCP protocol error (MCPError, and
// MCPErrorResponse around it), the _meta of its isError tool results, and
// the tool result that keeps an upstream's structured content
// (UpstreamToolResult, UpstreamStructuredContent), each read back by
// ReadMCPError or FromToolResult.
func (v *vectors) mcpErrors(t *testing.T, vecs []genvectors.MCPErrorVec) {
	needSection(t, "mcp_errors", len(vecs), "ReadMCPError, FromToolResult and UpstreamStructuredContent",
		v.pkg.ReadMCPError != nil && v.pkg.FromToolResult != nil && v.pkg.UpstreamStructuredContent != nil)
	read := reflect.ValueOf(v.pkg.ReadMCPError)
	for _, want := range vecs {
		t.Run(want.Name, func(t *testing.T) {
			e, err := v.decode(want.Envelope)
			if err != nil {
				t.Fatalf("decoding: %v", err)
			}
			out := e.MethodByName("MCPError").Call(nil)
			if err, _ := out[1].Interface().(error); err != nil {
				t.Fatalf("MCPError: %v", err)
			}
			got, _ := json.Marshal(out[0].Interface())
			if !sameJSON(got, want.Error) {
				t.Errorf("MCPError:\ngot  %s\nwant %s", got, want.Error)
			}
			if code := e.MethodByName("MCPErrorCode").Call(nil)[0].Int(); code != out[0].FieldByName("Code").Int() {
				t.Errorf("MCPErrorCode() = %d, MCPError's code %d", code, out[0].FieldByName("Code").Int())
			}
			back := read.Call([]reflect.Value{reflect.ValueOf(got)})
			err, _ = back[1].Interface().(error)
			v.readsAs(t, want.Name, "ReadMCPError(MCPError)", back[0], err, want.Envelope)

			resp := e.MethodByName("MCPErrorResponse").Call([]reflect.Value{reflect.ValueOf(json.RawMessage(`"req-1"`))})
			if err, _ := resp[1].Interface().(error); err != nil {
				t.Fatalf("MCPErrorResponse: %v", err)
			}
			rgot, _ := json.Marshal(resp[0].Interface())
			wantResp := `{"jsonrpc":"2.0","id":"req-1","error":` + string(want.Error) + `}`
			if !sameJSON(rgot, []byte(wantResp)) {
				t.Errorf("MCPErrorResponse:\ngot  %s\nwant %s", rgot, wantResp)
			}
			back = read.Call([]reflect.Value{reflect.ValueOf(rgot)})
			err, _ = back[1].Interface().(error)
			v.readsAs(t, want.Name, "ReadMCPError(MCPErrorResponse)", back[0], err, want.Envelope)

			// Every isError tool result carries the contract's _meta.
			for _, m := range []string{"ToolResult", "TextToolResult"} {
				out := e.MethodByName(m).Call(nil)
				raw, _ := json.Marshal(out[0].Interface())
				var doc struct {
					Meta json.RawMessage `json:"_meta"`
				}
				if err := json.Unmarshal(raw, &doc); err != nil {
					t.Fatal(err)
				}
				if doc.Meta == nil {
					doc.Meta = json.RawMessage("null")
				}
				if !sameJSON(doc.Meta, want.Meta) {
					t.Errorf("%s: _meta %s, want %s", m, doc.Meta, want.Meta)
				}
			}

			// An upstream that sent no structured content leaves the plain result.
			for _, none := range []json.RawMessage{nil, json.RawMessage("null")} {
				plain, _ := json.Marshal(e.MethodByName("ToolResult").Call(nil)[0].Interface())
				got, _ := json.Marshal(e.MethodByName("UpstreamToolResult").Call([]reflect.Value{reflect.ValueOf(none)})[0].Interface())
				if string(got) != string(plain) {
					t.Errorf("UpstreamToolResult(%s) = %s, want ToolResult() %s", none, got, plain)
				}
			}
			out = e.MethodByName("UpstreamToolResult").Call([]reflect.Value{reflect.ValueOf(want.Upstream)})
			if err, _ := out[1].Interface().(error); err != nil {
				t.Fatalf("UpstreamToolResult: %v", err)
			}
			raw, _ := json.Marshal(out[0].Interface())
			var doc struct {
				Content []struct {
					Type, Text string
				} `json:"content"`
				StructuredContent json.RawMessage `json:"structuredContent"`
				IsError           bool            `json:"isError"`
				Meta              json.RawMessage `json:"_meta"`
			}
			if err := json.Unmarshal(raw, &doc); err != nil {
				t.Fatal(err)
			}
			if doc.Meta == nil {
				doc.Meta = json.RawMessage("null")
			}
			if !doc.IsError || len(doc.Content) != 1 || !sameJSON([]byte(doc.Content[0].Text), want.Envelope) ||
				!sameJSON(doc.StructuredContent, want.StructuredContent) || !sameJSON(doc.Meta, want.Meta) {
				t.Errorf("UpstreamToolResult:\ngot  %s\nwant structuredContent %s, _meta %s", raw, want.StructuredContent, want.Meta)
			}
			// Read back as a client receives it, and without its text.
			for _, wire := range []string{string(raw), `{"content":[],"structuredContent":` + string(want.StructuredContent) + `,"isError":true}`} {
				ptr := reflect.New(out[0].Type())
				if err := json.Unmarshal([]byte(wire), ptr.Interface()); err != nil {
					t.Fatal(err)
				}
				back := reflect.ValueOf(v.pkg.FromToolResult).Call([]reflect.Value{ptr.Elem()})
				err, _ := back[1].Interface().(error)
				v.readsAs(t, want.Name, "FromToolResult(UpstreamToolResult)", back[0], err, want.Envelope)
				original := reflect.ValueOf(v.pkg.UpstreamStructuredContent).Call([]reflect.Value{ptr.Elem()})[0].Bytes()
				if !sameJSON(original, want.Upstream) {
					t.Errorf("UpstreamStructuredContent = %s, want %s", original, want.Upstream)
				}
			}
		})
	}
}

// mcpErrorRead hands each vector's input to ReadMCPError: an error where
// the vector's envelope is null, else the envelope.
func (v *vectors) mcpErrorRead(t *testing.T, vecs []genvectors.MCPErrorReadVec) {
	needSection(t, "mcp_error_read", len(vecs), "ReadMCPError", v.pkg.ReadMCPError != nil)
	for _, want := range vecs {
		out := reflect.ValueOf(v.pkg.ReadMCPError).Call([]reflect.Value{reflect.ValueOf([]byte(want.Input))})
		err, _ := out[1].Interface().(error)
		v.readsAs(t, want.Name, "ReadMCPError", out[0], err, want.Envelope)
	}
}
