package cli

import (
	"context"
	"fmt"

	"github.com/jmoiron/sqlx"

	"github.com/syncgate/syncgate/admin"
	"github.com/syncgate/syncgate/sql"
)

var sqlSchemaVersion = sqlfiles.Must("admin/schema_version.sql")

// adminReady is /readyz's admin database check: it answers, and carries
// every migration this binary knows (an instance of a newer version
// started before its migrations ran is not ready).
func adminReady(db *sqlx.DB) func(ctx context.Context) error {
	ms, err := admin.Migrations()
	return func(ctx context.Context) error {
		if err != nil {
			return err
		}
		var version int
		if err := db.GetContext(ctx, &version, sqlSchemaVersion); err != nil {
			return err
		}
		if want := ms[len(ms)-1].Version; version < want {
			return fmt.Errorf("admin schema at migration %d, want %d", version, want)
		}
		return nil
	}
}
