package answer

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/answer/wire"
	"github.com/syncgate/syncgate/internal/cardano"
)

// epochParamsTTL is how long an epoch's parameters are kept: they never
// change once the epoch has begun (a rollback across its first block
// writes the same row again), so only memory bounds it.
const epochParamsTTL = 24 * time.Hour

// epochParamsPendingTTL is how long /latest keeps an earlier epoch's
// parameters while the tip's epoch has no row yet.
const epochParamsPendingTTL = 5 * time.Second

// EpochOutOfRangeError is an epoch beyond the next one: no chain can have
// its parameters yet. Max is the highest epoch that may be asked for (the
// current epoch + 1).
type EpochOutOfRangeError struct{ Max int64 }

func (e *EpochOutOfRangeError) Error() string {
	return fmt.Sprintf("answer: epoch beyond %d", e.Max)
}

// epochParamsData is GET /v1/epochs/:epoch/parameters: Blockfrost's
// epoch_param_content, its names and types. Lovelace amounts and word64
// figures (execution units, value size, governance counts) are decimal
// strings, word31 figures integers, ratios numbers; a parameter the
// epoch's era does not have is null.
type epochParamsData struct {
	Epoch                    int64           `json:"epoch"`
	MinFeeA                  int64           `json:"min_fee_a"`
	MinFeeB                  int64           `json:"min_fee_b"`
	MaxBlockSize             int64           `json:"max_block_size"`
	MaxTxSize                int64           `json:"max_tx_size"`
	MaxBlockHeaderSize       int64           `json:"max_block_header_size"`
	KeyDeposit               string          `json:"key_deposit"`
	PoolDeposit              string          `json:"pool_deposit"`
	EMax                     int64           `json:"e_max"`
	NOpt                     int64           `json:"n_opt"`
	A0                       float64         `json:"a0"`
	Rho                      float64         `json:"rho"`
	Tau                      float64         `json:"tau"`
	DecentralisationParam    float64         `json:"decentralisation_param"`
	ExtraEntropy             *string         `json:"extra_entropy"`
	ProtocolMajorVer         int64           `json:"protocol_major_ver"`
	ProtocolMinorVer         int64           `json:"protocol_minor_ver"`
	MinUTxO                  string          `json:"min_utxo"`
	MinPoolCost              string          `json:"min_pool_cost"`
	Nonce                    *string         `json:"nonce"`
	CostModels               json.RawMessage `json:"cost_models"`
	CostModelsRaw            json.RawMessage `json:"cost_models_raw"`
	PriceMem                 *float64        `json:"price_mem"`
	PriceStep                *float64        `json:"price_step"`
	MaxTxExMem               *string         `json:"max_tx_ex_mem"`
	MaxTxExSteps             *string         `json:"max_tx_ex_steps"`
	MaxBlockExMem            *string         `json:"max_block_ex_mem"`
	MaxBlockExSteps          *string         `json:"max_block_ex_steps"`
	MaxValSize               *string         `json:"max_val_size"`
	CollateralPercent        *int64          `json:"collateral_percent"`
	MaxCollateralInputs      *int64          `json:"max_collateral_inputs"`
	CoinsPerUTxOSize         *string         `json:"coins_per_utxo_size"`
	CoinsPerUTxOWord         *string         `json:"coins_per_utxo_word"`
	PvtMotionNoConfidence    *float64        `json:"pvt_motion_no_confidence"`
	PvtCommitteeNormal       *float64        `json:"pvt_committee_normal"`
	PvtCommitteeNoConfidence *float64        `json:"pvt_committee_no_confidence"`
	PvtHardForkInitiation    *float64        `json:"pvt_hard_fork_initiation"`
	DvtMotionNoConfidence    *float64        `json:"dvt_motion_no_confidence"`
	DvtCommitteeNormal       *float64        `json:"dvt_committee_normal"`
	DvtCommitteeNoConfidence *float64        `json:"dvt_committee_no_confidence"`
	DvtUpdateToConstitution  *float64        `json:"dvt_update_to_constitution"`
	DvtHardForkInitiation    *float64        `json:"dvt_hard_fork_initiation"`
	DvtPPNetworkGroup        *float64        `json:"dvt_p_p_network_group"`
	DvtPPEconomicGroup       *float64        `json:"dvt_p_p_economic_group"`
	DvtPPTechnicalGroup      *float64        `json:"dvt_p_p_technical_group"`
	DvtPPGovGroup            *float64        `json:"dvt_p_p_gov_group"`
	DvtTreasuryWithdrawal    *float64        `json:"dvt_treasury_withdrawal"`
	CommitteeMinSize         *string         `json:"committee_min_size"`
	CommitteeMaxTermLength   *string         `json:"committee_max_term_length"`
	GovActionLifetime        *string         `json:"gov_action_lifetime"`
	GovActionDeposit         *string         `json:"gov_action_deposit"`
	DRepDeposit              *string         `json:"drep_deposit"`
	DRepActivity             *string         `json:"drep_activity"`
	// Blockfrost keeps the old name of the security-group threshold
	// beside the new one; both carry the same value.
	PvtppSecurityGroup         *float64 `json:"pvtpp_security_group"`
	PvtPPSecurityGroup         *float64 `json:"pvt_p_p_security_group"`
	MinFeeRefScriptCostPerByte *float64 `json:"min_fee_ref_script_cost_per_byte"`
}

