package cardano

// Network is a Cardano network syncgate can serve. ID is the credential
// network_id of the spec (0 = mainnet, 1 = preview, 2 = preprod).
type Network struct {
	Name string
	ID   int
	// Magic is the node-to-client network magic used for transaction submission.
	Magic uint32
	// Mainnet is true when addresses carry network tag 1 (addr1…, stake1…).
	Mainnet bool
	// EpochLength is the Shelley-era epoch length in slots (one-second slots).
	EpochLength int64
}

// Networks lists the networks in network_id order.
var Networks = []Network{
	{Name: "mainnet", ID: 0, Magic: 764824073, Mainnet: true, EpochLength: 432000},
	{Name: "preview", ID: 1, Magic: 2, EpochLength: 86400},
	{Name: "preprod", ID: 2, Magic: 1, EpochLength: 432000},
}

// NetworkByID returns the network with the given credential network_id.
func NetworkByID(id int) (Network, bool) {
	for _, n := range Networks {
		if n.ID == id {
			return n, true
		}
	}
	return Network{}, false
}

// NetworkByName returns the network with the given lower-case name.
func NetworkByName(name string) (Network, bool) {
	for _, n := range Networks {
		if n.Name == name {
			return n, true
		}
	}
	return Network{}, false
}
