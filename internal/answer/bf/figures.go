package bf

import (
	"context"
	"sync"
	"time"
)

// figures are the /network figures that read the whole UTxO set: the
// lovelace locked at script addresses and, where the pool-stake
// refresher keeps no live stake, every delegator's live stake.
type figures struct {
	Locked string  `json:"locked"`
	Live   *string `json:"live,omitempty"`
}

// figureRetry is how long a failed pass keeps the next from starting.
const figureRetry = time.Minute

// figureMemo computes figures once per database and epoch, in the
// background: no request can afford a pass (minutes on mainnet). A request
// is answered with the newest epoch's figures computed; one that comes
// before any were waits for the first pass, for as long as it may (a pass
// it started outlives it, and the next request finds its result).
type figureMemo struct {
	mu sync.Mutex
	of map[any]*figureState
}

type figureState struct {
	epoch int64
	have  bool
	last  figures
	pass  *figurePass // the pass of the newest epoch asked for
}

type figurePass struct {
	epoch  int64
	done   chan struct{}
	fig    figures
	err    error
	failed time.Time
}

// get returns key's figures of epoch, or of the newest epoch before it
// while epoch's pass runs (compute, started at most once per epoch, and
// again a minute after a failure).
func (m *figureMemo) get(ctx context.Context, key any, epoch int64, compute func(context.Context) (figures, error)) (figures, error) {
	m.mu.Lock()
	if m.of == nil {
		m.of = map[any]*figureState{}
	}
	st := m.of[key]
	if st == nil {
		st = &figureState{}
		m.of[key] = st
	}
	if st.have && st.epoch >= epoch {
		f := st.last
		m.mu.Unlock()
		return f, nil
	}
	p := st.pass
	if p == nil || p.epoch < epoch || !p.failed.IsZero() && time.Since(p.failed) > figureRetry {
		p = &figurePass{epoch: epoch, done: make(chan struct{})}
		st.pass = p
		go m.run(key, p, compute)
	}
	have, last := st.have, st.last
	m.mu.Unlock()
	if have {
		return last, nil
	}
	select {
	case <-p.done:
		return p.fig, p.err
	case <-ctx.Done():
		return figures{}, ctx.Err()
	}
}

// run computes one pass, detached from every request, and keeps its
// figures as the key's newest.
func (m *figureMemo) run(key any, p *figurePass, compute func(context.Context) (figures, error)) {
	ctx, cancel := context.WithTimeout(context.Background(), figuresTimeout)
	defer cancel()
	f, err := compute(ctx)
	m.mu.Lock()
	p.fig, p.err = f, err
	if err != nil {
		p.failed = time.Now()
	} else if st := m.of[key]; !st.have || st.epoch <= p.epoch {
		st.epoch, st.have, st.last = p.epoch, true, f
	}
	m.mu.Unlock()
	close(p.done)
}