// EpochParameters answers GET /v1/epochs/:epoch/parameters (latest false)
// and GET /v1/epochs/latest/parameters (latest true: the tip's epoch).
// The envelope's last_updated is the tip of this request (read with the
// epoch bound, at most dbsync.RecentTipMaxAge old), so a cached answer
// is only the data (epochParams).
func (s *Service) EpochParameters(ctx context.Context, db *dbsync.DB, epoch int64, latest bool) ([]byte, error) {
	data, pos, err := s.epochParams(ctx, db, epoch, latest, false)
	if err != nil {
		return nil, err
	}
	lu := lastUpdatedOf(pos.Tip)
	return wire.AppendEnvelope(nil, func(b []byte) []byte { return append(b, data...) }, nil, &lu), nil
}

// BlockfrostEpochParameters answers Blockfrost's /epochs/{number}/parameters
// and /epochs/latest/parameters from the same row and the same rules as
// EpochParameters: the data object alone (with the newline every dialect
// answer ends with), cost_models by parameter name
// (cardano.CostModelNames), cached beside /v1's.
func (s *Service) BlockfrostEpochParameters(ctx context.Context, db *dbsync.DB, epoch int64, latest bool) ([]byte, error) {
	data, _, err := s.epochParams(ctx, db, epoch, latest, true)
	return data, err
}

// epochParams is the data object of an epoch's parameters (named: cost
// models by parameter name, Blockfrost's cost_models, and the newline
// that answer ends with) with the position
// the epoch was bounded by.
//
// The data is cached per network and epoch: a past epoch's key is its
// number alone; the current and next epochs' keys also name the tip's
// epoch, so a 404 for the next epoch ends when that epoch begins.
func (s *Service) epochParams(ctx context.Context, db *dbsync.DB, epoch int64, latest, named bool) ([]byte, dbsync.ChainPosition, error) {
	// One server reads the bound and the row, at the request's tip (see
	// byTip): its min_slot is waited for and its headers name that tip.
	db, _, err := s.readAt(ctx, db)
	if waitFailed(ctx, err) {
		return nil, dbsync.ChainPosition{}, err
	}
	pos, err := db.RecentPosition(ctx)
	if err != nil {
		return nil, pos, err
	}
	var cur int64
	if pos.EpochNo != nil {
		cur = *pos.EpochNo
	}
	if latest {
		epoch = cur
	} else if epoch > cur+1 {
		return nil, pos, &EpochOutOfRangeError{Max: cur + 1}
	}
	key := db.Network.Name + ":" + strconv.FormatInt(epoch, 10)
	switch {
	case latest:
		key = db.Network.Name + ":latest:at:" + strconv.FormatInt(cur, 10)
	case epoch >= cur:
		key += ":at:" + strconv.FormatInt(cur, 10)
	}
	if named {
		key = "bf:" + key
	}
	data, err := s.caches.epochParams.GetTTL(ctx, key, func(ctx context.Context) ([]byte, time.Duration, error) {
		p, err := db.EpochParamsAtOrBefore(ctx, epoch)
		if errors.Is(err, dbsync.ErrNotFound) {
			return nil, 0, ErrEpochParamsNotFound
		}
		if err != nil {
			return nil, 0, err
		}
		ttl := epochParamsTTL
		if p.Epoch != epoch {
			if !latest {
				return nil, 0, ErrEpochParamsNotFound
			}
			ttl = epochParamsPendingTTL
		}
		b, err := epochParamsJSON(p, named)
		if named && err == nil {
			// Blockfrost's answer is the object alone: cached as sent.
			b = append(b, '\n')
		}
		return b, ttl, err
	})
	return data, pos, err
}

