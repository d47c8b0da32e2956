package adminapi

import (
	"bufio"
	"database/sql"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"github.com/syncgate/syncgate/admin"
	"github.com/syncgate/syncgate/handlers/httpx"
)

// GET /v1/admin/usage/export: the billing export (docs/DECISIONS.md
// "Billing export"), streamed as CSV or NDJSON while the rows come.

// maxExportMonths bounds an export's window (a year and a month: a yearly
// invoice with the month either side of it).
const maxExportMonths = 13

// MaxExportDuration is how much longer than other requests an export may
// stream: a million rows take about 15 s, so this leaves room for far
// bigger partners while a stuck client still lets go of its connection.
const MaxExportDuration = 10 * time.Minute

// exportFlushRows is how many rows go out between flushes to the client.
const exportFlushRows = 1000

// exportColumns: the columns of one row per user × credential × period
// before route groups came first, in their places, then the route group's.
var exportColumns = []string{
	"user_id", "external_id", "credential_id", "period_start",
	"total_requests", "successful_requests", "failed_requests", "quota_used",
	"route_group", "requests_2xx", "requests_3xx", "requests_4xx", "requests_5xx", "bytes_sent",
}

// usageExportJSON is one NDJSON line (OpenAPI "UsageExportRow").
type usageExportJSON struct {
	UserID       uuid.UUID `json:"user_id"`
	ExternalID   string    `json:"external_id"`
	CredentialID uuid.UUID `json:"credential_id"`
	PeriodStart  string    `json:"period_start"`
	usageCountsJSON
	QuotaUsed   int64  `json:"quota_used"`
	RouteGroup  string `json:"route_group"`
	Requests2xx *int64 `json:"requests_2xx"`
	Requests3xx *int64 `json:"requests_3xx"`
	Requests4xx *int64 `json:"requests_4xx"`
	Requests5xx *int64 `json:"requests_5xx"`
	BytesSent   *int64 `json:"bytes_sent"`
}

// nullable is n for JSON: null when unknown (route group "unrecorded").
func nullable(n sql.NullInt64) *int64 {
	if !n.Valid {
		return nil
	}
	return &n.Int64
}

// csvNullable is n for CSV: an empty cell when unknown.
func csvNullable(n sql.NullInt64) string {
	if !n.Valid {
		return ""
	}
	return strconv.FormatInt(n.Int64, 10)
}

type exportQuery struct {
	start, end  time.Time // [start, end): end is the midnight after end_date
	granularity string
	format      string
}

// parseExportQuery reads and checks every parameter before anything is read.
func parseExportQuery(c *gin.Context) (q exportQuery, err error) {
	day := func(param string, missing, invalid error) (time.Time, error) {
		raw, ok := c.GetQuery(param)
		if !ok || raw == "" {
			return time.Time{}, missing
		}
		t, err := time.Parse(time.DateOnly, raw)
		if err != nil || !usageYearOK(t) {
			return time.Time{}, invalid
		}
		return t, nil
	}
	if q.start, err = day("start_date", httpx.ErrExportStartDateMissing, httpx.ErrExportStartDate); err != nil {
		return q, err
	}
	last, err := day("end_date", httpx.ErrExportEndDateMissing, httpx.ErrExportEndDate)
	if err != nil {
		return q, err
	}
	if last.Before(q.start) {
		return q, httpx.ErrExportDateOrder
	}
	q.end = last.AddDate(0, 0, 1)
	if q.end.After(q.start.AddDate(0, maxExportMonths, 0)) {
		return q, httpx.ErrExportRangeTooWide
	}
	q.granularity = c.DefaultQuery("granularity", admin.GranularityDay)
	if q.granularity != admin.GranularityDay && q.granularity != admin.GranularityMonth {
		return q, httpx.ErrExportGranularity
	}
	q.format = c.DefaultQuery("format", "csv")
	if q.format != "csv" && q.format != "ndjson" {
		return q, httpx.ErrExportFormat
	}
	return q, nil
}

