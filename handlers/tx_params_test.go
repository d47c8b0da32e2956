package handlers

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/gin-gonic/gin"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/handlers/httpx"
)

// The history endpoints' parameters: limits, offset, cursor and order,
// with the spec's messages for each bad value.
func TestHistoryQuery(t *testing.T) {
	slot := int64(42)
	for _, tc := range []struct {
		q    string
		want dbsync.HistoryQuery
		msg  string
	}{
		{"", dbsync.HistoryQuery{Limit: 20}, ""},
		{"limit=100&offset=5&order=ASC&fromSlot=42", dbsync.HistoryQuery{Limit: 100, Offset: 5, Ascending: true, FromSlot: &slot}, ""},
		{"order=desc", dbsync.HistoryQuery{Limit: 20}, ""},
		{"limit=101", dbsync.HistoryQuery{}, "Invalid limit: must be an integer from 1 to 100"},
		{"fromSlot=-1", dbsync.HistoryQuery{}, "Invalid fromSlot: must be a non-negative integer"},
		{"fromSlot=x", dbsync.HistoryQuery{}, "Invalid fromSlot: must be a non-negative integer"},
		{"order=newest", dbsync.HistoryQuery{}, "Invalid order: must be asc or desc"},
	} {
		c, _ := gin.CreateTestContext(httptest.NewRecorder())
		c.Request = httptest.NewRequest(http.MethodGet, "/x?"+tc.q, nil)
		q, err := historyQuery(c, detailedHistoryDefaultLimit, detailedHistoryMaxLimit)
		msg := ""
		if err != nil {
			msg = err.(*httpx.APIError).Message()
		}
		same := q.Limit == tc.want.Limit && q.Offset == tc.want.Offset && q.Ascending == tc.want.Ascending &&
			(q.FromSlot == nil) == (tc.want.FromSlot == nil) && (q.FromSlot == nil || *q.FromSlot == *tc.want.FromSlot)
		if msg != tc.msg || (err == nil && !same) {
			t.Errorf("%q: %+v, %q; want %+v, %q", tc.q, q, msg, tc.want, tc.msg)
		}
	}
}
