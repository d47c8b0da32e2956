package main

import (
	"testing"

	"github.com/syncgate/syncgate/admin"
	"github.com/syncgate/syncgate/dbsync"
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