// UsageExport: GET /v1/admin/usage/export. Errors before the first row are
// the envelope; after it they can only cut the file short (logged), which a
// client sees as a transfer that did not complete.
func (s *API) UsageExport(c *gin.Context) error {
	q, err := parseExportQuery(c)
	if err != nil {
		return err
	}
	name := fmt.Sprintf("usage-%s-%s-%s.%s", q.start.Format(time.DateOnly),
		q.end.AddDate(0, 0, -1).Format(time.DateOnly), q.granularity, q.format)
	bw := bufio.NewWriterSize(c.Writer, 32<<10)
	started := false
	var header func() error // CSV: the header row, written with the status
	begin := func() {
		started = true
		h := c.Writer.Header()
		if q.format == "csv" {
			h.Set("Content-Type", "text/csv; charset=utf-8")
		} else {
			h.Set("Content-Type", "application/x-ndjson")
		}
		h.Set("Content-Disposition", `attachment; filename="`+name+`"`)
		h.Set("Cache-Control", "no-store")
		c.Status(http.StatusOK)
		if header != nil {
			_ = header()
		}
	}
	flush := func() error {
		if err := bw.Flush(); err != nil {
			return err
		}
		c.Writer.Flush()
		return nil
	}
	var write func(admin.UsageExportRow) error
	var finish func() error
	n := 0
	if q.format == "csv" {
		cw := csv.NewWriter(bw)
		rec := make([]string, len(exportColumns))
		write = func(r admin.UsageExportRow) error {
			rec[0], rec[1], rec[2] = r.UserID.String(), spreadsheetSafe(r.ExternalID), r.CredentialID.String()
			rec[3] = isoTime(r.PeriodStart)
			rec[4] = strconv.FormatInt(r.Total, 10)
			rec[5] = strconv.FormatInt(r.Successful, 10)
			rec[6] = strconv.FormatInt(r.Failed, 10)
			rec[7] = rec[4] // every recorded request counts towards the quotas
			rec[8] = spreadsheetSafe(r.RouteGroup)
			rec[9], rec[10] = csvNullable(r.Requests2xx), csvNullable(r.Requests3xx)
			rec[11], rec[12] = csvNullable(r.Requests4xx), csvNullable(r.Requests5xx)
			rec[13] = csvNullable(r.BytesSent)
			return cw.Write(rec)
		}
		finish = func() error { cw.Flush(); return cw.Error() }
		header = func() error { return cw.Write(exportColumns) }
	} else {
		enc := json.NewEncoder(bw)
		write = func(r admin.UsageExportRow) error {
			return enc.Encode(usageExportJSON{
				UserID: r.UserID, ExternalID: r.ExternalID, CredentialID: r.CredentialID,
				PeriodStart: isoTime(r.PeriodStart), usageCountsJSON: usageCountsView(r.UsageCounts),
				QuotaUsed: r.Total, RouteGroup: r.RouteGroup,
				Requests2xx: nullable(r.Requests2xx), Requests3xx: nullable(r.Requests3xx),
				Requests4xx: nullable(r.Requests4xx), Requests5xx: nullable(r.Requests5xx),
				BytesSent: nullable(r.BytesSent),
			})
		}
		finish = func() error { return nil }
	}
	err = s.deps.Admin.UsageExport(c.Request.Context(), adminOf(c), q.start, q.end, q.granularity, func(r admin.UsageExportRow) error {
		if !started {
			begin()
		}
		if err := write(r); err != nil {
			return err
		}
		if n++; n%exportFlushRows == 0 {
			if q.format == "csv" {
				if err := finish(); err != nil {
					return err
				}
			}
			return flush()
		}
		return nil
	})
	if err == nil {
		if err = finish(); err == nil {
			if !started {
				begin() // no rows: CSV's header row alone, or an empty NDJSON file
			}
			err = flush()
		}
	}
	if err != nil && !started {
		return err
	}
	if err != nil {
		httpx.Logger(c).Warn("usage export cut short", "rows", n, "err", err)
	}
	return nil
}

// spreadsheetSafe keeps a text cell a spreadsheet opens as text: a value
// starting with =, +, -, @, tab or CR would be taken as a formula (CSV
// injection), so it gets a leading apostrophe. NDJSON carries values as
// they are.
func spreadsheetSafe(v string) string {
	if v != "" && strings.ContainsRune("=+-@\t\r", rune(v[0])) {
		return "'" + v
	}
	return v
}
