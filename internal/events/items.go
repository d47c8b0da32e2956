package events

import (
	"context"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/syncgate/syncgate/internal/cardano"
	"github.com/syncgate/syncgate/sql"
)

var (
	sqlInsertItems = sqlfiles.Must("admin/webhook_items_insert.sql")
	sqlDeleteItems = sqlfiles.Must("admin/webhook_items_delete.sql")
	sqlCountItems  = sqlfiles.Must("admin/webhook_items_count.sql")
	sqlListItems   = sqlfiles.Must("admin/webhook_items_list.sql")
)

// Watch item errors (CanonicalItem); the handler names the item.
var (
	ErrUnknownKind    = errors.New("events: unknown watch item kind")
	ErrItemAddress    = errors.New("events: not a payment address of the network")
	ErrItemStake      = errors.New("events: not a stake address of the network")
	ErrItemCredential = errors.New("events: not a payment credential")
	ErrItemPolicy     = errors.New("events: not a policy id")
	ErrItemAsset      = errors.New("events: not an asset unit")
	ErrItemTx         = errors.New("events: not a transaction hash")
	ErrItemPool       = errors.New("events: not a pool id")
	ErrItemDRep       = errors.New("events: not a DRep id")
	ErrInvalidCursor  = errors.New("events: invalid cursor")
)

// maxAssetUnitHexLen: a 28-byte policy id and a name of up to 32 bytes.
const maxAssetUnitHexLen = 2 * (28 + 32)

// CanonicalItem checks a watch item against the network (mainnet: address
// tag 1) and returns it in the form the scanner matches: an address as
// db-sync stores it (bech32 lower case, Byron base58 as written), a stake
// address's bech32, and lower-case hex for payment credentials (addr_vkh1…
// and script1… accepted too), policy ids, asset units (policy id || name;
// "policy.name" accepted too) and transaction hashes; a pool id as its
// bech32 pool1… (56 hex accepted), a DRep as its CIP-129 drep1… (CIP-105
// drep1…/drep_script1… accepted) or drep_always_abstain /
// drep_always_no_confidence.
func CanonicalItem(kind, value string, mainnet bool) (Item, error) {
	switch kind {
	case KindAddress:
		a, err := cardano.ParseAddress(value, mainnet)
		if err != nil {
			return Item{}, ErrItemAddress
		}
		return Item{Kind: kind, Value: a.String()}, nil
	case KindStakeAddress:
		// bech32 only: 56 hex does not say key or script.
		if len(value) == 56 {
			return Item{}, ErrItemStake
		}
		k, err := cardano.ParseStakeKey(value, mainnet)
		if err != nil {
			return Item{}, ErrItemStake
		}
		return Item{Kind: kind, Value: k.Bech32()}, nil
	case KindPaymentCredential:
		c, err := cardano.ParsePaymentCredential(value)
		if err != nil {
			return Item{}, ErrItemCredential
		}
		return Item{Kind: kind, Value: c.Hex()}, nil
	case KindPolicy:
		if !isHex(value, 56, 56) {
			return Item{}, ErrItemPolicy
		}
		return Item{Kind: kind, Value: strings.ToLower(value)}, nil
	case KindAsset:
		if strings.Contains(value, ".") {
			id, err := cardano.ParseAssetID(value)
			if err != nil {
				return Item{}, ErrItemAsset
			}
			return Item{Kind: kind, Value: id.Unit()}, nil
		}
		if !isHex(value, 56, maxAssetUnitHexLen) {
			return Item{}, ErrItemAsset
		}
		return Item{Kind: kind, Value: strings.ToLower(value)}, nil
	case KindTx:
		h, err := cardano.ParseTxHash(value)
		if err != nil {
			return Item{}, ErrItemTx
		}
		return Item{Kind: kind, Value: h.String()}, nil
	case KindPool:
		p, ok := canonicalPool(value)
		if !ok {
			return Item{}, ErrItemPool
		}
		return Item{Kind: kind, Value: p}, nil
	case KindDRep:
		d, ok := CanonicalDRep(value)
		if !ok {
			return Item{}, ErrItemDRep
		}
		return Item{Kind: kind, Value: d}, nil
	}
	return Item{}, ErrUnknownKind
}

// isHex: even-length hex of min..max characters.
func isHex(s string, minLen, maxLen int) bool {
	if len(s) < minLen || len(s) > maxLen || len(s)%2 != 0 {
		return false
	}
	_, err := hex.DecodeString(s)
	return err == nil
}