// epochParamsJSON is the data object of an epoch's parameters; named
// gives cost_models by parameter name (namedCostModels), else as stored.
func epochParamsJSON(p dbsync.EpochParams, named bool) ([]byte, error) {
	d := epochParamsData{
		Epoch: p.Epoch, MinFeeA: p.MinFeeA, MinFeeB: p.MinFeeB,
		MaxBlockSize: p.MaxBlockSize, MaxTxSize: p.MaxTxSize, MaxBlockHeaderSize: p.MaxBlockHeaderSize,
		KeyDeposit: p.KeyDeposit, PoolDeposit: p.PoolDeposit, EMax: p.MaxEpoch, NOpt: p.OptimalPoolCount,
		A0: p.Influence, Rho: p.MonetaryExpandRate, Tau: p.TreasuryGrowthRate, DecentralisationParam: p.Decentralisation,
		ExtraEntropy: p.ExtraEntropy, ProtocolMajorVer: p.ProtocolMajor, ProtocolMinorVer: p.ProtocolMinor,
		// db-sync stores 0 as min_utxo_value from Alonzo on, where the
		// per-byte (per-word in Alonzo) cost replaced it; Blockfrost
		// reports that cost here, and clients read it from either field.
		MinUTxO: p.MinUTxOValue, MinPoolCost: p.MinPoolCost, Nonce: p.Nonce,
		PriceMem: p.PriceMem, PriceStep: p.PriceStep,
		MaxTxExMem: p.MaxTxExMem, MaxTxExSteps: p.MaxTxExSteps,
		MaxBlockExMem: p.MaxBlockExMem, MaxBlockExSteps: p.MaxBlockExSteps, MaxValSize: p.MaxValSize,
		CollateralPercent: p.CollateralPercent, MaxCollateralInputs: p.MaxCollateralInputs,
		CoinsPerUTxOSize: p.CoinsPerUTxOSize, CoinsPerUTxOWord: p.CoinsPerUTxOSize,
		PvtMotionNoConfidence: p.PvtMotionNoConfidence, PvtCommitteeNormal: p.PvtCommitteeNormal,
		PvtCommitteeNoConfidence: p.PvtCommitteeNoConfidence, PvtHardForkInitiation: p.PvtHardForkInitiation,
		DvtMotionNoConfidence: p.DvtMotionNoConfidence, DvtCommitteeNormal: p.DvtCommitteeNormal,
		DvtCommitteeNoConfidence: p.DvtCommitteeNoConfidence, DvtUpdateToConstitution: p.DvtUpdateToConstitution,
		DvtHardForkInitiation: p.DvtHardForkInitiation, DvtPPNetworkGroup: p.DvtPPNetworkGroup,
		DvtPPEconomicGroup: p.DvtPPEconomicGroup, DvtPPTechnicalGroup: p.DvtPPTechnicalGroup,
		DvtPPGovGroup: p.DvtPPGovGroup, DvtTreasuryWithdrawal: p.DvtTreasuryWithdrawal,
		CommitteeMinSize: p.CommitteeMinSize, CommitteeMaxTermLength: p.CommitteeMaxTermLength,
		GovActionLifetime: p.GovActionLifetime, GovActionDeposit: p.GovActionDeposit,
		DRepDeposit: p.DRepDeposit, DRepActivity: p.DRepActivity,
		PvtppSecurityGroup: p.PvtPPSecurityGroup, PvtPPSecurityGroup: p.PvtPPSecurityGroup,
		MinFeeRefScriptCostPerByte: p.MinFeeRefScriptCostPerByte,
	}
	if p.CoinsPerUTxOSize != nil {
		d.MinUTxO = *p.CoinsPerUTxOSize
	}
	var err error
	if d.CostModels, d.CostModelsRaw, err = costModelsJSON(p.CostModels); err != nil {
		return nil, fmt.Errorf("epoch %d cost models: %w", p.Epoch, err)
	}
	if named {
		if d.CostModels, err = namedCostModels(d.CostModelsRaw); err != nil {
			return nil, fmt.Errorf("epoch %d cost models: %w", p.Epoch, err)
		}
	}
	b, err := wire.Encode(d)
	return bytes.TrimRight(b, "\n"), err
}

