package chaingen

import (
	"time"
)

// Chain layout. Byron epochs use real mainnet lengths (21600 slots of 20 s);
// Shelley-era epochs use the real 432000 one-second slots, with far fewer
// blocks than mainnet's 21600 per epoch (the block count scales with Txs).
// The tip sits 70 % into the last epoch, at opts.TipTime.
const (
	byronEpochs       = 2
	byronEpochSlots   = 21600
	byronSlotSeconds  = 20
	shelleyEpochs     = 10
	shelleyEpochSlots = 432000
	firstShelley      = byronEpochs
	tipEpoch          = byronEpochs + shelleyEpochs - 1
	numEpochs         = tipEpoch + 1
	tipEpochSlot      = 302400
	byronSlots        = byronEpochs * byronEpochSlots
	busyEpoch         = firstShelley + 6 // a Babbage epoch
	busyTxs           = 310
	minTxs            = 2500

	ada           = 1_000_000
	maxSupply     = 45_000_000_000_000_000
	genesisSupply = 36_500_000_000_000_000
	treasuryStart = 1_200_000_000_000_000
	keyDeposit    = 2_000_000
	poolDeposit   = 500_000_000
	minPoolCost   = 340_000_000
	minFeeA       = 44
	minFeeB       = 155381
	memberRate    = 0.00032 // per-epoch reward per lovelace of active stake
)

// Eras of the Shelley-based epochs (the multi-era chain a mainnet db-sync
// holds): features appear as on mainnet: assets from Mary, Plutus, datums
// and collateral from Alonzo, inline datums, reference inputs and
// collateral returns from Babbage.
const (
	eraByron = iota
	eraShelley
	eraAllegra
	eraMary
	eraAlonzo
	eraBabbage
	eraConway
)

func eraOf(e int) int {
	switch {
	case e < firstShelley:
		return eraByron
	case e < firstShelley+2:
		return eraShelley
	case e == firstShelley+2:
		return eraAllegra
	case e == firstShelley+3:
		return eraMary
	case e == firstShelley+4:
		return eraAlonzo
	case e <= firstShelley+6:
		return eraBabbage
	}
	return eraConway
}

func protoOf(e int) (int64, int64) {
	switch eraOf(e) {
	case eraByron:
		return 1, 0
	case eraShelley:
		return 2, 0
	case eraAllegra:
		return 3, 0
	case eraMary:
		return 4, 0
	case eraAlonzo:
		return 6, 0
	case eraBabbage:
		if e == firstShelley+5 {
			return 7, 0
		}
		return 8, 0
	}
	if e == firstShelley+7 {
		return 9, 0
	}
	return 10, 0
}

func epochFirstSlot(e int) uint64 {
	if e <= byronEpochs {
		return uint64(e) * byronEpochSlots
	}
	return byronSlots + uint64(e-byronEpochs)*shelleyEpochSlots
}

func epochLength(e int) uint64 {
	if e < byronEpochs {
		return byronEpochSlots
	}
	return shelleyEpochSlots
}

func slotSeconds(slot uint64) int64 {
	if slot <= byronSlots {
		return int64(slot) * byronSlotSeconds
	}
	return byronSlots*byronSlotSeconds + int64(slot-byronSlots)
}

var tipSlot = epochFirstSlot(tipEpoch) + tipEpochSlot

func (g *gen) slotTime(slot uint64) time.Time {
	return g.start.Add(time.Duration(slotSeconds(slot)) * time.Second)
}
