package node

import (
	"encoding/hex"
	"strconv"
	"strings"

	"github.com/blinklabs-io/gouroboros/ledger"
	"github.com/fxamacker/cbor/v2"
)

// maxReasonLen bounds the readable reason; the full raw CBOR travels in
// RejectedError.ReasonCBOR anyway.
const maxReasonLen = 2000

// describeReason renders a node's rejection readably. gouroboros' decoding is
// used where it is right (era mismatch, pre-Conway validation errors). Conway
// rejections are mis-decoded by gouroboros v0.199.0 (it expects LEDGER tag 0
// for a UTXOW failure; Conway uses 1, gouroboros#2312), so they are rendered
// here from the raw CBOR with cardano-ledger's constructor names. Anything
// else falls back to CBOR diagnostic notation of the raw reason.
func describeReason(decoded error, raw []byte) string {
	var s string
	switch r := decoded.(type) {
	case *ledger.EraMismatch:
		s = r.Error()
	case *ledger.ShelleyTxValidationError:
		if c, ok := conwayReason(raw); ok {
			s = c
		} else if !hasUnknownFailure(r) {
			s = r.Error()
		}
	case *ledger.GenericError:
		var text string
		if cbor.Unmarshal(raw, &text) == nil {
			s = text
		}
	}
	if s == "" {
		s = diagnose(raw)
	}
	if len(s) > maxReasonLen {
		s = s[:maxReasonLen] + "…"
	}
	return s
}

func hasUnknownFailure(e *ledger.ShelleyTxValidationError) bool {
	for _, f := range e.Err.Failures {
		switch f.(type) {
		case *ledger.UnknownApplyTxFailureError, *ledger.GenericError:
			return true
		}
		if strings.Contains(f.Error(), "Unknown") {
			return true
		}
	}
	return false
}

// diagnose is RFC 8949 diagnostic notation of raw, or h'<hex>' when raw is
// not well-formed CBOR.
func diagnose(raw []byte) string {
	d, err := cbor.Diagnose(raw)
	if err != nil {
		return "h'" + hex.EncodeToString(raw) + "'"
	}
	return d
}

// Conway predicate-failure constructor names, by CBOR tag
// (cardano-ledger Cardano.Ledger.Conway.Rules.{Ledger,Utxow,Utxo}).
var (
	conwayLedgerNames = map[uint64]string{
		1: "ConwayUtxowFailure", 2: "ConwayCertsFailure", 3: "ConwayGovFailure",
		4: "ConwayWdrlNotDelegatedToDRep", 5: "ConwayTreasuryValueMismatch",
		6: "ConwayTxRefScriptsSizeTooBig", 7: "ConwayMempoolFailure",
		8: "ConwayWithdrawalsMissingAccounts", 9: "ConwayIncompleteWithdrawals",
	}
	conwayUtxowNames = map[uint64]string{
		ledger.ConwayUtxowUtxoFailure: "UtxoFailure", ledger.ConwayUtxowInvalidWitnesses: "InvalidWitnessesUTXOW",
		ledger.ConwayUtxowMissingVKeyWitnesses: "MissingVKeyWitnessesUTXOW", ledger.ConwayUtxowMissingScriptWitnesses: "MissingScriptWitnessesUTXOW",
		ledger.ConwayUtxowScriptWitnessNotValidating: "ScriptWitnessNotValidatingUTXOW", ledger.ConwayUtxowMissingTxBodyMetadataHash: "MissingTxBodyMetadataHash",
		ledger.ConwayUtxowMissingTxMetadata: "MissingTxMetadata", ledger.ConwayUtxowConflictingMetadataHash: "ConflictingMetadataHash",
		ledger.ConwayUtxowInvalidMetadata: "InvalidMetadata", ledger.ConwayUtxowExtraneousScriptWitnesses: "ExtraneousScriptWitnessesUTXOW",
		ledger.ConwayUtxowMissingRedeemers: "MissingRedeemers", ledger.ConwayUtxowMissingRequiredDatums: "MissingRequiredDatums",
		ledger.ConwayUtxowNotAllowedSupplementalDatums: "NotAllowedSupplementalDatums", ledger.ConwayUtxowPPViewHashesDontMatch: "PPViewHashesDontMatch",
		ledger.ConwayUtxowUnspendableUTxONoDatumHash: "UnspendableUTxONoDatumHash", ledger.ConwayUtxowExtraRedeemers: "ExtraRedeemers",
		ledger.ConwayUtxowMalformedScriptWitnesses: "MalformedScriptWitnesses", ledger.ConwayUtxowMalformedReferenceScripts: "MalformedReferenceScripts",
		ledger.ConwayUtxowScriptIntegrityHashMismatch: "ScriptIntegrityHashMismatch",
	}
	conwayUtxoNames = map[uint64]string{
		ledger.ConwayUtxoUtxosFailure: "UtxosFailure", ledger.ConwayUtxoBadInputsUTxO: "BadInputsUTxO",
		ledger.ConwayUtxoOutsideValidityIntervalUTxO: "OutsideValidityIntervalUTxO", ledger.ConwayUtxoMaxTxSizeUTxO: "MaxTxSizeUTxO",
		ledger.ConwayUtxoInputSetEmptyUTxO: "InputSetEmptyUTxO", ledger.ConwayUtxoFeeTooSmallUTxO: "FeeTooSmallUTxO",
		ledger.ConwayUtxoValueNotConservedUTxO: "ValueNotConservedUTxO", ledger.ConwayUtxoWrongNetwork: "WrongNetwork",
		ledger.ConwayUtxoWrongNetworkWithdrawal: "WrongNetworkWithdrawal", ledger.ConwayUtxoOutputTooSmallUTxO: "OutputTooSmallUTxO",
		ledger.ConwayUtxoOutputBootAddrAttrsTooBig: "OutputBootAddrAttrsTooBig", ledger.ConwayUtxoOutputTooBigUTxO: "OutputTooBigUTxO",
		ledger.ConwayUtxoInsufficientCollateral: "InsufficientCollateral", ledger.ConwayUtxoScriptsNotPaidUTxO: "ScriptsNotPaidUTxO",
		ledger.ConwayUtxoExUnitsTooBigUTxO: "ExUnitsTooBigUTxO", ledger.ConwayUtxoCollateralContainsNonADA: "CollateralContainsNonADA",
		ledger.ConwayUtxoWrongNetworkInTxBody: "WrongNetworkInTxBody", ledger.ConwayUtxoOutsideForecast: "OutsideForecast",
		ledger.ConwayUtxoTooManyCollateralInputs: "TooManyCollateralInputs", ledger.ConwayUtxoNoCollateralInputs: "NoCollateralInputs",
		ledger.ConwayUtxoIncorrectTotalCollateral: "IncorrectTotalCollateral", ledger.ConwayUtxoBabbageOutputTooSmallUTxO: "BabbageOutputTooSmallUTxO",
		ledger.ConwayUtxoBabbageNonDisjointRefInputs: "BabbageNonDisjointRefInputs",
	}
)

