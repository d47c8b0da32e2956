// Package cardano holds the Cardano facts every layer shares and none
// stores: the networks syncgate can serve, and the identifiers clients
// send (addresses, stake keys, payment credentials, pool ids, asset ids,
// transaction hashes), parsed and checked against a network, and the
// addresses an account's extended public key derives (CIP-1852, xpub.go).
// It is pure: no database, no HTTP, no configuration, so its tests run
// anywhere in milliseconds.
package cardano
