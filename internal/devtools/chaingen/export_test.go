package chaingen

// CheckTxCBOR lets the follower's tests (package chaingen_test) check the
// CBOR of the transactions it wrote.
var CheckTxCBOR = checkTxCBOR