// failureLevel is one rule's predicate-failure constructors; nested names
// the rule whose failure a constructor wraps (LEDGER → UTXOW → UTXO).
type failureLevel struct {
	names  map[uint64]string
	nested map[uint64]*failureLevel
}

var (
	conwayUtxo   = &failureLevel{names: conwayUtxoNames}
	conwayUtxow  = &failureLevel{names: conwayUtxowNames, nested: map[uint64]*failureLevel{ledger.ConwayUtxowUtxoFailure: conwayUtxo}}
	conwayLedger = &failureLevel{names: conwayLedgerNames, nested: map[uint64]*failureLevel{1: conwayUtxow}}
)

// conwayReason renders a Conway ApplyTxError, [[6, [failure, ...]]], with
// cardano-ledger's constructor names as cardano-cli shows them, e.g.
// ConwayUtxowFailure (UtxoFailure (BadInputsUTxO 258([[h'…', 1]]))).
// Several failures are joined with "; ". ok is false for any other shape.
func conwayReason(raw []byte) (string, bool) {
	var outer []cbor.RawMessage
	if cbor.Unmarshal(raw, &outer) != nil || len(outer) != 1 {
		return "", false
	}
	var eraAndErr []cbor.RawMessage
	if cbor.Unmarshal(outer[0], &eraAndErr) != nil || len(eraAndErr) != 2 {
		return "", false
	}
	var era uint64
	if cbor.Unmarshal(eraAndErr[0], &era) != nil || era != ledger.TxTypeConway {
		return "", false
	}
	var failures []cbor.RawMessage
	if cbor.Unmarshal(eraAndErr[1], &failures) != nil || len(failures) == 0 {
		return "", false
	}
	parts := make([]string, 0, len(failures))
	for _, f := range failures {
		parts = append(parts, conwayLedger.render(f))
	}
	return strings.Join(parts, "; "), true
}

// render shows a CBOR sum [tag, field...] as "Name field ...", a wrapped
// failure of a nested rule as "Name (inner)", and anything unexpected in
// diagnostic notation.
func (l *failureLevel) render(raw cbor.RawMessage) string {
	var fields []cbor.RawMessage
	var tag uint64
	if cbor.Unmarshal(raw, &fields) != nil || len(fields) == 0 || cbor.Unmarshal(fields[0], &tag) != nil {
		return diagnose(raw)
	}
	name, known := l.names[tag]
	if !known {
		name = "UnknownConstructor" + strconv.FormatUint(tag, 10)
	}
	if sub := l.nested[tag]; sub != nil && len(fields) == 2 {
		return name + " (" + sub.render(fields[1]) + ")"
	}
	var sb strings.Builder
	sb.WriteString(name)
	for _, f := range fields[1:] {
		sb.WriteByte(' ')
		sb.WriteString(diagnose(f))
	}
	return sb.String()
}
