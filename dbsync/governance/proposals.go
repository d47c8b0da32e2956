package governance

import (
	"context"
	"fmt"

	"github.com/lib/pq"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/dbsync/engine"
)

var (
	sqlProposals        = engine.Fixed("dbsync/gov_proposals.sql")
	sqlProposal         = engine.Fixed("dbsync/gov_proposal.sql")
	sqlParameters       = engine.Fixed("dbsync/gov_proposal_parameters.sql")
	sqlWithdrawals      = engine.Fixed("dbsync/gov_proposal_withdrawals.sql")
	sqlProposalVotes    = engine.Fixed("dbsync/gov_proposal_votes.sql")
	sqlProposalMetadata = engine.Fixed("dbsync/gov_proposal_metadata.sql")
	sqlCommittee        = engine.Fixed("dbsync/gov_committee.sql")
	sqlCommitteeMembers = engine.Fixed("dbsync/gov_committee_members.sql")
	sqlCommitteeVotes   = engine.Template("dbsync/gov_committee_votes.sql", engine.AlwaysGeneric, map[string]any{"Member": false})
	sqlMemberVotes      = engine.Template("dbsync/gov_committee_votes.sql", engine.AlwaysGeneric, map[string]any{"Member": true})
	sqlCommitteeHotIDs  = engine.Fixed("dbsync/gov_committee_hot_ids.sql")
)

// ProposalItem is one proposal of the list.
type ProposalItem struct {
	TxHash    string `db:"tx_hash"`
	CertIndex int64  `db:"cert_index"`
	Type      string `db:"type"`
}

// Proposals returns every proposal in chain order.
func Proposals(ctx context.Context, db *dbsync.DB) ([]ProposalItem, error) {
	out := []ProposalItem{}
	if err := db.Reader().Select(ctx, &out, sqlProposals); err != nil {
		return nil, fmt.Errorf("governance.Proposals: %w", engine.Classify(err))
	}
	return out, nil
}

// Proposal is one gov_action_proposal row.
type Proposal struct {
	ID             int64  `db:"id" json:"i"`
	TxHash         string `db:"tx_hash" json:"h"`
	CertIndex      int64  `db:"cert_index" json:"c"`
	Type           string `db:"type" json:"t"`
	Description    string `db:"description" json:"d"`
	Deposit        string `db:"deposit" json:"dp"`
	ReturnAddress  string `db:"return_address" json:"ra"`
	RatifiedEpoch  *int64 `db:"ratified_epoch" json:"re"`
	EnactedEpoch   *int64 `db:"enacted_epoch" json:"ee"`
	DroppedEpoch   *int64 `db:"dropped_epoch" json:"de"`
	ExpiredEpoch   *int64 `db:"expired_epoch" json:"xe"`
	Expiration     *int64 `db:"expiration" json:"x"`
	ParamProposal  *int64 `db:"param_proposal" json:"pp"`
	VotingAnchorID *int64 `db:"voting_anchor_id" json:"va"`
}

// FindProposal returns the proposal at index of transaction txHash, or
// dbsync.ErrNotFound.
func FindProposal(ctx context.Context, db *dbsync.DB, txHash []byte, index int64) (Proposal, error) {
	var rows []Proposal
	if err := db.Reader().Select(ctx, &rows, sqlProposal, txHash, index); err != nil {
		return Proposal{}, fmt.Errorf("governance.FindProposal: %w", engine.Classify(err))
	}
	if len(rows) == 0 {
		return Proposal{}, dbsync.ErrNotFound
	}
	return rows[0], nil
}

// Parameters returns the parameters a ParameterChange proposal sets, as
// a JSON object.
func Parameters(ctx context.Context, db *dbsync.DB, paramProposal int64) (string, error) {
	var rows []string
	if err := db.Reader().Select(ctx, &rows, sqlParameters, paramProposal); err != nil {
		return "", fmt.Errorf("governance.Parameters: %w", engine.Classify(err))
	}
	if len(rows) == 0 {
		return "", dbsync.ErrNotFound
	}
	return rows[0], nil
}

// Withdrawal is one treasury withdrawal a proposal asks for.
type Withdrawal struct {
	StakeAddress string `db:"stake_address" json:"stake_address"`
	Amount       string `db:"amount" json:"amount"`
}

// Withdrawals returns the proposal's withdrawals.
func Withdrawals(ctx context.Context, db *dbsync.DB, proposal int64) ([]Withdrawal, error) {
	out := []Withdrawal{}
	if err := db.Reader().Select(ctx, &out, sqlWithdrawals, proposal); err != nil {
		return nil, fmt.Errorf("governance.Withdrawals: %w", engine.Classify(err))
	}
	return out, nil
}

// Vote is one vote on a proposal, with its voter's identity columns.
type Vote struct {
	TxHash     string `db:"tx_hash"`
	CertIndex  int64  `db:"cert_index"`
	Role       string `db:"role"`
	DRepRaw    string `db:"drep_raw"`
	DRepView   string `db:"drep_view"`
	DRepScript bool   `db:"drep_script"`
	PoolView   string `db:"pool_view"`
	CCRaw      string `db:"cc_raw"`
	CCScript   bool   `db:"cc_script"`
	VoterID    int64  `db:"voter_id"`
	Vote       string `db:"vote"`
	Wiped      bool   `db:"wiped"`
}

