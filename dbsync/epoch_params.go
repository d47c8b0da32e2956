package dbsync

import (
	"context"
	"errors"
	"fmt"
)

var sqlEpochParams = load("dbsync/epoch_params.sql")

// EpochParams is one epoch_param row with its cost models: the protocol
// parameters in force in Epoch. Amounts and word64 figures are decimal
// text (exact); a nil pointer is a NULL column (a parameter the epoch's
// era does not have).
type EpochParams struct {
	Epoch              int64   `db:"epoch_no"`
	MinFeeA            int64   `db:"min_fee_a"`
	MinFeeB            int64   `db:"min_fee_b"`
	MaxBlockSize       int64   `db:"max_block_size"`
	MaxTxSize          int64   `db:"max_tx_size"`
	MaxBlockHeaderSize int64   `db:"max_bh_size"`
	KeyDeposit         string  `db:"key_deposit"`
	PoolDeposit        string  `db:"pool_deposit"`
	MaxEpoch           int64   `db:"max_epoch"`
	OptimalPoolCount   int64   `db:"optimal_pool_count"`
	Influence          float64 `db:"influence"`
	MonetaryExpandRate float64 `db:"monetary_expand_rate"`
	TreasuryGrowthRate float64 `db:"treasury_growth_rate"`
	Decentralisation   float64 `db:"decentralisation"`
	ExtraEntropy       *string `db:"extra_entropy"`
	ProtocolMajor      int64   `db:"protocol_major"`
	ProtocolMinor      int64   `db:"protocol_minor"`
	MinUTxOValue       string  `db:"min_utxo_value"`
	MinPoolCost        string  `db:"min_pool_cost"`
	Nonce              *string `db:"nonce"`
	// CostModels is cost_model.costs as db-sync wrote it: a JSON object by
	// language (PlutusV1…), each an array of costs or, from older db-sync
	// versions, an object of named costs.
	CostModels          *string  `db:"cost_models"`
	PriceMem            *float64 `db:"price_mem"`
	PriceStep           *float64 `db:"price_step"`
	MaxTxExMem          *string  `db:"max_tx_ex_mem"`
	MaxTxExSteps        *string  `db:"max_tx_ex_steps"`
	MaxBlockExMem       *string  `db:"max_block_ex_mem"`
	MaxBlockExSteps     *string  `db:"max_block_ex_steps"`
	MaxValSize          *string  `db:"max_val_size"`
	CollateralPercent   *int64   `db:"collateral_percent"`
	MaxCollateralInputs *int64   `db:"max_collateral_inputs"`
	CoinsPerUTxOSize    *string  `db:"coins_per_utxo_size"`

	// Conway: pool (pvt) and DRep (dvt) voting thresholds, governance.
	PvtMotionNoConfidence      *float64 `db:"pvt_motion_no_confidence"`
	PvtCommitteeNormal         *float64 `db:"pvt_committee_normal"`
	PvtCommitteeNoConfidence   *float64 `db:"pvt_committee_no_confidence"`
	PvtHardForkInitiation      *float64 `db:"pvt_hard_fork_initiation"`
	PvtPPSecurityGroup         *float64 `db:"pvtpp_security_group"`
	DvtMotionNoConfidence      *float64 `db:"dvt_motion_no_confidence"`
	DvtCommitteeNormal         *float64 `db:"dvt_committee_normal"`
	DvtCommitteeNoConfidence   *float64 `db:"dvt_committee_no_confidence"`
	DvtUpdateToConstitution    *float64 `db:"dvt_update_to_constitution"`
	DvtHardForkInitiation      *float64 `db:"dvt_hard_fork_initiation"`
	DvtPPNetworkGroup          *float64 `db:"dvt_p_p_network_group"`
	DvtPPEconomicGroup         *float64 `db:"dvt_p_p_economic_group"`
	DvtPPTechnicalGroup        *float64 `db:"dvt_p_p_technical_group"`
	DvtPPGovGroup              *float64 `db:"dvt_p_p_gov_group"`
	DvtTreasuryWithdrawal      *float64 `db:"dvt_treasury_withdrawal"`
	CommitteeMinSize           *string  `db:"committee_min_size"`
	CommitteeMaxTermLength     *string  `db:"committee_max_term_length"`
	GovActionLifetime          *string  `db:"gov_action_lifetime"`
	GovActionDeposit           *string  `db:"gov_action_deposit"`
	DRepDeposit                *string  `db:"drep_deposit"`
	DRepActivity               *string  `db:"drep_activity"`
	MinFeeRefScriptCostPerByte *float64 `db:"min_fee_ref_script_cost_per_byte"`
}

// EpochParamsAtOrBefore returns the newest epoch parameters of an epoch
// at or before epoch: those of epoch itself when db-sync has them (check
// Epoch). None at all is ErrNotFound (Byron epochs, or a db-sync that
// keeps no ledger state).
func (db *DB) EpochParamsAtOrBefore(ctx context.Context, epoch int64) (EpochParams, error) {
	var p EpochParams
	if err := db.get(ctx, &p, sqlEpochParams, epoch); err != nil {
		if err = classify(err); errors.Is(err, ErrNotFound) {
			return EpochParams{}, err
		}
		return EpochParams{}, fmt.Errorf("dbsync.EpochParamsAtOrBefore(%d): %w", epoch, err)
	}
	return p, nil
}
