package chaingen

import (
	"context"
	"encoding/hex"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"time"

	"golang.org/x/crypto/blake2b"
)

type gen struct {
	opts  Options
	logf  func(string, ...any)
	ctx   context.Context
	r     *rand.Rand
	t     *tables
	start time.Time

	// consumed, prune and bootstrap modes: the first (dry) pass records the
	// chain's spends in hist; plan says which outputs the second pass
	// writes, under which id, with which consumed_by_tx_id.
	record bool
	hist   *history
	plan   *outputPlan

	ids struct {
		block, tx, txOut, txIn, maTxOut, maTxMint, multiAsset, stakeAddress, poolHash, slotLeader   int64
		collTxIn, collTxOut, refTxIn, txMetadata, datum, redeemer, redeemerData, script, costModel  int64
		stakeReg, stakeDereg, delegation, withdrawal, epochStake, epochStakeProgress                int64
		poolUpdate, poolRelay, poolOwner, poolRetire, poolMetaRef, adaPots, epochParam              int64
		drepHash, delegationVote, offChainPoolData, address                                         int64
		extraKeyWitness, txCbor, treasury, reserve, potTransfer, paramProposal, epochState          int64
		constitution, votingAnchor                                                                  int64
		drepRegistration, drepDistr, govActionProposal, votingProcedure, committee, committeeMember int64
		committeeHash, committeeRegistration, committeeDeRegistration, treasuryWithdrawal, poolStat int64
		offChainVoteData, offChainVoteDrepData, offChainVoteGovActionData, offChainVoteFetchError   int64
		offChainVoteAuthor, offChainVoteReference                                                   int64
	}

	wallets []wallet
	stakes  []stakeKey
	pools   []pool
	dreps   []drep
	assets  []asset
	assetBy map[string]int32

	genesisHolders []int32
	byronOrd       []int32
	shelleyOrd     []int32
	funded         []int32
	zipf           *rand.Zipf
	zipfByron      *rand.Zipf

	// roles
	whale, dex, batcher, lock, refHolder, issuer68, hoskyIss, burnIss, maxIss, nftMinter, busy int32
	credBase, credEnterprise, credPointer                                                      int32 // one payment credential, three address kinds

	// scripts of special addresses
	dexScript, lockScript      []byte
	dexScriptHash, lockHash    []byte
	dexRefOut                  *outRef
	knownScripts               map[string]int64
	knownDatums                map[string]int64
	knownRedeemerData          map[string]int64
	dexOrders                  map[int64]int32 // tx_out.id of an open order -> owner wallet
	cip68                      []*cip68Token
	vectors                    vectorFile
	datums                     map[string]datumVector
	genesisDelegates           [][]byte
	byronDelegates             [][]byte
	shelleyDelegateIDs         map[int]int64
	byronDelegateIDs           map[int]int64
	ebbLeaderID, genesisLeader int64

	// position
	epoch      int
	blockID    int64
	blockNo    int64
	prevBlock  int64
	slot       uint64
	blockTxs   int
	blockSize  int
	leader     int32
	leaderID   int64
	leaderDist []leaderWeight
	quota      [numEpochs]int
	txPerBlock int

	// ledger totals
	utxoTotal    uint64
	rewardTotal  uint64
	depositTotal uint64
	treasury     uint64
	feesByEpoch  [numEpochs]uint64
	epochAgg     [numEpochs]epochAgg
	snaps        map[int][]snapEntry
	pendingRew   []pendingReward
	pendingRest  []pendingReward
	pendingPot   []potTransfer
	mir          *mirPlan // this epoch's MIR transaction
	// constitutionID: the constitution row in force (0 before Conway).
	constitutionID int64
	// noCBOR: the next committed transaction carries CBOR of its own (a
	// submitted one), so none is generated for it.
	noCBOR       bool
	pendingEpoch int // ada_pots/epoch_param still to write for this epoch's first block

	regQueue          [][]int32
	forcedPool        map[int32]int32
	nGenesis          int
	retiredDelegators []int32
	pots              potsRow
	costModels        map[int]int64
	policies          map[string]*nativeScript
	chunkedArt        int32
	nRandomPolicies   int
	pendingOrderOwner int32
	lastOutIDs        []int64
	curTxHash         []byte
	// Every transaction's hash, for the CBOR of the ones spending its
	// outputs: 32 bytes per tx.id from 1 (seed), or by id (follower).
	txHashes        []byte
	txHashByID      map[int64][]byte
	cip68UpdateHash []byte
	lastBlockHash   []byte
	lastSlot        uint64

	// The chain follower's hooks (nil while seeding): the hash the next
	// committed transaction gets instead of a random one, and each spent
	// output as it is spent.
	nextTxHash []byte
	onSpend    func(txID int64, u utxo)

	// gov is the Conway governance (gov*.go); nil in the follower, which
	// carries the committee in force (followCommittee) into each epoch
	// state.
	gov             *govState
	inGov           bool // a governance transaction is being built (withGov)
	followCommittee int64
	followParams    map[string]uint64 // epoch parameters governance changed (follower)

	// statistics for the manifest
	stats genStats
	err   error
}

