package cli

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/syncgate/syncgate/admin"
	"github.com/syncgate/syncgate/cache"
	"github.com/syncgate/syncgate/config"
	"github.com/syncgate/syncgate/internal/cardano"
	"github.com/syncgate/syncgate/internal/devtools/chaingen"
	"github.com/syncgate/syncgate/internal/platform/pgdb"
	"github.com/syncgate/syncgate/sql"
)

// demoDatabaseURL is where `syncgate demo` keeps its data unless
// DATABASE_URL says otherwise.
const demoDatabaseURL = "postgres://postgres@127.0.0.1:5432/syncgate_demo?sslmode=disable"

// Demo creates the demo database if missing, seeds it if empty, funds the
// demo wallet and runs the demo node as mainnet's node (demo_node.go),
// prints ready-to-use keys, curl commands and client snippets, and serves
// it (Redis optional).
func Demo(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("demo", flag.ContinueOnError)
	listen := fs.String("listen-addr", envOr("LISTEN_ADDR", "127.0.0.1:8080"), "HTTP listen address")
	txs := fs.Int("txs", 50_000, "transactions to seed into an empty demo database")
	blockEvery := fs.Duration("block-every", 5*time.Second, "append a block to the demo chain this often, as db-sync does while it follows a node, with a 1-3 block rollback now and then (0: a static chain)")
	nodeSocket := fs.String("node-socket", defaultDemoSocket(), "the demo node's unix socket: it takes transactions from the demo wallet into the next block (NODE_SOCKET_MAINNET points at it)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	dbURL := envOr("DATABASE_URL", demoDatabaseURL)
	if err := pgdb.EnsureDatabase(ctx, dbURL); err != nil {
		return fmt.Errorf("demo: %w (is PostgreSQL running? see README)", err)
	}
	status := newStatusLine(os.Stdout, time.Now)
	m, err := chaingen.Seed(ctx, dbURL, chaingen.Options{Txs: *txs, Seed: 1, Mode: chaingen.ModeCore,
		Logf: status.logf, Progress: status.progress})
	status.done()
	switch {
	case errors.Is(err, chaingen.ErrNotEmpty):
		fmt.Println("demo database already seeded; reusing it")
		m, _ = chaingen.ReadManifest(demoManifest)
	case err != nil:
		return fmt.Errorf("demo: seed: %w", err)
	default:
		_ = m.WriteFile(demoManifest)
		fmt.Println("seeded demo chain; manifest written to " + demoManifest)
	}
	dn, err := startDemoNode(ctx, dbURL, *nodeSocket, m)
	if err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	defer dn.Close()
	if m != nil {
		_ = m.WriteFile(demoManifest) // now naming the demo wallet
	}
	environ := append(os.Environ(), "DBSYNC_MAINNET_URL="+dbURL, "LISTEN_ADDR="+*listen, "NODE_SOCKET_MAINNET="+*nodeSocket)
	if os.Getenv("WEBHOOK_SECRET_KEY") == "" {
		key, err := demoWebhookKey(demoWebhookKeyFile)
		if err != nil {
			return fmt.Errorf("demo: webhook key: %w", err)
		}
		// Local receivers (http://127.0.0.1:…) are what a demo's webhooks
		// reach; a shared deployment never allows them.
		environ = append(environ, "WEBHOOK_SECRET_KEY="+key, "WEBHOOK_ALLOW_PRIVATE=true")
	}
	if os.Getenv("REDIS_URL") == "" && localRedisAnswers(ctx) {
		// The demo works without Redis; with the local one it shows the
		// shared rate limiter and caches as a real deployment runs them.
		environ = append(environ, "REDIS_URL="+localRedisURL)
	}
	cfg, err := config.Load(environ, nil)
	if err != nil {
		return fmt.Errorf("configuration:\n%w", err)
	}
	access, err := demoAccess(ctx, cfg.AdminDatabaseURL)
	if err != nil {
		return fmt.Errorf("demo: keys: %w", err)
	}
	address := demoAddressFrom(ctx, dbURL)
	if *blockEvery > 0 {
		go followDemoChain(ctx, dbURL, m, *blockEvery, dn.node.Mempool())
	}
	return serve(ctx, cfg, newLogger(cfg.LogLevel), func(addr string) {
		fmt.Print(demoBanner("http://"+addr, access, address, *blockEvery) + "\n" +
			demoClientBanner("http://"+addr, access, dn, *blockEvery))
	})
}

// The demo's files, in the directory it runs in.
const (
	demoManifest       = "demo-manifest.json"
	demoWebhookKeyFile = ".syncgate-demo-webhook-key"
)

// demoBanner is what the demo prints once it serves: where to look, the
// keys, and commands to paste.
func demoBanner(base string, access admin.DemoAccess, address string, blockEvery time.Duration) string {
	chain := "the chain is static (--block-every 0)"
	if blockEvery > 0 {
		chain = fmt.Sprintf("a new block every %s, with a 1-3 block rollback now and then", blockEvery)
	}
	return fmt.Sprintf(`
syncgate demo is serving on %[1]s (%[6]s)

  console (partner admin, in a browser): %[1]s/console   (sign in with the admin key)
  API reference:                         %[1]s/docs

  admin key (all permissions): %[2]s
  user account:                %[3]s
  API key (mainnet):           %[4]s
  (keys are stored only as hashes: each demo run revokes the previous demo keys and prints new ones)

  curl %[1]s/v1/health
  curl -H 'Authorization: Bearer %[4]s' %[1]s/v1/utxos/address/%[5]s
  curl -H 'Authorization: Bearer %[2]s' %[1]s/v1/admin/users

  watch that address for deposits (a webhook; the answer shows its id and signing secret once):
  curl -H 'Authorization: Bearer %[4]s' -H 'Content-Type: application/json' \
       -d '{"url":"http://127.0.0.1:9000/hook","items":[{"kind":"address","value":"%[5]s"}]}' %[1]s/v1/webhooks
  then read its events as they are decided (or let them arrive at your URL, signed):
  curl -H 'Authorization: Bearer %[4]s' '%[1]s/v1/webhooks/<id>/events?after=0&wait=30'
`, base, access.AdminKey, access.UserID, access.APIKey, address, chain)
}

// followDemoChain moves the demo chain while the demo serves, quietly:
// the webhooks and the tip headers show it. Each block opens with what the
// demo node's mempool (submitted) holds.
func followDemoChain(ctx context.Context, dbURL string, m *chaingen.Manifest, every time.Duration, submitted chaingen.Submitted) {
	db, err := sql.Open("postgres", dbURL)
	if err != nil {
		fmt.Fprintln(os.Stderr, "demo: chain follower:", err)
		return
	}
	defer db.Close()
	err = chaingen.Follow(ctx, db, chaingen.FollowOptions{Interval: every, RollbackEvery: 50, Seed: time.Now().UnixNano(), Manifest: m,
		Submitted: submitted})
	if err != nil && ctx.Err() == nil {
		fmt.Fprintln(os.Stderr, "demo: chain follower stopped:", err)
	}
}

// demoWebhookKey reads the demo's webhook secret key from path, creating
// it on first use: the webhooks a demo user registers keep their signing
// secrets readable across demo runs.
func demoWebhookKey(path string) (string, error) {
	if b, err := os.ReadFile(path); err == nil {
		if k := strings.TrimSpace(string(b)); len(k) == 64 {
			return k, nil
		}
	}
	key := make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		return "", err
	}
	k := hex.EncodeToString(key)
	return k, os.WriteFile(path, []byte(k+"\n"), 0o600)
}

