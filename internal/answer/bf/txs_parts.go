package bf

import (
	"context"
	"encoding/json"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/dbsync/txs"
	"github.com/syncgate/syncgate/internal/cardano"
)

// The lists a transaction holds besides its inputs and outputs, each in
// Blockfrost's shape (tx_content_*): an empty list for a transaction
// without any, a 404 for an unknown one.

// listOf converts a store's rows.
func listOf[R, T any](rows []R, err error, conv func(R) T) ([]T, error) {
	if err != nil {
		return nil, err
	}
	out := make([]T, len(rows))
	for i, r := range rows {
		out[i] = conv(r)
	}
	return out, nil
}

// TxStake is one of tx_content_stake_addr.
type TxStake struct {
	CertIndex    int64  `json:"cert_index"`
	Address      string `json:"address"`
	Registration bool   `json:"registration"`
}

// TxStakes answers /txs/{hash}/stakes.
func (a *Answers) TxStakes(ctx context.Context, db *dbsync.DB, hash cardano.TxHash) ([]byte, error) {
	return tx(ctx, a, db, "stakes", hash, nil, func(ctx context.Context, db *dbsync.DB) ([]TxStake, error) {
		rows, err := txs.Stakes(ctx, db, hash)
		return listOf(rows, err, func(r txs.StakeCert) TxStake {
			return TxStake{CertIndex: *r.CertIndex, Address: str(r.Address), Registration: *r.Registration}
		})
	})
}

// TxDelegation is one of tx_content_delegations (index: the deprecated
// name of cert_index).
type TxDelegation struct {
	Index       int64  `json:"index"`
	CertIndex   int64  `json:"cert_index"`
	Address     string `json:"address"`
	PoolID      string `json:"pool_id"`
	ActiveEpoch int64  `json:"active_epoch"`
}

// TxDelegations answers /txs/{hash}/delegations.
func (a *Answers) TxDelegations(ctx context.Context, db *dbsync.DB, hash cardano.TxHash) ([]byte, error) {
	return tx(ctx, a, db, "delegations", hash, nil, func(ctx context.Context, db *dbsync.DB) ([]TxDelegation, error) {
		rows, err := txs.Delegations(ctx, db, hash)
		return listOf(rows, err, func(r txs.Delegation) TxDelegation {
			return TxDelegation{Index: *r.CertIndex, CertIndex: *r.CertIndex, Address: str(r.Address), PoolID: str(r.PoolID),
				ActiveEpoch: num(r.ActiveEpoch)}
		})
	})
}

// TxWithdrawal is one of tx_content_withdrawals.
type TxWithdrawal struct {
	Address string `json:"address"`
	Amount  string `json:"amount"`
}

// TxWithdrawals answers /txs/{hash}/withdrawals.
func (a *Answers) TxWithdrawals(ctx context.Context, db *dbsync.DB, hash cardano.TxHash) ([]byte, error) {
	return tx(ctx, a, db, "withdrawals", hash, nil, func(ctx context.Context, db *dbsync.DB) ([]TxWithdrawal, error) {
		rows, err := txs.Withdrawals(ctx, db, hash)
		return listOf(rows, err, func(r txs.Withdrawal) TxWithdrawal {
			return TxWithdrawal{Address: str(r.Address), Amount: *r.Amount}
		})
	})
}

// TxMIR is one of tx_content_mirs.
type TxMIR struct {
	Pot       string `json:"pot"`
	CertIndex int64  `json:"cert_index"`
	Address   string `json:"address"`
	Amount    string `json:"amount"`
}

// TxMIRs answers /txs/{hash}/mirs.
func (a *Answers) TxMIRs(ctx context.Context, db *dbsync.DB, hash cardano.TxHash) ([]byte, error) {
	return tx(ctx, a, db, "mirs", hash, nil, func(ctx context.Context, db *dbsync.DB) ([]TxMIR, error) {
		rows, err := txs.MIRs(ctx, db, hash)
		return listOf(rows, err, func(r txs.MIR) TxMIR {
			return TxMIR{Pot: *r.Pot, CertIndex: num(r.CertIndex), Address: str(r.Address), Amount: str(r.Amount)}
		})
	})
}

