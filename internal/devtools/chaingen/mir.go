package chaingen

import "strconv"

// MIR certificates (Shelley to Babbage): instant rewards paid from the
// reserves or the treasury to stake accounts, and pot transfers between
// the two. db-sync records each certificate of a transaction in reserve,
// treasury or pot_transfer; the rewards reach the accounts at the next
// epoch boundary (reward_rest, spendable one epoch after the certificate's).

// mirPlan is an epoch's MIR transaction still to be sent.
type mirPlan struct {
	pot       string // "reserves" or "treasury"
	rewards   []pendingReward
	transfer  uint64 // lovelace moved from the reserves to the treasury (0: none)
	spendable int    // the epoch the certificates take effect in
	sent      bool
}

// potTransfer is a pot transfer taking effect at an epoch boundary.
type potTransfer struct {
	toTreasury uint64
	epoch      int
}

// scheduleMIR plans this epoch's MIR transaction: instant rewards from pot
// typ to n registered accounts (spendable at the next epoch), and, with
// transfer > 0, a pot transfer from the reserves to the treasury.
func (g *gen) scheduleMIR(typ string, n int, spendable int, transfer uint64) {
	p := &mirPlan{pot: typ, transfer: transfer, spendable: spendable}
	for i := 0; i < len(g.stakes) && n > 0; i += 1 + g.intn(7) {
		if g.stakes[i].registered && !g.stakes[i].owner {
			amt := uint64(g.logUniform(100, 50000)) * ada
			p.rewards = append(p.rewards, pendingReward{stake: int32(i), typ: typ, amount: amt, spendable: spendable})
			n--
		}
	}
	g.mir = p
}

// mirTx sends the planned MIR certificates in one transaction paid by the
// whale (on mainnet, transactions witnessed by the genesis delegates).
func (g *gen) mirTx() bool {
	p := g.mir
	if p == nil || p.sent || g.whale < 0 {
		return false
	}
	n := len(p.rewards)
	if p.transfer > 0 {
		n++
	}
	txID, ok := g.pay(payReq{from: g.whale, nCerts: n, certs: func(txID int64) {
		for i, r := range p.rewards {
			tb, id := g.t.reserve, &g.ids.reserve
			if p.pot == "treasury" {
				tb, id = g.t.treasury, &g.ids.treasury
			}
			*id++
			tb.int(*id).int(g.ensureStake(r.stake)).int(int64(i)).uint(r.amount).int(txID).end()
		}
		if p.transfer > 0 {
			g.ids.potTransfer++
			g.t.potTransfer.int(g.ids.potTransfer).int(int64(len(p.rewards))).uint(p.transfer).
				num("-" + strconv.FormatUint(p.transfer, 10)).int(txID).end()
		}
	}})
	if !ok {
		return false
	}
	g.sendMIR(p)
	if p.pot == "treasury" {
		g.stats.mirTreasury, g.stats.mirTreasuryHash = txID, g.curTxHash
	} else {
		g.stats.mirReserves, g.stats.mirReservesHash = txID, g.curTxHash
	}
	return true
}

// sendMIR hands the certificates' effects to the next epoch boundary. An
// epoch whose MIR transaction found no room (a tiny chain) still pays the
// rewards, as before MIR transactions were written.
func (g *gen) sendMIR(p *mirPlan) {
	if p.sent {
		return
	}
	p.sent = true
	g.pendingRest = append(g.pendingRest, p.rewards...)
	if p.transfer > 0 {
		g.pendingPot = append(g.pendingPot, potTransfer{toTreasury: p.transfer, epoch: p.spendable})
	}
}
