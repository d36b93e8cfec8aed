// Tests of the generated agento package against AGENTO's error result (seed
// 002) and the facts in reference/agento.md.
package agento_test

import (
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/errgen/errgen/examples/agento/gen/go/agento"
)

// A downstream answer without an envelope becomes the code AGENTO's inbound
// mapping names, with details.status keeping the downstream status, and a
// message that never echoes the body: AGENTO's messages are bounded and
// never carry an upstream body.
func TestReadHTTPKeepsStatusAndNeverEchoesTheBody(t *testing.T) {
	for _, tc := range []struct {
		status int
		kind   agento.Kind
	}{
		{401, agento.KindAuthRejected},
		{403, agento.KindAuthRejected},
		{429, agento.KindToolRateLimited},
		{404, agento.KindToolClientError},
		{503, agento.KindToolServerError},
		{302, agento.KindToolRedirectBlocked},
	} {
		body := "account 4471 of Jane Doe: internal trace 9f2c"
		resp := &http.Response{StatusCode: tc.status, Header: http.Header{"Content-Type": {"text/plain"}}, Body: io.NopCloser(strings.NewReader(body))}
		e, err := agento.ReadHTTP(resp)
		if err != nil {
			t.Fatalf("%d: %v", tc.status, err)
		}
		if e.Kind != tc.kind {
			t.Errorf("%d: kind %s, want %s", tc.status, e.Kind, tc.kind)
		}
		if e.Status == nil || *e.Status != int64(tc.status) {
			t.Errorf("%d: details.status %v, want %d", tc.status, e.Status, tc.status)
		}
		if strings.Contains(e.Message, "4471") || strings.Contains(e.Message, ":") {
			t.Errorf("%d: the message %q echoes the body", tc.status, e.Message)
		}
		out, err := e.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(out), "Jane") || !strings.Contains(string(out), `"status":`+strconv.Itoa(tc.status)) {
			t.Errorf("%d: on the wire %s", tc.status, out)
		}
	}
}
