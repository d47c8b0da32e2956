package bf

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"time"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/dbsync/account"
	"github.com/syncgate/syncgate/dbsync/addresses"
	"github.com/syncgate/syncgate/internal/answer"
	"github.com/syncgate/syncgate/internal/cardano"
)

// AccountContent is Blockfrost's account_content.
type AccountContent struct {
	StakeAddress       string  `json:"stake_address"`
	Active             bool    `json:"active"`
	Registered         bool    `json:"registered"`
	ActiveEpoch        *int64  `json:"active_epoch"`
	ControlledAmount   string  `json:"controlled_amount"`
	RewardsSum         string  `json:"rewards_sum"`
	WithdrawalsSum     string  `json:"withdrawals_sum"`
	ReservesSum        string  `json:"reserves_sum"`
	TreasurySum        string  `json:"treasury_sum"`
	WithdrawableAmount string  `json:"withdrawable_amount"`
	PoolID             *string `json:"pool_id"`
	DRepID             *string `json:"drep_id"`
}

// Account answers /accounts/{stake_address}, cached under the tip; a stake
// address db-sync never saw is a 404, as Blockfrost answers.
func (a *Answers) Account(ctx context.Context, db *dbsync.DB, key cardano.StakeKey) ([]byte, error) {
	return cached(ctx, a, db, "account", []string{key.Bech32()}, func(ctx context.Context, db *dbsync.DB) (AccountContent, error) {
		s, err := account.ReadSummary(ctx, db, key)
		if err != nil {
			return AccountContent{}, notFound(err)
		}
		out := AccountContent{StakeAddress: s.StakeAddress, Active: s.PoolID != nil, Registered: s.Registered,
			ActiveEpoch: s.ActiveEpoch, ControlledAmount: s.ControlledAmount, RewardsSum: s.RewardsSum,
			WithdrawalsSum: s.WithdrawalsSum, ReservesSum: s.ReservesSum, TreasurySum: s.TreasurySum,
			WithdrawableAmount: s.WithdrawableAmount, PoolID: s.PoolID, DRepID: s.DRepView}
		if s.DRepRaw != nil {
			// db-sync's view is CIP-105 (no header); Blockfrost answers CIP-129.
			raw, err := hex.DecodeString(*s.DRepRaw)
			if err != nil || len(raw) != 28 {
				return AccountContent{}, fmt.Errorf("bf: DRep hash %q is not 28 bytes of hex", *s.DRepRaw)
			}
			id := cardano.DRepCIP129(raw, s.DRepHasScript != nil && *s.DRepHasScript)
			out.DRepID = &id
		}
		return out, nil
	})
}

// accountList answers one page of an account list, cached under the tip.
func accountList[T any](ctx context.Context, a *Answers, db *dbsync.DB, route string, key cardano.StakeKey, p Paging,
	read func(context.Context, *dbsync.DB, cardano.StakeKey, account.PageQuery) ([]T, error)) ([]byte, error) {
	q := account.PageQuery{Limit: p.Count, Offset: p.Offset(), Desc: p.Desc}
	return cached(ctx, a, db, route, []string{key.Bech32(), p.key()}, func(ctx context.Context, db *dbsync.DB) ([]T, error) {
		rows, err := read(ctx, db, key, q)
		return rows, notFound(err)
	})
}

// AccountRewards answers /accounts/{stake_address}/rewards.
func (a *Answers) AccountRewards(ctx context.Context, db *dbsync.DB, key cardano.StakeKey, p Paging) ([]byte, error) {
	return accountList(ctx, a, db, "accountrewards", key, p, account.RewardsPage)
}

// AccountHistory answers /accounts/{stake_address}/history.
func (a *Answers) AccountHistory(ctx context.Context, db *dbsync.DB, key cardano.StakeKey, p Paging) ([]byte, error) {
	return accountList(ctx, a, db, "accounthistory", key, p, account.HistoryPage)
}

// AccountDelegations answers /accounts/{stake_address}/delegations.
func (a *Answers) AccountDelegations(ctx context.Context, db *dbsync.DB, key cardano.StakeKey, p Paging) ([]byte, error) {
	return accountList(ctx, a, db, "accountdelegations", key, p, account.DelegationsPage)
}

// AccountRegistrations answers /accounts/{stake_address}/registrations.
func (a *Answers) AccountRegistrations(ctx context.Context, db *dbsync.DB, key cardano.StakeKey, p Paging) ([]byte, error) {
	return accountList(ctx, a, db, "accountregistrations", key, p, account.RegistrationsPage)
}

// AccountWithdrawals answers /accounts/{stake_address}/withdrawals.
func (a *Answers) AccountWithdrawals(ctx context.Context, db *dbsync.DB, key cardano.StakeKey, p Paging) ([]byte, error) {
	return accountList(ctx, a, db, "accountwithdrawals", key, p, account.WithdrawalsPage)
}

// AccountMIRs answers /accounts/{stake_address}/mirs.
func (a *Answers) AccountMIRs(ctx context.Context, db *dbsync.DB, key cardano.StakeKey, p Paging) ([]byte, error) {
	return accountList(ctx, a, db, "accountmirs", key, p, account.MIRsPage)
}

