package bf

import (
	"context"

	"github.com/syncgate/syncgate/dbsync"
)

// Genesis is Blockfrost's genesis_content.
type Genesis struct {
	ActiveSlotsCoefficient float64 `json:"active_slots_coefficient"`
	UpdateQuorum           int64   `json:"update_quorum"`
	MaxLovelaceSupply      string  `json:"max_lovelace_supply"`
	NetworkMagic           int64   `json:"network_magic"`
	EpochLength            int64   `json:"epoch_length"`
	SystemStart            int64   `json:"system_start"`
	SlotsPerKESPeriod      int64   `json:"slots_per_kes_period"`
	SlotLength             int64   `json:"slot_length"`
	MaxKESEvolutions       int64   `json:"max_kes_evolutions"`
	SecurityParam          int64   `json:"security_param"`
}

// GenesisAnswer answers /genesis: the network's genesis parameters
// (cardano.Genesis, its magic and epoch length) with its start as db-sync
// recorded it (meta.start_time). It does not move with the tip: encoded
// per request from the position memo.
func (a *Answers) GenesisAnswer(ctx context.Context, db *dbsync.DB) ([]byte, error) {
	pos, err := db.RecentPosition(ctx)
	if err != nil {
		return nil, err
	}
	n := db.Network
	g := n.Genesis()
	return encode(Genesis{
		ActiveSlotsCoefficient: g.ActiveSlotsCoeff, UpdateQuorum: g.UpdateQuorum, MaxLovelaceSupply: g.MaxLovelaceSupply,
		NetworkMagic: int64(n.Magic), EpochLength: n.EpochLength, SystemStart: pos.SystemStart.Unix(),
		SlotsPerKESPeriod: g.SlotsPerKESPeriod, SlotLength: g.SlotLength, MaxKESEvolutions: g.MaxKESEvolutions,
		SecurityParam: g.SecurityParam,
	})
}