// costModelsJSON returns db-sync's cost models as stored (cost_models)
// and as arrays by language (cost_models_raw): a language stored as an
// object of named costs (older db-sync versions) becomes its values in the
// order of their names, the ledger's order for PlutusV1 and PlutusV2, the
// only languages stored that way. No cost models: null, null.
func costModelsJSON(stored *string) (named, raw json.RawMessage, err error) {
	null := json.RawMessage("null")
	if stored == nil {
		return null, null, nil
	}
	var langs map[string]json.RawMessage
	if err := json.Unmarshal([]byte(*stored), &langs); err != nil {
		return nil, nil, err
	}
	if langs == nil {
		return null, null, nil
	}
	names := make([]string, 0, len(langs))
	for l := range langs {
		names = append(names, l)
	}
	slices.Sort(names)
	out := []byte{'{'}
	for i, l := range names {
		costs := bytes.TrimSpace(langs[l])
		if len(costs) > 0 && costs[0] == '{' {
			var byName map[string]json.RawMessage
			if err := json.Unmarshal(costs, &byName); err != nil {
				return nil, nil, err
			}
			keys := make([]string, 0, len(byName))
			for k := range byName {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			values := make([]json.RawMessage, len(keys))
			for j, k := range keys {
				values[j] = byName[k]
			}
			if costs, err = json.Marshal(values); err != nil {
				return nil, nil, err
			}
		}
		if i > 0 {
			out = append(out, ',')
		}
		lang, _ := json.Marshal(l)
		out = append(append(append(out, lang...), ':'), costs...)
	}
	out = append(out, '}')
	return json.RawMessage(*stored), out, nil
}

// namedCostModels is cost_models_raw with each language's costs as an
// object by parameter name, in the ledger's order (Blockfrost's
// cost_models). A cost beyond the names known for its language (a later
// protocol version's, or a language without names) is named by its
// position.
func namedCostModels(raw json.RawMessage) (json.RawMessage, error) {
	var langs map[string][]json.RawMessage
	if err := json.Unmarshal(raw, &langs); err != nil || langs == nil {
		return raw, err
	}
	names := make([]string, 0, len(langs))
	for l := range langs {
		names = append(names, l)
	}
	slices.Sort(names)
	out := []byte{'{'}
	for i, l := range names {
		if i > 0 {
			out = append(out, ',')
		}
		lang, _ := json.Marshal(l)
		out = append(append(out, lang...), ':', '{')
		known := cardano.CostModelNames(l)
		for j, cost := range langs[l] {
			if j > 0 {
				out = append(out, ',')
			}
			name := strconv.Itoa(j)
			if j < len(known) {
				name = known[j]
			}
			out = strconv.AppendQuote(out, name) // ASCII: JSON's quoting too
			out = append(append(out, ':'), cost...)
		}
		out = append(out, '}')
	}
	return append(out, '}'), nil
}
