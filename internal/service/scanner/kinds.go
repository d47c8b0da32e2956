package scanner

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"slices"
	"time"

	"github.com/google/uuid"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/dbsync/chainfacts"
	"github.com/syncgate/syncgate/dbsync/epochs"
	"github.com/syncgate/syncgate/internal/events"
)

// facts is what the block, epoch and delegation events need of the
// blocks a step read (in the scanner's snapshot), and of the epochs they
// start (read after it).
type facts struct {
	blocks map[int64]chainfacts.Block
	certs  map[string][]chainfacts.Certificate // by transaction hash
	epochs map[int64]epochFacts                // by the epoch started
}

type epochFacts struct {
	previous events.EpochSummary
	params   *events.EpochParameters
	start    time.Time
	end      time.Time
}

// needs says which facts the step's webhooks need read.
func needs(work []groupWork) (blocks, certs bool) {
	for _, w := range work {
		for _, h := range w.g.Hooks {
			blocks = blocks || h.Wants(events.TypeBlockAdded) || h.Wants(events.TypeEpochStarted)
			certs = certs || h.Wants(events.TypeDelegationConfirmed)
		}
	}
	return blocks, certs
}

// readFacts is the ReadChainPlanned step that reads the facts (nil when no
// webhook needs any).
func (f *facts) readFacts(blocks, certs bool) func(context.Context, *dbsync.Snapshot, []dbsync.HeightRange) error {
	if !blocks && !certs {
		return nil
	}
	return func(ctx context.Context, tx *dbsync.Snapshot, rs []dbsync.HeightRange) error {
		f.blocks, f.certs = map[int64]chainfacts.Block{}, map[string][]chainfacts.Certificate{}
		for _, r := range rs {
			if blocks {
				bs, err := chainfacts.Blocks(ctx, tx, r)
				if err != nil {
					return err
				}
				for _, b := range bs {
					f.blocks[b.Height] = b
				}
			}
			if certs {
				cs, err := chainfacts.Certificates(ctx, tx, r)
				if err != nil {
					return err
				}
				for _, c := range cs {
					f.certs[string(c.TxHash)] = append(f.certs[string(c.TxHash)], c)
				}
			}
		}
		return nil
	}
}

// readEpochs reads, for every epoch a group's blocks start where one of
// its webhooks wants epoch.started, the previous epoch's figures and the
// new epoch's parameters.
func (s *Scanner) readEpochs(ctx context.Context, f *facts, work []groupWork) error {
	f.epochs = map[int64]epochFacts{}
	for _, w := range work {
		if !slices.ContainsFunc(w.g.Hooks, func(h events.ScanHook) bool { return h.Wants(events.TypeEpochStarted) }) {
			continue
		}
		for h := w.from; h <= w.to; h++ {
			b, ok := f.blocks[h]
			if _, done := f.epochs[b.Epoch]; !ok || !b.StartsEpoch() || done {
				continue
			}
			e, err := s.epochFacts(ctx, b.Epoch)
			if err != nil {
				return wrap("epoch", err)
			}
			f.epochs[b.Epoch] = e
		}
	}
	return nil
}

