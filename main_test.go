package main

import (
	"testing"

	"github.com/syncgate/syncgate/admin"
	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/dbsync/fixture"
	sqlfiles "github.com/syncgate/syncgate/sql"
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
	for _, dir := range []string{"dbsync/indexes", "dbsync/schema"} {
		if len(sqlfiles.Dir(dir)) == 0 {
			t.Errorf("%s is empty", dir)
		}
	}
	_ = dbsync.CreateRecommendedIndexes // the indexes' reader
	if unused := sqlfiles.Unused(); len(unused) > 0 {
		t.Errorf("embedded SQL that nothing loads: %v", unused)
	}
}

// TestDemoAddress: the demo's sample UTxO query uses the seeded whale, an
// ordinary address when the manifest names no whale, and the fallback when
// there is no manifest (a database seeded by an earlier run).
func TestDemoAddress(t *testing.T) {
	dir := t.TempDir()
	path := dir + "/m.json"
	if got := demoAddress(path); got != fallbackDemoAddress {
		t.Errorf("no manifest: %s", got)
	}
	m := &fixture.Manifest{}
	m.Addresses = append(m.Addresses, fixture.AddressRef{Address: "addr1ordinary"})
	if err := m.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	if got := demoAddress(path); got != "addr1ordinary" {
		t.Errorf("no whale: %s", got)
	}
	m.Whale.Address = "addr1whale"
	if err := m.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	if got := demoAddress(path); got != "addr1whale" {
		t.Errorf("whale: %s", got)
	}
}
