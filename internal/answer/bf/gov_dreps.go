package bf

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/dbsync/governance"
	"github.com/syncgate/syncgate/internal/answer"
	"github.com/syncgate/syncgate/internal/cardano"
)

// /governance/dreps is cut from one table of every DRep, read once per
// tip and kept in process (drepTables): each DRep's state changes per tip
// (certificates, votes), its voting power per epoch (drep_distr, read
// once an epoch through answer.Service.EpochFact and shared by
// instances). Only a page's anchors and documents are read per request.

// DRepsQuery is /governance/dreps' parameters beyond paging.
type DRepsQuery struct {
	ByAmount bool
	Retired  *bool
	Expired  *bool
}

func (q DRepsQuery) key() string {
	b := func(v *bool) string {
		if v == nil {
			return "-"
		}
		if *v {
			return "t"
		}
		return "f"
	}
	return b(&q.ByAmount) + b(q.Retired) + b(q.Expired)
}

// drepRow is one DRep of the table with its figures.
type drepRow struct {
	governance.DRep
	amount           string
	retired, expired bool
}

type drepTable struct {
	epoch int64
	rows  []drepRow
}

// drepTables keeps the newest table of each network (as poolTables).
type drepTables struct {
	mu sync.Mutex
	of map[string]*drepTableLoad
}

type drepTableLoad struct {
	tip  string
	done chan struct{}
	t    *drepTable
	err  error
}

