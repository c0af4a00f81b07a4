package faultinject

import "github.com/zklock/zklock/internal/zkwire"

// Op is a ZooKeeper request opcode (ZooDefs.OpCode). The wire format is
// written once, in internal/zkwire, which impl/zklock reads too; the names
// below keep this package's API as it was.
type Op = zkwire.Op

// Request opcodes. The connect request has no header; the proxy counts it
// under OpCreateSession, the opcode the server uses for it internally.
const (
	OpCreate          = zkwire.OpCreate
	OpDelete          = zkwire.OpDelete
	OpExists          = zkwire.OpExists
	OpGetData         = zkwire.OpGetData
	OpSetData         = zkwire.OpSetData
	OpGetACL          = zkwire.OpGetACL
	OpSetACL          = zkwire.OpSetACL
	OpGetChildren     = zkwire.OpGetChildren
	OpSync            = zkwire.OpSync
	OpPing            = zkwire.OpPing
	OpGetChildren2    = zkwire.OpGetChildren2
	OpCheck           = zkwire.OpCheck
	OpMulti           = zkwire.OpMulti
	OpCreate2         = zkwire.OpCreate2
	OpReconfig        = zkwire.OpReconfig
	OpCheckWatches    = zkwire.OpCheckWatches
	OpRemoveWatches   = zkwire.OpRemoveWatches
	OpCreateContainer = zkwire.OpCreateContainer
	OpDeleteContainer = zkwire.OpDeleteContainer
	OpCreateTTL       = zkwire.OpCreateTTL
	OpMultiRead       = zkwire.OpMultiRead
	OpAuth            = zkwire.OpAuth
	OpSetWatches      = zkwire.OpSetWatches
	OpSASL            = zkwire.OpSASL
	OpGetEphemerals   = zkwire.OpGetEphemerals
	OpSetWatches2     = zkwire.OpSetWatches2
	OpAddWatch        = zkwire.OpAddWatch
	OpWhoAmI          = zkwire.OpWhoAmI
	OpCreateSession   = zkwire.OpCreateSession
	OpCloseSession    = zkwire.OpCloseSession
)

// Special xids of server-to-client frames.
const (
	XidNotification = zkwire.XidNotification // a watch event
	XidPing         = zkwire.XidPing         // a ping reply
)