type leaderWeight struct {
	pool int32
	cum  uint64
}

type outRef struct {
	txID  int64
	index uint16
}

func newGen(ctx context.Context, opts Options, t *tables) *gen {
	g := &gen{
		opts:               opts,
		logf:               func(string, ...any) {},
		ctx:                ctx,
		r:                  rand.New(rand.NewPCG(uint64(opts.Seed), 0x73796e6367617465)),
		t:                  t,
		assetBy:            map[string]int32{},
		knownScripts:       map[string]int64{},
		knownDatums:        map[string]int64{},
		knownRedeemerData:  map[string]int64{},
		dexOrders:          map[int64]int32{},
		snaps:              map[int][]snapEntry{},
		shelleyDelegateIDs: map[int]int64{},
		byronDelegateIDs:   map[int]int64{},
		plan:               &outputPlan{mode: ModeCore},
	}
	if t != nil {
		g.gov = newGovState(opts.Seed)
	}
	g.start = opts.TipTime.Add(-time.Duration(slotSeconds(tipSlot)) * time.Second)
	g.vectors, g.datums = loadVectors()
	return g
}

func (g *gen) bytes(n int) []byte {
	b := make([]byte, n)
	for i := 0; i < n; i += 8 {
		v := g.r.Uint64()
		for j := 0; j < 8 && i+j < n; j++ {
			b[i+j] = byte(v >> (8 * j))
		}
	}
	return b
}

func (g *gen) intn(n int) int {
	if n <= 1 {
		return 0
	}
	return g.r.IntN(n)
}

func (g *gen) chance(p float64) bool { return g.r.Float64() < p }

func (g *gen) logUniform(lo, hi float64) float64 {
	return math.Exp(math.Log(lo) + g.r.Float64()*(math.Log(hi)-math.Log(lo)))
}

func (g *gen) run() (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("chaingen: generator: %v", p)
		}
	}()
	g.setup()
	g.genesis()
	for e := 0; e < numEpochs; e++ {
		if err := g.runEpoch(e); err != nil {
			return err
		}
	}
	g.finish()
	return g.err
}

func (g *gen) checkCtx() error {
	if g.err != nil {
		return g.err
	}
	select {
	case <-g.ctx.Done():
		return context.Cause(g.ctx)
	default:
	}
	for _, t := range g.t.all() {
		if t.err != nil {
			return t.err
		}
	}
	return nil
}

type genStats struct {
	busyCount, busyBlock int64
	busySlot             uint64
	busyHash             []byte
	withdrawals, rewards int64
	rewardRest           int64
	deregistrations      int64
	maTx                 int64
	maTxHash             []byte
	failed               int64
	failedTx             int64
	failedHash           []byte
	failedIndex          int
	ordinaryTx           int64
	ordinaryHash         []byte
	batches              int64
	txOutRows            int64 // rows written to tx_out (ids.txOut counts outputs)
	mirTreasury          int64
	mirTreasuryHash      []byte
	mirReserves          int64
	mirReservesHash      []byte
	proposalEpoch        int
	proposalTx           int64
	proposalHash         []byte
	signersTx            int64
	signersHash          []byte
	signers              [][]byte
	cborTx               int64
	cborHash             []byte
	maTxOutRows          int64
	labelTxs             map[uint64]int // transactions per metadata label
}

func clamp(v, lo, hi int) int {
	if v < lo {
		return lo
	}
	if v > hi {
		return hi
	}
	return v
}

func itoa3(i int) string {
	b := []byte{'0', '0', '0'}
	for p := 2; p >= 0 && i > 0; p-- {
		b[p] = byte('0' + i%10)
		i /= 10
	}
	return string(b)
}

func mustHex(s string) []byte {
	b, err := hex.DecodeString(s)
	if err != nil {
		panic(err)
	}
	return b
}

func appendInt(b []byte, v int64) []byte { return strconv.AppendInt(b, v, 10) }

func hashOf(b []byte) []byte {
	h := blake2b.Sum256(b)
	return h[:]
}
