package bf

import (
	"context"
	"encoding/hex"
	"strings"
	"time"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/dbsync/addresses"
	"github.com/syncgate/syncgate/internal/cardano"
)

// AmountExtended is one unit of Blockfrost's address_content_extended.
type AmountExtended struct {
	Unit                  string `json:"unit"`
	Quantity              string `json:"quantity"`
	Decimals              *int64 `json:"decimals"`
	HasNFTOnchainMetadata bool   `json:"has_nft_onchain_metadata"`
}

// AddressExtended is Blockfrost's address_content_extended.
type AddressExtended struct {
	Address      string           `json:"address"`
	Amount       []AmountExtended `json:"amount"`
	StakeAddress *string          `json:"stake_address"`
	Type         string           `json:"type"`
	Script       bool             `json:"script"`
}

// degradedTTL: an answer made while the token registry could not be
// asked is kept this long at most, so its decimals appear once it is back.
const degradedTTL = 30 * time.Second

// lovelaceDecimals: lovelace is a millionth of an ada.
var lovelaceDecimals = int64(6)

// Labels of CIP-68 fungible user tokens (333 and 444), whose reference
// datum may name their decimals.
var fungibleLabels = []string{"0014df10", "001bc280"}

// AddressExtended answers /addresses/{address}/extended: the address's
// balance, each asset with its decimals (a CIP-68 fungible token's own,
// else the token registry's) and whether it carries on-chain metadata
// (CIP-68, else CIP-25, as /v1's asset record reads them); kept across
// tips while no block touches the address.
func (a *Answers) AddressExtended(ctx context.Context, db *dbsync.DB, ref AddressRef) ([]byte, error) {
	return a.svc.DialectKept(ctx, db, ref.subject(), []string{"bf", "extended", ref.id()}, func(ctx context.Context, db *dbsync.DB) ([]byte, time.Duration, error) {
		head, v, err := headAndBalance(ctx, db, ref)
		if err != nil {
			return nil, 0, err
		}
		ids := make([]cardano.AssetID, len(v.Assets))
		for i, q := range v.Assets {
			if ids[i], err = assetOf(q); err != nil {
				return nil, 0, err
			}
		}
		meta, err := addresses.AssetsMetadata(ctx, db, ids)
		if err != nil {
			return nil, 0, err
		}
		out := AddressExtended{Address: ref.Text, StakeAddress: head.StakeAddress, Type: ref.era(), Script: head.Script}
		out.Amount = append(make([]AmountExtended, 0, 1+len(ids)), AmountExtended{
			Unit: "lovelace", Quantity: quantity(v.Lovelace), Decimals: &lovelaceDecimals})
		var ttl time.Duration
		for i, id := range ids {
			amt := AmountExtended{Unit: id.Unit(), Quantity: quantity(v.Assets[i].Quantity)}
			if md, ok := decodeCIP68(meta[i].CIP68, id); ok {
				amt.HasNFTOnchainMetadata = true
				if fungible(id) {
					amt.Decimals = md.Decimals
				}
			} else if meta[i].CIP25 != nil {
				_, amt.HasNFTOnchainMetadata = cardano.DecodeCIP25(meta[i].CIP25, id)
			}
			if amt.Decimals == nil {
				md, answered := a.svc.RegistryMetadata(ctx, id.Unit())
				if !answered {
					ttl = degradedTTL
				}
				if md != nil {
					d := md.Decimals
					amt.Decimals = &d
				}
			}
			out.Amount = append(out.Amount, amt)
		}
		b, err := encode(out)
		return b, ttl, err
	})
}

// assetOf is a balance's asset as an id.
func assetOf(q dbsync.AssetQuantity) (cardano.AssetID, error) {
	return cardano.ParseAssetID(q.Policy + "." + q.Name)
}

// fungible reports whether id is a CIP-68 fungible user token (333, 444).
func fungible(id cardano.AssetID) bool {
	name := hex.EncodeToString(id.Name)
	for _, l := range fungibleLabels {
		if strings.HasPrefix(name, l) {
			return true
		}
	}
	return false
}

// decodeCIP68 reads a CIP-68 reference datum (nil: none).
func decodeCIP68(datum []byte, id cardano.AssetID) (*cardano.AssetMetadata, bool) {
	if datum == nil {
		return nil, false
	}
	return cardano.DecodeCIP68(datum, id)
}
