package bf

import (
	"context"
	"encoding/hex"
	"errors"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/dbsync/governance"
	"github.com/syncgate/syncgate/internal/answer"
	"github.com/syncgate/syncgate/internal/cardano"
)

// CommitteeAnswer is Blockfrost's committee.
type CommitteeAnswer struct {
	GovActionID    *string         `json:"gov_action_id"`
	ProposalTxHash *string         `json:"proposal_tx_hash"`
	ProposalIndex  *int64          `json:"proposal_index"`
	IsDissolved    bool            `json:"is_dissolved"`
	Quorum         Quorum          `json:"quorum"`
	Members        []CommitteeSeat `json:"members"`
}

// Quorum is the committee's voting threshold.
type Quorum struct {
	Numerator   int64 `json:"numerator"`
	Denominator int64 `json:"denominator"`
}

// CommitteeSeat is one member of Blockfrost's committee.
type CommitteeSeat struct {
	ColdID          string  `json:"cc_cold_id"`
	ColdHex         string  `json:"cc_cold_hex"`
	ColdHasScript   bool    `json:"cc_cold_has_script"`
	HotID           *string `json:"cc_hot_id"`
	HotHex          *string `json:"cc_hot_hex"`
	HotHasScript    *bool   `json:"cc_hot_has_script"`
	Status          string  `json:"status"`
	ExpirationEpoch int64   `json:"expiration_epoch"`
}

// Committee answers /governance/committee: the last seated committee
// (404 before Conway), its members by cold credential hex, each hot key
// only while authorised.
func (a *Answers) Committee(ctx context.Context, db *dbsync.DB) ([]byte, error) {
	return cached(ctx, a, db, "committee", nil, func(ctx context.Context, db *dbsync.DB) (CommitteeAnswer, error) {
		c, members, err := governance.CurrentCommittee(ctx, db)
		if errors.Is(err, dbsync.ErrNotFound) {
			err = answer.ErrNotFound
		}
		if err != nil {
			return CommitteeAnswer{}, err
		}
		out := CommitteeAnswer{ProposalTxHash: c.ProposalTxHash, ProposalIndex: c.ProposalIndex, IsDissolved: c.Dissolved,
			Quorum: Quorum{c.QuorumNumerator, c.QuorumDenominator}, Members: []CommitteeSeat{}}
		if c.ProposalTxHash != nil && c.ProposalIndex != nil {
			id := cardano.GovActionString(*c.ProposalTxHash, uint32(*c.ProposalIndex))
			out.GovActionID = &id
		}
		for _, m := range members {
			cold, _ := hex.DecodeString(m.ColdHex)
			seat := CommitteeSeat{ColdID: cardano.CommitteeString(false, cold, m.ColdScript), ColdHex: m.ColdHex,
				ColdHasScript: m.ColdScript, Status: m.Status(), ExpirationEpoch: m.ExpirationEpoch}
			if seat.Status == "authorized" {
				hot, _ := hex.DecodeString(m.HotHex)
				id, h, s := cardano.CommitteeString(true, hot, m.HotScript), m.HotHex, m.HotScript
				seat.HotID, seat.HotHex, seat.HotHasScript = &id, &h, &s
			}
			out.Members = append(out.Members, seat)
		}
		return out, nil
	})
}

// CommitteeVoteItem is Blockfrost's committee_votes item.
type CommitteeVoteItem struct {
	TxHash         string  `json:"tx_hash"`
	VoterHotID     string  `json:"voter_hot_id"`
	ProposalID     string  `json:"proposal_id"`
	ProposalTxHash string  `json:"proposal_tx_hash"`
	ProposalIndex  int64   `json:"proposal_index"`
	GovernanceType string  `json:"governance_type"`
	Vote           string  `json:"vote"`
	MetadataURL    *string `json:"metadata_url"`
	MetadataHash   *string `json:"metadata_hash"`
	BlockHeight    int64   `json:"block_height"`
	BlockTime      int64   `json:"block_time"`
}

func committeeVoteItem(v governance.CommitteeVote) CommitteeVoteItem {
	hot, _ := hex.DecodeString(v.HotHex)
	return CommitteeVoteItem{TxHash: v.TxHash, VoterHotID: cardano.CommitteeString(true, hot, v.HotScript),
		ProposalID: cardano.GovActionString(v.ProposalTxHash, uint32(v.ProposalIndex)), ProposalTxHash: v.ProposalTxHash,
		ProposalIndex: v.ProposalIndex, GovernanceType: governanceType(v.Type), Vote: v.Vote, MetadataURL: v.MetadataURL,
		MetadataHash: v.MetadataHash, BlockHeight: v.BlockHeight, BlockTime: v.BlockTime}
}

// CommitteeVotes answers /governance/committee/votes: every committee
// vote of every committee, in chain order.
func (a *Answers) CommitteeVotes(ctx context.Context, db *dbsync.DB, p Paging) ([]byte, error) {
	return a.govPage(ctx, db, []string{"committeevotes"}, p, nil, func(ctx context.Context, db *dbsync.DB, fn func(any) error) error {
		list, err := governance.CommitteeVotes(ctx, db)
		if err != nil {
			return err
		}
		for _, v := range list {
			if err := fn(committeeVoteItem(v)); err != nil {
				return err
			}
		}
		return nil
	})
}

// CommitteeMemberVotes answers /governance/committee/{cc_id}/votes: the
// votes of a hot credential, or of every hot key a cold one authorised;
// 404 for a credential db-sync has never seen.
func (a *Answers) CommitteeMemberVotes(ctx context.Context, db *dbsync.DB, c cardano.CommitteeID, p Paging) ([]byte, error) {
	id := cardano.CommitteeString(c.Hot, c.Hash[:], c.Script)
	return cached(ctx, a, db, "committeemembervotes", []string{id, p.key()}, func(ctx context.Context, db *dbsync.DB) ([]CommitteeVoteItem, error) {
		list, err := governance.MemberVotes(ctx, db, c.Hash[:], c.Script, c.Hot)
		if errors.Is(err, dbsync.ErrNotFound) {
			err = answer.ErrNotFound
		}
		if err != nil {
			return nil, err
		}
		page := pageOf(list, p)
		out := make([]CommitteeVoteItem, len(page))
		for i, v := range page {
			out[i] = committeeVoteItem(v)
		}
		return out, nil
	})
}