func (s *Scanner) epochFacts(ctx context.Context, epoch int64) (epochFacts, error) {
	db := s.o.DB
	pos, err := db.RecentPosition(ctx)
	if err != nil {
		return epochFacts{}, err
	}
	length := time.Duration(db.Network.EpochLength*db.Network.Genesis().SlotLength) * time.Second
	at := func(n int64) time.Time { return pos.SystemStart.Add(time.Duration(n) * length).UTC() }
	prev, err := epochs.ByNumber(ctx, db, epoch-1)
	if err != nil {
		return epochFacts{}, err
	}
	out := epochFacts{start: at(epoch), end: at(epoch + 1), previous: events.EpochSummary{Epoch: prev.Epoch,
		StartTime: at(prev.Epoch), EndTime: at(prev.Epoch + 1), FirstBlockTime: prev.FirstBlockTime.UTC(),
		LastBlockTime: prev.LastBlockTime.UTC(), BlockCount: prev.BlockCount, TxCount: prev.TxCount,
		Output: prev.Output, Fees: prev.Fees}}
	p, err := db.EpochParamsAtOrBefore(ctx, epoch)
	switch {
	case errors.Is(err, dbsync.ErrNotFound):
	case err != nil:
		return epochFacts{}, err
	case p.Epoch == epoch:
		out.params = &events.EpochParameters{MinFeeA: p.MinFeeA, MinFeeB: p.MinFeeB, MaxBlockSize: p.MaxBlockSize,
			MaxTxSize: p.MaxTxSize, MaxBlockHeaderSize: p.MaxBlockHeaderSize, KeyDeposit: p.KeyDeposit,
			PoolDeposit: p.PoolDeposit, EMax: p.MaxEpoch, NOpt: p.OptimalPoolCount, A0: p.Influence,
			Rho: p.MonetaryExpandRate, Tau: p.TreasuryGrowthRate, ProtocolMajorVer: p.ProtocolMajor,
			ProtocolMinorVer: p.ProtocolMinor, MinPoolCost: p.MinPoolCost, Nonce: p.Nonce, PriceMem: p.PriceMem,
			PriceStep: p.PriceStep, MaxTxExMem: p.MaxTxExMem, MaxTxExSteps: p.MaxTxExSteps,
			MaxBlockExMem: p.MaxBlockExMem, MaxBlockExSteps: p.MaxBlockExSteps, MaxValSize: p.MaxValSize,
			CollateralPercent: p.CollateralPercent, MaxCollateralInputs: p.MaxCollateralInputs,
			CoinsPerUTxOSize: p.CoinsPerUTxOSize, GovActionDeposit: p.GovActionDeposit, DRepDeposit: p.DRepDeposit,
			DRepActivity: p.DRepActivity}
	}
	return out, nil
}

// groupEvents builds the events of one group's blocks in chain order:
// per block its epoch.started (at an epoch's first block), block.added,
// then each transaction's tx.confirmed and delegation.confirmed.
func groupEvents(w groupWork, blocks []dbsync.ScanBlock, matched []events.Match, f *facts, tip *events.BlockRef) []events.NewEvent {
	txBy := byKey(matched, events.TypeTxConfirmed)
	poolBy := byKey(matched, events.TypeBlockAdded)
	delegBy := byKey(matched, events.TypeDelegationConfirmed)
	var everyBlock, epochHooks []uuid.UUID
	for _, h := range w.g.Hooks {
		if h.Wants(events.TypeBlockAdded) && !h.PoolFilter {
			everyBlock = append(everyBlock, h.ID)
		}
		if h.Wants(events.TypeEpochStarted) {
			epochHooks = append(epochHooks, h.ID)
		}
	}
	slices.SortFunc(everyBlock, uuidLess)
	slices.SortFunc(epochHooks, uuidLess)
	depth := w.g.Depth
	var out []events.NewEvent
	for bi := range blocks {
		b := &blocks[bi]
		ref := &events.BlockRef{Hash: b.Hash, Height: b.Height, Slot: b.Slot, Time: b.Time}
		confirmations := tip.Height - b.Height + 1
		if fb, ok := f.blocks[b.Height]; ok {
			if e, ok := f.epochs[fb.Epoch]; ok && fb.StartsEpoch() {
				for _, id := range epochHooks {
					out = append(out, events.NewEvent{WebhookID: id, Type: events.TypeEpochStarted, Block: ref, Tip: tip,
						Data: events.EpochStarted{Epoch: fb.Epoch, StartTime: e.start, EndTime: e.end, Depth: depth,
							Confirmations: confirmations, Previous: e.previous, Parameters: e.params}})
				}
			}
			hooks := everyBlock
			if fb.Pool.Valid {
				if by := poolBy[key{events.KindPool, fb.Pool.String}]; len(by) > 0 {
					hooks = slices.Concat(everyBlock, by)
					slices.SortFunc(hooks, uuidLess)
					hooks = slices.Compact(hooks)
				}
			}
			data := events.BlockAdded{Epoch: fb.Epoch, EpochSlot: fb.EpochSlot, SlotLeader: fb.SlotLeader,
				TxCount: fb.TxCount, Size: fb.Size, Depth: depth, Confirmations: confirmations}
			if fb.Pool.Valid {
				data.Pool = &fb.Pool.String
			}
			// Encoded once for every webhook it goes to (numbers and
			// strings: it cannot fail).
			raw, _ := json.Marshal(data)
			for _, id := range hooks {
				out = append(out, events.NewEvent{WebhookID: id, Type: events.TypeBlockAdded, Block: ref, Tip: tip, Data: json.RawMessage(raw)})
			}
		}
		for ti := range b.Txs {
			t := &b.Txs[ti]
			out = append(out, txConfirmations(b, t, txBy, depth, ref, tip)...)
			out = append(out, delegations(t, f.certs[string(t.Hash)], delegBy, depth, confirmations, ref, tip)...)
		}
	}
	return out
}

