package admin

import (
	"context"
	"log/slog"

	"github.com/jmoiron/sqlx"
)

// Options configures the Store.
type Options struct {
	BootstrapAdminKey string
	Log               *slog.Logger
}

// Store is the admin schema's data access.
type Store struct {
	db   *sqlx.DB
	opts Options
}

// NewStore returns a Store over db (already migrated).
func NewStore(db *sqlx.DB, opts Options) *Store {
	return &Store{db: db, opts: opts}
}

// AuthenticateCredential resolves a data API key. Placeholder until the
// administration issue lands: every key is unknown.
func (s *Store) AuthenticateCredential(ctx context.Context, apiKey string) (Caller, error) {
	return Caller{}, ErrInvalidKey
}