// ProposalVotes returns the proposal's votes in chain order.
func ProposalVotes(ctx context.Context, db *dbsync.DB, proposal int64) ([]Vote, error) {
	out := []Vote{}
	if err := db.Reader().Select(ctx, &out, sqlProposalVotes, proposal); err != nil {
		return nil, fmt.Errorf("governance.ProposalVotes: %w", engine.Classify(err))
	}
	return out, nil
}

// ProposalAnchor returns the proposal's anchor, or dbsync.ErrNotFound
// when it has none.
func ProposalAnchor(ctx context.Context, db *dbsync.DB, proposal int64) (Anchor, error) {
	var rows []Anchor
	if err := db.Reader().Select(ctx, &rows, sqlProposalMetadata, proposal); err != nil {
		return Anchor{}, fmt.Errorf("governance.ProposalAnchor: %w", engine.Classify(err))
	}
	if len(rows) == 0 {
		return Anchor{}, dbsync.ErrNotFound
	}
	return rows[0], nil
}

// Committee is the last seated committee.
type Committee struct {
	ID                int64   `db:"id"`
	QuorumNumerator   int64   `db:"quorum_numerator"`
	QuorumDenominator int64   `db:"quorum_denominator"`
	ProposalTxHash    *string `db:"proposal_tx_hash"`
	ProposalIndex     *int64  `db:"proposal_index"`
	Dissolved         bool    `db:"dissolved"`
}

// Member is a committee member with its latest authorisation and
// resignation.
type Member struct {
	ColdHex         string `db:"cold_hex"`
	ColdScript      bool   `db:"cold_script"`
	ExpirationEpoch int64  `db:"expiration_epoch"`
	RegTxID         *int64 `db:"reg_tx_id"`
	RegCertIndex    *int64 `db:"reg_cert_index"`
	HotHex          string `db:"hot_hex"`
	HotScript       bool   `db:"hot_script"`
	DeregTxID       *int64 `db:"dereg_tx_id"`
	DeregCertIndex  *int64 `db:"dereg_cert_index"`
}

// Status is Blockfrost's member status: never authorised, authorised (a
// hot key newer than any resignation) or resigned.
func (m Member) Status() string {
	switch {
	case m.RegTxID == nil:
		return "not_authorized"
	case m.DeregTxID == nil:
		return "authorized"
	case *m.RegTxID > *m.DeregTxID || (*m.RegTxID == *m.DeregTxID && *m.RegCertIndex > *m.DeregCertIndex):
		return "authorized"
	default:
		return "resigned"
	}
}

// CurrentCommittee returns the last seated committee and its members in
// one snapshot, or dbsync.ErrNotFound before Conway.
func CurrentCommittee(ctx context.Context, db *dbsync.DB) (Committee, []Member, error) {
	var cs []Committee
	members := []Member{}
	err := db.ReadTx(ctx, func(tx *dbsync.Snapshot) error {
		if err := tx.SelectContext(ctx, &cs, sqlCommittee); err != nil || len(cs) == 0 {
			return err
		}
		return tx.SelectContext(ctx, &members, sqlCommitteeMembers, cs[0].ID)
	})
	if err != nil {
		return Committee{}, nil, fmt.Errorf("governance.CurrentCommittee: %w", engine.Classify(err))
	}
	if len(cs) == 0 {
		return Committee{}, nil, dbsync.ErrNotFound
	}
	return cs[0], members, nil
}

// CommitteeVote is one committee vote.
type CommitteeVote struct {
	TxHash         string  `db:"tx_hash"`
	HotHex         string  `db:"hot_hex"`
	HotScript      bool    `db:"hot_script"`
	ProposalTxHash string  `db:"proposal_tx_hash"`
	ProposalIndex  int64   `db:"proposal_index"`
	Type           string  `db:"type"`
	Vote           string  `db:"vote"`
	MetadataURL    *string `db:"metadata_url"`
	MetadataHash   *string `db:"metadata_hash"`
	BlockHeight    int64   `db:"block_height"`
	BlockTime      int64   `db:"block_time"`
}

// CommitteeVotes returns every committee vote in chain order.
func CommitteeVotes(ctx context.Context, db *dbsync.DB) ([]CommitteeVote, error) {
	out := []CommitteeVote{}
	if err := db.Reader().Select(ctx, &out, db.SQL(sqlCommitteeVotes)); err != nil {
		return nil, fmt.Errorf("governance.CommitteeVotes: %w", engine.Classify(err))
	}
	return out, nil
}

// MemberVotes returns the votes of a committee credential (raw hash,
// script, hot or cold: a cold one's are those of every hot key it
// authorised) in chain order, or dbsync.ErrNotFound for a credential
// db-sync has never seen; in one snapshot.
func MemberVotes(ctx context.Context, db *dbsync.DB, raw []byte, script, hot bool) ([]CommitteeVote, error) {
	out := []CommitteeVote{}
	var ids []struct {
		Known bool          `db:"known"`
		IDs   pq.Int64Array `db:"hot_ids"`
	}
	err := db.ReadTx(ctx, func(tx *dbsync.Snapshot) error {
		if err := tx.SelectContext(ctx, &ids, sqlCommitteeHotIDs, raw, script, hot); err != nil || len(ids) == 0 || !ids[0].Known {
			return err
		}
		return tx.SelectContext(ctx, &out, db.SQL(sqlMemberVotes), pq.Array([]int64(ids[0].IDs)))
	})
	if err != nil {
		return nil, fmt.Errorf("governance.MemberVotes: %w", engine.Classify(err))
	}
	if len(ids) == 0 || !ids[0].Known {
		return nil, dbsync.ErrNotFound
	}
	return out, nil
}