// certKeys is every watch item key a certificate carries.
func certKeys(c *chainfacts.Certificate) []key {
	ks := []key{{events.KindStakeAddress, c.StakeAddress}}
	if c.Pool.Valid {
		ks = append(ks, key{events.KindPool, c.Pool.String})
	}
	if c.DRepView.Valid || c.DRepRaw.Valid {
		ks = append(ks, key{events.KindDRep, events.DRepOf(c.DRepRaw.String, c.DRepScript, c.DRepView.String)})
	}
	return ks
}

// certKeysOf adds the keys of every certificate read, for
// delegation.confirmed.
func certKeysOf(f *facts, keys *keySet) {
	for _, cs := range f.certs {
		for i := range cs {
			for _, k := range certKeys(&cs[i]) {
				keys.add(k.kind, k.value, events.TypeDelegationConfirmed)
			}
		}
	}
}

// blockKeysOf adds the pool of every block read, for block.added.
func blockKeysOf(f *facts, keys *keySet) {
	for _, b := range f.blocks {
		if b.Pool.Valid {
			keys.add(events.KindPool, b.Pool.String, events.TypeBlockAdded)
		}
	}
}

// delegations builds the delegation.confirmed events of one transaction:
// one per webhook whose items one of its certificates touches, with those
// certificates.
func delegations(t *dbsync.ScanTx, certs []chainfacts.Certificate, byKey map[key][]uuid.UUID, depth int, confirmations int64, ref, tip *events.BlockRef) []events.NewEvent {
	if len(certs) == 0 || len(byKey) == 0 {
		return nil
	}
	per := map[uuid.UUID][]events.Certificate{}
	for i := range certs {
		c := &certs[i]
		var hooks []uuid.UUID
		for _, k := range certKeys(c) {
			hooks = append(hooks, byKey[k]...)
		}
		slices.SortFunc(hooks, uuidLess)
		for _, id := range slices.Compact(hooks) {
			per[id] = append(per[id], certificate(c))
		}
	}
	var out []events.NewEvent
	for _, id := range sortedHooks(per) {
		out = append(out, events.NewEvent{WebhookID: id, Type: events.TypeDelegationConfirmed, TxHash: t.Hash, Block: ref, Tip: tip,
			Data: events.DelegationConfirmed{TxHash: hex.EncodeToString(t.Hash), Depth: depth, Confirmations: confirmations,
				Certificates: per[id]}})
	}
	return out
}

func certificate(c *chainfacts.Certificate) events.Certificate {
	out := events.Certificate{CertIndex: c.CertIndex, Type: c.Kind, StakeAddress: c.StakeAddress}
	if c.Pool.Valid {
		p := c.Pool.String
		out.Pool = &p
	}
	if c.DRepView.Valid || c.DRepRaw.Valid {
		d := events.DRepOf(c.DRepRaw.String, c.DRepScript, c.DRepView.String)
		out.DRep = &d
	}
	if c.ActiveEpoch.Valid {
		e := c.ActiveEpoch.Int64
		out.ActiveEpoch = &e
	}
	return out
}
