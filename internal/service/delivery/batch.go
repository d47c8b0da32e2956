package delivery

import (
	"context"
	"time"
)

// batcher runs many workers' single calls as few statements: a call
// waits while a statement runs and goes with the next batch, so batches
// grow with the load and an idle service answers each call at once.
type batcher[I, O any] struct {
	max int
	ch  chan *call[I, O]
	run func(context.Context, []I) ([]O, error)
}

type call[I, O any] struct {
	in   I
	out  O
	err  error
	done chan struct{}
}

// batchTimeout bounds one batch statement.
const batchTimeout = 10 * time.Second

func newBatcher[I, O any](max int, run func(context.Context, []I) ([]O, error)) *batcher[I, O] {
	return &batcher[I, O]{max: max, ch: make(chan *call[I, O]), run: run}
}

// start runs loops statements at a time until ctx ends.
func (b *batcher[I, O]) start(ctx context.Context, loops int) {
	for range loops {
		go b.loop(ctx)
	}
}

// do runs in through the next batch.
func (b *batcher[I, O]) do(ctx context.Context, in I) (O, error) {
	c := &call[I, O]{in: in, done: make(chan struct{})}
	var zero O
	select {
	case b.ch <- c:
	case <-ctx.Done():
		return zero, ctx.Err()
	}
	select {
	case <-c.done:
		return c.out, c.err
	case <-ctx.Done():
		return zero, ctx.Err()
	}
}

func (b *batcher[I, O]) loop(ctx context.Context) {
	for {
		var calls []*call[I, O]
		select {
		case c := <-b.ch:
			calls = append(calls, c)
		case <-ctx.Done():
			return
		}
	more:
		for len(calls) < b.max {
			select {
			case c := <-b.ch:
				calls = append(calls, c)
			default:
				break more
			}
		}
		ins := make([]I, len(calls))
		for i, c := range calls {
			ins[i] = c.in
		}
		rctx, cancel := context.WithTimeout(ctx, batchTimeout)
		outs, err := b.run(rctx, ins)
		cancel()
		for i, c := range calls {
			if err != nil {
				c.err = err
			} else {
				c.out = outs[i]
			}
			close(c.done)
		}
	}
}