// demoAccess migrates the admin schema and issues the demo's admin key,
// user and API key (admin.EnsureDemoAccess).
func demoAccess(ctx context.Context, dbURL string) (admin.DemoAccess, error) {
	db, err := sqlx.Open("postgres", dbURL)
	if err != nil {
		return admin.DemoAccess{}, err
	}
	defer db.Close()
	if _, err := admin.Migrate(ctx, db); err != nil {
		return admin.DemoAccess{}, err
	}
	store := admin.NewStore(db, admin.Options{})
	defer store.Close()
	mainnet, _ := cardano.NetworkByName("mainnet")
	return store.EnsureDemoAccess(ctx, mainnet.ID)
}

// fallbackDemoAddress is a real mainnet base address (CIP-19 test vector),
// used when no manifest names a busier one.
const fallbackDemoAddress = "addr1qx2fxv2umyhttkxyxp8x0dlpdt3k6cwng5pxj3jhsydzer3n0d3vllmyqwsx5wktcd8cc3sq835lu7drv2xwl2wywfgse35a3x"

// demoAddress picks the address for the demo's UTxO query from the
// generator's manifest: the whale, else an ordinary address. With no
// manifest (the database was seeded by an earlier run elsewhere) it asks
// the demo database (db, when not nil) for an address holding unspent
// outputs, and only then falls back to a fixed address.
func demoAddress(ctx context.Context, manifestPath string, db *sqlx.DB) string {
	m, err := chaingen.ReadManifest(manifestPath)
	switch {
	case err != nil:
		var addr string
		if db != nil && db.GetContext(ctx, &addr, sqlDemoAddress) == nil {
			return addr
		}
		return fallbackDemoAddress
	case m.Whale.Address != "":
		return m.Whale.Address
	case len(m.Addresses) > 0:
		return m.Addresses[0].Address
	}
	return fallbackDemoAddress
}

var sqlDemoAddress = sqlfiles.Must("dbsync/demo_address.sql")

// demoAddressFrom is demoAddress for the demo: its manifest file, its
// database.
func demoAddressFrom(ctx context.Context, dbURL string) string {
	db, err := sqlx.Open("postgres", dbURL)
	if err != nil {
		return demoAddress(ctx, demoManifest, nil)
	}
	defer db.Close()
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	return demoAddress(ctx, demoManifest, db)
}

// localRedisURL is where `make demo` starts Redis when it can.
const localRedisURL = "redis://127.0.0.1:6379/0"

// localRedisAnswers reports whether a Redis answers at localRedisURL
// within a fraction of a second.
func localRedisAnswers(ctx context.Context) bool {
	c, err := cache.New(localRedisURL, "")
	if err != nil {
		return false
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
	defer cancel()
	return c.Ping(ctx) == nil
}
