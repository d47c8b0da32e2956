package dbsync

// PreparedCount is how many statements the primary pool holds prepared.
func (db *DB) PreparedCount() int { return len(db.primary.stmts) }

// RegisteredCount is how many distinct statements are registered for
// preparation (generic and custom-planned).
func RegisteredCount() int {
	preparableMu.Lock()
	defer preparableMu.Unlock()
	seen := map[string]bool{}
	for _, q := range append(append([]string(nil), preparable...), customOnly...) {
		seen[q] = true
	}
	return len(seen)
}
