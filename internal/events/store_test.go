package events

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/google/uuid"
	"github.com/jmoiron/sqlx"

	"github.com/syncgate/syncgate/admin"
	"github.com/syncgate/syncgate/internal/devtools/testdb"
)

// migratedAdmin is a fresh admin database with one user.
func migratedAdmin(t *testing.T) (*sqlx.DB, uuid.UUID) {
	t.Helper()
	testdb.RequirePostgres(t)
	db := testdb.Open(t, testdb.New(t, "sg_test_events"))
	if _, err := admin.Migrate(context.Background(), db); err != nil {
		t.Fatal(err)
	}
	user := testdb.AdminUser(t, db)
	return db, user
}

func newWebhook(t *testing.T, db *sqlx.DB, user uuid.UUID, url *string) uuid.UUID {
	t.Helper()
	var id uuid.UUID
	if err := db.Get(&id, `INSERT INTO syncgate.webhooks (user_account_id, network, url, depth, event_types, secret_sealed, scanned_through)
		VALUES ($1, 'preprod', $2, 0, '{tx.confirmed}', '\x00', 0) RETURNING id`, user, url); err != nil {
		t.Fatal(err)
	}
	return id
}

// Events get consecutive sequence numbers per webhook in the order given,
// their bodies say what was decided, pushed webhooks get a delivery row,
// and a revocation marks the event it revokes.
func TestAppendEvents(t *testing.T) {
	db, user := migratedAdmin(t)
	url := "https://example.com/hook"
	pushed, pulled := newWebhook(t, db, user, &url), newWebhook(t, db, user, nil)
	s := NewStore(db, Options{})
	ctx := context.Background()
	block := &BlockRef{Hash: []byte{1, 2}, Height: 10, Slot: 100}
	decide := func(evs ...NewEvent) []Decided {
		tx := db.MustBeginTx(ctx, nil)
		d, err := s.AppendEvents(ctx, tx, "preprod", evs)
		if err != nil {
			t.Fatal(err)
		}
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
		return d
	}
	d := decide(
		NewEvent{WebhookID: pushed, Type: TypeTxConfirmed, TxHash: []byte{9}, Block: block, Tip: block, Data: TxConfirmed{TxHash: "09"}},
		NewEvent{WebhookID: pulled, Type: TypeTxConfirmed, TxHash: []byte{9}, Block: block, Tip: block, Data: TxConfirmed{TxHash: "09"}},
		NewEvent{WebhookID: pushed, Type: TypeWebhookTest, Data: WebhookNote{Message: "hi"}},
	)
	if len(d) != 3 || d[0].Seq != 1 || d[2].Seq != 2 || d[1].Seq != 1 || !d[0].Push || d[1].Push {
		t.Fatalf("decided %+v", d)
	}
	r := decide(NewEvent{WebhookID: pushed, Type: TypeTxRolledBack, TxHash: []byte{9}, Block: block, Tip: block, Revokes: &d[0].ID,
		Data: TxRolledBack{TxHash: "09", Revokes: d[0].ID, RevokedSeq: 1}})
	if r[0].Seq != 3 {
		t.Fatalf("seq %d", r[0].Seq)
	}
	var by uuid.UUID
	if err := db.Get(&by, `SELECT revoked_by FROM syncgate.webhook_events WHERE id = $1`, d[0].ID); err != nil || by != r[0].ID {
		t.Fatalf("revoked_by %v %v", by, err)
	}
	var n int
	if err := db.Get(&n, `SELECT count(*) FROM syncgate.webhook_deliveries`); err != nil || n != 3 {
		t.Fatalf("deliveries %d %v", n, err)
	}
	var raw string
	if err := db.Get(&raw, `SELECT body FROM syncgate.webhook_events WHERE id = $1`, d[2].ID); err != nil {
		t.Fatal(err)
	}
	var b Body
	if err := json.Unmarshal([]byte(raw), &b); err != nil || b.Seq != 2 || b.Type != TypeWebhookTest || b.Block != nil || b.ID != d[2].ID {
		t.Fatalf("body %s: %v", raw, err)
	}
	var height *int64
	if err := db.Get(&height, `SELECT block_no FROM syncgate.webhook_events WHERE id = $1`, d[2].ID); err != nil || height != nil {
		t.Fatalf("block_no %v %v", height, err)
	}
}