// AccountTransactions answers /accounts/{stake_address}/transactions: a
// page of the (transaction, address) pairs of the addresses carrying the
// stake key, in chain order (account.TransactionsPage: keyset anchors make
// a deep page cost what the first does), within r when given; each page
// cached under the tip.
func (a *Answers) AccountTransactions(ctx context.Context, db *dbsync.DB, key cardano.StakeKey, p Paging, r TxRange) ([]byte, error) {
	params := []string{key.Bech32(), p.key()}
	if r.From != nil || r.To != nil {
		params = append(params, "from", posKey(r.From), "to", posKey(r.To))
	}
	return cached(ctx, a, db, "accounttransactions", params, func(ctx context.Context, db *dbsync.DB) ([]account.TxPair, error) {
		q := account.TxsQuery{PageQuery: account.PageQuery{Limit: p.Count, Offset: p.Offset(), Desc: p.Desc}}
		b, err := r.within(ctx, db)
		if err != nil {
			return nil, err
		}
		if b != nil {
			q.Lo, q.Hi = b[0], b[1]
		}
		rows, err := account.TransactionsPage(ctx, db, key, q)
		return rows, notFound(err)
	})
}

// accountAddress is one item of account_addresses_content.
type accountAddress struct {
	Address string `json:"address"`
}

// AccountAddresses answers /accounts/{stake_address}/addresses.
func (a *Answers) AccountAddresses(ctx context.Context, db *dbsync.DB, key cardano.StakeKey, p Paging) ([]byte, error) {
	return accountList(ctx, a, db, "accountaddresses", key, p, func(ctx context.Context, db *dbsync.DB, key cardano.StakeKey, q account.PageQuery) ([]accountAddress, error) {
		addrs, err := account.AddressesPage(ctx, db, key, q)
		out := make([]accountAddress, len(addrs))
		for i, s := range addrs {
			out[i] = accountAddress{Address: s}
		}
		return out, err
	})
}

// accountKnown is nil when db-sync knows the stake address, else
// answer.ErrNotFound.
func accountKnown(ctx context.Context, db *dbsync.DB, key cardano.StakeKey) error {
	known, err := account.Known(ctx, db, key)
	if err == nil && !known {
		return answer.ErrNotFound
	}
	return err
}

// AccountAssets answers /accounts/{stake_address}/addresses/assets: the
// native assets of the unspent outputs carrying the stake key, by unit,
// from /v1's stake balance (the same store), the page kept across tips
// while no block touches the stake key's addresses.
func (a *Answers) AccountAssets(ctx context.Context, db *dbsync.DB, key cardano.StakeKey, p Paging) ([]byte, error) {
	params := []string{"bf", "accountassets", key.Bech32(), p.key()}
	return a.svc.DialectKept(ctx, db, answer.StakeSubject(key), params, func(ctx context.Context, db *dbsync.DB) ([]byte, time.Duration, error) {
		if err := accountKnown(ctx, db, key); err != nil {
			return nil, 0, err
		}
		v, err := db.BalanceByStake(ctx, key)
		if err != nil {
			return nil, 0, err
		}
		units := amounts(v)[1:]
		page := []Amount{}
		for i := p.Offset(); i < p.Offset()+p.Count && i < len(units); i++ {
			j := i
			if p.Desc {
				j = len(units) - 1 - i
			}
			page = append(page, units[j])
		}
		b, err := encode(page)
		return b, 0, err
	})
}

// AccountUTxOs answers /accounts/{stake_address}/utxos: the unspent outputs
// of every address carrying the stake key, in chain order, from the same
// store as /v1's stake UTxO list, stored once for the pages cut from it
// (answer.DialectPage) and kept across tips while short.
func (a *Answers) AccountUTxOs(ctx context.Context, db *dbsync.DB, key cardano.StakeKey, p Paging) ([]byte, error) {
	about := answer.StakeSubject(key)
	list := answer.DialectList{Params: []string{"bf", "accountutxos", key.Bech32()}, About: &about,
		Each: func(ctx context.Context, db *dbsync.DB, fn func([]byte) error) error {
			return db.EachUTxOWithScriptsByStake(ctx, key, func(chunk []dbsync.UTxO) error {
				for _, u := range chunk {
					b, err := json.Marshal(addressUTxOOf(u))
					if err != nil {
						return err
					}
					if err := fn(b); err != nil {
						return err
					}
				}
				return nil
			})
		}}
	b, err := a.svc.DialectPage(ctx, db, list, answer.ListPage{Offset: p.Offset(), Count: p.Count, Desc: p.Desc})
	if err != nil || !bytes.Equal(b, emptyList) {
		return b, err
	}
	pinned, _, err := a.svc.DialectTip(ctx, db)
	if err != nil {
		pinned = db
	}
	return b, accountKnown(ctx, pinned, key)
}

// AccountTotal is Blockfrost's account_addresses_total.
type AccountTotal struct {
	StakeAddress string   `json:"stake_address"`
	ReceivedSum  []Amount `json:"received_sum"`
	SentSum      []Amount `json:"sent_sum"`
	TxCount      int64    `json:"tx_count"`
}

// AccountTotal answers /accounts/{stake_address}/addresses/total: every
// output ever paid to an address carrying the stake key, those spent
// since, and the transactions paying to or spending from them, read as
// /addresses/{a}/total reads an address's; kept across tips while no block
// touches the key.
func (a *Answers) AccountTotal(ctx context.Context, db *dbsync.DB, key cardano.StakeKey) ([]byte, error) {
	return a.svc.DialectKept(ctx, db, answer.StakeSubject(key), []string{"bf", "accounttotal", key.Bech32()}, func(ctx context.Context, db *dbsync.DB) ([]byte, time.Duration, error) {
		if err := accountKnown(ctx, db, key); err != nil {
			return nil, 0, err
		}
		t, err := addresses.TotalsOfStake(ctx, db, key)
		if err != nil {
			return nil, 0, err
		}
		b, err := encode(AccountTotal{StakeAddress: key.Bech32(), ReceivedSum: amounts(t.Received), SentSum: amounts(t.Sent), TxCount: t.TxCount})
		return b, 0, err
	})
}
