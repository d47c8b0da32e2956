package bf

import (
	"bytes"
	"context"
	"encoding/hex"
	"errors"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/dbsync/governance"
	"github.com/syncgate/syncgate/internal/answer"
	"github.com/syncgate/syncgate/internal/cardano"
)

// govPage answers a page of a governance list read whole once per tip
// (answer.DialectPage: every page cut from stored blocks of 100); known
// says whether an empty list's subject exists (404 otherwise).
func (a *Answers) govPage(ctx context.Context, db *dbsync.DB, params []string, p Paging, known func(context.Context) error,
	each func(ctx context.Context, db *dbsync.DB, fn func(any) error) error) ([]byte, error) {
	list := answer.DialectList{Params: append([]string{"bf"}, params...),
		Each: func(ctx context.Context, db *dbsync.DB, fn func([]byte) error) error {
			return each(ctx, db, func(v any) error {
				b, err := encode(v)
				if err != nil {
					return err
				}
				return fn(bytes.TrimSuffix(b, []byte("\n")))
			})
		}}
	b, err := a.svc.DialectPage(ctx, db, list, answer.ListPage{Offset: p.Offset(), Count: p.Count, Desc: p.Desc})
	if err != nil || known == nil || !bytes.Equal(b, emptyList) {
		return b, err
	}
	if err := known(ctx); err != nil {
		return nil, err
	}
	return b, nil
}

// DRepDelegators answers /governance/dreps/{drep_id}/delegators: the
// DRep's current delegators in delegation order with their live stake.
// The delegators' ids are read whole once per instance and then brought
// forward by the certificates of each new block (delegatorLists); a
// page's stake is read for its addresses alone, so a deep page costs what
// the first does.
func (a *Answers) DRepDelegators(ctx context.Context, db *dbsync.DB, d cardano.DRepID, p Paging) ([]byte, error) {
	return cached(ctx, a, db, "drepdelegators", []string{d.CIP129String(), p.key()}, func(ctx context.Context, db *dbsync.DB) ([]governance.Stake, error) {
		id, err := drepHashID(ctx, db, d)
		if err != nil {
			return nil, err
		}
		ids, err := a.delegators.at(ctx, db, id)
		if err != nil {
			return nil, err
		}
		page := pageOf(ids, p)
		if len(page) == 0 {
			return []governance.Stake{}, nil
		}
		tip, err := db.Tip(ctx)
		if err != nil {
			return nil, err
		}
		return governance.LiveStake(ctx, db, page, epochOf(tip))
	})
}

// DRepUpdates answers /governance/dreps/{drep_id}/updates: the DRep's
// certificates in chain order.
func (a *Answers) DRepUpdates(ctx context.Context, db *dbsync.DB, d cardano.DRepID, p Paging) ([]byte, error) {
	return cached(ctx, a, db, "drepupdates", []string{d.CIP129String(), p.key()}, func(ctx context.Context, db *dbsync.DB) ([]governance.Update, error) {
		id, err := drepHashID(ctx, db, d)
		if err != nil {
			return nil, err
		}
		list, err := governance.Updates(ctx, db, id)
		if err != nil {
			return nil, err
		}
		return pageOf(list, p), nil
	})
}

// DRepVoteItem is Blockfrost's drep_votes item.
type DRepVoteItem struct {
	TxHash            string `json:"tx_hash"`
	CertIndex         int64  `json:"cert_index"`
	ProposalID        string `json:"proposal_id"`
	ProposalTxHash    string `json:"proposal_tx_hash"`
	ProposalCertIndex int64  `json:"proposal_cert_index"`
	Vote              string `json:"vote"`
}

// DRepVotes answers /governance/dreps/{drep_id}/votes: the DRep's votes
// in chain order (one per proposal and change of mind: read whole once
// per tip).
func (a *Answers) DRepVotes(ctx context.Context, db *dbsync.DB, d cardano.DRepID, p Paging) ([]byte, error) {
	var id int64
	params := []string{"drepvotes", d.CIP129String()}
	known := func(ctx context.Context) error { _, err := drepHashID(ctx, db, d); return err }
	return a.govPage(ctx, db, params, p, known, func(ctx context.Context, db *dbsync.DB, fn func(any) error) error {
		var err error
		if id, err = drepHashID(ctx, db, d); err != nil {
			if errors.Is(err, answer.ErrNotFound) {
				return nil
			}
			return err
		}
		list, err := governance.DRepVotes(ctx, db, id)
		if err != nil {
			return err
		}
		for _, v := range list {
			if err := fn(DRepVoteItem{TxHash: v.TxHash, CertIndex: v.CertIndex,
				ProposalID:     cardano.GovActionString(v.ProposalTxHash, uint32(v.ProposalCertIndex)),
				ProposalTxHash: v.ProposalTxHash, ProposalCertIndex: v.ProposalCertIndex, Vote: v.Vote}); err != nil {
				return err
			}
		}
		return nil
	})
}

// hexOf is lower-case hex.
func hexOf(b []byte) string { return hex.EncodeToString(b) }
