package chaingen

import (
	"testing"
	"time"
)

// TestFollowSlots: a block's slot comes back from its time in both eras,
// epochs start where epochFirstSlot says, and the follower never leaves an
// epoch without blocks however far the next slot would jump.
func TestFollowSlots(t *testing.T) {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	g := &gen{start: start}
	for _, slot := range []uint64{0, 7, byronSlots - 1, byronSlots, byronSlots + 1, tipSlot, tipSlot + 1_000_000} {
		if got := slotAtTime(start, g.slotTime(slot)); got != slot {
			t.Errorf("slot %d: back from its time as %d", slot, got)
		}
	}
	for e := 1; e < numEpochs+5; e++ {
		if got := epochOfSlot(epochFirstSlot(e)); got != e {
			t.Errorf("first slot of epoch %d is in epoch %d", e, got)
		}
		if got := epochOfSlot(epochFirstSlot(e) - 1); got != e-1 {
			t.Errorf("slot before epoch %d is in epoch %d", e, got)
		}
	}
	f := &Follower{g: g, tip: BlockRef{Slot: tipSlot, Epoch: tipEpoch}, opts: FollowOptions{SlotsPerBlock: 3 * shelleyEpochSlots}}
	if got := f.nextSlot(); got != epochFirstSlot(tipEpoch+1) {
		t.Errorf("a jump of three epochs lands at slot %d, want the next epoch's first %d", got, epochFirstSlot(tipEpoch+1))
	}
	f.opts.SlotsPerBlock = 20
	if got := f.nextSlot(); got != tipSlot+20 {
		t.Errorf("next slot %d, want %d", got, tipSlot+20)
	}
	f.opts.SlotsPerBlock = 0 // the wall clock, years past the tip: the next epoch's first slot
	if got := f.nextSlot(); got != epochFirstSlot(tipEpoch+1) {
		t.Errorf("wall-clock slot %d, want %d", got, epochFirstSlot(tipEpoch+1))
	}
}