// TxPoolUpdate is one of tx_content_pool_certs.
type TxPoolUpdate struct {
	CertIndex     int64        `json:"cert_index"`
	PoolID        string       `json:"pool_id"`
	VRFKey        string       `json:"vrf_key"`
	Pledge        string       `json:"pledge"`
	MarginCost    float64      `json:"margin_cost"`
	FixedCost     string       `json:"fixed_cost"`
	RewardAccount string       `json:"reward_account"`
	Owners        []string     `json:"owners"`
	Metadata      PoolCertMeta `json:"metadata"`
	Relays        []txs.Relay  `json:"relays"`
	ActiveEpoch   int64        `json:"active_epoch"`
}

// PoolCertMeta is a pool certificate's metadata: its reference (url,
// hash; null when the certificate names none) and what db-sync fetched
// from it (null when it did not).
type PoolCertMeta struct {
	URL         *string `json:"url"`
	Hash        *string `json:"hash"`
	Ticker      *string `json:"ticker"`
	Name        *string `json:"name"`
	Description *string `json:"description"`
	Homepage    *string `json:"homepage"`
}

// TxPoolUpdates answers /txs/{hash}/pool_updates.
func (a *Answers) TxPoolUpdates(ctx context.Context, db *dbsync.DB, hash cardano.TxHash) ([]byte, error) {
	return tx(ctx, a, db, "pool_updates", hash, nil, func(ctx context.Context, db *dbsync.DB) ([]TxPoolUpdate, error) {
		rows, err := txs.PoolUpdates(ctx, db, hash)
		return listOf(rows, err, func(u txs.PoolUpdate) TxPoolUpdate {
			return TxPoolUpdate{CertIndex: u.CertIndex, PoolID: u.PoolID, VRFKey: u.VRFKey, Pledge: u.Pledge,
				MarginCost: u.Margin, FixedCost: u.FixedCost, RewardAccount: u.RewardAccount, Owners: u.Owners,
				Metadata: PoolCertMeta{URL: u.MetadataURL, Hash: u.MetadataHash, Ticker: u.Ticker, Name: u.Name,
					Description: u.Description, Homepage: u.Homepage},
				Relays: u.Relays, ActiveEpoch: u.ActiveEpoch}
		})
	})
}

// TxPoolRetire is one of tx_content_pool_retires.
type TxPoolRetire struct {
	CertIndex     int64  `json:"cert_index"`
	PoolID        string `json:"pool_id"`
	RetiringEpoch int64  `json:"retiring_epoch"`
}

// TxPoolRetires answers /txs/{hash}/pool_retires.
func (a *Answers) TxPoolRetires(ctx context.Context, db *dbsync.DB, hash cardano.TxHash) ([]byte, error) {
	return tx(ctx, a, db, "pool_retires", hash, nil, func(ctx context.Context, db *dbsync.DB) ([]TxPoolRetire, error) {
		rows, err := txs.PoolRetires(ctx, db, hash)
		return listOf(rows, err, func(r txs.PoolRetire) TxPoolRetire {
			return TxPoolRetire{CertIndex: *r.CertIndex, PoolID: str(r.PoolID), RetiringEpoch: num(r.RetiringEpoch)}
		})
	})
}

// TxMetadatum is one of tx_content_metadata: the value as db-sync renders
// it in JSON (null when it has none).
type TxMetadatum struct {
	Label        string          `json:"label"`
	JSONMetadata json.RawMessage `json:"json_metadata"`
}

