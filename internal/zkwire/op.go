package zkwire

import "strconv"

// Op is a ZooKeeper request opcode (ZooDefs.OpCode).
type Op int32

// Request opcodes. The connect request has no header; faultinject counts it
// under OpCreateSession, the opcode the server uses for it internally.
const (
	OpCreate          Op = 1
	OpDelete          Op = 2
	OpExists          Op = 3
	OpGetData         Op = 4
	OpSetData         Op = 5
	OpGetACL          Op = 6
	OpSetACL          Op = 7
	OpGetChildren     Op = 8
	OpSync            Op = 9
	OpPing            Op = 11
	OpGetChildren2    Op = 12
	OpCheck           Op = 13
	OpMulti           Op = 14
	OpCreate2         Op = 15
	OpReconfig        Op = 16
	OpCheckWatches    Op = 17
	OpRemoveWatches   Op = 18
	OpCreateContainer Op = 19
	OpDeleteContainer Op = 20
	OpCreateTTL       Op = 21
	OpMultiRead       Op = 22
	OpAuth            Op = 100
	OpSetWatches      Op = 101
	OpSASL            Op = 102
	OpGetEphemerals   Op = 103
	OpSetWatches2     Op = 105
	OpAddWatch        Op = 106
	OpWhoAmI          Op = 107
	OpCreateSession   Op = -10
	OpCloseSession    Op = -11
)

// Special xids of server-to-client frames.
const (
	XidNotification int32 = -1 // a watch event
	XidPing         int32 = -2 // a ping reply
)

// ErrSessionExpired is the error code of a reply whose session is over
// (KeeperException.Code.SESSIONEXPIRED).
const ErrSessionExpired int32 = -112

var opNames = map[Op]string{
	OpCreate: "create", OpDelete: "delete", OpExists: "exists", OpGetData: "getData",
	OpSetData: "setData", OpGetACL: "getACL", OpSetACL: "setACL", OpGetChildren: "getChildren",
	OpSync: "sync", OpPing: "ping", OpGetChildren2: "getChildren2", OpCheck: "check",
	OpMulti: "multi", OpCreate2: "create2", OpReconfig: "reconfig", OpCheckWatches: "checkWatches",
	OpRemoveWatches: "removeWatches", OpCreateContainer: "createContainer",
	OpDeleteContainer: "deleteContainer", OpCreateTTL: "createTTL", OpMultiRead: "multiRead",
	OpAuth: "auth", OpSetWatches: "setWatches", OpSASL: "sasl", OpGetEphemerals: "getEphemerals",
	OpSetWatches2: "setWatches2", OpAddWatch: "addWatch", OpWhoAmI: "whoAmI",
	OpCreateSession: "createSession", OpCloseSession: "closeSession",
}

// String returns ZooKeeper's name for the opcode.
func (o Op) String() string {
	if n, ok := opNames[o]; ok {
		return n
	}
	return "op(" + strconv.Itoa(int(o)) + ")"
}