func (a *Answers) drepTable(ctx context.Context, db *dbsync.DB) (*drepTable, error) {
	tip, err := db.Tip(ctx)
	if err != nil {
		return nil, err
	}
	m := &a.drepTables
	m.mu.Lock()
	if m.of == nil {
		m.of = map[string]*drepTableLoad{}
	}
	l := m.of[db.Network.Name]
	if l == nil || l.tip != tip.BlockHash || (isClosed(l.done) && l.err != nil) {
		l = &drepTableLoad{tip: tip.BlockHash, done: make(chan struct{})}
		m.of[db.Network.Name] = l
		m.mu.Unlock()
		l.t, l.err = a.readDReps(context.WithoutCancel(ctx), db, 0, epochOf(tip))
		close(l.done)
	} else {
		m.mu.Unlock()
	}
	select {
	case <-l.done:
		return l.t, l.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func epochOf(tip dbsync.Tip) int64 {
	if tip.EpochNo != nil {
		return *tip.EpochNo
	}
	return 0
}

// readDReps reads every DRep (id 0) or one with its figures at epoch.
func (a *Answers) readDReps(ctx context.Context, db *dbsync.DB, id, epoch int64) (*drepTable, error) {
	list, activity, err := governance.DReps(ctx, db, id, epoch)
	if err != nil {
		return nil, err
	}
	power, err := a.drepPower(ctx, db, epoch)
	if err != nil {
		return nil, err
	}
	t := &drepTable{epoch: epoch, rows: make([]drepRow, len(list))}
	for i, d := range list {
		r := drepRow{DRep: d, amount: "0"}
		if p, ok := power[d.ID]; ok {
			r.amount = p
		}
		// The predefined DReps never register and never retire.
		r.retired = !d.Registered && !d.Special()
		r.expired = d.Registered && d.LastActiveEpoch != nil && activity != nil && epoch-*d.LastActiveEpoch > *activity
		t.rows[i] = r
	}
	return t, nil
}

// drepPower is every DRep's voting power in the epoch, read once an epoch.
func (a *Answers) drepPower(ctx context.Context, db *dbsync.DB, epoch int64) (map[int64]string, error) {
	b, err := a.svc.EpochFact(ctx, db, "drepdistr", epoch, 0, func(ctx context.Context) ([]byte, error) {
		list, err := governance.Distribution(ctx, db, epoch)
		if err != nil {
			return nil, err
		}
		return json.Marshal(list)
	})
	if err != nil {
		return nil, err
	}
	var list []governance.Power
	if err := json.Unmarshal(b, &list); err != nil {
		return nil, err
	}
	out := make(map[int64]string, len(list))
	for _, p := range list {
		out[p.HashID] = p.Amount
	}
	return out, nil
}

// DRepItem is Blockfrost's dreps item.
type DRepItem struct {
	DRepID          string        `json:"drep_id"`
	Hex             string        `json:"hex"`
	Amount          string        `json:"amount"`
	HasScript       bool          `json:"has_script"`
	Retired         bool          `json:"retired"`
	Expired         bool          `json:"expired"`
	LastActiveEpoch *int64        `json:"last_active_epoch"`
	Metadata        *AnchorAnswer `json:"metadata"`
}

// AnchorAnswer is an anchor with its document as Blockfrost writes it.
type AnchorAnswer struct {
	URL          string          `json:"url"`
	Hash         string          `json:"hash"`
	JSONMetadata json.RawMessage `json:"json_metadata"`
	Bytes        *string         `json:"bytes"`
	Error        *FetchError     `json:"error,omitempty"`
}

// FetchError is Blockfrost's off-chain fetch error.
type FetchError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// anchorAnswer is the anchor's answer: its document, or null and the
// fetch error's code (Blockfrost's classification of db-sync's text).
func anchorAnswer(an governance.Anchor) AnchorAnswer {
	out := AnchorAnswer{URL: an.URL, Hash: an.Hash, JSONMetadata: json.RawMessage("null"), Bytes: an.Bytes}
	if an.JSON != nil && json.Valid([]byte(*an.JSON)) {
		out.JSONMetadata = json.RawMessage(*an.JSON)
	}
	if an.JSON == nil && an.FetchError != nil {
		out.Error = fetchError(*an.FetchError)
	}
	return out
}

var fetchCodes = []struct {
	re   *regexp.Regexp
	code string
}{
	{regexp.MustCompile(`(?i)hash mismatch`), "HASH_MISMATCH"},
	{regexp.MustCompile(`(?i)size error`), "SIZE_EXCEEDED"},
	{regexp.MustCompile(`(?i)decode error`), "DECODE_ERROR"},
	{regexp.MustCompile(`(?i)http response error`), "HTTP_RESPONSE_ERROR"},
	{regexp.MustCompile(`(?i)connection failure error|url parse error|timeout error|http exception error`), "CONNECTION_ERROR"},
}

func fetchError(msg string) *FetchError {
	msg = strings.TrimSpace(msg)
	for _, c := range fetchCodes {
		if c.re.MatchString(msg) {
			return &FetchError{Code: c.code, Message: msg}
		}
	}
	return &FetchError{Code: "UNKNOWN_ERROR", Message: msg}
}

// DReps answers /governance/dreps: every DRep in drep_hash order (or by
// voting power with order_by=amount, ties in drep_hash order), filtered
// by retired and expired, each with its latest anchor.
func (a *Answers) DReps(ctx context.Context, db *dbsync.DB, q DRepsQuery, p Paging) ([]byte, error) {
	return cached(ctx, a, db, "dreps", []string{q.key(), p.key()}, func(ctx context.Context, db *dbsync.DB) ([]DRepItem, error) {
		t, err := a.drepTable(ctx, db)
		if err != nil {
			return nil, err
		}
		rows := make([]drepRow, 0, len(t.rows))
		for _, r := range t.rows {
			if (q.Retired == nil || *q.Retired == r.retired) && (q.Expired == nil || *q.Expired == r.expired) {
				rows = append(rows, r)
			}
		}
		if q.ByAmount {
			slices.SortStableFunc(rows, func(x, y drepRow) int { return compareAmounts(x.amount, y.amount) })
			if p.Desc {
				// Largest first, ties still in drep_hash order (Blockfrost's).
				slices.SortStableFunc(rows, func(x, y drepRow) int { return compareAmounts(y.amount, x.amount) })
				p.Desc = false
			}
		}
		page := pageOf(rows, p)
		ids := make([]int64, len(page))
		for i, r := range page {
			ids[i] = r.ID
		}
		anchors, err := governance.DRepAnchors(ctx, db, ids)
		if err != nil {
			return nil, err
		}
		out := make([]DRepItem, len(page))
		for i, r := range page {
			out[i] = DRepItem{DRepID: r.View, Hex: r.Hex, Amount: r.amount, HasScript: r.HasScript,
				Retired: r.retired, Expired: r.expired, LastActiveEpoch: r.LastActiveEpoch}
			if an, ok := anchors[r.ID]; ok {
				m := anchorAnswer(an)
				out[i].Metadata = &m
			}
		}
		return out, nil
	})
}

// compareAmounts orders non-negative decimal integers.
func compareAmounts(x, y string) int {
	if len(x) != len(y) {
		return len(x) - len(y)
	}
	return strings.Compare(x, y)
}

// DRepAnswer is Blockfrost's drep.
type DRepAnswer struct {
	DRepID          string `json:"drep_id"`
	Hex             string `json:"hex"`
	Amount          string `json:"amount"`
	Active          bool   `json:"active"`
	ActiveEpoch     *int64 `json:"active_epoch"`
	HasScript       bool   `json:"has_script"`
	Retired         bool   `json:"retired"`
	Expired         bool   `json:"expired"`
	LastActiveEpoch *int64 `json:"last_active_epoch"`
}

// drepHashID is the DRep's drep_hash id, or answer.ErrNotFound.
func drepHashID(ctx context.Context, db *dbsync.DB, d cardano.DRepID) (int64, error) {
	var raw []byte
	if d.Special == "" {
		raw = d.Hash[:]
	}
	id, err := governance.FindDRep(ctx, db, raw, d.Script, d.Special)
	if err == nil && id == 0 {
		err = answer.ErrNotFound
	}
	return id, err
}

// spell names the DRep as the client did: CIP-129 ids are answered in
// CIP-129 (id and hex with the header byte), others as db-sync's view.
func spell(d cardano.DRepID, view, raw string) (string, string) {
	if d.CIP129 {
		return d.CIP129String(), hex.EncodeToString(d.CIP129Bytes())
	}
	return view, raw
}

// spelling is the part of an answer's key that says how it names the
// DRep (the answer repeats the client's form).
func spelling(d cardano.DRepID) string {
	if d.CIP129 {
		return "cip129"
	}
	return "cip105"
}

// DRep answers /governance/dreps/{drep_id}.
func (a *Answers) DRep(ctx context.Context, db *dbsync.DB, d cardano.DRepID) ([]byte, error) {
	return cached(ctx, a, db, "drep", []string{d.CIP129String(), spelling(d)}, func(ctx context.Context, db *dbsync.DB) (DRepAnswer, error) {
		id, err := drepHashID(ctx, db, d)
		if err != nil {
			return DRepAnswer{}, err
		}
		tip, err := db.Tip(ctx)
		if err != nil {
			return DRepAnswer{}, err
		}
		t, err := a.readDReps(ctx, db, id, epochOf(tip))
		if err != nil {
			return DRepAnswer{}, err
		}
		if len(t.rows) != 1 {
			return DRepAnswer{}, answer.ErrNotFound
		}
		r := t.rows[0]
		out := DRepAnswer{Amount: r.amount, Active: r.Registered, HasScript: r.HasScript, Retired: r.retired,
			Expired: r.expired, LastActiveEpoch: r.LastActiveEpoch}
		if r.Registered {
			out.ActiveEpoch = r.RegisteredEpoch
		}
		out.DRepID, out.Hex = spell(d, r.View, r.Hex)
		return out, nil
	})
}

// DRepMetadataAnswer is Blockfrost's drep_metadata.
type DRepMetadataAnswer struct {
	DRepID string `json:"drep_id"`
	Hex    string `json:"hex"`
	AnchorAnswer
}

// DRepMetadata answers /governance/dreps/{drep_id}/metadata: the anchor
// of its latest certificate with one (404 without), its document or the
// fetch error.
func (a *Answers) DRepMetadata(ctx context.Context, db *dbsync.DB, d cardano.DRepID) ([]byte, error) {
	return cached(ctx, a, db, "drepmetadata", []string{d.CIP129String(), spelling(d)}, func(ctx context.Context, db *dbsync.DB) (DRepMetadataAnswer, error) {
		id, err := drepHashID(ctx, db, d)
		if err != nil {
			return DRepMetadataAnswer{}, err
		}
		anchors, err := governance.DRepAnchors(ctx, db, []int64{id})
		if err != nil {
			return DRepMetadataAnswer{}, err
		}
		an, ok := anchors[id]
		if !ok {
			return DRepMetadataAnswer{}, answer.ErrNotFound
		}
		raw := ""
		if d.Special == "" {
			raw = hex.EncodeToString(d.Hash[:])
		}
		out := DRepMetadataAnswer{AnchorAnswer: anchorAnswer(an)}
		out.DRepID, out.Hex = spell(d, d.CIP105(), raw)
		return out, nil
	})
}
