package bf

import (
	"reflect"
	"testing"

	"github.com/syncgate/syncgate/dbsync/epochs"
	"github.com/syncgate/syncgate/internal/cardano"
)

// TestErasOf lays out mainnet's eras from the epochs its protocol
// versions began (Blockfrost's example for the first two), a network that
// forked into Alonzo at once (the eras it skipped listed with no length),
// and a chain still in Byron.
func TestErasOf(t *testing.T) {
	mainnet, _ := cardano.NetworkByName("mainnet")
	preview, _ := cardano.NetworkByName("preview")
	byron := EraParams{EpochLength: 21600, SlotLength: 20, SafeZone: 4320}
	shelley := EraParams{EpochLength: 432000, SlotLength: 1, SafeZone: 129600}
	b := func(time, slot, epoch int64) EraBound { return EraBound{Time: time, Slot: slot, Epoch: epoch} }
	got := erasOf(mainnet, epochs.Protocols{FirstEpoch: map[int64]int64{2: 208, 3: 236, 4: 251, 5: 290, 6: 298, 7: 365, 8: 394, 9: 507, 10: 537},
		TipEpoch: 540, TipEpochSlot: 1000})
	at := func(e int64) EraBound { return b(e*432000, 4492800+(e-208)*432000, e) }
	want := []Era{
		{b(0, 0, 0), b(89856000, 4492800, 208), byron},
		{b(89856000, 4492800, 208), b(101952000, 16588800, 236), shelley},
		{at(236), at(251), shelley}, {at(251), at(290), shelley}, {at(290), at(365), shelley},
		{at(365), at(507), shelley}, {at(507), at(541), shelley},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("mainnet eras:\n%+v\nwant\n%+v", got, want)
	}
	// Past the safe zone of its epoch's end the tip's era runs one more.
	got = erasOf(mainnet, epochs.Protocols{FirstEpoch: map[int64]int64{2: 208, 3: 236}, TipEpoch: 240, TipEpochSlot: 432000 - 129600})
	if len(got) != 3 || got[2].End != at(242) {
		t.Fatalf("in the safe zone: %+v", got)
	}

	got = erasOf(preview, epochs.Protocols{FirstEpoch: map[int64]int64{6: 0, 7: 3, 9: 646}, TipEpoch: 700})
	previewParams := EraParams{EpochLength: 86400, SlotLength: 1, SafeZone: 25920}
	p := func(e int64) EraBound { return b(e*86400, e*86400, e) }
	want = []Era{
		{b(0, 0, 0), b(0, 0, 0), EraParams{EpochLength: 4320, SlotLength: 20, SafeZone: 864}},
		{p(0), p(0), previewParams}, {p(0), p(0), previewParams}, {p(0), p(0), previewParams},
		{p(0), p(3), previewParams}, {p(3), p(646), previewParams}, {p(646), p(701), previewParams},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("preview eras:\n%+v\nwant\n%+v", got, want)
	}

	got = erasOf(mainnet, epochs.Protocols{FirstEpoch: map[int64]int64{}, TipEpoch: 5, TipEpochSlot: 100})
	if len(got) != 1 || got[0].End != b(6*432000, 6*21600, 6) || got[0].Parameters != byron {
		t.Fatalf("Byron only: %+v", got)
	}
}
