package chaingen

// writePoolStats writes pool_stat for epoch e at its boundary, as db-sync
// does with its pool_stat option: for every pool in the stake snapshot
// just taken (epoch_stake of e+1) or with blocks in e-1, the blocks it
// made in e-1, its delegators and stake in that snapshot, and from Conway
// on its voting power (its stake).
func (g *gen) writePoolStats(e int) {
	if e <= firstShelley || g.gov == nil {
		return
	}
	stake := make([]uint64, len(g.pools))
	dels := make([]uint64, len(g.pools))
	for _, s := range g.snaps[e+1] {
		stake[s.pool] += s.amount
		dels[s.pool]++
	}
	for p := range g.pools {
		pl := &g.pools[p]
		if dels[p] == 0 && pl.blocks[e-1] == 0 {
			continue
		}
		g.ids.poolStat++
		t := g.t.poolStat.int(g.ids.poolStat).int(g.ensurePoolHash(int32(p))).int(int64(e)).int(int64(pl.blocks[e-1])).
			uint(dels[p]).uint(stake[p])
		if eraOf(e) >= eraConway {
			t.uint(stake[p])
		} else {
			t.null()
		}
		t.end()
	}
}
