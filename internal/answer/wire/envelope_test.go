package wire

import (
	"bytes"
	"testing"
)

// TestAppendEnvelopeMatchesEncode: the envelope's pagination and
// last_updated, written by hand, are the bytes Encode writes for the same
// envelope, with every optional part present and absent.
func TestAppendEnvelopeMatchesEncode(t *testing.T) {
	yes, no, cursor := true, false, int64(123456789)
	lu := LastUpdated{SlotNo: 4229824, BlockHash: "410609f5540be83fa350c03955ab7040609347055011cec3063e5530bd20589b",
		BlockTime: "2026-11-21T12:09:15Z"}
	pages := []*Pagination{nil, {Limit: 100, Offset: 0, Total: 0}, {Limit: 20, Offset: 40, Total: 525000, HasMore: &yes},
		{Limit: 1, Offset: 7, Total: 8, HasMore: &no}, {Limit: 100, Total: -1, HasMore: &yes, NextCursor: &cursor}}
	for _, p := range pages {
		for _, l := range []*LastUpdated{nil, &lu} {
			got := AppendEnvelope(nil, func(b []byte) []byte { return append(b, `[1,"x"]`...) }, p, l)
			want, err := Encode(Envelope{Success: true, Data: []any{1, "x"}, Pagination: p, LastUpdated: l})
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != string(want) {
				t.Errorf("pagination %+v, last_updated %v:\n got %s\nwant %s", p, l != nil, got, want)
			}
		}
	}
}

func TestWithLastUpdated(t *testing.T) {
	lu := LastUpdated{SlotNo: 7, BlockHash: "ab", BlockTime: "2026-01-01T00:00:00Z"}
	page := AppendEnvelope(nil, func(b []byte) []byte { return append(b, `[{"last_updated":1}]`...) },
		&Pagination{Limit: 1}, &LastUpdated{SlotNo: 1, BlockHash: "cd", BlockTime: "2025-01-01T00:00:00Z"})
	got, ok := WithLastUpdated(page, lu)
	want := AppendEnvelope(nil, func(b []byte) []byte { return append(b, `[{"last_updated":1}]`...) }, &Pagination{Limit: 1}, &lu)
	if !ok || !bytes.Equal(got, want) {
		t.Fatalf("WithLastUpdated = %s, %v; want %s", got, ok, want)
	}
	if _, ok := WithLastUpdated([]byte(`{"success":true,"data":1}`), lu); ok {
		t.Error("an answer without last_updated was rewritten")
	}
}