// TxMetadata answers /txs/{hash}/metadata.
func (a *Answers) TxMetadata(ctx context.Context, db *dbsync.DB, hash cardano.TxHash) ([]byte, error) {
	return tx(ctx, a, db, "metadata", hash, nil, func(ctx context.Context, db *dbsync.DB) ([]TxMetadatum, error) {
		rows, err := txs.Metadata(ctx, db, hash)
		return listOf(rows, err, func(m txs.Metadatum) TxMetadatum {
			v := json.RawMessage("null")
			if m.JSON != nil {
				v = json.RawMessage(*m.JSON)
			}
			return TxMetadatum{Label: *m.Label, JSONMetadata: v}
		})
	})
}

// TxMetadatumCBOR is one of tx_content_metadata_cbor: metadata is the
// CBOR in hex, cbor_metadata (deprecated) the same as PostgreSQL prints
// bytes ("\x…").
type TxMetadatumCBOR struct {
	Label        string `json:"label"`
	CBORMetadata string `json:"cbor_metadata"`
	Metadata     string `json:"metadata"`
}

// TxMetadataCBOR answers /txs/{hash}/metadata/cbor.
func (a *Answers) TxMetadataCBOR(ctx context.Context, db *dbsync.DB, hash cardano.TxHash) ([]byte, error) {
	return tx(ctx, a, db, "metadata_cbor", hash, nil, func(ctx context.Context, db *dbsync.DB) ([]TxMetadatumCBOR, error) {
		rows, err := txs.Metadata(ctx, db, hash)
		return listOf(rows, err, func(m txs.Metadatum) TxMetadatumCBOR {
			return TxMetadatumCBOR{Label: *m.Label, CBORMetadata: `\x` + str(m.CBOR), Metadata: str(m.CBOR)}
		})
	})
}

// TxRedeemer is one of tx_content_redeemers (datum_hash: the deprecated
// name of redeemer_data_hash).
type TxRedeemer struct {
	TxIndex          int64   `json:"tx_index"`
	Purpose          string  `json:"purpose"`
	ScriptHash       *string `json:"script_hash"`
	RedeemerDataHash string  `json:"redeemer_data_hash"`
	DatumHash        string  `json:"datum_hash"`
	UnitMem          string  `json:"unit_mem"`
	UnitSteps        string  `json:"unit_steps"`
	Fee              string  `json:"fee"`
}

// TxRedeemers answers /txs/{hash}/redeemers.
func (a *Answers) TxRedeemers(ctx context.Context, db *dbsync.DB, hash cardano.TxHash) ([]byte, error) {
	return tx(ctx, a, db, "redeemers", hash, nil, func(ctx context.Context, db *dbsync.DB) ([]TxRedeemer, error) {
		rows, err := txs.Redeemers(ctx, db, hash)
		return listOf(rows, err, func(r txs.Redeemer) TxRedeemer {
			fee := "0"
			if r.Fee != nil {
				fee = *r.Fee
			}
			return TxRedeemer{TxIndex: num(r.TxIndex), Purpose: *r.Purpose, ScriptHash: r.ScriptHash,
				RedeemerDataHash: str(r.DataHash), DatumHash: str(r.DataHash), UnitMem: str(r.UnitMem),
				UnitSteps: str(r.UnitSteps), Fee: fee}
		})
	})
}

// TxRequiredSigner is one of tx_content_required_signers.
type TxRequiredSigner struct {
	WitnessHash string `json:"witness_hash"`
}

// TxRequiredSigners answers /txs/{hash}/required_signers.
func (a *Answers) TxRequiredSigners(ctx context.Context, db *dbsync.DB, hash cardano.TxHash) ([]byte, error) {
	return tx(ctx, a, db, "required_signers", hash, nil, func(ctx context.Context, db *dbsync.DB) ([]TxRequiredSigner, error) {
		rows, err := txs.RequiredSigners(ctx, db, hash)
		return listOf(rows, err, func(h string) TxRequiredSigner { return TxRequiredSigner{WitnessHash: h} })
	})
}

// str and num read a column the statement's joins make nullable but
// db-sync always fills.
func str(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func num(n *int64) int64 {
	if n == nil {
		return 0
	}
	return *n
}
