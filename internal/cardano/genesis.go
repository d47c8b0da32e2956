package cardano

// Genesis is what a network's genesis files fix that db-sync does not
// store (its start time is db-sync's meta.start_time): the Shelley
// genesis parameters and the Byron slot layout. Every served network
// shares all of them but the security parameter.
type Genesis struct {
	ActiveSlotsCoeff  float64
	UpdateQuorum      int64
	MaxLovelaceSupply string // lovelace
	SecurityParam     int64  // k
	SlotsPerKESPeriod int64
	MaxKESEvolutions  int64
	SlotLength        int64 // seconds, from Shelley on
	ByronSlotLength   int64 // seconds
}

// Genesis returns the network's genesis parameters.
func (n Network) Genesis() Genesis {
	g := Genesis{
		ActiveSlotsCoeff: 0.05, UpdateQuorum: 5, MaxLovelaceSupply: "45000000000000000",
		SecurityParam: 2160, SlotsPerKESPeriod: 129600, MaxKESEvolutions: 62,
		SlotLength: 1, ByronSlotLength: 20,
	}
	if n.Name == "preview" {
		g.SecurityParam = 432
	}
	return g
}

// ByronEpochLength is a Byron epoch's length in slots (10k).
func (g Genesis) ByronEpochLength() int64 { return 10 * g.SecurityParam }

// ByronSafeZone is the Byron era's stability window in slots (2k): no
// hard fork can take effect within it of an epoch's end.
func (g Genesis) ByronSafeZone() int64 { return 2 * g.SecurityParam }

// SafeZone is the stability window of the Shelley-based eras in slots
// (3k/f).
func (g Genesis) SafeZone() int64 {
	return int64(float64(3*g.SecurityParam)/g.ActiveSlotsCoeff + 0.5)
}
