// Package model is the Go mirror of zklock's TLA+ specifications
// (spec/tla): one state machine per spec module, with the same variables,
// the same actions under the same names, the same invariants and the same
// constants, read from the same TLC configs.
//
// The packages:
//
//	model/zk          ZooKeeper, the server both lock specs call (spec/tla/ZooKeeper.tla)
//	model/recipe      the client side both lock specs share: variables, actions, properties
//	model/predlock    PredecessorLock (impl/zklock Mutex) and its mutants
//	model/predext     PredecessorLock extended with a variable: Guard, CancelInFlight
//	model/sharedlock  SharedLock (impl/zklock RWMutex) and its mutants
//	model/replicas    ZooKeeperReplicas, the ensemble's read view
//	                  (spec/tla/ZooKeeperReplicas.tla)
//	model/stalereads  StaleReads: any recipe with reads from a lagging server
//	                  (PredecessorLockStaleReads, SharedLockStaleReads)
//	model/lockall     LockAll (impl/zklock LockAll over two locks) and its controls
//	model/kazooqueue  KazooQueue: zklock's and kazoo's clients on one lock path
//	model/semaphore   Semaphore (Curator's InterProcessSemaphoreV2) and its mutants
//	model/explore     explicit-state explorer: breadth-first search over
//	                  fingerprinted states (parallel, or in TLC's order),
//	                  invariants, action properties, liveness under weak fairness
//	model/specs       binds a TLC config (module, SPECIFICATION, CONSTANTS,
//	                  INVARIANTS, PROPERTIES) to a model and its properties
//	model/tla         TLA+ values as TLC prints them, to compare states with TLC
//	model/trace       replays traces of the implementation in the model
//
// spec/tla/README.md is the contract all of them follow; cmd/conformance
// checks that the explorer and TLC agree on every config, state for state.
// This package holds the vocabulary they share.
package model

import "github.com/zklock/zklock/model/tla"

// Label names one action instance: an action of a spec with its
// parameters. In every spec of this module an action instance has at most
// one successor, so a state and a label determine the next state.
type Label struct {
	// Action is the action's index in its spec's action table.
	Action uint8
	// Client is the client parameter (an index into Clients), or the
	// client of ExpireSession's session; -1 when the action has none.
	Client int16
	// Arg is a second parameter: the k of ExpireSession's session
	// <<client, k>>, the kind of SharedLock's RequestLock (0 read, 1 write).
	Arg int16
}

// Guard is the conjunct of an action's guard that is false in a state,
// written in the spec's notation (`pc[c] = "create"`); the empty Guard
// means the action is enabled.
type Guard string

// Enabled is the Guard of an enabled action.
const Enabled Guard = ""

// Machine is what every model's Spec has (the explorer's view is built
// from it, and connection loss wraps it): its initial state, its
// successors in TLC's order, one action instance applied, a label as the
// traces print it, and a state's variables as TLA+ values.
type Machine[S any] interface {
	Init() S
	Next(s *S, emit func(Label, *S))
	Step(s *S, l Label, t *S) Guard
	LabelString(l Label) string
	TLA(s *S) []tla.Binding
}
