package answer

import (
	"context"
	"strings"
	"time"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/cardano"
	"github.com/syncgate/syncgate/internal/service/touched"
)

// Subject is what another dialect's answer kept across tips is about: an
// address, a payment credential or a stake key, known to the tracker by
// the same names as /v1's kept balances and UTxO lists, or a native
// asset.
type Subject struct{ s subject }

// AddressSubject is an answer about one address.
func AddressSubject(addr cardano.Address) Subject { return Subject{addressSubject(addr)} }

// CredentialSubject is an answer about every address of one payment
// credential.
func CredentialSubject(cred cardano.PaymentCredential) Subject {
	return Subject{credentialSubject(cred)}
}

// StakeSubject is an answer about every address of one stake key.
func StakeSubject(key cardano.StakeKey) Subject { return Subject{stakeSubject(key)} }

// AssetSubject is an answer about the unspent outputs holding one native
// asset (its holders): it changes only when a block creates or spends
// such an output.
func AssetSubject(id cardano.AssetID) Subject { return Subject{assetSubject(id)} }

// DialectKept is another dialect's answer about an address or a payment
// credential, kept across tips as /v1's balances are (kept.go): read at
// one block, it is the answer at every later block while none paid to or
// spent from its subject. A record is kept from its key's second ask on;
// while the tracker does not hold the request's tip the answer is cached
// under the tip (DialectAnswer). params name the answer as for
// DialectAnswer; build's TTL bounds how long a kept answer may serve (0:
// the dialect's default), and its errors are not kept.
func (s *Service) DialectKept(ctx context.Context, db *dbsync.DB, about Subject, params []string, build func(context.Context, *dbsync.DB) ([]byte, time.Duration, error)) ([]byte, error) {
	w, tracked := s.keptWayOf(ctx, db)
	if !tracked {
		return s.byTip(ctx, s.caches.dialect, db, params, func(ctx context.Context, db *dbsync.DB) ([]byte, time.Duration, error) {
			b, ttl, err := build(ctx, db)
			return b, dialectTTL(ttl), err
		})
	}
	key := w.pinned.Network.Name + ":" + strings.Join(params, ":")
	var ttl time.Duration
	_, body, err := w.answer(ctx, s.caches.dialectKept, about.s, key, false, dialectCacheTTL, func(ctx context.Context, pinned *dbsync.DB) (touched.Point, []byte, error) {
		b, t, err := build(ctx, pinned)
		ttl = t
		return w.now, b, err
	})
	if err == nil && ttl > 0 && ttl < dialectCacheTTL {
		// A degraded answer (a source it reads did not answer) is not
		// kept: a record of no block's is never valid, so the next ask
		// builds again.
		s.caches.dialectKept.Put(ctx, key, keptRecord(touched.Point{Height: -1}, body), ttl)
	}
	return body, err
}

// dialectTTL is a build's TTL, or the dialect's default.
func dialectTTL(ttl time.Duration) time.Duration {
	if ttl <= 0 {
		return dialectCacheTTL
	}
	return ttl
}
