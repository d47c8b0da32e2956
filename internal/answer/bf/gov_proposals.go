package bf

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"unicode"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/dbsync/governance"
	"github.com/syncgate/syncgate/internal/answer"
	"github.com/syncgate/syncgate/internal/cardano"
)

// ProposalItem is Blockfrost's proposals item.
type ProposalItem struct {
	ID             string `json:"id"`
	TxHash         string `json:"tx_hash"`
	CertIndex      int64  `json:"cert_index"`
	GovernanceType string `json:"governance_type"`
}

// governanceType is db-sync's govactiontype in Blockfrost's spelling
// (ParameterChange: parameter_change).
func governanceType(t string) string {
	var b strings.Builder
	for i, r := range t {
		if unicode.IsUpper(r) {
			if i > 0 {
				b.WriteByte('_')
			}
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

// Proposals answers /governance/proposals: every proposal in chain order.
func (a *Answers) Proposals(ctx context.Context, db *dbsync.DB, p Paging) ([]byte, error) {
	return a.govPage(ctx, db, []string{"proposals"}, p, nil, func(ctx context.Context, db *dbsync.DB, fn func(any) error) error {
		list, err := governance.Proposals(ctx, db)
		if err != nil {
			return err
		}
		for _, g := range list {
			if err := fn(ProposalItem{ID: cardano.GovActionString(g.TxHash, uint32(g.CertIndex)), TxHash: g.TxHash,
				CertIndex: g.CertIndex, GovernanceType: governanceType(g.Type)}); err != nil {
				return err
			}
		}
		return nil
	})
}

// proposal is the proposal g, or answer.ErrNotFound.
func proposal(ctx context.Context, db *dbsync.DB, g cardano.GovActionID) (governance.Proposal, error) {
	pr, err := governance.FindProposal(ctx, db, g.TxHash[:], int64(g.Index))
	if errors.Is(err, dbsync.ErrNotFound) {
		err = answer.ErrNotFound
	}
	return pr, err
}

func proposalKey(g cardano.GovActionID) string {
	return hex.EncodeToString(g.TxHash[:]) + ":" + strconv.FormatUint(uint64(g.Index), 10)
}

// ProposalAnswer is Blockfrost's proposal.
type ProposalAnswer struct {
	ID                    string          `json:"id"`
	TxHash                string          `json:"tx_hash"`
	CertIndex             int64           `json:"cert_index"`
	GovernanceType        string          `json:"governance_type"`
	GovernanceDescription json.RawMessage `json:"governance_description"`
	Deposit               string          `json:"deposit"`
	ReturnAddress         string          `json:"return_address"`
	RatifiedEpoch         *int64          `json:"ratified_epoch"`
	EnactedEpoch          *int64          `json:"enacted_epoch"`
	DroppedEpoch          *int64          `json:"dropped_epoch"`
	ExpiredEpoch          *int64          `json:"expired_epoch"`
	Expiration            *int64          `json:"expiration"`
}

// Proposal answers /governance/proposals/{tx_hash}/{cert_index} and
// /governance/proposals/{gov_action_id}.
func (a *Answers) Proposal(ctx context.Context, db *dbsync.DB, g cardano.GovActionID) ([]byte, error) {
	return cached(ctx, a, db, "proposal", []string{proposalKey(g)}, func(ctx context.Context, db *dbsync.DB) (ProposalAnswer, error) {
		pr, err := proposal(ctx, db, g)
		if err != nil {
			return ProposalAnswer{}, err
		}
		desc := json.RawMessage("null")
		if json.Valid([]byte(pr.Description)) {
			desc = json.RawMessage(pr.Description)
		}
		return ProposalAnswer{ID: g.String(), TxHash: pr.TxHash, CertIndex: pr.CertIndex, GovernanceType: governanceType(pr.Type),
			GovernanceDescription: desc, Deposit: pr.Deposit, ReturnAddress: pr.ReturnAddress, RatifiedEpoch: pr.RatifiedEpoch,
			EnactedEpoch: pr.EnactedEpoch, DroppedEpoch: pr.DroppedEpoch, ExpiredEpoch: pr.ExpiredEpoch, Expiration: pr.Expiration}, nil
	})
}

// ProposalParametersAnswer is Blockfrost's proposal_parameters.
type ProposalParametersAnswer struct {
	ID         string          `json:"id"`
	TxHash     string          `json:"tx_hash"`
	CertIndex  int64           `json:"cert_index"`
	Parameters json.RawMessage `json:"parameters"`
}

// ProposalParameters answers …/parameters: the parameters a
// ParameterChange proposal sets (404 for other kinds).
func (a *Answers) ProposalParameters(ctx context.Context, db *dbsync.DB, g cardano.GovActionID) ([]byte, error) {
	return cached(ctx, a, db, "proposalparameters", []string{proposalKey(g)}, func(ctx context.Context, db *dbsync.DB) (ProposalParametersAnswer, error) {
		pr, err := proposal(ctx, db, g)
		if err == nil && pr.ParamProposal == nil {
			err = answer.ErrNotFound
		}
		if err != nil {
			return ProposalParametersAnswer{}, err
		}
		params, err := governance.Parameters(ctx, db, *pr.ParamProposal)
		if errors.Is(err, dbsync.ErrNotFound) {
			err = answer.ErrNotFound
		}
		if err != nil {
			return ProposalParametersAnswer{}, err
		}
		return ProposalParametersAnswer{ID: g.String(), TxHash: pr.TxHash, CertIndex: pr.CertIndex, Parameters: json.RawMessage(params)}, nil
	})
}

// ProposalWithdrawals answers …/withdrawals: the withdrawals a
// TreasuryWithdrawals proposal asks for (a proposal of another kind has
// none).
func (a *Answers) ProposalWithdrawals(ctx context.Context, db *dbsync.DB, g cardano.GovActionID, p Paging) ([]byte, error) {
	return cached(ctx, a, db, "proposalwithdrawals", []string{proposalKey(g), p.key()}, func(ctx context.Context, db *dbsync.DB) ([]governance.Withdrawal, error) {
		pr, err := proposal(ctx, db, g)
		if err != nil {
			return nil, err
		}
		list, err := governance.Withdrawals(ctx, db, pr.ID)
		if err != nil {
			return nil, err
		}
		return pageOf(list, p), nil
	})
}

// ProposalVoteItem is Blockfrost's proposal_votes item.
type ProposalVoteItem struct {
	TxHash    string `json:"tx_hash"`
	CertIndex int64  `json:"cert_index"`
	VoterRole string `json:"voter_role"`
	Voter     string `json:"voter"`
	Vote      string `json:"vote"`
	Counted   bool   `json:"counted"`
}

// ProposalVotes answers …/votes: the votes in chain order, each voter in
// CIP-129 (drep1…, cc_hot1…) or pool1…, counted when it is its voter's
// latest vote on the proposal and was not wiped (invalid, or a DRep's
// vote undone by its deregistration while the proposal was live).
func (a *Answers) ProposalVotes(ctx context.Context, db *dbsync.DB, g cardano.GovActionID, p Paging) ([]byte, error) {
	known := func(ctx context.Context) error { _, err := proposal(ctx, db, g); return err }
	return a.govPage(ctx, db, []string{"proposalvotes", proposalKey(g)}, p, known, func(ctx context.Context, db *dbsync.DB, fn func(any) error) error {
		pr, err := proposal(ctx, db, g)
		if errors.Is(err, answer.ErrNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		votes, err := governance.ProposalVotes(ctx, db, pr.ID)
		if err != nil {
			return err
		}
		latest := map[string]int{}
		for i, v := range votes {
			latest[v.Role+":"+strconv.FormatInt(v.VoterID, 10)] = i
		}
		for i, v := range votes {
			item := ProposalVoteItem{TxHash: v.TxHash, CertIndex: v.CertIndex, Vote: v.Vote,
				Counted: !v.Wiped && latest[v.Role+":"+strconv.FormatInt(v.VoterID, 10)] == i}
			switch v.Role {
			case "DRep":
				item.VoterRole, item.Voter = "drep", v.DRepView
				if raw, err := hex.DecodeString(v.DRepRaw); err == nil && len(raw) == 28 {
					item.Voter = cardano.DRepCIP129(raw, v.DRepScript)
				}
			case "SPO":
				item.VoterRole, item.Voter = "spo", v.PoolView
			default:
				item.VoterRole = "constitutional_committee"
				if raw, err := hex.DecodeString(v.CCRaw); err == nil {
					item.Voter = cardano.CommitteeString(true, raw, v.CCScript)
				}
			}
			if err := fn(item); err != nil {
				return err
			}
		}
		return nil
	})
}

// ProposalMetadataAnswer is Blockfrost's proposal_metadata_v2 (and, with
// a fetched document, proposal_metadata).
type ProposalMetadataAnswer struct {
	ID        string `json:"id"`
	TxHash    string `json:"tx_hash"`
	CertIndex int64  `json:"cert_index"`
	AnchorAnswer
}

// ProposalMetadata answers …/metadata: the proposal's anchor and its
// document. By {gov_action_id} (v2) an anchor whose document was not
// fetched is answered with the fetch error; by {tx_hash}/{cert_index}
// it is a 404 (Blockfrost's proposal_metadata requires the document).
func (a *Answers) ProposalMetadata(ctx context.Context, db *dbsync.DB, g cardano.GovActionID, v2 bool) ([]byte, error) {
	route := "proposalmetadata"
	if v2 {
		route += "v2"
	}
	return cached(ctx, a, db, route, []string{proposalKey(g)}, func(ctx context.Context, db *dbsync.DB) (ProposalMetadataAnswer, error) {
		pr, err := proposal(ctx, db, g)
		if err != nil {
			return ProposalMetadataAnswer{}, err
		}
		an, err := governance.ProposalAnchor(ctx, db, pr.ID)
		if err == nil && !v2 && an.JSON == nil {
			err = dbsync.ErrNotFound
		}
		if errors.Is(err, dbsync.ErrNotFound) {
			err = answer.ErrNotFound
		}
		if err != nil {
			return ProposalMetadataAnswer{}, err
		}
		return ProposalMetadataAnswer{ID: g.String(), TxHash: pr.TxHash, CertIndex: pr.CertIndex, AnchorAnswer: anchorAnswer(an)}, nil
	})
}
