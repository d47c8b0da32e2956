package engine

import "errors"

// What the engine's users' tests inspect and provoke.

// PreparedCount is how many statements the primary pool holds prepared.
func (e *Engine) PreparedCount() int { return len(e.primary.statements()) }

// RegisteredCount is how many distinct statements are registered for
// preparation in this database's layout.
func (e *Engine) RegisteredCount() int { return Registered(e.layout) }

// TakeOut takes server i (0: the primary) out of rotation, as a failed
// probe would.
func (e *Engine) TakeOut(i int) { e.servers()[i].setDown(errors.New("taken out by the test")) }
