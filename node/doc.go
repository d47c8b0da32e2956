// Package node is syncgate's link to cardano-node: it decodes and hashes a
// signed transaction (tx.go), and submits it over the node-to-client
// LocalTxSubmission mini-protocol (submit.go), turning the node's answer
// into typed errors with a readable rejection reason (reason.go). It reads
// the mempool over LocalTxMonitor (mempool.go): one decoded snapshot per
// network, shared by every request for a second.
//
// It never imports gin or net/http and never touches db-sync; checking
// inputs against db-sync is the handler's job (dbsync.UnspentInputs).
// One connection is opened per submission (see docs/DECISIONS.md).
// node/nodetest holds a fake node, built from gouroboros in server mode,
// for tests of this package and of the handlers; node/demonode is the
// demo's node, which takes transactions into a synthetic chain.
package node
