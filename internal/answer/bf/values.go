package bf

import (
	"math/big"
	"strconv"

	"github.com/syncgate/syncgate/dbsync"
)

// Amount is one unit of a value: "lovelace" or policy id and asset name
// in hex, with its quantity as a decimal string.
type Amount struct {
	Unit     string `json:"unit"`
	Quantity string `json:"quantity"`
}

// amounts is a value as Blockfrost lists it: lovelace first, then each
// asset in the order the store gives (policy, then name).
func amounts(v dbsync.Value) []Amount {
	out := make([]Amount, 0, 1+len(v.Assets))
	out = append(out, Amount{Unit: "lovelace", Quantity: quantity(v.Lovelace)})
	for _, a := range v.Assets {
		out = append(out, Amount{Unit: a.Policy + a.Name, Quantity: quantity(a.Quantity)})
	}
	return out
}

// quantity is an exact decimal string ("0" for none).
func quantity(q *big.Int) string {
	if q == nil {
		return "0"
	}
	return q.String()
}

func itoa(n int) string { return strconv.Itoa(n) }
