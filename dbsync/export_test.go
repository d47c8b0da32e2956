package dbsync

// PreparedCount is how many statements the primary pool holds prepared.
func (db *DB) PreparedCount() int { return len(db.primary.stmts) }
