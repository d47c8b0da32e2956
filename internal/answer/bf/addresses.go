package bf

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"time"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/dbsync/addresses"
	"github.com/syncgate/syncgate/internal/answer"
	"github.com/syncgate/syncgate/internal/cardano"
)

// AddressRef is the {address} of Blockfrost's address routes: a payment
// address (Shelley bech32 of the caller's network, or Byron base58), or a
// payment credential in bech32 (addr_vkh1…, script1…), which stands for
// every address carrying it.
type AddressRef struct {
	Address    cardano.Address
	Credential *cardano.PaymentCredential
	// Text is the {address} as answered: the address, or the credential
	// in lower case.
	Text string
	// Byron: a Byron address; ScriptCredential: a script1… credential.
	Byron, ScriptCredential bool
}

// ParseAddressRef reads an {address} for the caller's network (mainnet
// or a testnet); ok is false for anything else (a stake address, another
// network's address, hex).
func ParseAddressRef(s string, mainnet bool) (ref AddressRef, ok bool) {
	lower := strings.ToLower(s)
	if strings.HasPrefix(lower, "addr_vkh1") || strings.HasPrefix(lower, "script1") {
		cred, err := cardano.ParsePaymentCredential(s)
		if err != nil {
			return AddressRef{}, false
		}
		return AddressRef{Credential: &cred, Text: lower, ScriptCredential: strings.HasPrefix(lower, "script1")}, true
	}
	addr, err := cardano.ParseAddress(s, mainnet)
	if err != nil {
		return AddressRef{}, false
	}
	text := addr.String()
	byron := !strings.HasPrefix(text, "addr1") && !strings.HasPrefix(text, "addr_test1")
	return AddressRef{Address: addr, Text: text, Byron: byron}, true
}

// id names the ref in cache keys (a Byron address runs to kilobytes).
func (r AddressRef) id() string {
	sum := sha256.Sum256([]byte(r.Text))
	return hex.EncodeToString(sum[:16])
}

// subject is what the tracker knows the ref by.
func (r AddressRef) subject() answer.Subject {
	if r.Credential != nil {
		return answer.CredentialSubject(*r.Credential)
	}
	return answer.AddressSubject(r.Address)
}

// AddressContent is Blockfrost's address_content.
type AddressContent struct {
	Address      string   `json:"address"`
	Amount       []Amount `json:"amount"`
	StakeAddress *string  `json:"stake_address"`
	Type         string   `json:"type"`
	Script       bool     `json:"script"`
}

// addressHead is what the address's first output says of it, or
// answer.ErrNotFound when no output was ever paid to it (Blockfrost's 404
// for an address it has never seen). A credential names no stake address
// (its addresses may carry several); its kind says whether it is a script.
func addressHead(ctx context.Context, db *dbsync.DB, ref AddressRef) (addresses.Head, error) {
	if ref.Credential != nil {
		seen, err := addresses.CredentialSeen(ctx, db, *ref.Credential)
		if err == nil && !seen {
			err = answer.ErrNotFound
		}
		return addresses.Head{Script: ref.ScriptCredential}, err
	}
	h, err := addresses.HeadOf(ctx, db, ref.Address)
	return h, notFound(err)
}

// headAndBalance reads the address's balance (as /v1's balance does) and
// its head. An address holding something was seen, and its own bytes
// then say the rest (cardano.Address.OwnParts), as db-sync's
// stake_address.view of its outputs does; only an empty one (seen or
// not: 404) or a pointer address costs the head's read.
func headAndBalance(ctx context.Context, db *dbsync.DB, ref AddressRef) (addresses.Head, dbsync.Value, error) {
	v, err := balanceOf(ctx, db, ref)
	if err != nil {
		return addresses.Head{}, v, err
	}
	if v.Lovelace != nil && v.Lovelace.Sign() > 0 || len(v.Assets) > 0 {
		if ref.Credential != nil {
			return addresses.Head{Script: ref.ScriptCredential}, v, nil
		}
		if script, stake, known := ref.Address.OwnParts(); known {
			h := addresses.Head{Script: script}
			if stake != "" {
				h.StakeAddress = &stake
			}
			return h, v, nil
		}
	}
	h, err := addressHead(ctx, db, ref)
	return h, v, err
}

// balanceOf is the unspent outputs' sum, read as /v1's balances are.
func balanceOf(ctx context.Context, db *dbsync.DB, ref AddressRef) (dbsync.Value, error) {
	if ref.Credential != nil {
		return db.BalanceByCredential(ctx, *ref.Credential)
	}
	return db.BalanceByAddress(ctx, ref.Address)
}

func (r AddressRef) era() string {
	if r.Byron {
		return "byron"
	}
	return "shelley"
}

// Address answers /addresses/{address}: kept across tips while no block
// touches the address (answer.DialectKept), as /v1's balance is.
func (a *Answers) Address(ctx context.Context, db *dbsync.DB, ref AddressRef) ([]byte, error) {
	return a.svc.DialectKept(ctx, db, ref.subject(), []string{"bf", "address", ref.id()}, func(ctx context.Context, db *dbsync.DB) ([]byte, time.Duration, error) {
		head, v, err := headAndBalance(ctx, db, ref)
		if err != nil {
			return nil, 0, err
		}
		b, err := encode(AddressContent{Address: ref.Text, Amount: amounts(v), StakeAddress: head.StakeAddress,
			Type: ref.era(), Script: head.Script})
		return b, 0, err
	})
}

// AddressTotal is Blockfrost's address_content_total.
type AddressTotal struct {
	Address     string   `json:"address"`
	ReceivedSum []Amount `json:"received_sum"`
	SentSum     []Amount `json:"sent_sum"`
	TxCount     int64    `json:"tx_count"`
}

// AddressTotal answers /addresses/{address}/total: every output ever paid
// to the address, those spent since, and its transaction count; kept
// across tips while no block touches the address.
func (a *Answers) AddressTotal(ctx context.Context, db *dbsync.DB, ref AddressRef) ([]byte, error) {
	return a.svc.DialectKept(ctx, db, ref.subject(), []string{"bf", "total", ref.id()}, func(ctx context.Context, db *dbsync.DB) ([]byte, time.Duration, error) {
		if _, err := addressHead(ctx, db, ref); err != nil {
			return nil, 0, err
		}
		var t addresses.Totals
		var err error
		if ref.Credential != nil {
			t, err = addresses.TotalsOfCredential(ctx, db, *ref.Credential)
		} else {
			t, err = addresses.TotalsOfAddress(ctx, db, ref.Address)
		}
		if err != nil {
			return nil, 0, err
		}
		b, err := encode(AddressTotal{Address: ref.Text, ReceivedSum: amounts(t.Received), SentSum: amounts(t.Sent), TxCount: t.TxCount})
		return b, 0, err
	})
}
