package cli

import (
	"context"
	"log/slog"
	"time"

	"github.com/google/uuid"

	"github.com/syncgate/syncgate/admin"
	"github.com/syncgate/syncgate/config"
	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/answer"
	"github.com/syncgate/syncgate/internal/answer/bf"
	"github.com/syncgate/syncgate/internal/answer/bfevents"
	"github.com/syncgate/syncgate/internal/events"
	"github.com/syncgate/syncgate/internal/platform/pgconn"
	"github.com/syncgate/syncgate/internal/service/delivery"
	"github.com/syncgate/syncgate/internal/service/quota"
	"github.com/syncgate/syncgate/internal/service/scanner"
)

// deliveryPoolSize is the delivery service's own admin pool: a burst of
// pushes never queues ahead of the request path's admin reads.
const deliveryPoolSize = 8

// startChainEvents runs, once the admin schema is migrated, one event
// scanner per network (each scans only while it holds its network's
// leadership, so one instance in the deployment does) and push delivery
// (every instance works the queue). store is the events store the API
// and the scanners write through; push delivery installs itself in it as
// the Enqueuer. The returned stop drains delivery within ctx.
func startChainEvents(ctx context.Context, cfg config.Config, conn pgconn.Options, store *events.Store, sealer *events.Sealer,
	networks map[string]*dbsync.DB, schema *admin.Schema, log *slog.Logger) (stop func(context.Context), err error) {
	pool := adminPool(cfg.AdminDatabaseURL, conn, deliveryPoolSize)
	svc, err := delivery.New(delivery.Options{
		DB: pool, Events: events.NewStore(pool, events.Options{Sealer: sealer}), Sealer: sealer,
		AllowPrivate: cfg.WebhookAllowPrivate, Log: log,
	})
	if err != nil {
		pool.Close()
		return nil, err
	}
	store.SetEnqueuer(svc)
	var scanners []*scanner.Scanner
	// Blockfrost-format payloads come from the dialect's answers, with
	// caches of the scanners' own (in process: each is read once a block).
	render := bfevents.New(bf.New(answer.New(answer.Options{})))
	for name, db := range networks {
		s, err := scanner.New(scanner.Options{Network: name, DB: db, Events: store, Log: log, Blockfrost: render})
		if err != nil {
			pool.Close()
			return nil, err
		}
		scanners = append(scanners, s)
	}
	started := make(chan bool, 1)
	go func() {
		select {
		case <-schema.Done():
		case <-ctx.Done():
			started <- false
			return
		}
		if !schema.Ready() {
			started <- false
			return
		}
		if err := svc.Start(ctx); err != nil {
			log.Error("webhook delivery did not start", slog.String("error", err.Error()))
			started <- false
		} else {
			started <- true
		}
		for _, s := range scanners {
			go func() {
				if err := s.Run(ctx); err != nil {
					log.Error("event scanner stopped", slog.String("error", err.Error()))
				}
			}()
		}
	}()
	return func(drain context.Context) {
		select {
		case ok := <-started:
			if ok {
				if err := svc.Stop(drain); err != nil {
					log.Warn("webhook delivery stop", slog.String("error", err.Error()))
				}
			}
		default: // never started (the schema is not migrated yet)
		}
		pool.Close()
	}, nil
}

// quotaNotices turns a plan quota's thresholds into account events in the
// user's webhook feeds (nil without chain events).
func quotaNotices(store *events.Store, log *slog.Logger) func(context.Context, uuid.UUID, string, quota.Policy) {
	if store == nil {
		return nil
	}
	return func(ctx context.Context, user uuid.UUID, notice string, p quota.Policy) {
		data := events.QuotaNotice{Policy: p.Name, Quota: p.Quota, Used: p.Used, ResetsAt: time.Now().Add(p.Reset).UTC().Truncate(time.Second)}
		if _, err := store.UserNotice(ctx, user, notice, data); err != nil {
			log.Warn("quota notice not recorded", slog.String("notice", notice), slog.String("error", err.Error()))
		}
	}
}
