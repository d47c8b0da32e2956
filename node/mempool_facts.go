package node

import (
	"math/big"

	"github.com/blinklabs-io/gouroboros/ledger"
	"github.com/blinklabs-io/gouroboros/ledger/common"
	"github.com/fxamacker/cbor/v2"
)

// TxFacts is what a mempool transaction says of itself beyond its inputs
// and outputs: the facts Blockfrost's GET /mempool/{hash} reports
// (fee, validity interval, counts of certificates, withdrawals, mints and
// redeemers, collateral and reference inputs).
type TxFacts struct {
	Fee *big.Int
	// InvalidBefore and InvalidHereafter are the validity interval's
	// bounds (body fields 8 and 3), nil when the body has none: an
	// explicit 0 is kept, as db-sync keeps it.
	InvalidBefore, InvalidHereafter *uint64
	// Withdrawals is the sum withdrawn from reward accounts.
	Withdrawals     *big.Int
	WithdrawalCount int
	Certificates    []Certificate
	// MintCount is the number of assets minted or burnt (one per policy
	// and name).
	MintCount int
	// Collateral and References are the collateral and reference inputs.
	Collateral, References []Input
	// CollateralReturn is the output a failed script's collateral pays
	// back (its index is the number of outputs), or nil.
	CollateralReturn *Output
	Redeemers        []Redeemer
	// Valid is false for a transaction whose scripts are expected to fail
	// (it then consumes only its collateral).
	Valid bool
	// Donation is the Conway treasury donation (0 before Conway).
	Donation *big.Int
	// ProposalDeposits is the sum of the governance proposals' deposits.
	ProposalDeposits *big.Int
}

// Certificate is one certificate of a transaction, as far as its counts
// and deposits go.
type Certificate struct {
	// Kind is the ledger's certificate tag: 0 stake registration, 1 stake
	// deregistration, 2 delegation, 3 pool registration, 4 pool
	// retirement, 6 MIR, 7–13 Conway registrations and delegations, 16–18
	// DRep certificates.
	Kind uint
	// Coin is the deposit or refund a Conway certificate states (kinds 7,
	// 8, 11, 12, 13, 16, 17); nil for the others, whose deposit, if any,
	// is a protocol parameter.
	Coin *big.Int
	// Pool is the operator's key hash of a pool registration (kind 3).
	Pool []byte
}

// Redeemer is one redeemer of the witness set.
type Redeemer struct {
	// Tag is the script purpose: 0 spend, 1 mint, 2 cert, 3 reward,
	// 4 vote, 5 propose.
	Tag uint8
	// Index is the position of what it redeems (input, policy,
	// certificate…) in the transaction.
	Index      uint32
	Mem, Steps int64
}

// factsOf reads a decoded transaction's facts; raw is its CBOR (for the
// validity interval, whose absence the decoded form cannot tell from 0).
func factsOf(lt ledger.Transaction, raw []byte) TxFacts {
	f := TxFacts{Fee: orZero(lt.Fee()), Withdrawals: new(big.Int), Valid: lt.IsValid(),
		Donation: orZero(lt.Donation()), ProposalDeposits: new(big.Int)}
	f.InvalidBefore, f.InvalidHereafter = validityInterval(raw)
	for _, q := range lt.Withdrawals() {
		if q != nil {
			f.Withdrawals.Add(f.Withdrawals, q)
		}
		f.WithdrawalCount++
	}
	for _, c := range lt.Certificates() {
		f.Certificates = append(f.Certificates, certificateOf(c))
	}
	if m := lt.AssetMint(); m != nil {
		for _, p := range m.Policies() {
			f.MintCount += len(m.Assets(p))
		}
	}
	f.Collateral = inputList(lt.Collateral())
	f.References = inputList(lt.ReferenceInputs())
	if cr := lt.CollateralReturn(); cr != nil {
		o := outputOf(uint32(len(lt.Outputs())), cr)
		f.CollateralReturn = &o
	}
	if w := lt.Witnesses(); w != nil {
		if rs := w.Redeemers(); rs != nil {
			for k, v := range rs.Iter() {
				f.Redeemers = append(f.Redeemers, Redeemer{Tag: uint8(k.Tag), Index: k.Index,
					Mem: v.ExUnits.Memory, Steps: v.ExUnits.Steps})
			}
		}
	}
	for _, p := range lt.ProposalProcedures() {
		f.ProposalDeposits.Add(f.ProposalDeposits, new(big.Int).SetUint64(p.Deposit()))
	}
	return f
}

func certificateOf(c common.Certificate) Certificate {
	out := Certificate{Kind: c.Type()}
	coin := func(n int64) *big.Int { return big.NewInt(n) }
	switch c := c.(type) {
	case *common.PoolRegistrationCertificate:
		out.Pool = append([]byte(nil), c.Operator[:]...)
	case *common.RegistrationCertificate:
		out.Coin = coin(c.Amount)
	case *common.DeregistrationCertificate:
		out.Coin = coin(c.Amount)
	case *common.StakeRegistrationDelegationCertificate:
		out.Coin = coin(c.Amount)
	case *common.VoteRegistrationDelegationCertificate:
		out.Coin = coin(c.Amount)
	case *common.StakeVoteRegistrationDelegationCertificate:
		out.Coin = coin(c.Amount)
	case *common.RegistrationDrepCertificate:
		out.Coin = coin(c.Amount)
	case *common.DeregistrationDrepCertificate:
		out.Coin = coin(c.Amount)
	}
	return out
}

func inputList(ins []common.TransactionInput) []Input {
	if len(ins) == 0 {
		return nil
	}
	out := make([]Input, len(ins))
	for i, in := range ins {
		out[i] = Input{TxHash: in.Id().String(), Index: in.Index()}
	}
	return out
}

func orZero(n *big.Int) *big.Int {
	if n == nil {
		return new(big.Int)
	}
	return n
}

// validityInterval reads body fields 8 (invalid before) and 3 (invalid
// hereafter) of a Shelley-era transaction: [body, witnesses, …] with the
// body a map. Byron transactions and unreadable bodies have neither.
func validityInterval(raw []byte) (before, hereafter *uint64) {
	var parts []cbor.RawMessage
	if err := cbor.Unmarshal(raw, &parts); err != nil || len(parts) < 2 {
		return nil, nil
	}
	var body map[uint64]cbor.RawMessage
	if err := cbor.Unmarshal(parts[0], &body); err != nil {
		return nil, nil
	}
	slot := func(key uint64) *uint64 {
		v, ok := body[key]
		if !ok {
			return nil
		}
		var n uint64
		if cbor.Unmarshal(v, &n) != nil {
			return nil
		}
		return &n
	}
	return slot(8), slot(3)
}
