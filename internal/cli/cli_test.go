package cli

import (
	"io"
	"os"
	"strings"
	"testing"

	"github.com/syncgate/syncgate/admin"
	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/devtools/chaingen"
	"github.com/syncgate/syncgate/internal/devtools/testdb"
	"github.com/syncgate/syncgate/internal/events"
	"github.com/syncgate/syncgate/sql"
)

// TestEverySQLFileIsUsed fails on an embedded .sql file that no package
// loads: dead SQL misleads whoever tunes or indexes it. Importing the
// binary's packages runs their init, which loads their statements; the
// directory-driven sets (migrations, recommended indexes, generator DDL)
// are read here the way the binary reads them.
func TestEverySQLFileIsUsed(t *testing.T) {
	if _, err := admin.Migrations(); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{"dbsync/indexes", "chaingen/schema"} {
		if len(sqlfiles.Dir(dir)) == 0 {
			t.Errorf("%s is empty", dir)
		}
	}
	_ = dbsync.CreateRecommendedIndexes // the indexes' reader
	_ = events.NewStore                 // the chain events store
	if unused := sqlfiles.Unused(); len(unused) > 0 {
		t.Errorf("embedded SQL that nothing loads: %v", unused)
	}
}

// TestDemoAddress: the demo's sample UTxO query uses the seeded whale, an
// ordinary address when the manifest names no whale, and without a
// manifest (a database seeded by an earlier run) an address of the
// database that holds unspent outputs, or the fallback with no database.
func TestDemoAddress(t *testing.T) {
	dir := t.TempDir()
	path := dir + "/m.json"
	if got := demoAddress(t.Context(), path, nil); got != fallbackDemoAddress {
		t.Errorf("no manifest: %s", got)
	}
	m := &chaingen.Manifest{}
	m.Addresses = append(m.Addresses, chaingen.AddressRef{Address: "addr1ordinary"})
	if err := m.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	if got := demoAddress(t.Context(), path, nil); got != "addr1ordinary" {
		t.Errorf("no whale: %s", got)
	}
	m.Whale.Address = "addr1whale"
	if err := m.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	if got := demoAddress(t.Context(), path, nil); got != "addr1whale" {
		t.Errorf("whale: %s", got)
	}
}

// Without a manifest the demo asks its database: the address it names
// has unspent outputs there.
func TestDemoAddressFromDatabase(t *testing.T) {
	testdb.RequireServices(t)
	dsn, _, drop, err := testdb.DBSync(chaingen.ModeCore, 2500)
	if err != nil {
		t.Fatal(err)
	}
	defer drop()
	db := testdb.Open(t, dsn)
	addr := demoAddress(t.Context(), t.TempDir()+"/none.json", db)
	var unspent int
	if err := db.Get(&unspent, `SELECT count(*) FROM tx_out o WHERE o.address = $1 AND NOT EXISTS (
		SELECT 1 FROM tx_in i WHERE i.tx_out_id = o.tx_id AND i.tx_out_index = o.index)`, addr); err != nil {
		t.Fatal(err)
	}
	if addr == fallbackDemoAddress || unspent == 0 {
		t.Fatalf("demo address %s has %d unspent outputs in the demo database", addr, unspent)
	}
}

// TestSQLCommandRendersEachLayout: `syncgate sql` prints a statement as it
// runs, with the layout's fragment chosen and no template left.
func TestSQLCommandRendersEachLayout(t *testing.T) {
	for layout, want := range map[string]string{"core": "FROM tx_in spend", "consumed": "o.consumed_by_tx_id IS NULL",
		"consumed+address": "o.address_id = (SELECT a.id FROM address a WHERE a.address = $1",
		"core+utxoindex":   "FROM syncgate_utxo.output u", "core+address+utxoindex": "u.address_id = (SELECT a.id FROM address a"} {
		out := captureStdout(t, func() error { return SQL([]string{"--layout", layout, "sql/dbsync/utxos_by_address.sql"}) })
		if !strings.Contains(out, want) || strings.Contains(out, "{{") {
			t.Errorf("%s rendering lacks %q or keeps a template action:\n%s", layout, want, out)
		}
	}
	if err := SQL([]string{"--layout", "nope", "sql/dbsync/utxos_by_address.sql"}); err == nil {
		t.Error("unknown layout accepted")
	}
	if err := SQL([]string{"--layout", "consumed+utxoindex", "sql/dbsync/utxos_by_address.sql"}); err == nil {
		t.Error("consumed+utxoindex accepted (consumed layouts need no index)")
	}
	if err := SQL([]string{"sql/dbsync/no_such_file.sql"}); err == nil {
		t.Error("missing file accepted")
	}
}

// captureStdout runs fn with os.Stdout redirected and returns what it printed.
func captureStdout(t *testing.T, fn func() error) string {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	saved := os.Stdout
	os.Stdout = w
	done := make(chan string)
	go func() { b, _ := io.ReadAll(r); done <- string(b) }()
	ferr := fn()
	os.Stdout = saved
	w.Close()
	out := <-done
	if ferr != nil {
		t.Fatal(ferr)
	}
	return out
}

// TestDemoWebhookKey: the demo's webhook key is made once and read back on
// the next run, so webhooks registered in one demo run stay signable.
func TestDemoWebhookKey(t *testing.T) {
	path := t.TempDir() + "/key"
	a, err := demoWebhookKey(path)
	if err != nil || len(a) != 64 {
		t.Fatalf("first: %q %v", a, err)
	}
	b, err := demoWebhookKey(path)
	if err != nil || b != a {
		t.Fatalf("second: %q %v, want %q", b, err, a)
	}
	if st, err := os.Stat(path); err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v %v", st.Mode(), err)
	}
}
