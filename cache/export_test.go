package cache

// Held is how many leased tokens of id this limiter holds (tests).
func (l *Limiter) Held(id string) int {
	l.leases.mu.Lock()
	defer l.leases.mu.Unlock()
	if e := l.leases.m[id]; e != nil {
		return e.tokens
	}
	return 0
}

// MaxSlice is the most tokens this limiter leases at once of a perMinute budget.
func (l *Limiter) MaxSlice(perMinute int) int { return l.maxSlice(perMinute) }

// Leases is how many credentials this limiter keeps a lease of.
func (l *Limiter) Leases() int {
	l.leases.mu.Lock()
	defer l.leases.mu.Unlock()
	return len(l.leases.m)
}
