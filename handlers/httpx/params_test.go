package httpx

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gin-gonic/gin"
)

// queryContext is a request carrying the raw query q.
func queryContext(q string) *gin.Context {
	c, _ := gin.CreateTestContext(httptest.NewRecorder())
	c.Request = httptest.NewRequest(http.MethodGet, "/x?"+q, nil)
	return c
}

// message is the client message of err ("" for nil).
func message(err error) string {
	if err == nil {
		return ""
	}
	return err.(*APIError).Message()
}

func TestQueryParameters(t *testing.T) {
	const limitMsg = "Invalid limit: must be an integer from 1 to 100"
	for _, tc := range []struct {
		q    string
		want int
		msg  string
	}{
		{"", 20, ""}, {"limit=1", 1, ""}, {"limit=100", 100, ""}, {"limit=%2042%20", 42, ""},
		{"limit=0", 0, limitMsg}, {"limit=101", 0, limitMsg}, {"limit=", 0, limitMsg}, {"limit=1.5", 0, limitMsg}, {"limit=x", 0, limitMsg},
	} {
		n, err := QueryInt(queryContext(tc.q), "limit", 20, 1, 100)
		if n != tc.want || message(err) != tc.msg {
			t.Errorf("QueryInt(%q) = %d, %q; want %d, %q", tc.q, n, message(err), tc.want, tc.msg)
		}
	}
	const offsetMsg = "Invalid offset: must be an integer from 0 to 1000000"
	for _, tc := range []struct {
		q    string
		want int
		msg  string
	}{
		{"", 0, ""}, {"offset=0", 0, ""}, {"offset=1000000", 1000000, ""},
		{"offset=-1", 0, offsetMsg}, {"offset=1000001", 0, offsetMsg}, {"offset=ten", 0, offsetMsg},
	} {
		n, err := QueryOffset(queryContext(tc.q))
		if n != tc.want || message(err) != tc.msg {
			t.Errorf("QueryOffset(%q) = %d, %q; want %d, %q", tc.q, n, message(err), tc.want, tc.msg)
		}
	}
	const boolMsg = "Invalid groupByPolicy: must be true or false"
	for _, tc := range []struct {
		q    string
		want bool
		msg  string
	}{
		{"", false, ""}, {"groupByPolicy=true", true, ""}, {"groupByPolicy=TRUE", true, ""}, {"groupByPolicy=1", true, ""},
		{"groupByPolicy=false", false, ""}, {"groupByPolicy=0", false, ""}, {"groupByPolicy=", false, ""},
		{"groupByPolicy=yes", false, boolMsg},
	} {
		b, err := QueryBool(queryContext(tc.q), "groupByPolicy")
		if b != tc.want || message(err) != tc.msg {
			t.Errorf("QueryBool(%q) = %v, %q; want %v, %q", tc.q, b, message(err), tc.want, tc.msg)
		}
	}
}

func TestDecodeJSONObject(t *testing.T) {
	for _, tc := range []struct {
		body string
		msg  string
	}{
		{`{"tx":"00"}`, ""}, {`{}`, ""}, {`[]`, "Invalid JSON body"}, {`null`, "Invalid JSON body"}, {`{"a":`, "Invalid JSON body"},
		{`{"a":"` + strings.Repeat("x", 70<<10) + `"}`, "Request body too large"},
	} {
		c, _ := gin.CreateTestContext(httptest.NewRecorder())
		c.Request = httptest.NewRequest(http.MethodPost, "/x", strings.NewReader(tc.body))
		c.Request.Body = http.MaxBytesReader(c.Writer, c.Request.Body, 64<<10)
		if _, err := DecodeJSONObject(c); message(err) != tc.msg {
			t.Errorf("DecodeJSONObject(%.20q) = %q, want %q", tc.body, message(err), tc.msg)
		}
	}
}
