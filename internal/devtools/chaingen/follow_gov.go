package chaingen

import (
	"context"
	"database/sql"
	"math/rand/v2"
	"strconv"
)

// The follower's governance: at each Conway boundary the proposals' life
// moves on (follow_gov_boundary.sql), the new epoch's drep_distr is
// written from the new snapshot (follow_drep_distr.sql) and the epoch's
// first block carries a new info action, so open proposals keep coming;
// between, some blocks carry a vote on an open proposal by a registered
// DRep or a committee hot key. Rollbacks undo all of it (the votes and
// proposals go with their transactions, the rest with the epoch rows).

// propose writes, at an epoch's first Conway block, an info action
// carried by the block's first transaction: deposit and return address
// as the chain's proposals have them, open until it expires (no info
// action is ever ratified).
func (f *Follower) propose(ctx context.Context, txs []FollowTx, boundary bool, epoch int) error {
	if !boundary || len(txs) == 0 || eraOf(epoch) < eraConway {
		return nil
	}
	var ret sql.NullInt64
	if err := f.db.QueryRowContext(ctx, sqlFollowGovReturn).Scan(&ret); err != nil && err != sql.ErrNoRows {
		return followErr("proposal return address", err)
	}
	if !ret.Valid {
		return nil // a chain without proposals: none to follow
	}
	g := f.g
	g.ids.govActionProposal++
	g.t.govActionProposal.int(g.ids.govActionProposal).int(txs[0].ID).int(0).null().
		uint(govActionDeposit).int(ret.Int64).int(int64(epoch + govLifetime)).null().text("InfoAction").
		text(`{"tag":"InfoAction"}`).null().null().null().null().null().end()
	return nil
}

// loadGovParams reads the parameters governance may have changed.
func (f *Follower) loadGovParams(ctx context.Context) error {
	var tx, blk sql.NullString
	err := f.db.QueryRowContext(ctx, sqlFollowGovParams).Scan(&tx, &blk)
	if err == sql.ErrNoRows {
		return nil
	}
	if err != nil {
		return followErr("parameters", err)
	}
	f.g.followParams = map[string]uint64{}
	for name, v := range map[string]sql.NullString{"max_tx_ex_mem": tx, "max_block_ex_mem": blk} {
		if n, err := strconv.ParseUint(v.String, 10, 64); v.Valid && err == nil {
			f.g.followParams[name] = n
		}
	}
	return nil
}

// votes adds, to about a third of the blocks, one vote carried by the
// block's first transaction, drawn from a random source of its own (the
// traffic's draws stay as they were).
func (f *Follower) votes(ctx context.Context, txs []FollowTx) error {
	if len(txs) == 0 || epochOfSlot(f.g.slot) < firstConway {
		return nil
	}
	r := rand.New(rand.NewPCG(uint64(f.opts.Seed), uint64(f.g.blockID)))
	if r.IntN(3) != 0 {
		return nil
	}
	rows, err := f.db.QueryContext(ctx, sqlFollowGovVoters)
	if err != nil {
		return followErr("voters", err)
	}
	defer rows.Close()
	type prop struct {
		id  int64
		typ string
	}
	var props []prop
	var dreps, hots []int64
	for rows.Next() {
		var kind, typ string
		var id sql.NullInt64
		if err := rows.Scan(&kind, &id, &typ); err != nil {
			return followErr("voters", err)
		}
		if !id.Valid {
			continue
		}
		switch kind {
		case "p":
			props = append(props, prop{id.Int64, typ})
		case "d":
			dreps = append(dreps, id.Int64)
		case "c":
			hots = append(hots, id.Int64)
		}
	}
	if err := rows.Err(); err != nil {
		return followErr("voters", err)
	}
	if len(props) == 0 || len(dreps) == 0 {
		return nil
	}
	p := props[r.IntN(len(props))]
	g := f.g
	g.ids.votingProcedure++
	t := g.t.votingProcedure.int(g.ids.votingProcedure).int(txs[0].ID).int(0).int(p.id)
	vote := cycle[r.IntN(len(cycle))]
	if ccMay := p.typ != "NoConfidence" && p.typ != "NewCommittee"; ccMay && len(hots) > 0 && r.IntN(3) == 0 {
		t.text("ConstitutionalCommittee").null().null().text(vote).null().int(hots[r.IntN(len(hots))]).null().end()
		return nil
	}
	t.text("DRep").int(dreps[r.IntN(len(dreps))]).null().text(vote).null().null().null().end()
	return nil
}