// AddItems adds canonical items to one of the owner's webhooks (those it
// holds already are skipped) and returns how many were added and the new
// watch-set size. The webhook row is locked, so its size stays exact under
// concurrent requests; ErrTooManyItems (nothing added) when the set would
// pass MaxItems.
func (s *Store) AddItems(ctx context.Context, o Owner, id uuid.UUID, items []Item) (added, total int, err error) {
	if len(items) > MaxItemsPerBatch {
		return 0, 0, ErrTooManyItems
	}
	err = s.inTx(ctx, "AddItems", func(tx *sqlx.Tx) error {
		w, err := getWebhook(ctx, tx, sqlLockHook, o, id)
		if err != nil {
			return err
		}
		total, err = addItems(ctx, tx, w, items, s.now().UTC())
		added = total - w.Items
		return err
	})
	return added, total, err
}

// addItems inserts into the watch set of w (locked) and returns its new size.
func addItems(ctx context.Context, tx *sqlx.Tx, w Webhook, items []Item, now time.Time) (int, error) {
	kinds, values := splitItems(items)
	res, err := tx.ExecContext(ctx, sqlInsertItems, w.ID, w.Network, pq.StringArray(kinds), pq.StringArray(values), now)
	if err != nil {
		return 0, err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, err
	}
	if w.Items+int(n) > MaxItems {
		return 0, ErrTooManyItems
	}
	var total int
	err = tx.GetContext(ctx, &total, sqlCountItems, w.ID, n, now)
	return total, err
}

// RemoveItems removes items from one of the owner's webhooks and returns
// how many it held and the new watch-set size.
func (s *Store) RemoveItems(ctx context.Context, o Owner, id uuid.UUID, items []Item) (removed, total int, err error) {
	if len(items) > MaxItemsPerBatch {
		return 0, 0, ErrTooManyItems
	}
	kinds, values := splitItems(items)
	err = s.inTx(ctx, "RemoveItems", func(tx *sqlx.Tx) error {
		w, err := getWebhook(ctx, tx, sqlLockHook, o, id)
		if err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, sqlDeleteItems, w.ID, pq.StringArray(kinds), pq.StringArray(values))
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		if err != nil {
			return err
		}
		removed = int(n)
		return tx.GetContext(ctx, &total, sqlCountItems, w.ID, -n, s.now().UTC())
	})
	return removed, total, err
}

// Items returns a page of one of the owner's watch sets in (kind, value)
// order after cursor ("" = from the start), and the cursor of the next
// page ("" when this one is the last). audit: the admin API's entry, nil
// for the data API.
func (s *Store) Items(ctx context.Context, o Owner, id uuid.UUID, cursor string, limit int, audit Audit) (items []Item, next string, err error) {
	var after Item
	if cursor != "" {
		if after, err = DecodeItemCursor(cursor); err != nil {
			return nil, "", err
		}
	}
	err = s.inTx(ctx, "Items", func(tx *sqlx.Tx) error {
		if _, err := getWebhook(ctx, tx, sqlGetHook, o, id); err != nil {
			return err
		}
		items = []Item{}
		if err := tx.SelectContext(ctx, &items, sqlListItems, id, after.Kind, after.Value, limit+1); err != nil {
			return err
		}
		if audit != nil {
			return audit(ctx, tx, AuditWebhookItemsViewed, &id, map[string]any{"user_account_id": o.UserID})
		}
		return nil
	})
	if err != nil {
		return nil, "", err
	}
	if len(items) > limit {
		items = items[:limit]
		next = itemCursor(items[limit-1])
	}
	return items, next, nil
}

// itemCursor is the opaque keyset cursor after item it.
func itemCursor(it Item) string {
	return base64.RawURLEncoding.EncodeToString([]byte(it.Kind + "\n" + it.Value))
}

// DecodeItemCursor reads a cursor Items returned (ErrInvalidCursor otherwise).
func DecodeItemCursor(c string) (Item, error) {
	raw, err := base64.RawURLEncoding.DecodeString(c)
	if err != nil {
		return Item{}, ErrInvalidCursor
	}
	kind, value, ok := strings.Cut(string(raw), "\n")
	if !ok || kind == "" {
		return Item{}, ErrInvalidCursor
	}
	return Item{Kind: kind, Value: value}, nil
}

func splitItems(items []Item) (kinds, values []string) {
	kinds, values = make([]string, len(items)), make([]string, len(items))
	for i, it := range items {
		kinds[i], values[i] = it.Kind, it.Value
	}
	return kinds, values
}
